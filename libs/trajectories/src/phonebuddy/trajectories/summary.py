"""A run's numbers: success by source, category and app, steps, invalid actions, time.

Only episodes of complete groups count; failed groups are reported separately (never a partial
group in the numbers)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from phonebuddy.protocol import Episode
from phonebuddy.trajectories.manifest import GroupStatus, RunManifest


class Rate(BaseModel):
    model_config = ConfigDict(frozen=True)

    episodes: int
    successes: int
    success_rate: float
    ci95: tuple[float, float] = Field(description="Wilson score interval")


def wilson(successes: int, total: int, z: float = 1.96) -> tuple[float, float]:
    if total == 0:
        return (0.0, 0.0)
    p = successes / total
    denominator = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denominator
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denominator
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def rate_of(successes: int, total: int) -> Rate:
    """The rate with its Wilson interval."""
    return Rate(
        episodes=total,
        successes=successes,
        success_rate=round(successes / total, 4) if total else 0.0,
        ci95=wilson(successes, total),
    )


class RunSummary(BaseModel):
    model_config = ConfigDict(frozen=True)

    run_id: str
    episodes: int
    groups_complete: int
    groups_failed: int
    groups_pending: int
    overall: Rate
    by_source: dict[str, Rate]
    by_category: dict[str, Rate]
    by_app: dict[str, Rate]
    steps: int
    mean_steps: float
    invalid_actions: int
    invalid_rate: float
    judge_errors: int
    retries: int
    wall_s: float
    policy_versions: list[str]


def summarize(manifest: RunManifest, episodes: Iterable[Episode]) -> RunSummary:
    # A complete group lists the G episodes that count (a spare that also finished does not).
    members = {e for g in manifest.groups if g.status == GroupStatus.COMPLETE for e in g.episodes}
    counted = [e for e in episodes if e.group_id is None or e.episode_id in members]
    tallies: dict[str, dict[str, list[int]]] = {
        "source": defaultdict(lambda: [0, 0]),
        "category": defaultdict(lambda: [0, 0]),
        "app": defaultdict(lambda: [0, 0]),
    }
    successes = steps = invalid = judge_errors = retries = 0
    versions: set[str] = set()
    for episode in counted:
        won = int(episode.verdict is not None and episode.verdict.success)
        successes += won
        steps += len(episode.steps)
        invalid += episode.invalid_steps
        retries += episode.attempts - 1
        judge_errors += int(episode.verdict is not None and episode.verdict.judge_error)
        versions.add(episode.policy.version)
        keys = {
            "source": [episode.task.source.value],
            "category": [episode.task.category.value],
            "app": list(episode.task.apps),
        }
        for dimension, values in keys.items():
            for value in values:
                tallies[dimension][value][0] += won
                tallies[dimension][value][1] += 1
    if manifest.finished_at is not None:  # submission to the last group settled
        wall = (manifest.finished_at - manifest.created_at).total_seconds()
    elif counted:
        starts = [e.started_at for e in counted]
        wall = (max(e.finished_at for e in counted) - min(starts)).total_seconds()
    else:
        wall = 0.0

    def rates(dimension: str) -> dict[str, Rate]:
        return {key: rate_of(*tallies[dimension][key]) for key in sorted(tallies[dimension])}

    by_status = {status: 0 for status in GroupStatus}
    for group in manifest.groups:
        by_status[group.status] += 1
    return RunSummary(
        run_id=manifest.run_id,
        episodes=len(counted),
        groups_complete=by_status[GroupStatus.COMPLETE],
        groups_failed=by_status[GroupStatus.FAILED],
        groups_pending=by_status[GroupStatus.PENDING],
        overall=rate_of(successes, len(counted)),
        by_source=rates("source"),
        by_category=rates("category"),
        by_app=rates("app"),
        steps=steps,
        mean_steps=round(steps / len(counted), 2) if counted else 0.0,
        invalid_actions=invalid,
        invalid_rate=round(invalid / steps, 4) if steps else 0.0,
        judge_errors=judge_errors,
        retries=retries,
        wall_s=round(wall, 3),
        policy_versions=sorted(versions),
    )
