"""`TrajectoryStore`: episodes, screenshots, judge records and manifests of runs, over any
`ObjectStore` (S3 or a local folder).

Writes are idempotent by id: `put_episode` stores an episode once and reports whether this call
stored it, so a redelivered work item never makes a second copy. Screenshots are blobs: stored
once by content hash, checked on read.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from typing import Any

from pydantic import ValidationError

from phonebuddy.protocol import Episode, Frame, FrameRef, TaskSpec
from phonebuddy.storage import ObjectNotFoundError, ObjectStore
from phonebuddy.trajectories import layout
from phonebuddy.trajectories.manifest import RunManifest, utcnow


class TrajectoryError(Exception):
    """A stored record that is missing or unreadable; the message names the key."""


class TrajectoryStore:
    def __init__(self, store: ObjectStore) -> None:
        self.store = store

    # ---- screenshots ----

    async def put_frame(self, frame: Frame) -> FrameRef:
        await self.store.put_blob(frame.data, content_type=frame.ref.media_type)  # stored once
        return frame.ref

    async def get_frame(self, ref: FrameRef | str) -> bytes:
        sha256 = ref.sha256 if isinstance(ref, FrameRef) else ref
        try:
            return await self.store.get_blob(sha256)
        except ObjectNotFoundError as exc:
            raise TrajectoryError(f"screenshot {sha256[:12]} is not in the store") from exc

    # ---- episodes ----

    async def has_episode(self, run_id: str, episode_id: str) -> bool:
        return await self.store.exists(layout.episode_key(run_id, episode_id))

    async def put_episode(self, episode: Episode) -> bool:
        """Store `episode` unless one with its id is already there; True if this call stored
        it. Its screenshots must already be stored (`put_frame`)."""
        key = layout.episode_key(episode.run_id, episode.episode_id)
        if await self.store.exists(key):
            return False
        await self.store.put_bytes(
            key, episode.model_dump_json().encode(), content_type="application/json"
        )
        return True

    async def get_episode(self, run_id: str, episode_id: str) -> Episode:
        key = layout.episode_key(run_id, episode_id)
        try:
            data = await self.store.get_bytes(key)
        except ObjectNotFoundError as exc:
            raise TrajectoryError(f"episode {episode_id} of run {run_id} is not stored") from exc
        try:
            return Episode.model_validate_json(data)
        except ValidationError as exc:
            raise TrajectoryError(f"{key} is not a valid episode: {exc}") from exc

    async def episode_ids(self, run_id: str) -> list[str]:
        prefix = layout.episodes_prefix(run_id)
        keys = await self.store.list(prefix)
        return sorted(key.removeprefix(prefix).removesuffix(".json") for key in keys)

    async def episodes(self, run_id: str, *, concurrency: int = 16) -> AsyncIterator[Episode]:
        """Every stored episode of a run, in id order."""
        ids = await self.episode_ids(run_id)
        for start in range(0, len(ids), concurrency):
            chunk = ids[start : start + concurrency]
            for episode in await asyncio.gather(*(self.get_episode(run_id, i) for i in chunk)):
                yield episode

    # ---- episodes that could not be run ----

    async def put_failure(self, run_id: str, episode_id: str, record: dict[str, Any]) -> None:
        await self.store.put_json(layout.failure_key(run_id, episode_id), record)

    async def failures(self, run_id: str) -> dict[str, dict[str, Any]]:
        prefix = layout.failures_prefix(run_id)
        keys = await self.store.list(prefix)
        records = await asyncio.gather(*(self.store.get_json(key) for key in keys))
        return {
            key.removeprefix(prefix).removesuffix(".json"): record
            for key, record in zip(keys, records, strict=True)
        }

    # ---- judge records ----

    async def put_judge_record(self, run_id: str, episode_id: str, record: dict[str, Any]) -> None:
        await self.store.put_json(layout.judge_key(run_id, episode_id), record)

    async def get_judge_record(self, run_id: str, episode_id: str) -> dict[str, Any] | None:
        try:
            record: dict[str, Any] = await self.store.get_json(layout.judge_key(run_id, episode_id))
        except ObjectNotFoundError:
            return None
        return record

    # ---- runs ----

    async def put_request(self, run_id: str, request: dict[str, Any]) -> None:
        await self.store.put_json(layout.request_key(run_id), request)

    async def get_request(self, run_id: str) -> dict[str, Any]:
        try:
            request: dict[str, Any] = await self.store.get_json(layout.request_key(run_id))
        except ObjectNotFoundError as exc:
            raise TrajectoryError(f"run {run_id} has no request") from exc
        return request

    async def put_tasks(self, run_id: str, tasks: Sequence[TaskSpec]) -> None:
        """The run's tasks, one per group in group order, as the broker planned them."""
        value = [task.model_dump(mode="json") for task in tasks]
        await self.store.put_json(layout.tasks_key(run_id), value)

    async def get_tasks(self, run_id: str) -> tuple[TaskSpec, ...]:
        key = layout.tasks_key(run_id)
        try:
            value = await self.store.get_json(key)
        except ObjectNotFoundError as exc:
            raise TrajectoryError(f"run {run_id} has no task list") from exc
        try:
            return tuple(TaskSpec.model_validate(task) for task in value)
        except (ValidationError, TypeError) as exc:
            raise TrajectoryError(f"{key} is not a list of tasks: {exc}") from exc

    async def write_manifest(self, manifest: RunManifest) -> None:
        manifest.updated_at = utcnow()
        await self.store.write_manifest(
            layout.manifest_key(manifest.run_id), manifest.model_dump(mode="json")
        )

    async def read_manifest(self, run_id: str) -> RunManifest:
        try:
            return await self.store.get_json(layout.manifest_key(run_id), model=RunManifest)
        except ObjectNotFoundError as exc:
            raise TrajectoryError(f"run {run_id} has no manifest") from exc

    async def run_ids(self) -> list[str]:
        keys = await self.store.list(layout.RUNS)
        return sorted(
            {
                key.removeprefix(layout.RUNS).split("/", 1)[0]
                for key in keys
                if key.endswith("manifest.json")
            }
        )
