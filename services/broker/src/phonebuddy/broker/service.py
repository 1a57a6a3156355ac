"""The broker process: accepts rollout requests (NATS request/reply), queues their episodes in
JetStream, runs them, and says where a run stands (`ROLLOUT_STATUS`) to followers that missed
its progress events.

Durability: a work item is acknowledged only after its episode is in the store (or was given up
and recorded) and the item after it in its run's chain is queued, so a broker killed mid-run
leaves its unfinished items to be redelivered, to itself after a restart or to another broker.
Episode ids make every write idempotent: an item whose episode is already stored is
acknowledged without running it again.

Fairness: each run's items have their own queue, and a free worker takes the next item from
the run with the fewest items running in this process (see `queues`): a run submitted behind
others waits for the next free worker, never for what they have queued. A run never has more
than its `concurrency` items queued or running (see `planning`), and when a group settles, its
other running attempts stop and give their devices back.

Trust: a request chooses neither credentials nor stores. The policy API key goes only to the
endpoint it is configured for (`endpoints`), and runs are written only to the broker's own
store or under its configured store roots (`RunStores`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime

from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from phonebuddy.agent import PolicyClient, PolicyEndpoint
from phonebuddy.broker.endpoints import UnknownEndpointError
from phonebuddy.broker.env import EnvFailureError, EnvRejectedError, leased_device
from phonebuddy.broker.episodes import EpisodeRunner, PolicyFailureError, StalePolicyError
from phonebuddy.broker.metrics import BrokerMetrics
from phonebuddy.broker.planning import plan, window
from phonebuddy.broker.queues import RunQueues
from phonebuddy.broker.runs import RunBook
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import (
    Bus,
    BusError,
    NatsSettings,
    RemoteError,
    Service,
    ServiceError,
    TransientError,
    connect,
)
from phonebuddy.protocol import (
    Episode,
    EpisodeWork,
    ErrorCode,
    PolicyTarget,
    RolloutAccepted,
    RolloutRequest,
    RunEvent,
    RunProgress,
    RunStatusQuery,
    Source,
    TaskList,
    TaskQuery,
    TaskSpec,
)
from phonebuddy.protocol.rollout import UNKNOWN_RUN
from phonebuddy.protocol.subjects import (
    ROLLOUT_EPISODES,
    ROLLOUT_QUEUE,
    ROLLOUT_STATUS,
    ROLLOUT_STREAM,
    ROLLOUT_SUBJECTS,
    ROLLOUT_SUBMIT,
    WORLD_TASKS,
    dead_letter_subject,
)
from phonebuddy.trajectories import (
    RunStatus,
    RunStores,
    StoreNotAllowedError,
    TrajectoryError,
    TrajectoryStore,
)

log = logging.getLogger(__name__)


class BrokerService:
    def __init__(self, settings: BrokerSettings, nats: NatsSettings) -> None:
        self.settings = settings
        self.nats = nats
        self.metrics = BrokerMetrics()
        self.endpoints = settings.endpoints()
        self.bus: Bus | None = None
        self.runs: RunBook | None = None
        self._clients: dict[tuple[str | None, str, str], PolicyClient] = {}
        self._submit: Service | None = None
        self._status: Service | None = None
        self._queues: RunQueues | None = None
        self._dead: Subscription | None = None

    def _parts(self) -> tuple[Bus, RunBook]:
        if self.bus is None or self.runs is None:
            raise TransientError("the broker is not running")
        return self.bus, self.runs

    @property
    def ready(self) -> bool:
        return (
            self.bus is not None
            and self.bus.is_connected
            and self._queues is not None
            and self._queues.running
        )

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        self.bus = await connect(self.nats)
        stores = RunStores(home=self.settings.default_store_url, roots=self.settings.store_roots)
        self.runs = RunBook(self.bus, self.metrics, stores)
        loops: list[asyncio.Task[None]] = []
        try:
            await self.bus.ensure_stream(ROLLOUT_STREAM, [ROLLOUT_SUBJECTS])
            s = self.settings
            queues = RunQueues(
                self.bus, stream=ROLLOUT_STREAM, subject=ROLLOUT_EPISODES, durable=s.durable,
                message_type=EpisodeWork, handler=self.handle, workers=s.workers,
                dead_letter_subject=dead_letter_subject(ROLLOUT_STREAM),
                max_deliver=s.max_deliver, backoff_s=(2.0, 10.0, 30.0), ack_wait_s=s.ack_wait_s,
                idle_s=max(600.0, 10 * s.ack_wait_s),
            )  # fmt: skip
            self._queues = queues  # before submissions come in: they queue items
            self._submit = await self.bus.serve(
                ROLLOUT_SUBMIT, RolloutRequest, self.submit, queue=ROLLOUT_QUEUE
            )
            self._status = await self.bus.serve(
                ROLLOUT_STATUS, RunStatusQuery, self.status, queue=ROLLOUT_QUEUE
            )
            self._dead = await self.bus.nc.subscribe(
                dead_letter_subject(ROLLOUT_STREAM), cb=self._dead_letter
            )
            await queues.start()
            loops.append(asyncio.create_task(self._reconcile_forever()))
            yield
        finally:
            for task in loops:
                task.cancel()
            await asyncio.gather(*loops, return_exceptions=True)
            if self._queues is not None:
                await self._queues.stop()
            for service in (self._submit, self._status):
                if service is not None:
                    await service.stop()
            if self._dead is not None:
                with contextlib.suppress(Exception):
                    await self._dead.unsubscribe()
            for client in self._clients.values():
                await client.close()
            await self.runs.close()
            await self.bus.close()

    # ---- requests ----

    def _store_url(self, request: RolloutRequest) -> str:
        """The store the run goes to: the request's, if the broker may write there."""
        _, runs = self._parts()
        if request.store_url is None and self.settings.default_store_url is None:
            raise ServiceError(
                ErrorCode.INVALID_REQUEST,
                "the request names no store_url and the broker has no default "
                "(PHONEBUDDY_STORE_URL)",
            )
        try:
            return runs.stores.check(request.store_url)
        except StoreNotAllowedError as exc:
            raise ServiceError(ErrorCode.INVALID_REQUEST, str(exc)) from None

    def _resolve(self, policy: PolicyTarget) -> PolicyTarget:
        try:
            return self.endpoints.resolve(policy)[0]
        except UnknownEndpointError as exc:
            raise ServiceError(ErrorCode.INVALID_REQUEST, str(exc)) from None

    async def _tasks(self, request: RolloutRequest) -> tuple[TaskSpec, ...]:
        selection = request.tasks
        if selection.tasks:
            return selection.tasks
        query = TaskQuery(
            suite=selection.suite, template_ids=selection.template_ids,
            seeds=selection.seeds, language=selection.language,
        )  # fmt: skip
        bus, _ = self._parts()
        try:
            return (await bus.request(WORLD_TASKS, query, TaskList, timeout_s=60)).tasks
        except RemoteError as exc:
            raise ServiceError(
                exc.code, f"PhoneWorld could not list the tasks: {exc.message}"
            ) from exc
        except BusError as exc:
            raise ServiceError(
                ErrorCode.INTERNAL, f"PhoneWorld's task catalogue did not answer: {exc}",
                retryable=True,
            ) from exc  # fmt: skip

    async def submit(self, request: RolloutRequest) -> RolloutAccepted:
        if self.bus is None or self.runs is None:
            raise ServiceError(ErrorCode.INTERNAL, "the broker is not running", retryable=True)
        url = self._store_url(request)
        self._resolve(request.policy)
        try:
            store = await self.runs.store(url)
        except Exception as exc:
            raise ServiceError(
                ErrorCode.INVALID_REQUEST, f"cannot open the store {url}: {exc}"
            ) from exc
        request_json = json.loads(request.model_dump_json())
        try:
            earlier = await store.get_request(request.run_id)
        except TrajectoryError:
            earlier = None
        if earlier is not None and earlier != request_json:
            raise ServiceError(
                ErrorCode.INVALID_REQUEST,
                f"run {request.run_id} already exists with another request; pick a new run id",
            )
        tasks = await self._tasks(request)
        manifest, work = plan(request, tasks, url)
        try:
            stored = await store.read_manifest(request.run_id)
        except TrajectoryError:  # new, or a submission interrupted before its manifest
            stored = None
            await store.put_tasks(request.run_id, tasks)  # before the manifest: it names them
            await store.write_manifest(manifest)
        if earlier is None:
            await store.put_request(request.run_id, request_json)
            self.metrics.runs.inc()
        if stored is None or stored.status != RunStatus.DONE:
            # The run's first `concurrency` items; each queues its successor when done. On a
            # resubmission JetStream's dedup and stored episodes keep every episode once.
            for item in window(request, work):
                await self._queue(item)
        log.info("run %s: %d groups, %d episodes", request.run_id, len(manifest.groups), len(work))
        return RolloutAccepted(
            run_id=request.run_id, groups=len(manifest.groups), episodes=len(work), store_url=url
        )

    async def status(self, query: RunStatusQuery) -> RunProgress:
        """The run's progress; an unknown run is an `invalid_request` with `UNKNOWN_RUN` in
        its details."""
        if self.runs is None:
            raise ServiceError(ErrorCode.INTERNAL, "the broker is not running", retryable=True)
        try:
            url = self.runs.stores.check(query.store_url)
        except StoreNotAllowedError as exc:
            raise ServiceError(ErrorCode.INVALID_REQUEST, str(exc)) from None
        try:
            return await self.runs.progress(url, query.run_id)
        except TrajectoryError:
            raise ServiceError(
                ErrorCode.INVALID_REQUEST, f"there is no run {query.run_id} in {url}",
                details={UNKNOWN_RUN: query.run_id, "store_url": url},
            ) from None  # fmt: skip
        except Exception as exc:
            raise ServiceError(
                ErrorCode.INTERNAL, f"cannot read run {query.run_id} in {url}: {exc}",
                retryable=True,
            ) from exc  # fmt: skip

    # ---- episodes ----

    async def _queue(self, item: EpisodeWork) -> None:
        """Queue `item` on its run's own queue."""
        bus, _ = self._parts()
        if self._queues is None:
            raise TransientError("the broker is not running")
        key = run_queue_key(item)
        await bus.publish(self._queues.subject_of(key), item, msg_id=episode_msg_id(item))
        self._queues.announce(key)

    async def _queue_successor(self, work: EpisodeWork) -> None:
        """Queue the item after `work` in its run's chain (before `work` is acknowledged)."""
        _, runs = self._parts()
        try:
            item = await runs.successor(work)
            if item is not None:
                await self._queue(item)
        except (BusError, TrajectoryError) as exc:
            raise TransientError(
                f"run {work.run_id}: cannot queue its next episode: {exc}"
            ) from exc

    def _policy(self, target: PolicyTarget) -> tuple[PolicyTarget, PolicyClient]:
        """The configured endpoint a work item names, and a client bound to it; credentials
        come from the endpoint's configuration, never from the item."""
        target, config = self.endpoints.resolve(target)
        key = (target.endpoint, config.base_url, target.model)
        if key not in self._clients:
            self._clients[key] = PolicyClient(
                PolicyEndpoint(
                    base_url=config.base_url, model=target.model, api_key=config.api_key,
                    teacher=config.teacher, timeout_s=self.settings.policy_timeout_s,
                )
            )  # fmt: skip
        return target, self._clients[key]

    async def handle(self, work: EpisodeWork) -> None:
        _, runs = self._parts()
        try:
            runs.stores.check(work.store_url)
        except StoreNotAllowedError as exc:  # not from a submission: those are checked
            log.error("dropping work item %s/%s: %s", work.run_id, work.episode_id, exc)
            return
        await self._handle(work)
        await self._queue_successor(work)

    async def _handle(self, work: EpisodeWork) -> None:
        bus, runs = self._parts()
        url = work.store_url
        try:
            store = await runs.store(url)
            needed = await runs.needs_run(url, work.run_id, work.group_id, work.episode_id)
        except Exception as exc:
            raise TransientError(f"run {work.run_id}: store unavailable: {exc}") from exc
        if not needed:
            return  # the group is settled (a spare after G finished, or a failed group)
        if await store.has_episode(work.run_id, work.episode_id):
            await runs.stored(url, work.run_id, work.group_id, work.episode_id)  # before a crash
            return
        try:
            policy, client = self._policy(work.policy)
        except UnknownEndpointError as exc:
            await self._give_up(work, store, f"policy: {exc}")
            return
        runner = EpisodeRunner(
            bus=bus, policy=client, store=store, metrics=self.metrics,
            image_format=self.settings.image_format, policy_retries=self.settings.policy_retries,
            judge_timeout_s=self.settings.judge_timeout_s,
        )  # fmt: skip
        attempts = asyncio.create_task(self._episode(work, runner, policy))
        try:
            async with runs.attempt(work, attempts):
                await asyncio.wait({attempts})
        finally:
            if not attempts.done():  # this handler is being cancelled (the broker stops)
                attempts.cancel()
                await asyncio.gather(attempts, return_exceptions=True)
        if attempts.cancelled():
            log.info("%s/%s: its group settled; attempt stopped", work.run_id, work.episode_id)
            return
        episode, reason = attempts.result()
        if episode is None:
            await self._give_up(work, store, reason)
            return
        if not await runs.reserve(url, work.run_id, work.group_id, work.episode_id):
            return  # a spare that finished after the first G
        try:
            created = await store.put_episode(episode)
        except BaseException:
            await runs.release(url, work.run_id, work.group_id, work.episode_id)
            raise
        if created:
            self._count(episode)
            await runs.publish(
                RunEvent(run_id=work.run_id, kind="episode_stored", episode_id=episode.episode_id,
                         group_id=work.group_id,
                         success=episode.verdict.success if episode.verdict else None)
            )  # fmt: skip
        await runs.stored(url, work.run_id, work.group_id, work.episode_id)

    async def _give_up(self, work: EpisodeWork, store: TrajectoryStore, reason: str) -> None:
        _, runs = self._parts()
        await store.put_failure(
            work.run_id, work.episode_id,
            {"episode_id": work.episode_id, "group_id": work.group_id, "reason": reason,
             "failed_at": datetime.now(UTC).isoformat()},
        )  # fmt: skip
        self.metrics.failed_episodes.labels(reason=reason.split(":", 1)[0][:40]).inc()
        await runs.given_up(work.store_url, work.run_id, work.group_id, work.episode_id, reason)

    async def _episode(
        self, work: EpisodeWork, runner: EpisodeRunner, policy: PolicyTarget
    ) -> tuple[Episode | None, str]:
        """Run the episode (retried on fresh devices) and, for a real one, have it judged."""
        self.metrics.running.inc()
        try:
            episode, reason = await self._attempts(work, runner, policy)
        finally:
            self.metrics.running.dec()
        if episode is not None and work.task.source == Source.REAL:
            episode = await runner.judge(episode, work.store_url)
        return episode, reason

    async def _attempts(
        self, work: EpisodeWork, runner: EpisodeRunner, policy: PolicyTarget
    ) -> tuple[Episode | None, str]:
        bus, _ = self._parts()
        s = self.settings
        reason = ""
        for attempt in range(1, work.max_env_retries + 2):
            try:
                async with asyncio.timeout(s.episode_timeout_s):
                    async with leased_device(
                        bus, work.task.source, client_id=f"{work.run_id}/{work.episode_id}",
                        apps=work.task.apps, timeout_s=s.env_timeout_s, ttl_s=s.lease_ttl_s,
                        wait_s=s.lease_wait_s,
                        waiting=self.metrics.lease_waiting.labels(source=work.task.source.value),
                    ) as env:  # fmt: skip
                        return await runner.run(work, env, attempt, policy), ""
            except EnvRejectedError as exc:
                return None, f"rejected: {exc}"
            except (EnvFailureError, PolicyFailureError, StalePolicyError, TimeoutError) as exc:
                kind = {
                    EnvFailureError: "env", PolicyFailureError: "policy",
                    StalePolicyError: "stale_policy", TimeoutError: "timeout",
                }[type(exc)]  # fmt: skip
                reason = f"{kind}: {exc or 'episode timed out'}"
                log.warning("%s attempt %d failed: %s", work.episode_id, attempt, reason)
                if attempt <= work.max_env_retries:
                    self.metrics.retries.labels(reason=kind).inc()
        return None, f"gave up after {work.max_env_retries + 1} attempts; last: {reason}"

    def _count(self, episode: Episode) -> None:
        task = episode.task
        success = episode.verdict is not None and episode.verdict.success
        outcome = (
            "judge_error" if episode.verdict is not None and episode.verdict.judge_error
            else "success" if success else "failure"
        )  # fmt: skip
        for app in task.apps:
            labels = {"source": task.source.value, "category": task.category.value, "app": app}
            self.metrics.episodes.labels(**labels, outcome=outcome).inc()
            if success:
                self.metrics.successes.labels(**labels).inc()
        self.metrics.episode_steps.labels(source=task.source.value).observe(len(episode.steps))
        spent = sum(step.timings.env_s + step.timings.policy_s for step in episode.steps)
        wall = (episode.finished_at - episode.started_at).total_seconds()
        if episode.steps:
            self.metrics.overhead.observe(max(0.0, wall - spent) / len(episode.steps))

    async def _dead_letter(self, message: Msg) -> None:
        """A work item that failed every delivery: record its episode as given up."""
        try:
            work = EpisodeWork.model_validate_json(message.data)
            _, runs = self._parts()
            store = await runs.store(work.store_url)
            await self._give_up(work, store, "dead letter: every delivery failed")
            await self._queue_successor(work)
        except Exception:
            log.exception("could not record a dead-lettered work item")

    async def _reconcile_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.reconcile_interval_s)
            if self.runs is not None:
                await self.runs.refresh_active()


def run_queue_key(item: EpisodeWork) -> str:
    """The run's queue (subject token and consumer name): a run is its id in its store."""
    return hashlib.sha256(f"{item.store_url}\n{item.run_id}".encode()).hexdigest()[:16]


def episode_msg_id(item: EpisodeWork) -> str:
    """JetStream's dedup key of an episode: a resubmitted run's episodes dedupe, while a run of
    the same id in another store is another run (a job started afresh under its old name within
    the dedup window would otherwise see its episodes dropped and wait forever)."""
    store = hashlib.sha256(item.store_url.encode()).hexdigest()[:16]
    return f"{store}/{item.run_id}/{item.episode_id}"
