"""The demo's command line refuses a malformed option before it starts anything."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from phonebuddy.demo.cli import app


@pytest.mark.parametrize("mix", ["sim", "phone=1", ""])
def test_a_malformed_teacher_mix_is_a_usage_error_naming_it(mix: str) -> None:
    result = CliRunner().invoke(app, ["--no-wait", "--teacher-mix", mix], env={"COLUMNS": "300"})
    assert result.exit_code == 2
    assert "is not sim=SHARE or real=SHARE" in result.output
