"""`phonebuddy train rl` refuses what cannot work with one sentence and exit code 2, before it
loads a model or asks the broker for anything; its config round-trips through --print-config."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from phonebuddy.rl.cli import app

runner = CliRunner()


def _refused(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith("error: ")
    return line


@pytest.fixture
def job(tmp_path: Path, tiny_checkpoint: Path) -> list[str]:
    return [
        "--preset", "tiny-cpu", "--base", str(tiny_checkpoint),
        "--output", f"local:{tmp_path / 'rl'}", "--policy-url", "http://127.0.0.1:9",
        "--set", f"policy.staging={tmp_path}",
    ]  # fmt: skip


def test_each_unusable_setting_is_one_sentence(
    job: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PHONEBUDDY_POLICY_ADMIN_TOKEN", "t")
    assert "policy.url is not set" in _refused([*job, "--policy-url", ""])
    assert "needs vllm" in _refused([*job, "--set", "policy.sync=vllm"])
    assert "--config or --preset" in _refused([*job, "--config", str(tmp_path / "x.yaml")])
    assert "rollout.seeds" in _refused([*job, "--set", "rollout.seeds=[5,5]"])
    assert "moon=1" in _refused([*job, "--mix", "moon=1"])
    monkeypatch.delenv("PHONEBUDDY_POLICY_ADMIN_TOKEN")
    assert "PHONEBUDDY_POLICY_ADMIN_TOKEN is not set" in _refused(job)
    assert not (tmp_path / "rl").exists()  # nothing was written


def test_print_config_round_trips(tmp_path: Path) -> None:
    args = ["--preset", "qwen3_5-4b", "--print-config", "--max-staleness", "1"]
    result = runner.invoke(app, [*args, "--set", "rollout.sampling_seed=5"])
    assert result.exit_code == 0, result.output
    saved = tmp_path / "config.yaml"
    saved.write_text(result.stdout)
    again = runner.invoke(app, ["--config", str(saved), "--print-config"])
    assert again.exit_code == 0, again.output
    assert again.stdout == result.stdout
    assert "max_staleness: 1" in result.stdout
    assert "sampling_seed: 5" in result.stdout


def test_the_learning_rate_warms_up_linearly_then_stays() -> None:
    from phonebuddy.rl.config import OptimConfig

    assert [OptimConfig(lr=1e-3).lr_at(step) for step in (0, 5)] == [1e-3, 1e-3]
    warm = OptimConfig(lr=1e-3, warmup_steps=4)
    assert [warm.lr_at(step) for step in range(6)] == pytest.approx(
        [2.5e-4, 5e-4, 7.5e-4, 1e-3, 1e-3, 1e-3]
    )
