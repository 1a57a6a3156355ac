"""Deterministic SFT: the same config and data give the same checkpoint, whatever order the store
lists the episodes in; the checkpoint records the prompt setting its data was rendered with."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path

from typer.testing import CliRunner

from phonebuddy.agent import read_record, write_record
from phonebuddy.protocol import PromptConfig
from phonebuddy.sft.cli import app

from ..conftest import write_run

runner = CliRunner()
TREE = PromptConfig(observation="ui_tree", element_actions=True, tool_schema="brief")


def _train(base: Path, store_url: str, out: Path, *extra: str) -> tuple[int, str, str]:
    args = [
        "--preset", "tiny-cpu", "--base", str(base), "--store", store_url, "--run", "teacher",
        "--output", f"local:{out}", "--set", "data.validation_fraction=0",
        "--set", "optim.global_batch_rows=2", "--set", "train.max_steps=3",
        "--set", f"data.prompt={json.dumps(TREE.model_dump(mode='json'))}", *extra,
    ]  # fmt: skip
    result = runner.invoke(app, args)
    return result.exit_code, result.stdout, result.stderr


def _weights(out: Path) -> str:
    folder = out / "tiny-sft" / "checkpoints" / "step-00000003" / "model"
    return hashlib.sha256((folder / "model.safetensors").read_bytes()).hexdigest()


def test_the_same_data_in_another_store_order_gives_the_same_checkpoint(
    tmp_path: Path, tiny_checkpoint: Path
) -> None:
    templates = ("settings.toggle", "clock.alarm_toggle")
    forward = asyncio.run(write_run(tmp_path / "a", "teacher", templates, [0, 1, 2]))
    backward = asyncio.run(write_run(tmp_path / "b", "teacher", templates[::-1], [2, 1, 0]))
    code, out_a, err = _train(tiny_checkpoint, forward.store_url, tmp_path / "out-a")
    assert code == 0, err
    code, out_b, err = _train(tiny_checkpoint, backward.store_url, tmp_path / "out-b")
    assert code == 0, err
    assert _weights(tmp_path / "out-a") == _weights(tmp_path / "out-b")
    losses = [[json.loads(line)["loss"] for line in out.splitlines() if '"step"' in line
               and '"loss"' in line] for out in (out_a, out_b)]  # fmt: skip
    assert losses[0] == losses[1]
    model = tmp_path / "out-a" / "tiny-sft" / "checkpoints" / "step-00000003" / "model"
    assert read_record(model) == TREE


def test_a_base_trained_on_other_prompts_is_refused(tmp_path: Path, tiny_checkpoint: Path) -> None:
    import shutil

    base = tmp_path / "base"
    shutil.copytree(tiny_checkpoint, base)
    write_record(base, PromptConfig())  # trained on screenshots
    run = asyncio.run(write_run(tmp_path / "store", "teacher", ("settings.toggle",), [0]))
    code, _, err = _train(base, run.store_url, tmp_path / "out")
    assert code == 2
    assert "was trained with prompts of (screenshot" in err
    assert "Traceback" not in err
