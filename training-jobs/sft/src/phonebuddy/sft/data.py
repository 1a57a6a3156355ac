"""Training data: stored action steps -> filtered rows -> a split held out by task.

Rows come from runs in a trajectory store (read through `phonebuddy.trajectories`, exactly as
`phonebuddy trajectories export` reads them) and/or from parquet folders that export wrote (read
only as their `export.json` lists them: no shard more or less, each checksum matching). A row
is one action step: the rollout's chat messages (the target tool call last), tools, rendered
prompt and completion, and the screenshots in prompt order. Every screenshot is checked against
its content hash; anything unreadable stops the job with one sentence that names it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from phonebuddy.protocol import PromptConfig
from phonebuddy.sft.config import DataConfig, RunSource
from phonebuddy.storage import StoreError, StoreSettings, open_store
from phonebuddy.training.splits import TestSplitError, check_train_tasks
from phonebuddy.trajectories import TrajectoryError, TrajectoryStore
from phonebuddy.trajectories.export import (
    COLUMNS,
    ExportError,
    run_prompt_config,
    run_rows,
    verified_export,
)


class DataError(Exception):
    """Training data that cannot be used; the message says which and why."""


@dataclass(frozen=True, slots=True)
class StepRow:
    run_id: str
    episode_id: str
    task_id: str
    template_id: str
    seed: int | None  # None (and split None) in exports written before they were recorded
    split: str | None
    category: str
    source: str
    apps: tuple[str, ...]
    step_index: int
    success: bool
    policy_version: str
    messages: tuple[dict[str, Any], ...]  # the target assistant message last
    tools: tuple[dict[str, Any], ...]
    prompt_text: str
    completion_text: str
    images: tuple[bytes, ...]

    @property
    def prompt_messages(self) -> list[dict[str, Any]]:
        return [dict(message) for message in self.messages[:-1]]


# Columns that exports written before they existed lack; such rows are judged by what they hold.
_LATER_COLUMNS = frozenset({"seed", "split"})


def _row(record: dict[str, Any], where: str) -> StepRow:
    missing = [name for name in COLUMNS if name not in record and name not in _LATER_COLUMNS]
    if missing:
        raise DataError(f"{where}: missing columns {', '.join(missing)}")
    images = tuple(record["images"] or ())
    hashes = tuple(record["image_sha256"] or ())
    if len(images) != len(hashes):
        raise DataError(f"{where}: {len(images)} images for {len(hashes)} hashes")
    for data, sha in zip(images, hashes, strict=True):
        if hashlib.sha256(data).hexdigest() != sha:
            raise DataError(f"{where}: screenshot {sha[:12]} does not match its hash")
    try:
        messages = tuple(json.loads(record["messages"]))
        tools = tuple(json.loads(record["tools"]))
    except (TypeError, ValueError) as exc:
        raise DataError(f"{where}: messages or tools are not valid JSON ({exc})") from exc
    if not messages or messages[-1].get("role") != "assistant":
        raise DataError(f"{where}: the last message is not the assistant's target")
    template = str(record["template_id"])
    apps = record.get("apps") or [template.split(".", 1)[0]]
    return StepRow(
        run_id=str(record["run_id"]),
        episode_id=str(record["episode_id"]),
        task_id=str(record["task_id"]),
        template_id=template,
        seed=None if record.get("seed") is None else int(record["seed"]),
        split=None if record.get("split") is None else str(record["split"]),
        category=str(record["category"]),
        source=str(record["source"]),
        apps=tuple(str(app) for app in apps),
        step_index=int(record["step_index"]),
        success=bool(record["success"]),
        policy_version=str(record["policy_version"] or ""),
        messages=messages,
        tools=tools,
        prompt_text=str(record["prompt_text"]),
        completion_text=str(record["completion_text"]),
        images=images,
    )


async def _run_rows(
    source: RunSource, *, successful_only: bool, prompt: PromptConfig | None
) -> tuple[list[StepRow], PromptConfig]:
    try:
        settings = StoreSettings(url=source.store) if source.store else StoreSettings()
    except ValidationError as exc:
        problems = "; ".join(error["msg"].removeprefix("Value error, ") for error in exc.errors())
        raise DataError(f"run {source.run}: invalid store settings: {problems}") from None
    try:
        async with open_store(settings) as store:
            trajectories = TrajectoryStore(store)
            used = prompt or run_prompt_config(await trajectories.read_manifest(source.run))
            rows = [
                _row(record, f"run {source.run} episode {record['episode_id']}")
                async for record in run_rows(
                    trajectories, source.run, only_successful=successful_only, prompt_config=used
                )
            ]
    except (StoreError, TrajectoryError, ExportError) as exc:
        raise DataError(f"run {source.run}: {exc}") from exc
    return rows, used


def _parquet_rows(folder: str) -> tuple[list[StepRow], PromptConfig]:
    """The rows of an export folder, read only once it holds exactly the shards its
    `export.json` lists, each with the recorded checksum."""
    import pyarrow.parquet as pq

    try:
        report = verified_export(folder)
    except ExportError as exc:
        raise DataError(str(exc)) from exc
    rows: list[StepRow] = []
    for shard in (Path(folder) / entry.name for entry in report.shards):
        try:
            table = pq.read_table(shard)
        except Exception as exc:  # pyarrow raises several types for a damaged file
            raise DataError(f"{shard} is not a readable parquet file ({exc})") from exc
        for number, record in enumerate(table.to_pylist()):
            rows.append(_row(record, f"{shard} row {number}"))
    return rows, report.prompt_config


def _row_key(row: StepRow) -> tuple[str, str, int]:
    return (row.task_id, row.episode_id, row.step_index)


def load_data(config: DataConfig) -> tuple[list[StepRow], PromptConfig]:
    """Every row the config's runs and parquet folders hold, before `filter_rows`, in an order
    that depends on their content only (not on the store's listing or the rollouts' timing), and
    the prompt setting they were rendered with (runs: `data.prompt`, else each run's own; all
    must agree, since the checkpoint records one). Runs already leave out unsuccessful episodes
    under `successful_only`, so their screenshots are not read."""
    if not config.runs and not config.parquet:
        raise DataError("no training data: give at least one --run or --parquet folder")
    rows: list[StepRow] = []
    prompts: dict[str, PromptConfig] = {}
    for source in config.runs:
        got, prompts[f"run {source.run}"] = asyncio.run(
            _run_rows(source, successful_only=config.successful_only, prompt=config.prompt)
        )
        rows += got
    for folder in config.parquet:
        got, prompts[f"export {folder}"] = _parquet_rows(folder)
        rows += got
    settings = set(prompts.values())
    if len(settings) > 1 or (config.prompt is not None and settings != {config.prompt}):
        described = "; ".join(f"{where}: {prompt.describe()}" for where, prompt in prompts.items())
        raise DataError(
            "the training data was rendered with different prompt settings, and a checkpoint "
            f"learns one ({described}); set data.prompt to re-render runs, or re-export"
        )
    return sorted(rows, key=_row_key), settings.pop()


def load_rows(config: DataConfig) -> list[StepRow]:
    return load_data(config)[0]


def filter_rows(rows: Iterable[StepRow], config: DataConfig) -> list[StepRow]:
    kept = []
    for row in rows:
        # runs' rows are already successful (load_rows); a parquet export may hold failures
        if config.successful_only and not row.success:
            continue
        if config.sources and row.source not in config.sources:
            continue
        if config.categories and row.category not in config.categories:
            continue
        if config.apps and not set(row.apps) & set(config.apps):
            continue
        if config.policy_versions and row.policy_version not in config.policy_versions:
            continue
        kept.append(row)
    return kept


def refuse_test_split(rows: Sequence[StepRow], config: DataConfig) -> None:
    """Stop the job if any step is of a PhoneWorld test-split task, unless the config allows it."""
    if config.allow_test_split:
        return
    try:
        check_train_tasks(rows, setting="data.allow_test_split")
    except TestSplitError as exc:
        raise DataError(f"of {len(rows)} training steps, {exc}") from None


def split_by_task(
    rows: Sequence[StepRow], fraction: float, seed: int
) -> tuple[list[StepRow], list[StepRow]]:
    """(train, validation): whole tasks go to one side, never steps of one episode to both."""
    tasks = sorted({row.task_id for row in rows})
    if fraction <= 0 or len(tasks) < 2:
        return list(rows), []
    random.Random(seed).shuffle(tasks)
    held = set(tasks[: max(1, round(len(tasks) * fraction))])
    return [r for r in rows if r.task_id not in held], [r for r in rows if r.task_id in held]


def statistics(rows: Sequence[StepRow], tokens: Sequence[int] | None = None) -> dict[str, Any]:
    """Episodes, steps and tokens, overall and by source, category and app."""
    token_of = list(tokens) if tokens is not None else [0] * len(rows)

    def by(key: str) -> dict[str, dict[str, int]]:
        out: dict[str, dict[str, int]] = {}
        episodes: dict[str, set[str]] = {}
        for row, n in zip(rows, token_of, strict=True):
            values = row.apps if key == "app" else (getattr(row, key),)
            for value in values:
                entry = out.setdefault(value, {"episodes": 0, "steps": 0, "tokens": 0})
                entry["steps"] += 1
                entry["tokens"] += n
                episodes.setdefault(value, set()).add(row.episode_id)
        for value, ids in episodes.items():
            out[value]["episodes"] = len(ids)
        return dict(sorted(out.items()))

    return {
        "episodes": len({row.episode_id for row in rows}),
        "tasks": len({row.task_id for row in rows}),
        "steps": len(rows),
        "tokens": sum(token_of),
        "by_source": by("source"),
        "by_category": by("category"),
        "by_app": by("app"),
        "templates": dict(sorted(Counter(row.template_id for row in rows).items())),
    }
