"""The broker's view of runs: their stores, manifests, plans and group status.

Per run the broker keeps, in memory, which episodes of each group are stored, being stored, or
given up; it is loaded from the store the first time a run is touched (so it survives restarts)
and rebuilt from the store periodically (so several broker processes converge). A group is
complete when G of its episodes are stored, failed when more of its episodes were given up than
it has spares; the manifest is written when a group settles (and by the periodic refresh), and
the run is done when no group is pending. Progress events go out on core NATS; since they are
not kept, `progress` answers a follower that missed some with the run's state.

The moment a group settles, the attempts of its other episodes running in this process (spares,
retries of a group that already failed) are cancelled, which releases their devices: nothing of
a finished run keeps a phone.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from phonebuddy.broker.metrics import BrokerMetrics
from phonebuddy.broker.planning import group_of, plan, successor
from phonebuddy.bus import Bus
from phonebuddy.protocol import EpisodeWork, RolloutRequest, RunEvent, RunProgress, Source
from phonebuddy.protocol.subjects import rollout_events_subject
from phonebuddy.trajectories import (
    GroupStatus,
    RunManifest,
    RunStatus,
    RunStores,
    TrajectoryError,
    TrajectoryStore,
)
from phonebuddy.trajectories.manifest import utcnow

log = logging.getLogger(__name__)


@dataclass
class RunState:
    manifest: RunManifest
    stored: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    pending: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    failed: dict[str, dict[str, str]] = field(default_factory=lambda: defaultdict(dict))
    # Attempts running in this process, per group: cancelled when their group settles.
    attempts: dict[str, set[asyncio.Task[Any]]] = field(default_factory=lambda: defaultdict(set))
    work: tuple[EpisodeWork, ...] | None = None  # the plan, loaded when first needed
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def pending_group(self, group_id: str) -> bool:
        return self.manifest.group(group_id).status == GroupStatus.PENDING


class RunBook:
    def __init__(self, bus: Bus, metrics: BrokerMetrics, stores: RunStores) -> None:
        self.bus = bus
        self.metrics = metrics
        self.stores = stores
        self._load_locks: dict[tuple[str, str], asyncio.Lock] = defaultdict(asyncio.Lock)
        self.active: dict[tuple[str, str], RunState] = {}

    async def store(self, url: str) -> TrajectoryStore:
        """The store at `url`, if the broker may write there (`StoreNotAllowedError`)."""
        return await self.stores.get(url)

    async def close(self) -> None:
        await self.stores.close()

    # ---- state ----

    async def _load(self, url: str, run_id: str) -> RunState:
        store = await self.store(url)
        manifest = await store.read_manifest(run_id)
        state = RunState(manifest=manifest)
        for episode in await store.episode_ids(run_id):
            state.stored[group_of(episode)].add(episode)
        for episode, record in (await store.failures(run_id)).items():
            state.failed[group_of(episode)][episode] = str(record.get("reason", "failed"))
        return state

    async def state(self, url: str, run_id: str) -> RunState:
        key = (url, run_id)
        if key not in self.active:
            async with self._load_locks[key]:
                if key not in self.active:
                    self.active[key] = await self._load(url, run_id)
        return self.active[key]

    async def progress(self, url: str, run_id: str) -> RunProgress:
        """Where the run stands: its stored manifest (every broker's settled groups), with
        what this process knows beyond it (groups it settled or episodes it stored since the
        manifest was last written). `TrajectoryError` when the store has no such run."""
        manifest = await (await self.store(url)).read_manifest(run_id)
        state = self.active.get((url, run_id))
        mine = (
            {g.group_id: (g.status, len(state.stored[g.group_id])) for g in state.manifest.groups}
            if state is not None
            else {}
        )
        complete = failed = stored = 0
        for group in manifest.groups:
            status, episodes = group.status, len(group.episodes)
            if group.group_id in mine:
                my_status, my_episodes = mine[group.group_id]
                if status == GroupStatus.PENDING:
                    status = my_status
                episodes = max(episodes, my_episodes)
            complete += status == GroupStatus.COMPLETE
            failed += status == GroupStatus.FAILED
            stored += episodes
        done = manifest.status == RunStatus.DONE or (
            state is not None and state.manifest.status == RunStatus.DONE
        )
        return RunProgress(
            run_id=run_id, store_url=url, groups=len(manifest.groups), groups_complete=complete,
            groups_failed=failed, episodes_stored=stored, done=done,
        )  # fmt: skip

    async def needs_run(self, url: str, run_id: str, group_id: str, episode_id: str) -> bool:
        """False when the episode's group is settled (a spare after G finished, a failed
        group) or the episode was already given up."""
        state = await self.state(url, run_id)
        return state.pending_group(group_id) and episode_id not in state.failed[group_id]

    @contextlib.asynccontextmanager
    async def attempt(self, work: EpisodeWork, task: asyncio.Task[Any]) -> AsyncIterator[None]:
        """Track `task`, the attempts at `work`'s episode, while the block runs: the task is
        cancelled as soon as the episode's group settles (at once if it already has)."""
        state = await self.state(work.store_url, work.run_id)
        state.attempts[work.group_id].add(task)
        if not state.pending_group(work.group_id):
            task.cancel()
        try:
            yield
        finally:
            state.attempts[work.group_id].discard(task)

    async def successor(self, work: EpisodeWork) -> EpisodeWork | None:
        """The item `work` queues when it is done (none once the run is done)."""
        state = await self.state(work.store_url, work.run_id)
        if state.manifest.status == RunStatus.DONE:
            return None
        if state.work is None:
            store = await self.store(work.store_url)
            request = RolloutRequest.model_validate(await store.get_request(work.run_id))
            tasks = await store.get_tasks(work.run_id)
            state.work = tuple(plan(request, tasks, work.store_url)[1])
        concurrency = int(state.manifest.settings["concurrency"])
        return successor(work, state.work, concurrency, state.pending_group)

    # ---- episodes ----

    async def reserve(self, url: str, run_id: str, group_id: str, episode_id: str) -> bool:
        """Claim a place in the group for an episode about to be stored; False when the
        group already has G (a spare that finished late) or is settled."""
        state = await self.state(url, run_id)
        async with state.lock:
            group = state.manifest.group(group_id)
            if group.status != GroupStatus.PENDING:
                return False
            taken = state.stored[group_id] | state.pending[group_id]
            if episode_id in state.stored[group_id] or len(taken) >= group.size:
                return False
            state.pending[group_id].add(episode_id)
            return True

    async def release(self, url: str, run_id: str, group_id: str, episode_id: str) -> None:
        state = await self.state(url, run_id)
        async with state.lock:
            state.pending[group_id].discard(episode_id)

    async def stored(self, url: str, run_id: str, group_id: str, episode_id: str) -> None:
        state = await self.state(url, run_id)
        async with state.lock:
            state.pending[group_id].discard(episode_id)
            state.stored[group_id].add(episode_id)
            events = await self._settle(url, state)
        await self._publish_all(events)

    async def given_up(
        self, url: str, run_id: str, group_id: str, episode_id: str, reason: str
    ) -> None:
        state = await self.state(url, run_id)
        async with state.lock:
            state.failed[group_id][episode_id] = reason
            events = await self._settle(url, state)
        await self._publish_all(events)

    # ---- settling ----

    async def _settle(self, url: str, state: RunState, *, write: bool = False) -> list[RunEvent]:
        """Settle what can be settled; write the manifest if anything did (or if `write`)."""
        manifest = state.manifest
        run_id = manifest.run_id
        redundancy = int(manifest.settings.get("redundancy", 0))
        events: list[RunEvent] = []
        changed = write
        for group in manifest.groups:
            if group.status != GroupStatus.PENDING or state.pending[group.group_id]:
                # An episode of this group is being stored here: its own `stored` call settles
                # the group, after its episode_stored event (so run_done is always last).
                continue
            stored = sorted(state.stored[group.group_id])
            failed = state.failed[group.group_id]
            spares = redundancy if group.source == Source.REAL else 0
            if len(stored) >= group.size:
                group.status, group.episodes = GroupStatus.COMPLETE, stored[: group.size]
                events.append(
                    RunEvent(run_id=run_id, kind="group_complete", group_id=group.group_id)
                )
                self.metrics.groups.labels(outcome="complete").inc()
                changed = True
            elif len(failed) > spares:
                group.status, group.episodes = GroupStatus.FAILED, stored
                group.reason = "; ".join(sorted(set(failed.values())))[:2000]
                events.append(
                    RunEvent(run_id=run_id, kind="group_failed", group_id=group.group_id,
                             detail=group.reason)
                )  # fmt: skip
                self.metrics.groups.labels(outcome="failed").inc()
                changed = True
            elif stored != group.episodes:
                group.episodes = stored  # progress, written with the next settled group
        for group_id, tasks in state.attempts.items():
            if tasks and not state.pending_group(group_id):
                log.info("run %s: group %s settled; stopping %d attempts", run_id, group_id,
                         len(tasks))  # fmt: skip
                for task in tasks:
                    task.cancel()
        if manifest.done and manifest.status == RunStatus.RUNNING:
            manifest.status = RunStatus.DONE
            manifest.finished_at = utcnow()
            events.append(RunEvent(run_id=run_id, kind="run_done"))
            changed = True
        if changed:
            await (await self.store(url)).write_manifest(manifest)
        if manifest.status == RunStatus.DONE:
            self.active.pop((url, run_id), None)
        return events

    async def refresh(self, url: str, run_id: str) -> RunManifest:
        """Rebuild the run's state from the store (other brokers' work, crashes), settle it and
        write the manifest."""
        fresh = await self._load(url, run_id)
        state = self.active.setdefault((url, run_id), fresh)  # merging into itself is a no-op
        async with state.lock:
            for group_id, episodes in fresh.stored.items():
                state.stored[group_id] |= episodes
            for group_id, failures in fresh.failed.items():
                state.failed[group_id].update(failures)
            for mine, theirs in zip(state.manifest.groups, fresh.manifest.groups, strict=True):
                if theirs.status != GroupStatus.PENDING and mine.status == GroupStatus.PENDING:
                    mine.status, mine.episodes, mine.reason = (
                        theirs.status,
                        theirs.episodes,
                        theirs.reason,
                    )
            events = await self._settle(url, state, write=True)
        await self._publish_all(events)
        return state.manifest

    async def refresh_active(self) -> None:
        for url, run_id in list(self.active):
            try:
                await self.refresh(url, run_id)
            except TrajectoryError as exc:
                log.warning("cannot refresh run %s: %s", run_id, exc)

    async def _publish_all(self, events: list[RunEvent]) -> None:
        for event in events:
            await self.publish(event)

    async def publish(self, event: RunEvent) -> None:
        with contextlib.suppress(Exception):  # progress events are best effort
            await self.bus.nc.publish(
                rollout_events_subject(event.run_id), event.model_dump_json().encode()
            )
