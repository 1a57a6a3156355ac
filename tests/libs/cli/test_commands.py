import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phonebuddy.cli.main import app
from phonebuddy.protocol.schema import PUBLIC_MESSAGES

runner = CliRunner()


def test_help_lists_the_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("version", "schema", "up", "env"):
        assert command in result.output


def test_version_lists_every_installed_phonebuddy_distribution() -> None:
    result = runner.invoke(app, ["version"])
    assert result.exit_code == 0
    names = {line.split()[0] for line in result.output.splitlines()}
    assert {"phonebuddy-protocol", "phonebuddy-bus", "phonebuddy-cli"} <= names


def test_schema_prints_every_public_message() -> None:
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    schemas = json.loads(result.output)
    assert set(schemas) == set(PUBLIC_MESSAGES)
    assert "discriminator" in schemas["Action"]


def test_schema_writes_one_file_per_message(tmp_path: Path) -> None:
    result = runner.invoke(app, ["schema", "Action", "Episode", "--out", str(tmp_path)])
    assert result.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Action.json", "Episode.json"]
    assert json.loads((tmp_path / "Episode.json").read_text())["title"] == "Episode"


def test_schema_of_an_unknown_message_is_a_clear_error() -> None:
    result = runner.invoke(app, ["schema", "Nope"])
    assert result.exit_code == 2
    assert "no public message named 'Nope'" in result.output


def test_env_without_a_running_stack_says_how_to_start_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PHONEBUDDY_HOME", str(tmp_path))
    result = runner.invoke(app, ["env"])
    assert result.exit_code == 1
    assert "start one with `phonebuddy up`" in result.output


def test_up_rejects_an_unknown_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONEBUDDY_HOME", str(tmp_path))
    result = runner.invoke(app, ["up", "--store", "ftp://x"])
    assert result.exit_code == 2
    assert "--store must be 's3' or 'local:DIR'" in result.output
