"""The SFT job end to end on CPU: teacher episodes in a real local store -> checkpoints, exact
resume, SIGTERM, and one clear sentence for every kind of bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phonebuddy.sft.cli import app
from phonebuddy.training.checkpoint import CheckpointStore

runner = CliRunner()


def _events(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def _args(tiny_checkpoint: Path, teacher_run, out: Path, *extra: str) -> list[str]:
    return [
        "--preset", "tiny-cpu", "--base", str(tiny_checkpoint),
        "--store", teacher_run.store_url, "--run", teacher_run.run_id,
        "--output", f"local:{out}", "--set", "data.validation_fraction=0.3",
        "--set", "optim.global_batch_rows=2", "--set", "checkpoint.every_steps=100",
        *extra,
    ]  # fmt: skip


def _losses(events: list[dict]) -> list[float]:
    return [event["loss"] for event in events if event["event"] == "step"]


def test_trains_and_publishes_a_loadable_checkpoint(
    tmp_path, tiny_checkpoint, teacher_run, monkeypatch
) -> None:
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    result = runner.invoke(
        app, _args(tiny_checkpoint, teacher_run, tmp_path, "--set", "train.max_steps=2")
    )
    assert result.exit_code == 0, result.output
    assert not list(scratch.glob("phonebuddy-sft-*"))  # the job's scratch (saves) is gone
    events = _events(result.stdout)
    dataset = next(e for e in events if e["event"] == "dataset")
    # 6 episodes, one of them unsuccessful (left out); held-out tasks never share an episode.
    assert dataset["train"]["episodes"] + dataset["validation"]["episodes"] == 5
    steps = [e for e in events if e["event"] == "step"]
    assert [e["step"] for e in steps] == [1, 2]
    assert all(e["loss"] > 0 and e["grad_norm"] > 0 and 0 < e["utilization"] <= 1 for e in steps)
    done = events[-1]
    assert done["event"] == "done"
    assert (done["step"], done["stopped"]) == (2, "finished")
    jobs = CheckpointStore(f"local:{tmp_path}", "tiny-sft")
    try:
        latest = jobs.latest()
        assert latest is not None
        assert latest.step == 2
        assert latest.model_url == done["checkpoint"]
    finally:
        jobs.close()
    folder = tmp_path / "tiny-sft" / "checkpoints" / "step-00000002" / "model"
    assert {"config.json", "model.safetensors", "tokenizer.json", "preprocessor_config.json"} <= {
        p.name for p in folder.iterdir()
    }
    stored = (tmp_path / "tiny-sft" / "metrics.jsonl").read_text().splitlines()
    assert [json.loads(line)["step"] for line in stored if '"step"' in line][:2] == [1, 2]
    from transformers import AutoModelForImageTextToText

    AutoModelForImageTextToText.from_pretrained(folder)  # loads as a Hugging Face checkpoint


def test_trains_from_an_export_folder_and_refuses_one_with_a_stray_shard(
    tmp_path, tiny_checkpoint, teacher_run
) -> None:
    """`--parquet` of what `phonebuddy trajectories export` wrote trains; a shard that
    export.json does not list stops the job with one sentence naming it."""
    import asyncio
    import shutil

    from phonebuddy.storage import LocalStore
    from phonebuddy.trajectories import TrajectoryStore
    from phonebuddy.trajectories.export import export_run

    folder = tmp_path / "export"
    store = TrajectoryStore(LocalStore(teacher_run.store_url.removeprefix("local:")))
    asyncio.run(export_run(store, teacher_run.run_id, folder))
    args = [
        "--preset", "tiny-cpu", "--base", str(tiny_checkpoint), "--parquet", str(folder),
        "--set", "data.validation_fraction=0", "--set", "optim.global_batch_rows=2",
        "--set", "checkpoint.every_steps=100", "--set", "train.max_steps=1",
    ]  # fmt: skip
    result = runner.invoke(app, [*args, "--output", f"local:{tmp_path / 'good'}"])
    assert result.exit_code == 0, result.output
    done = _events(result.stdout)[-1]
    assert (done["event"], done["step"]) == ("done", 1)

    shutil.copyfile(folder / "part-00000.parquet", folder / "part-00001.parquet")
    result = runner.invoke(app, [*args, "--output", f"local:{tmp_path / 'bad'}"])
    assert result.exit_code == 2
    assert f"{folder}/part-00001.parquet is not a shard that" in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "bad" / "tiny-sft" / "latest.json").exists()


def test_a_resumed_run_repeats_the_uninterrupted_losses(
    tmp_path, tiny_checkpoint, teacher_run
) -> None:
    steps = "train.max_steps=4"
    whole = runner.invoke(app, _args(tiny_checkpoint, teacher_run, tmp_path / "a", "--set", steps))
    assert whole.exit_code == 0, whole.output
    first = runner.invoke(
        app,
        _args(tiny_checkpoint, teacher_run, tmp_path / "b", "--set", steps, "--stop-after", "2"),
    )
    assert first.exit_code == 0, first.output
    assert _events(first.stdout)[-1]["stopped"] == "stop_after"
    second = runner.invoke(app, _args(tiny_checkpoint, teacher_run, tmp_path / "b", "--set", steps))
    assert second.exit_code == 0, second.output
    resumed = _events(second.stdout)
    assert any(e["event"] == "resumed" and e["step"] == 2 for e in resumed)
    expected = _losses(_events(whole.stdout))
    assert len(expected) == 4
    got = _losses(_events(first.stdout)) + _losses(resumed)
    assert got == pytest.approx(expected, rel=1e-6, abs=1e-7)
    # The job's metrics.jsonl holds the whole run: the first sitting's steps, then the resumed.
    text = (tmp_path / "b" / "tiny-sft" / "metrics.jsonl").read_text()
    stored = [json.loads(line) for line in text.splitlines()]
    assert [e["step"] for e in stored if e["event"] == "step"] == [1, 2, 3, 4]
    assert _losses(stored) == pytest.approx(expected, rel=1e-6, abs=1e-7)


def test_sigterm_writes_a_checkpoint_and_exits_zero(tmp_path, tiny_checkpoint, teacher_run) -> None:
    command = [sys.executable, "-m", "phonebuddy.sft", *_args(
        tiny_checkpoint, teacher_run, tmp_path, "--set", "train.max_steps=50"
    )]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    assert process.stdout is not None
    lines = []
    deadline = time.monotonic() + 240
    for line in process.stdout:
        lines.append(line)
        if '"event": "step"' in line or time.monotonic() > deadline:
            break
    process.send_signal(signal.SIGTERM)
    rest, err = process.communicate(timeout=240)
    assert process.returncode == 0, err
    events = _events("".join(lines) + rest)
    done = events[-1]
    assert (done["event"], done["stopped"]) == ("done", "sigterm")
    assert 1 <= done["step"] < 50
    marker = tmp_path / "tiny-sft" / "checkpoints" / f"step-{done['step']:08d}" / "COMPLETE"
    assert marker.is_file()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["--run", "no-such-run"], "no-such-run"),
        (["--set", "data.sources=[real]"], "no training data left after the filters"),
        (["--set", "packing.max_tokens=64"], "longer than packing.max_tokens=64"),
        (["--set", "optim.lr=-1"], "optim.lr"),
    ],
)
def test_bad_input_is_one_sentence_and_publishes_nothing(
    tmp_path, tiny_checkpoint, teacher_run, change, message
) -> None:
    args = _args(tiny_checkpoint, teacher_run, tmp_path, *change)
    if change[0] == "--run":  # replace the good run
        index = args.index("--run")
        args[index + 1 : index + 2] = [change[1]]
        args = args[: len(args) - 2]
    result = runner.invoke(app, args)
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output
    assert not (tmp_path / "tiny-sft" / "latest.json").exists()


def test_a_base_that_is_not_qwen3_5_vl_is_refused(tmp_path, teacher_run) -> None:
    base = tmp_path / "gpt2"
    base.mkdir()
    (base / "config.json").write_text('{"model_type": "gpt2"}')
    (base / "model.safetensors").write_bytes(b"")
    result = runner.invoke(app, _args(base, teacher_run, tmp_path / "out"))
    assert result.exit_code == 2
    assert "'gpt2' model" in result.stderr


def test_print_config_round_trips(tmp_path) -> None:
    result = runner.invoke(
        app, ["--preset", "qwen3_5-4b", "--print-config", "--set", "optim.lr=2e-5"]
    )
    assert result.exit_code == 0, result.output
    saved = tmp_path / "config.yaml"
    saved.write_text(result.stdout)
    again = runner.invoke(app, ["--config", str(saved), "--print-config"])
    assert again.exit_code == 0
    assert again.stdout == result.stdout
    assert "lr: 2.0e-05" in result.stdout
