"""`phonebuddy trajectories ...`: list the runs in the store, summarize one, export it to parquet
for training, or look at it in the browser.

The store is the one PHONEBUDDY_STORE_* describe (the local stack's, after
`eval "$(phonebuddy env)"`), or `--store URL` (local:/path, file:///path or s3://bucket/prefix;
S3 credentials always come from PHONEBUDDY_STORE_ACCESS_KEY / _SECRET_KEY / _ENDPOINT).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from pydantic import ValidationError

from phonebuddy.storage import ObjectStore, StoreError, StoreSettings, open_store
from phonebuddy.trajectories.store import TrajectoryError, TrajectoryStore
from phonebuddy.trajectories.summary import Rate, RunSummary, summarize

T = TypeVar("T")

app = typer.Typer(
    help="Stored rollouts: list runs, summarize, export to parquet, view in the browser.",
    no_args_is_help=True,
)

StoreOption = Annotated[
    str | None,
    typer.Option(
        "--store",
        help="store URL (local:/path, s3://bucket/prefix) [PHONEBUDDY_STORE_URL]",
        show_default=False,
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="print JSON")]


def _fail(message: str, code: int = 1) -> typer.Exit:
    typer.echo(f"error: {message}", err=True)
    return typer.Exit(code)


def _stack_variables() -> dict[str, str]:
    """PHONEBUDDY_* of a running local stack (`phonebuddy up`), under the environment's."""
    try:
        from phonebuddy.stack.stack_file import stack_environment
    except ImportError:  # the local stack's distribution is not installed (a service image)
        return {}
    return stack_environment()


def _settings(url: str | None) -> StoreSettings:
    try:
        overrides = {"url": url} if url else {}
        return StoreSettings.from_variables(_stack_variables(), **overrides)
    except ValidationError as exc:
        problems = "; ".join(str(error["msg"]) for error in exc.errors())
        raise _fail(f"invalid store settings: {problems}", 2) from None
    except StoreError as exc:
        raise _fail(f"invalid store settings: {exc}", 2) from None


def _store(url: str | None) -> ObjectStore:
    try:
        return open_store(_settings(url))
    except StoreError as exc:
        raise _fail(f"invalid store settings: {exc}", 2) from None


def _run(url: str | None, work: Callable[[TrajectoryStore], Awaitable[T]]) -> T:
    """Open the store, run `work` on it, close it; store and record errors end the command."""

    async def main() -> T:
        async with _store(url) as store:
            return await work(TrajectoryStore(store))

    try:
        return asyncio.run(main())
    except (TrajectoryError, StoreError) as exc:
        raise _fail(str(exc)) from None


def _pct(rate: Rate) -> str:
    low, high = rate.ci95
    return f"{rate.success_rate:6.1%}  ({rate.successes}/{rate.episodes}, CI {low:.1%}-{high:.1%})"


def _print_summary(summary: RunSummary) -> None:
    typer.echo(f"run {summary.run_id}")
    typer.echo(
        f"  groups        {summary.groups_complete} complete, {summary.groups_failed} failed, "
        f"{summary.groups_pending} pending"
    )
    typer.echo(f"  episodes      {summary.episodes} counted (complete groups only)")
    typer.echo(f"  {'success':<30} {_pct(summary.overall)}")
    for title, rates in (
        ("source", summary.by_source),
        ("category", summary.by_category),
        ("app", summary.by_app),
    ):
        for key, rate in rates.items():
            typer.echo(f"  {title:<9} {key:<20} {_pct(rate)}")
    typer.echo(f"  steps         {summary.steps} (mean {summary.mean_steps:g})")
    typer.echo(
        f"  invalid       {summary.invalid_actions} actions ({summary.invalid_rate:.1%} of steps)"
    )
    typer.echo(f"  judge errors  {summary.judge_errors}")
    typer.echo(f"  retries       {summary.retries}")
    typer.echo(f"  wall time     {summary.wall_s:.1f} s")
    typer.echo(f"  policy        {', '.join(summary.policy_versions) or '-'}")


@app.command("list")
def list_runs(store: StoreOption = None, as_json: JsonOption = False) -> None:
    """The runs in the store, newest first, with status, groups and success rate."""

    async def work(trajectories: TrajectoryStore) -> list[dict[str, Any]]:
        found = []
        for run_id in await trajectories.run_ids():
            manifest = await trajectories.read_manifest(run_id)
            episodes = [e async for e in trajectories.episodes(run_id)]
            summary = summarize(manifest, episodes)
            found.append({
                "run_id": run_id,
                "status": manifest.status.value,
                "created_at": manifest.created_at.isoformat(),
                "groups_complete": summary.groups_complete,
                "groups_failed": summary.groups_failed,
                "groups_pending": summary.groups_pending,
                "episodes": summary.episodes,
                "success_rate": summary.overall.success_rate,
                "ci95": list(summary.overall.ci95),
            })  # fmt: skip
        found.sort(key=lambda run: run["created_at"], reverse=True)
        return found

    runs = _run(store, work)
    if as_json:
        typer.echo(json.dumps(runs, indent=2))
        return
    if not runs:
        typer.echo("no run in this store")
        return
    typer.echo(f"{'run':<32} {'status':<8} {'created (UTC)':<19} {'groups ok/failed/pending':<24} "
               f"{'episodes':>8} {'success':>8}")  # fmt: skip
    for run in runs:
        groups = f"{run['groups_complete']}/{run['groups_failed']}/{run['groups_pending']}"
        typer.echo(
            f"{run['run_id']:<32} {run['status']:<8} {run['created_at'][:19]:<19} {groups:<24} "
            f"{run['episodes']:>8} {run['success_rate']:>8.1%}"
        )


@app.command()
def summary(
    run: Annotated[str, typer.Argument(help="run id")],
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """A run's numbers: success rates, steps, invalid actions, judge errors, time.

    Success by source, category and app with Wilson 95% intervals; only episodes of complete
    groups count."""

    async def work(trajectories: TrajectoryStore) -> RunSummary:
        manifest = await trajectories.read_manifest(run)
        return summarize(manifest, [e async for e in trajectories.episodes(run)])

    result = _run(store, work)
    if as_json:
        typer.echo(result.model_dump_json(indent=2))
    else:
        _print_summary(result)


@app.command()
def export(
    run: Annotated[str, typer.Argument(help="run id")],
    out: Annotated[
        Path | None, typer.Option("--out", help="folder for the parquet shards", show_default=False)
    ] = None,
    to_store: Annotated[
        bool, typer.Option("--to-store", help="write them into the store, under exports/RUN/")
    ] = False,
    all_episodes: Annotated[
        bool, typer.Option("--all", help="failed episodes too (default: successful only)")
    ] = False,
    rows_per_shard: Annotated[int, typer.Option(min=1, help="rows per parquet file")] = 512,
    screenshots: Annotated[
        int | None,
        typer.Option(
            min=1, max=32, help="screenshots per prompt \\[the run's prompt_config setting, or 1]"
        ),
    ] = None,
    store: StoreOption = None,
    as_json: JsonOption = False,
) -> None:
    """Export a run's SFT rows as parquet shards (with the screenshots).

    One row per step with an action: the exact rollout prompt, the target tool call and the
    screenshot bytes. Only episodes of complete groups; successful ones unless --all."""
    from phonebuddy.agent import PromptConfig
    from phonebuddy.trajectories.export import ExportError, ExportReport, export_run

    if out is None and not to_store:
        raise _fail("say where to export: --out DIR, --to-store, or both", 2)

    async def work(trajectories: TrajectoryStore) -> ExportReport:
        return await export_run(
            trajectories,
            run,
            out,
            to_store=to_store,
            rows_per_shard=rows_per_shard,
            only_successful=not all_episodes,
            prompt_config=PromptConfig(screenshots=screenshots) if screenshots else None,
        )

    try:
        report = _run(store, work)
    except ExportError as exc:
        raise _fail(str(exc)) from None
    if as_json:
        typer.echo(report.model_dump_json(indent=2))
        return
    where = " and ".join(
        place for place in (report.out_dir, report.store_prefix and f"store:{report.store_prefix}")
        if place
    )  # fmt: skip
    typer.echo(
        f"exported {report.rows} rows from {report.episodes} episodes of run {report.run_id} "
        f"into {len(report.shards)} shard{'s' if len(report.shards) != 1 else ''} in {where}"
    )
    typer.echo(f"  images        {report.images} distinct ({report.image_bytes / 1e6:.1f} MB)")
    if report.episodes_skipped:
        skipped = ", ".join(f"{count} {why}" for why, count in report.episodes_skipped.items())
        typer.echo(f"  left out      {skipped}")
    if report.invalid_steps_skipped:
        typer.echo(f"  invalid steps {report.invalid_steps_skipped} (no target, not exported)")


@app.command()
def view(
    run: Annotated[str | None, typer.Argument(help="open this run's page")] = None,
    host: Annotated[str, typer.Option(help="bind address")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port")] = 8095,
    store: StoreOption = None,
) -> None:
    """Serve the trajectory viewer (a local web page) and print its URL.

    Runs, episodes with filters, and for one episode each step's screenshot with the action
    drawn on it, the raw answer, the parsed action and the verdict."""
    try:
        import uvicorn

        from phonebuddy.trajectories.viewer import create_viewer
    except ImportError as exc:
        raise _fail(
            f"the viewer needs {exc.name}: pip install 'phonebuddy-trajectories[viewer]'"
        ) from None

    where = _settings(store).url
    trajectories = TrajectoryStore(_store(store))
    if run is not None:

        async def check(found: TrajectoryStore) -> None:
            await found.read_manifest(run)

        _run(store, check)
    shown_host = f"[{host}]" if ":" in host else host
    url = f"http://{shown_host}:{port}/" + (f"runs/{run}" if run is not None else "")
    typer.echo(f"trajectory viewer: {url}  (store {where}; Ctrl-C stops)")
    uvicorn.run(create_viewer(trajectories), host=host, port=port, log_level="warning")
