"""Two ranks under torchrun (gloo on CPU, FSDP2) train like one process."""

from __future__ import annotations

import json
import os
import subprocess

import pytest

from ..conftest import job_command

TOLERANCE = 1e-4  # relative: sharded reductions sum in another order


def _run(args: list[str], *, ranks: int) -> list[dict]:
    env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    command = [*job_command("phonebuddy.sft", ranks=ranks), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def test_two_ranks_give_the_losses_of_one(tmp_path, tiny_checkpoint, teacher_run) -> None:
    args = [
        "--preset", "tiny-cpu", "--base", str(tiny_checkpoint),
        # torchrun reads `--run` as its own `--run-path`: name the run through --set.
        "--set", f"data.runs=[{{run: {teacher_run.run_id}, store: '{teacher_run.store_url}'}}]",
        "--set", "data.validation_fraction=0", "--set", "optim.global_batch_rows=3",
        "--set", "train.max_steps=3", "--set", "packing.max_tokens=3200",
    ]  # fmt: skip
    one = _run([*args, "--output", f"local:{tmp_path / 'one'}"], ranks=1)
    two = _run([*args, "--output", f"local:{tmp_path / 'two'}"], ranks=2)
    losses = [[e["loss"] for e in run if e["event"] == "step"] for run in (one, two)]
    norms = [[e["grad_norm"] for e in run if e["event"] == "step"] for run in (one, two)]
    assert len(losses[0]) == 3
    assert losses[1] == pytest.approx(losses[0], rel=TOLERANCE)
    assert norms[1] == pytest.approx(norms[0], rel=TOLERANCE)
    assert (tmp_path / "two" / "tiny-sft" / "checkpoints" / "step-00000003" / "COMPLETE").is_file()
