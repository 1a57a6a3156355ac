"""What every training job's command does around its trainer: the config from a preset or a
file plus overrides, `--print-config`, the process group (torchrun's variables), the metrics
endpoint on rank 0, one sentence on stderr and exit code 2 for any failure the job knows, and
the final `done` JSON line."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any, Protocol, TypeVar

import typer

from phonebuddy.storage import StoreError
from phonebuddy.training.checkpoint import CheckpointError
from phonebuddy.training.config import ConfigError
from phonebuddy.training.distributed import World, close_world, init_world
from phonebuddy.training.job import JobError
from phonebuddy.training.metrics import TrainMetrics
from phonebuddy.training.model import ModelError

# Every job's failures that are the user's or the platform's, not a bug: one sentence each.
COMMON_FAILURES: tuple[type[Exception], ...] = (
    ConfigError, JobError, ModelError, CheckpointError, StoreError,
)  # fmt: skip


class JobConfig(Protocol):
    @property
    def metrics(self) -> Any: ...

    def to_yaml(self) -> str: ...


class JobResult(Protocol):
    @property
    def step(self) -> int: ...
    @property
    def total_steps(self) -> int: ...
    @property
    def stopped(self) -> str: ...
    @property
    def checkpoint_url(self) -> str | None: ...


C = TypeVar("C", bound=JobConfig)

# The options every job's command has, declared once.
ConfigFileOption = Annotated[
    Path | None, typer.Option("--config", help="a YAML config file", dir_okay=False)
]
PresetOption = Annotated[str | None, typer.Option(help="a bundled config: qwen3_5-4b or tiny-cpu")]
OverridesOption = Annotated[
    list[str] | None,
    typer.Option("--set", help="override a config value: section.key=value (repeatable)"),
]
PrintConfigOption = Annotated[
    bool, typer.Option("--print-config", help="print the resolved config as YAML and exit")
]


def given_options(*pairs: tuple[str, object]) -> dict[str, object]:
    """(dotted config key, option value) for the options given on the command line (not None)."""
    return {key: value for key, value in pairs if value is not None}


def fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


def resolve_config(
    load: Callable[..., C],
    bundled: Callable[[str], Path],
    *,
    config_file: Path | None,
    preset: str | None,
    overrides: Sequence[str] | None,
    values: Mapping[str, Any],
) -> C:
    if config_file is not None and preset is not None:
        raise fail("give --config or --preset, not both")
    try:
        path = bundled(preset) if preset is not None else config_file
        return load(path, overrides or (), values=values)
    except ConfigError as exc:
        raise fail(str(exc)) from None


def run_job(
    config: C,
    metrics: TrainMetrics,
    train: Callable[[C, World, TrainMetrics], JobResult],
    *,
    failures: tuple[type[Exception], ...] = (),
) -> None:
    """Run `train` in this process's place in the world; the `done` line on rank 0."""
    world = init_world()
    try:
        if world.is_main and config.metrics.port is not None:
            port = metrics.serve(config.metrics.host, config.metrics.port)
            typer.echo(f"metrics on http://{config.metrics.host}:{port}/metrics", err=True)
        result = train(config, world, metrics)
    except COMMON_FAILURES + failures as exc:
        raise fail(str(exc)) from None
    finally:
        metrics.close(linger_s=config.metrics.linger_s)
        close_world(world)
    if world.is_main:
        summary = {
            "step": result.step, "total_steps": result.total_steps,
            "stopped": result.stopped, "checkpoint": result.checkpoint_url,
        }  # fmt: skip
        typer.echo(json.dumps({"event": "done", **summary}))
    sys.stdout.flush()
