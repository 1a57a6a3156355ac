"""Showing a rollout to a person: a progress bar fed by `RolloutClient`, and the run's summary
as tables. The summary reads the run's episodes, so it needs the store's credentials; following
the run does not."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from phonebuddy.protocol import RunProgress
from phonebuddy.storage import StoreSettings, open_store
from phonebuddy.trajectories import Rate, RunSummary, TrajectoryStore, summarize


class ProgressBar:
    """Groups settled out of all, episodes stored and groups failed, on stderr:

    with ProgressBar(run_id) as bar:
        await client.run(request, on_progress=bar.update)
    """

    def __init__(
        self, run_id: str, *, disabled: bool = False, console: Console | None = None
    ) -> None:
        self._progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[detail]}"), TimeElapsedColumn(),
            console=console or Console(file=sys.stderr), disable=disabled, transient=False,
        )  # fmt: skip
        self._bar = self._progress.add_task(run_id, total=None, detail="")

    def update(self, progress: RunProgress) -> None:
        self._progress.update(
            self._bar, total=progress.groups, completed=progress.groups_settled,
            detail=f"groups · {progress.episodes_stored} episodes stored · "
            f"{progress.groups_failed} groups failed",
        )  # fmt: skip

    def __enter__(self) -> ProgressBar:
        self._progress.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._progress.stop()


async def read_summary(settings: StoreSettings, run_id: str) -> RunSummary:
    """The run's summary from the store `settings` name (only complete groups count)."""
    async with open_store(settings) as raw:
        store = TrajectoryStore(raw)
        manifest = await store.read_manifest(run_id)
        return summarize(manifest, [episode async for episode in store.episodes(run_id)])


def _rate_row(name: str, rate: Rate) -> list[str]:
    low, high = rate.ci95
    return [name, str(rate.episodes), str(rate.successes), f"{rate.success_rate:.1%}",
            f"{low:.0%}-{high:.0%}"]  # fmt: skip


def print_summary(summary: RunSummary, console: Console | None = None) -> None:
    """Success by source, category and app with 95 % intervals, then steps, invalid actions,
    retries, judge errors, time and policy versions."""
    console = console or Console()
    table = Table(title=f"run {summary.run_id}", show_lines=False)
    for column in ("", "episodes", "successes", "success", "95% CI"):
        table.add_column(column, justify="right" if column else "left")
    table.add_row(*_rate_row("all", summary.overall), style="bold")
    for title, rates in (
        ("source", summary.by_source), ("category", summary.by_category), ("app", summary.by_app)
    ):  # fmt: skip
        table.add_section()
        for key, rate in rates.items():
            table.add_row(*_rate_row(f"{title}: {key}", rate))
    console.print(table)
    console.print(
        f"groups: {summary.groups_complete} complete, {summary.groups_failed} failed · "
        f"steps: {summary.steps} (mean {summary.mean_steps}) · invalid actions: "
        f"{summary.invalid_actions} ({summary.invalid_rate:.1%}) · retries: {summary.retries} · "
        f"judge errors: {summary.judge_errors} · time: {summary.wall_s:.1f} s · policy: "
        f"{', '.join(summary.policy_versions) or '-'}"
    )
