"""`phonebuddy train sft`: fine-tune a Qwen3.5-VL checkpoint on stored trajectories.

One process, or one per GPU under `torchrun --nproc-per-node N -m phonebuddy.sft ...` (the
rank and world come from torchrun's variables). Every problem with the config, the data or the
base checkpoint ends the job with one sentence on stderr and a non-zero exit, before anything is
published as a checkpoint. SIGTERM (a preempted pod) writes a checkpoint and exits 0.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from phonebuddy.sft.config import bundled_config, load_config
from phonebuddy.sft.data import DataError
from phonebuddy.sft.trainer import train_sft
from phonebuddy.storage import StoreError
from phonebuddy.training.checkpoint import CheckpointError
from phonebuddy.training.config import ConfigError
from phonebuddy.training.distributed import close_world, init_world
from phonebuddy.training.job import JobError
from phonebuddy.training.metrics import TrainMetrics
from phonebuddy.training.model import ModelError

app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])

_FAILURES = (ConfigError, DataError, JobError, ModelError, CheckpointError, StoreError)


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


@app.callback(invoke_without_command=True)
def sft(
    config_file: Annotated[
        Path | None, typer.Option("--config", help="a YAML config file", dir_okay=False)
    ] = None,
    preset: Annotated[
        str | None, typer.Option(help="a bundled config: qwen3_5-4b or tiny-cpu")
    ] = None,
    overrides: Annotated[
        list[str] | None,
        typer.Option("--set", help="override a config value: section.key=value (repeatable)"),
    ] = None,
    runs: Annotated[
        list[str] | None,
        typer.Option("--run", help="a run id in the trajectory store (repeatable)"),
    ] = None,
    store: Annotated[
        str | None,
        typer.Option(help="store URL of the --run runs (local:/path, s3://bucket/prefix)"),
    ] = None,
    parquet: Annotated[
        list[str] | None,
        typer.Option(help="a folder from `phonebuddy trajectories export` (repeatable)"),
    ] = None,
    base: Annotated[str | None, typer.Option(help="the checkpoint to start from")] = None,
    output: Annotated[
        str | None, typer.Option(help="where checkpoints go: local:/path or s3://bucket/prefix")
    ] = None,
    stop_after: Annotated[
        int | None,
        typer.Option(min=1, help="stop (with a checkpoint) after this many steps of this run"),
    ] = None,
    print_config: Annotated[
        bool, typer.Option("--print-config", help="print the resolved config as YAML and exit")
    ] = False,
) -> None:
    """Fine-tune a Qwen3.5-VL checkpoint on stored trajectories (SFT)."""
    if config_file is not None and preset is not None:
        raise _fail("give --config or --preset, not both")
    values: dict[str, object] = {}
    if runs:
        values["data.runs"] = [{"run": run, "store": store} for run in runs]
    if parquet:
        values["data.parquet"] = parquet
    if base:
        values["model.base"] = base
    if output:
        values["checkpoint.output"] = output
    try:
        path = bundled_config(preset) if preset is not None else config_file
        config = load_config(path, overrides or (), values=values)
    except ConfigError as exc:
        raise _fail(str(exc)) from None
    if print_config:
        typer.echo(config.to_yaml(), nl=False)
        return
    world = init_world()
    metrics = TrainMetrics("sft")
    try:
        if world.is_main and config.metrics.port is not None:
            port = metrics.serve(config.metrics.host, config.metrics.port)
            typer.echo(f"metrics on http://{config.metrics.host}:{port}/metrics", err=True)
        result = train_sft(config, world, metrics=metrics, stop_after=stop_after)
    except _FAILURES as exc:
        raise _fail(str(exc)) from None
    finally:
        metrics.close()
        close_world(world)
    if world.is_main:
        summary = {
            "step": result.step, "total_steps": result.total_steps,
            "stopped": result.stopped, "checkpoint": result.checkpoint_url,
        }  # fmt: skip
        typer.echo(json.dumps({"event": "done", **summary}), err=False)
    sys.stdout.flush()


def main() -> None:
    app()
