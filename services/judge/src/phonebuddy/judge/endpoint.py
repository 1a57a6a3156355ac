"""The judge over NATS: `JudgeRequest(episode, store_url)` on `JUDGE_SUBJECT` (queue group
`JUDGE_QUEUE`, shared by every judge process) -> grade from the screenshots in the run's store ->
the record stored there, beside the episode (`runs/<run>/judge/<episode>.json`) ->
`JudgeReply(verdict)`. A request naming no store means the judge's own; a store the judge is not
configured for (its own, or under its store roots) is refused (`invalid_request`).

A verdict is always an answer, `judge_error` included. Only a record that cannot be stored is an
error reply (`internal`, retryable): the caller should ask again rather than keep a verdict whose
evidence is lost.
"""

from __future__ import annotations

import contextlib
import logging

from phonebuddy.bus import Bus, Service, ServiceError
from phonebuddy.judge.judge import Judge
from phonebuddy.judge.metrics import JudgeMetrics
from phonebuddy.protocol import ErrorCode
from phonebuddy.protocol.judging import JudgeReply, JudgeRequest
from phonebuddy.protocol.subjects import JUDGE_QUEUE, JUDGE_SUBJECT
from phonebuddy.storage import StoreError
from phonebuddy.trajectories import RunStores, StoreNotAllowedError, TrajectoryStore

log = logging.getLogger(__name__)


class JudgeEndpoint:
    """Binds a `Judge` to the bus."""

    def __init__(
        self,
        judge: Judge,
        trajectories: TrajectoryStore,
        bus: Bus,
        metrics: JudgeMetrics,
        *,
        stores: RunStores | None = None,
        max_concurrency: int = 16,
        stop_timeout_s: float = 30.0,
    ) -> None:
        self.judge = judge
        self.trajectories = trajectories
        self.stores = stores or RunStores(home=None)
        self.bus = bus
        self.metrics = metrics
        self.max_concurrency = max_concurrency
        self.stop_timeout_s = stop_timeout_s
        self._service: Service | None = None

    async def start(self) -> None:
        self._service = await self.bus.serve(
            JUDGE_SUBJECT,
            JudgeRequest,
            self.handle,
            queue=JUDGE_QUEUE,
            max_concurrency=self.max_concurrency,
            stop_timeout_s=self.stop_timeout_s,
        )
        log.info("judging episodes on %s (queue %s)", JUDGE_SUBJECT, JUDGE_QUEUE)

    async def stop(self) -> None:
        service, self._service = self._service, None
        if service is not None:
            with contextlib.suppress(Exception):
                await service.stop()

    async def _run_store(self, url: str | None) -> TrajectoryStore:
        if url is None:
            return self.trajectories
        try:
            return await self.stores.get(url)
        except StoreNotAllowedError as exc:
            self.metrics.requests.labels(outcome="store_refused").inc()
            raise ServiceError(ErrorCode.INVALID_REQUEST, str(exc)) from exc
        except (StoreError, ValueError) as exc:
            self.metrics.requests.labels(outcome="store_error").inc()
            raise ServiceError(
                ErrorCode.INTERNAL, f"cannot open the store {url}: {exc}", retryable=True
            ) from exc

    async def handle(self, request: JudgeRequest) -> JudgeReply:
        episode = request.episode
        store = await self._run_store(request.store_url)
        verdict, record = await self.judge.grade(episode, store=store)
        try:
            await store.put_judge_record(episode.run_id, episode.episode_id, record)
        except StoreError as exc:
            self.metrics.requests.labels(outcome="store_error").inc()
            raise ServiceError(
                ErrorCode.INTERNAL,
                f"graded episode {episode.episode_id} but could not store the judge record: {exc}",
                retryable=True,
                details={"run_id": episode.run_id, "episode_id": episode.episode_id},
            ) from exc
        self.metrics.requests.labels(outcome="ok").inc()
        return JudgeReply(verdict=verdict)
