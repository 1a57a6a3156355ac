"""The broker process: accepts rollout requests (NATS request/reply), queues their episodes in
JetStream, and runs them.

Durability: a work item is acknowledged only after its episode is in the store (or was given up
and recorded), so a broker killed mid-run leaves its unfinished items to be redelivered, to
itself after a restart or to another broker. Episode ids make every write idempotent: an item
whose episode is already stored is acknowledged without running it again.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator

from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

from phonebuddy.agent import PolicyClient, PolicyEndpoint
from phonebuddy.broker.env import EnvFailureError, EnvRejectedError, leased_device
from phonebuddy.broker.episodes import EpisodeRunner, PolicyFailureError, StalePolicyError
from phonebuddy.broker.metrics import BrokerMetrics
from phonebuddy.broker.planning import plan
from phonebuddy.broker.runs import RunBook
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import (
    Bus,
    BusError,
    Consumer,
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
    RolloutAccepted,
    RolloutRequest,
    RunEvent,
    Source,
    TaskList,
    TaskQuery,
    TaskSpec,
)
from phonebuddy.protocol.subjects import (
    ROLLOUT_EPISODES,
    ROLLOUT_QUEUE,
    ROLLOUT_STREAM,
    ROLLOUT_SUBJECTS,
    ROLLOUT_SUBMIT,
    WORLD_TASKS,
    dead_letter_subject,
)
from phonebuddy.trajectories import GroupStatus, TrajectoryError

log = logging.getLogger(__name__)


class BrokerService:
    def __init__(self, settings: BrokerSettings, nats: NatsSettings) -> None:
        self.settings = settings
        self.nats = nats
        self.metrics = BrokerMetrics()
        self.bus: Bus | None = None
        self.runs: RunBook | None = None
        self._clients: dict[tuple[str, str], PolicyClient] = {}
        self._submit: Service | None = None
        self._consumer: Consumer | None = None
        self._dead: Subscription | None = None

    def _parts(self) -> tuple[Bus, RunBook]:
        if self.bus is None or self.runs is None:
            raise TransientError("the broker is not running")
        return self.bus, self.runs

    @property
    def ready(self) -> bool:
        return self.bus is not None and self.bus.is_connected and self._consumer is not None

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        self.bus = await connect(self.nats)
        self.runs = RunBook(self.bus, self.metrics)
        loops: list[asyncio.Task[None]] = []
        try:
            await self.bus.ensure_stream(ROLLOUT_STREAM, [ROLLOUT_SUBJECTS])
            self._submit = await self.bus.serve(
                ROLLOUT_SUBMIT, RolloutRequest, self.submit, queue=ROLLOUT_QUEUE
            )
            self._dead = await self.bus.nc.subscribe(
                dead_letter_subject(ROLLOUT_STREAM), cb=self._dead_letter
            )
            s = self.settings
            self._consumer = await self.bus.consume(
                stream=ROLLOUT_STREAM, durable=s.durable, subject=ROLLOUT_EPISODES,
                message_type=EpisodeWork, handler=self.handle,
                dead_letter_subject=dead_letter_subject(ROLLOUT_STREAM),
                max_deliver=s.max_deliver, backoff_s=(2.0, 10.0, 30.0), ack_wait_s=s.ack_wait_s,
                concurrency=s.workers,
            )  # fmt: skip
            loops.append(asyncio.create_task(self._reconcile_forever()))
            yield
        finally:
            for task in loops:
                task.cancel()
            await asyncio.gather(*loops, return_exceptions=True)
            if self._consumer is not None:
                await self._consumer.stop()
            if self._submit is not None:
                await self._submit.stop()
            if self._dead is not None:
                with contextlib.suppress(Exception):
                    await self._dead.unsubscribe()
            for client in self._clients.values():
                await client.close()
            await self.runs.close()
            await self.bus.close()

    # ---- requests ----

    def _store_url(self, request: RolloutRequest) -> str:
        url = request.store_url or self.settings.default_store_url
        if not url:
            raise ServiceError(
                ErrorCode.INVALID_REQUEST,
                "the request names no store_url and the broker has no default "
                "(PHONEBUDDY_STORE_URL)",
            )
        return url

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
        manifest.settings["concurrency"] = request.concurrency
        try:
            await store.read_manifest(request.run_id)
        except TrajectoryError:  # new, or a submission interrupted before its manifest
            await store.write_manifest(manifest)
        if earlier is None:
            await store.put_request(request.run_id, request_json)
            self.metrics.runs.inc()
        for item in work:  # on a resubmission JetStream's dedup and stored episodes keep it once
            await self.bus.publish(
                ROLLOUT_EPISODES, item, msg_id=f"{item.run_id}/{item.episode_id}"
            )
        log.info("run %s: %d groups, %d episodes", request.run_id, len(manifest.groups), len(work))
        return RolloutAccepted(
            run_id=request.run_id, groups=len(manifest.groups), episodes=len(work), store_url=url
        )

    # ---- episodes ----

    def _policy(self, work: EpisodeWork) -> PolicyClient:
        key = (work.policy.base_url, work.policy.model)
        if key not in self._clients:
            self._clients[key] = PolicyClient(
                PolicyEndpoint(
                    base_url=work.policy.base_url, model=work.policy.model,
                    api_key=self.settings.policy_api_key,
                    timeout_s=self.settings.policy_timeout_s,
                )
            )  # fmt: skip
        return self._clients[key]

    async def handle(self, work: EpisodeWork) -> None:
        bus, runs = self._parts()
        url = work.store_url
        try:
            store = await runs.store(url)
            status = await runs.group_status(url, work.run_id, work.group_id)
        except Exception as exc:
            raise TransientError(f"run {work.run_id}: store unavailable: {exc}") from exc
        if status != GroupStatus.PENDING:
            return  # the group is settled (a spare after G finished, or a failed group)
        if await store.has_episode(work.run_id, work.episode_id):
            await runs.stored(url, work.run_id, work.group_id, work.episode_id)  # before a crash
            return
        runner = EpisodeRunner(
            bus=bus, policy=self._policy(work), store=store, metrics=self.metrics,
            image_format=self.settings.image_format, policy_retries=self.settings.policy_retries,
            judge_timeout_s=self.settings.judge_timeout_s,
        )  # fmt: skip
        async with runs.limit(url, work.run_id):
            self.metrics.running.inc()
            try:
                episode, reason = await self._attempts(work, runner)
            finally:
                self.metrics.running.dec()
        if episode is None:
            await store.put_failure(
                work.run_id, work.episode_id,
                {"episode_id": work.episode_id, "group_id": work.group_id, "reason": reason},
            )  # fmt: skip
            self.metrics.failed_episodes.labels(reason=reason.split(":", 1)[0][:40]).inc()
            await runs.given_up(url, work.run_id, work.group_id, work.episode_id, reason)
            return
        if work.task.source == Source.REAL:
            episode = await runner.judge(episode)
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

    async def _attempts(
        self, work: EpisodeWork, runner: EpisodeRunner
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
                    ) as env:  # fmt: skip
                        return await runner.run(work, env, attempt), ""
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
            await store.put_failure(
                work.run_id, work.episode_id,
                {"episode_id": work.episode_id, "group_id": work.group_id,
                 "reason": "dead letter: every delivery failed"},
            )  # fmt: skip
            await runs.given_up(
                work.store_url, work.run_id, work.group_id, work.episode_id,
                "dead letter: every delivery failed",
            )  # fmt: skip
        except Exception:
            log.exception("could not record a dead-lettered work item")

    async def _reconcile_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.reconcile_interval_s)
            if self.runs is not None:
                await self.runs.refresh_active()
