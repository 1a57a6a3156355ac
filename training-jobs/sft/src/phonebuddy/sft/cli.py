"""`phonebuddy train sft`: fine-tune a Qwen3.5-VL checkpoint on stored trajectories.

One process, or one per GPU under `torchrun --nproc-per-node N -m phonebuddy.sft ...` (the
rank and world come from torchrun's variables). Every problem with the config, the data or the
base checkpoint ends the job with one sentence on stderr and a non-zero exit, before anything is
published as a checkpoint. SIGTERM (a preempted pod) writes a checkpoint and exits 0.
"""

from __future__ import annotations

from typing import Annotated

import typer

from phonebuddy.sft.config import SFTConfig, bundled_config, load_config
from phonebuddy.sft.data import DataError
from phonebuddy.sft.trainer import TrainResult, train_sft
from phonebuddy.training.command import (
    ConfigFileOption,
    OverridesOption,
    PresetOption,
    PrintConfigOption,
    resolve_config,
    run_job,
)
from phonebuddy.training.distributed import World
from phonebuddy.training.metrics import TrainMetrics

app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])


@app.callback(invoke_without_command=True)
def sft(
    config_file: ConfigFileOption = None,
    preset: PresetOption = None,
    overrides: OverridesOption = None,
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
    print_config: PrintConfigOption = False,
) -> None:
    """Fine-tune a Qwen3.5-VL checkpoint on stored trajectories (SFT)."""
    values: dict[str, object] = {}
    if runs:
        values["data.runs"] = [{"run": run, "store": store} for run in runs]
    if parquet:
        values["data.parquet"] = parquet
    if base:
        values["model.base"] = base
    if output:
        values["checkpoint.output"] = output
    config = resolve_config(
        load_config, bundled_config, config_file=config_file, preset=preset,
        overrides=overrides, values=values,
    )  # fmt: skip
    if print_config:
        typer.echo(config.to_yaml(), nl=False)
        return

    def train(config: SFTConfig, world: World, metrics: TrainMetrics) -> TrainResult:
        return train_sft(config, world, metrics=metrics, stop_after=stop_after)

    run_job(config, TrainMetrics("sft"), train, failures=(DataError,))


def main() -> None:
    app()
