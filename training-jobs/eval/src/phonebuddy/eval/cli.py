"""`phonebuddy eval`: policies on PhoneWorld's held-out splits (and real devices), compared.

It needs a running platform: NATS (PHONEBUDDY_NATS_*), the broker, PhoneWorld (and the device
gateway and judge for `real`). Each policy is an OpenAI-compatible URL, a broker endpoint, or a
checkpoint the job serves itself while it is evaluated. It prints a table, writes report.json and
a self-contained report.html, and ends with a `done` JSON line; every problem with the config or
the platform is one sentence on stderr and exit code 2.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from phonebuddy.bus import BusError, NatsSettings, RemoteError
from phonebuddy.eval.config import EvalConfig, bundled_config, load_config
from phonebuddy.eval.report import NOVELTY_ORDER, EvalReport
from phonebuddy.eval.runner import EvalError, run_eval
from phonebuddy.protocol import RunProgress
from phonebuddy.rollouts import RolloutError
from phonebuddy.rollouts.report import ProgressBar
from phonebuddy.storage import StoreError
from phonebuddy.training.command import (
    ConfigFileOption,
    OverridesOption,
    PresetOption,
    PrintConfigOption,
    fail,
    given_options,
    resolve_config,
)
from phonebuddy.training.config import ConfigError
from phonebuddy.trajectories import Rate

app = typer.Typer(add_completion=False, help=__doc__.split("\n\n")[0])

_FAILURES = (EvalError, RolloutError, BusError, RemoteError, StoreError, ConfigError, TimeoutError)


def _named(values: list[str] | None, option: str) -> list[tuple[str, str]]:
    pairs = []
    for value in values or ():
        name, sep, target = value.partition("=")
        if not sep or not name or not target:
            raise fail(f"{option} {value!r} is not NAME=VALUE")
        pairs.append((name, target))
    return pairs


def _rate_cell(rate: Rate | None) -> str:
    if rate is None:
        return "–"
    return f"{rate.successes}/{rate.episodes} [{100 * rate.ci95[0]:.0f}, {100 * rate.ci95[1]:.0f}]"


def print_report(report: EvalReport, console: Console | None = None) -> None:
    console = console or Console()
    table = Table(title=f"evaluation {report.name} (step budget {report.step_budget})")
    table.add_column("policy")
    table.add_column("success [95 % CI]")
    categories = sorted({c for p in report.policies for c in p.by_category})
    splits = list(report.splits)
    for column in [*categories, *splits]:
        table.add_column(column)
    table.add_column("steps/success")
    table.add_column("invalid")
    for policy in report.policies:

        def cell(r: Rate | None) -> str:
            return "–" if r is None else f"{r.successes}/{r.episodes}"

        overall = policy.overall
        table.add_row(
            policy.name,
            f"{overall.successes}/{overall.episodes} {100 * overall.success_rate:.1f}% "
            f"[{100 * overall.ci95[0]:.1f}, {100 * overall.ci95[1]:.1f}]",
            *(cell(policy.by_category.get(c)) for c in categories),
            *(cell(policy.by_split.get(s)) for s in splits),
            "–" if policy.steps_per_success is None else f"{policy.steps_per_success:.1f}",
            f"{100 * policy.invalid_action_rate:.1f}%",
        )
    console.print(table)
    novelty = [k for k in NOVELTY_ORDER if any(k in p.by_novelty for p in report.policies)]
    if novelty:
        by_novelty = Table(title="held-out tasks by novelty (success [95 % CI])")
        by_novelty.add_column("policy")
        for key in novelty:
            by_novelty.add_column(key.replace("_", " "))
        for policy in report.policies:
            by_novelty.add_row(
                policy.name, *(_rate_cell(policy.by_novelty.get(key)) for key in novelty)
            )
        console.print(by_novelty)
    for comparison in report.comparisons:
        low, high = comparison.difference_ci95
        console.print(
            f"{comparison.b} vs {comparison.a}: {100 * comparison.difference:+.1f} pts on "
            f"{comparison.pairs} paired tasks, 95 % CI [{100 * low:+.1f}, {100 * high:+.1f}], "
            f"McNemar p={comparison.mcnemar_p:.3g}: {comparison.verdict}"
        )


@app.callback(invoke_without_command=True)
def eval_(
    config_file: ConfigFileOption = None,
    preset: PresetOption = None,
    overrides: OverridesOption = None,
    policy: Annotated[
        list[str] | None,
        typer.Option(help="NAME=URL of an OpenAI-compatible API (…/v1), repeatable"),
    ] = None,
    checkpoint: Annotated[
        list[str] | None,
        typer.Option(help="NAME=PATH of a checkpoint folder or store URL to serve, repeatable"),
    ] = None,
    endpoint: Annotated[
        list[str] | None, typer.Option(help="NAME=ENDPOINT the broker knows, repeatable")
    ] = None,
    replay: Annotated[
        list[str] | None,
        typer.Option(help="NAME=FILE of a blind-replay table (the baseline) to serve, repeatable"),
    ] = None,
    train_run: Annotated[
        list[str] | None,
        typer.Option(help="a training run id: split results by novelty against it, repeatable"),
    ] = None,
    suite: Annotated[
        list[str] | None, typer.Option(help="a PhoneWorld test suite, repeatable")
    ] = None,
    seeds: Annotated[int | None, typer.Option(min=1, help="test seeds per template")] = None,
    source: Annotated[list[str] | None, typer.Option(help="sim and/or real, repeatable")] = None,
    output: Annotated[
        str | None, typer.Option(help="where the report goes: local:/path or s3://bucket/prefix")
    ] = None,
    print_config: PrintConfigOption = False,
    quiet: Annotated[bool, typer.Option(help="no progress bars")] = False,
) -> None:
    """Evaluate policies on held-out tasks and compare them (success with intervals)."""
    given = (
        [{"name": n, "url": t} for n, t in _named(policy, "--policy")]
        + [{"name": n, "checkpoint": t} for n, t in _named(checkpoint, "--checkpoint")]
        + [{"name": n, "endpoint": t} for n, t in _named(endpoint, "--endpoint")]
        + [{"name": n, "replay": t} for n, t in _named(replay, "--replay")]
    )
    values = given_options(
        ("policies", given or None), ("tasks.suites", suite), ("tasks.seeds", seeds),
        ("tasks.sources", source), ("report.output", output), ("novelty.train_runs", train_run),
    )  # fmt: skip
    config: EvalConfig = resolve_config(
        load_config, bundled_config, config_file=config_file, preset=preset,
        overrides=overrides, values=values,
    )  # fmt: skip
    if print_config:
        typer.echo(config.to_yaml(), nl=False)
        return
    bars: list[ProgressBar] = []

    def progress(run_id: str) -> Callable[[RunProgress], None]:
        if bars:  # one live display at a time: the previous run is done
            bars.pop().__exit__(None, None, None)
        bar = ProgressBar(run_id, disabled=quiet)
        bar.__enter__()
        bars.append(bar)
        return bar.update

    try:
        with tempfile.TemporaryDirectory(prefix="phonebuddy-eval-") as work_dir:
            published = run_eval(config, NatsSettings(), work_dir=Path(work_dir),
                                 on_progress=progress)  # fmt: skip
    except _FAILURES as exc:
        raise fail(str(exc)) from None
    finally:
        for bar in bars:
            bar.__exit__(None, None, None)
    print_report(published.report, Console(stderr=True))
    typer.echo(f"report: {published.html_url}", err=True)
    typer.echo(
        json.dumps(
            {
                "event": "done",
                "report": published.json_url,
                "html": published.html_url,
                "policies": {p.name: p.overall.model_dump() for p in published.report.policies},
            }
        )
    )


def main() -> None:
    app()
