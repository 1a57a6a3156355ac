"""`phonebuddy train rl`: GRPO from an SFT checkpoint on rollouts the broker runs.

It needs a running platform: NATS (PHONEBUDDY_NATS_*; the `client` user), the broker, PhoneWorld
and/or the device gateway and judge, and the policy server the broker rolls out with, whose
admin token (PHONEBUDDY_POLICY_ADMIN_TOKEN) lets the job push new weights every step. One
process, or one per GPU under torchrun. Every problem with the config or the platform ends the
job with one sentence on stderr and a non-zero exit; SIGTERM writes a checkpoint and exits 0.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from phonebuddy.bus import BusError, NatsSettings, RemoteError
from phonebuddy.rl.config import bundled_config, load_config
from phonebuddy.rl.trainer import RL_GAUGES, train_rl
from phonebuddy.rollouts import RolloutError
from phonebuddy.storage import StoreError
from phonebuddy.training.checkpoint import CheckpointError
from phonebuddy.training.config import ConfigError
from phonebuddy.training.distributed import close_world, init_world
from phonebuddy.training.job import JobError
from phonebuddy.training.metrics import TrainMetrics
from phonebuddy.training.model import ModelError
from phonebuddy.training.samples import PromptMismatchError, SampleTooLongError
from phonebuddy.training.weight_sync import WeightSyncError

app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])

_FAILURES = (
    ConfigError, JobError, ModelError, CheckpointError, StoreError, RolloutError,
    BusError, RemoteError, WeightSyncError, PromptMismatchError, SampleTooLongError,
    TimeoutError,
)  # fmt: skip


def _fail(message: str) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(2)


@app.callback(invoke_without_command=True)
def rl(
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
    base: Annotated[str | None, typer.Option(help="the checkpoint to start from (SFT)")] = None,
    policy_url: Annotated[
        str | None, typer.Option(help="the policy server the broker rolls out with")
    ] = None,
    mix: Annotated[
        str | None, typer.Option(help="groups per source: real=0.5,sim=0.5 or real=1 ...")
    ] = None,
    max_staleness: Annotated[
        int | None, typer.Option(min=0, help="policy versions a rollout may lag behind")
    ] = None,
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
    """GRPO on broker rollouts with a binary task-success reward (RL)."""
    if config_file is not None and preset is not None:
        raise _fail("give --config or --preset, not both")
    values: dict[str, object] = {}
    for key, value in (
        ("model.base", base), ("policy.url", policy_url), ("rollout.mix", mix),
        ("rollout.max_staleness", max_staleness), ("checkpoint.output", output),
    ):  # fmt: skip
        if value is not None:
            values[key] = value
    try:
        path = bundled_config(preset) if preset is not None else config_file
        config = load_config(path, overrides or (), values=values)
    except ConfigError as exc:
        raise _fail(str(exc)) from None
    if print_config:
        typer.echo(config.to_yaml(), nl=False)
        return
    world = init_world()
    metrics = TrainMetrics("rl", namespace="rl", gauges=RL_GAUGES)
    metrics.progress_keys = ("critic/score/mean", "actor/pg_loss", "timing_s/rollout")
    try:
        if world.is_main and config.metrics.port is not None:
            port = metrics.serve(config.metrics.host, config.metrics.port)
            typer.echo(f"metrics on http://{config.metrics.host}:{port}/metrics", err=True)
        result = train_rl(
            config, world, metrics=metrics, nats=NatsSettings(), stop_after=stop_after
        )
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
        typer.echo(json.dumps({"event": "done", **summary}))
    sys.stdout.flush()


def main() -> None:
    app()
