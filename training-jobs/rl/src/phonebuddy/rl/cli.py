"""`phonebuddy train rl`: GRPO from an SFT checkpoint on rollouts the broker runs.

It needs a running platform: NATS (PHONEBUDDY_NATS_*; the `client` user), the broker, PhoneWorld
and/or the device gateway and judge, and the policy server the broker rolls out with, whose
admin token (PHONEBUDDY_POLICY_ADMIN_TOKEN) lets the job push new weights every step. One
process, or one per GPU under torchrun. Every problem with the config or the platform ends the
job with one sentence on stderr and a non-zero exit; SIGTERM writes a checkpoint and exits 0.
"""

from __future__ import annotations

from typing import Annotated

import typer

from phonebuddy.bus import BusError, NatsSettings, RemoteError
from phonebuddy.rl.config import RLConfig, bundled_config, load_config
from phonebuddy.rl.trainer import RL_GAUGES, RLResult, train_rl
from phonebuddy.rollouts import RolloutError
from phonebuddy.training.command import (
    ConfigFileOption,
    OverridesOption,
    PresetOption,
    PrintConfigOption,
    given_options,
    resolve_config,
    run_job,
)
from phonebuddy.training.distributed import World
from phonebuddy.training.metrics import TrainMetrics
from phonebuddy.training.samples import PromptMismatchError, SampleTooLongError
from phonebuddy.training.weight_sync import WeightSyncError

app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])

_FAILURES = (
    RolloutError, BusError, RemoteError, WeightSyncError, PromptMismatchError,
    SampleTooLongError, TimeoutError,
)  # fmt: skip


@app.callback(invoke_without_command=True)
def rl(
    config_file: ConfigFileOption = None,
    preset: PresetOption = None,
    overrides: OverridesOption = None,
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
    print_config: PrintConfigOption = False,
) -> None:
    """GRPO on broker rollouts with a binary task-success reward (RL)."""
    values = given_options(
        ("model.base", base), ("policy.url", policy_url), ("rollout.mix", mix),
        ("rollout.max_staleness", max_staleness), ("checkpoint.output", output),
    )  # fmt: skip
    config = resolve_config(
        load_config, bundled_config, config_file=config_file, preset=preset,
        overrides=overrides, values=values,
    )  # fmt: skip
    if print_config:
        typer.echo(config.to_yaml(), nl=False)
        return
    metrics = TrainMetrics("rl", namespace="rl", gauges=RL_GAUGES)
    metrics.progress_keys = ("critic/score/mean", "actor/pg_loss", "timing_s/rollout")

    def train(config: RLConfig, world: World, metrics: TrainMetrics) -> RLResult:
        return train_rl(config, world, metrics=metrics, nats=NatsSettings(), stop_after=stop_after)

    run_job(config, metrics, train, failures=_FAILURES)


def main() -> None:
    app()
