"""`phonebuddy rollout` against a running broker: a summary table, or JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from phonebuddy.broker.rollout_cli import app as rollout_cli
from phonebuddy.broker.rollout_cli import parse_seeds, resolve_policy, task_selection

from .conftest import Rig, running_broker


def test_rollout_command_prints_the_summary_as_json_and_as_tables(
    rig: Rig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PHONEBUDDY_HOME", str(tmp_path / "no-stack"))
    runner = CliRunner()
    common = [
        "--policy",
        rig.teacher_url,
        "--tasks",
        "settings.toggle,notes.pin",
        "--group-size",
        "2",
    ]
    with running_broker(rig):
        as_json = runner.invoke(rollout_cli, [*common, "--run-id", "cli-json", "--json"])
        table = runner.invoke(rollout_cli, [*common, "--run-id", "cli-table", "--seeds", "1"])
    assert as_json.exit_code == 0, as_json.output
    summary = json.loads(as_json.stdout)
    assert summary["run_id"] == "cli-json"
    assert summary["episodes"] == 4
    assert summary["overall"]["success_rate"] == 1.0
    assert summary["by_app"]["com.pw.notes"]["episodes"] == 2
    assert summary["store_url"] == rig.store_url
    assert table.exit_code == 0, table.output
    assert "source: sim" in table.stdout
    assert "app: com.pw.settings" in table.stdout
    assert "phonebuddy trajectories view cli-table" in table.stdout


def test_rollout_command_without_a_stack_says_how_to_start_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PHONEBUDDY_HOME", str(tmp_path))
    monkeypatch.delenv("PHONEBUDDY_NATS_URL", raising=False)
    result = CliRunner().invoke(rollout_cli, ["--policy", "http://127.0.0.1:9/v1"])
    assert result.exit_code == 2
    assert "phonebuddy up" in result.output


def test_task_and_seed_arguments() -> None:
    assert parse_seeds("0-2,5") == (0, 1, 2, 5)
    assert task_selection("smoke", (0,), "en") == {
        "suite": "smoke",
        "seeds": (0,),
        "language": "en",
    }
    assert task_selection("a.b,c.d", (1,), "zh")["template_ids"] == ("a.b", "c.d")


def test_a_policy_is_a_stack_shortcut_a_url_or_a_brokers_endpoint_name() -> None:
    stack = {"PHONEBUDDY_TEACHER_URL": "http://127.0.0.1:8/v1"}
    assert resolve_policy("teacher", None, stack) == (
        {"base_url": "http://127.0.0.1:8/v1"}, "phoneworld-teacher",
    )  # fmt: skip
    assert resolve_policy("http://gpu:8000/v1", "qwen", {}) == (
        {"base_url": "http://gpu:8000/v1"}, "qwen",
    )  # fmt: skip
    assert resolve_policy("rl-latest", None, {}) == ({"endpoint": "rl-latest"}, "phonebuddy-policy")
    with pytest.raises(typer.BadParameter, match="PHONEBUDDY_POLICY_URL"):
        resolve_policy(None, None, {})
