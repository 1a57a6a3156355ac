"""Following a run to its end (progress bar) and printing its summary as tables."""

from __future__ import annotations

import asyncio
import sys
import time

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from phonebuddy.protocol import RolloutAccepted
from phonebuddy.storage import StoreSettings, open_store
from phonebuddy.trajectories import (
    GroupStatus,
    Rate,
    RunStatus,
    RunSummary,
    TrajectoryStore,
    summarize,
)


async def follow(
    accepted: RolloutAccepted, env: dict[str, str], *, wait_s: float, quiet: bool
) -> RunSummary:
    """Poll the run's manifest until it is done; return its summary."""
    deadline = time.monotonic() + wait_s
    async with open_store(StoreSettings.from_variables(env, url=accepted.store_url)) as raw:
        store = TrajectoryStore(raw)
        console = Console(file=sys.stderr)
        with Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[detail]}"), TimeElapsedColumn(),
            console=console, disable=quiet, transient=False,
        ) as progress:  # fmt: skip
            bar = progress.add_task(accepted.run_id, total=accepted.groups, detail="")
            while True:
                manifest = await store.read_manifest(accepted.run_id)
                settled = [g for g in manifest.groups if g.status != GroupStatus.PENDING]
                stored = sum(len(g.episodes) for g in manifest.groups)
                failed = sum(g.status == GroupStatus.FAILED for g in manifest.groups)
                progress.update(
                    bar, completed=len(settled),
                    detail=f"groups · {stored} episodes stored · {failed} groups failed",
                )  # fmt: skip
                if manifest.status == RunStatus.DONE:
                    break
                if time.monotonic() > deadline:
                    raise TimeoutError(f"run {accepted.run_id} not done after {wait_s} s")
                await asyncio.sleep(0.5)
        episodes = []
        wanted = {
            e for g in manifest.groups if g.status == GroupStatus.COMPLETE for e in g.episodes
        }
        async for episode in store.episodes(accepted.run_id):
            if episode.episode_id in wanted:
                episodes.append(episode)
        return summarize(manifest, episodes)


def _rate_row(name: str, rate: Rate) -> list[str]:
    low, high = rate.ci95
    return [name, str(rate.episodes), str(rate.successes), f"{rate.success_rate:.1%}",
            f"{low:.0%}-{high:.0%}"]  # fmt: skip


def print_summary(summary: RunSummary, console: Console | None = None) -> None:
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
