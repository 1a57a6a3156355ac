"""`RolloutClient`: submit rollouts to the broker and follow them to their end, over NATS only.

The broker publishes a run's progress events on core NATS (`rollout_events_subject`), which keeps
none: a follower that subscribed late, lost its connection or missed one would wait for ever. So
the follower also asks any broker where the run stands (`ROLLOUT_STATUS`): when it starts, when
its connection comes back, and whenever it has heard nothing for `resync_s`. A `run_done` event
or a status saying `done` ends it; `broker_timeout_s` without a word from any broker ends it
with `BrokerSilentError`, and `timeout_s` with `FollowTimeoutError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass

import nats.errors
from nats.aio.msg import Msg
from pydantic import ValidationError

from phonebuddy.bus import Bus, BusError, NatsSettings, Opening, RemoteError, connect
from phonebuddy.protocol import (
    RolloutAccepted,
    RolloutRequest,
    RunEvent,
    RunProgress,
    RunStatusQuery,
)
from phonebuddy.protocol.rollout import UNKNOWN_RUN
from phonebuddy.protocol.subjects import ROLLOUT_STATUS, ROLLOUT_SUBMIT, rollout_events_subject
from phonebuddy.rollouts.errors import (
    BrokerSilentError,
    BrokerUnavailableError,
    FollowTimeoutError,
    RolloutRefusedError,
    UnknownRunError,
)

log = logging.getLogger(__name__)

EventCallback = Callable[[RunEvent], None]
ProgressCallback = Callable[[RunProgress], None]

_TICK_S = 1.0  # how often a follower looks whether its connection came back
_COUNTED = {
    "episode_stored": "episodes_stored",
    "group_complete": "groups_complete",
    "group_failed": "groups_failed",
}


@dataclass(frozen=True)
class RunOutcome:
    """A finished run as its follower saw it: its last progress (`done`) and the events the
    follower received (best effort: a late or reconnecting follower misses some). The episodes
    are in the store at `store_url`; reading them needs the store's credentials."""

    progress: RunProgress
    events: tuple[RunEvent, ...] = ()

    @property
    def run_id(self) -> str:
        return self.progress.run_id

    @property
    def store_url(self) -> str:
        return self.progress.store_url


class RolloutClient(contextlib.AbstractAsyncContextManager["RolloutClient"]):
    """Submits rollouts and follows them: `async with RolloutClient.connect(nats) as client:`,
    or `RolloutClient(bus)` over a bus the caller owns (and closes)."""

    def __init__(
        self,
        bus: Bus,
        *,
        submit_timeout_s: float = 120.0,
        status_timeout_s: float = 10.0,
        resync_s: float = 15.0,
        broker_timeout_s: float = 120.0,
    ) -> None:
        if min(submit_timeout_s, status_timeout_s, resync_s, broker_timeout_s) <= 0:
            raise ValueError("the rollout client's timeouts and resync interval must be positive")
        self.bus = bus
        self.submit_timeout_s = submit_timeout_s
        self.status_timeout_s = status_timeout_s
        self.resync_s = resync_s
        self.broker_timeout_s = broker_timeout_s
        self._owns_bus = False

    @classmethod
    def connect(cls, settings: NatsSettings, **options: float) -> Opening[RolloutClient]:
        """A client on its own NATS connection (closed with the client); `options` as for
        the constructor."""

        async def open_() -> RolloutClient:
            client = cls(await connect(settings), **options)
            client._owns_bus = True
            return client

        return Opening(open_)

    async def close(self) -> None:
        if self._owns_bus:
            await self.bus.close()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # ---- requests ----

    async def submit(self, request: RolloutRequest) -> RolloutAccepted:
        """Hand `request` to a broker. Submitting the same request again is harmless (the
        broker runs each episode once). Raises `RolloutRefusedError` or
        `BrokerUnavailableError`."""
        try:
            return await self.bus.request(
                ROLLOUT_SUBMIT, request, RolloutAccepted, timeout_s=self.submit_timeout_s
            )
        except RemoteError as exc:
            raise _refused(request.run_id, exc) from exc
        except BusError as exc:
            raise BrokerUnavailableError(request.run_id, str(exc)) from exc

    async def status(self, run_id: str, *, store_url: str | None = None) -> RunProgress:
        """Where the run stands, from any broker (`store_url`: the store `RolloutAccepted`
        named; without it, the broker's default store).

        Raises `UnknownRunError`, `RolloutRefusedError` (for instance a store the broker may not
        read), and the bus's `BusError`s when no broker answers."""
        query = RunStatusQuery(run_id=run_id, store_url=store_url)
        try:
            return await self.bus.request(
                ROLLOUT_STATUS, query, RunProgress, timeout_s=self.status_timeout_s
            )
        except RemoteError as exc:
            if UNKNOWN_RUN in exc.details:
                raise UnknownRunError(run_id, exc.details.get("store_url", store_url)) from exc
            raise _refused(run_id, exc) from exc

    async def run(
        self,
        request: RolloutRequest,
        *,
        timeout_s: float = 3600.0,
        on_event: EventCallback | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> RunOutcome:
        """Submit `request` and follow the run to its end (see `follow`); the follower
        subscribes to the run's events before it submits, so it misses none of them."""
        async with self._events(request.run_id) as events:
            accepted = await self.submit(request)
            start = RunProgress(
                run_id=accepted.run_id, store_url=accepted.store_url, groups=accepted.groups
            )
            follower = _Follower(self, accepted.run_id, start, events, on_event, on_progress)
            return await follower.until_done(timeout_s)

    async def follow(
        self,
        run: RolloutAccepted | str,
        *,
        timeout_s: float = 3600.0,
        on_event: EventCallback | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> RunOutcome:
        """Wait until the run is done (every group complete or failed) and return how it
        ended; a run that is already done returns at once. `on_event` sees each progress event,
        `on_progress` each new `RunProgress` (from events and from status answers).

        Raises `UnknownRunError`, `FollowTimeoutError` after `timeout_s`, and
        `BrokerSilentError` when no broker has said anything for `broker_timeout_s`."""
        if isinstance(run, str):
            run_id, start = run, None
        else:
            run_id = run.run_id
            start = RunProgress(run_id=run_id, store_url=run.store_url, groups=run.groups)
        async with self._events(run_id) as events:
            follower = _Follower(self, run_id, start, events, on_event, on_progress)
            return await follower.until_done(timeout_s)

    @contextlib.asynccontextmanager
    async def _events(self, run_id: str) -> AsyncIterator[asyncio.Queue[RunEvent]]:
        """The run's progress events, as they arrive, while the block runs. A request sent on
        this connection after subscribing reaches the server after the subscription does."""
        queue: asyncio.Queue[RunEvent] = asyncio.Queue()

        async def received(message: Msg) -> None:
            try:
                event = RunEvent.model_validate_json(message.data)
            except ValidationError:
                log.warning("ignoring a progress event of run %s that does not validate", run_id)
                return
            if event.run_id == run_id:  # run ids differing only in '.' / '_' share a subject
                queue.put_nowait(event)

        subscription = await self.bus.nc.subscribe(rollout_events_subject(run_id), cb=received)
        try:
            yield queue
        finally:
            with contextlib.suppress(nats.errors.Error):
                await subscription.unsubscribe()


def _refused(run_id: str, exc: RemoteError) -> RolloutRefusedError:
    return RolloutRefusedError(run_id, code=exc.code, message=exc.message, retryable=exc.retryable)


def _advanced(progress: RunProgress, event: RunEvent) -> RunProgress:
    """`progress` after `event` (until a status answer says better)."""
    field = _COUNTED.get(event.kind)
    if field is None:
        return progress
    return progress.model_copy(update={field: getattr(progress, field) + 1})


def _resynced(known: RunProgress | None, answer: RunProgress) -> RunProgress:
    """A broker's answer over what the events said. The answer's groups come from the
    manifest, written before each group event, so they are never behind the events that came
    before it; its episode count can be (a broker not running the run counts only the
    episodes of settled groups)."""
    if known is None:
        return answer
    return answer.model_copy(
        update={"episodes_stored": max(known.episodes_stored, answer.episodes_stored)}
    )


class _Follower:
    """One follow of one run: its events, what brokers said about it, and when."""

    def __init__(
        self,
        client: RolloutClient,
        run_id: str,
        progress: RunProgress | None,
        events: asyncio.Queue[RunEvent],
        on_event: EventCallback | None,
        on_progress: ProgressCallback | None,
    ) -> None:
        self.client = client
        self.run_id = run_id
        self.progress = progress
        self.events = events
        self.on_event = on_event
        self.on_progress = on_progress
        self.seen: list[RunEvent] = []
        self.loop = asyncio.get_running_loop()
        self.heard = self.loop.time()  # the last time a broker said something about the run

    def _reconnects(self) -> int:
        return int(self.client.bus.nc.stats["reconnects"])

    async def until_done(self, timeout_s: float) -> RunOutcome:
        loop = self.loop
        deadline = loop.time() + timeout_s
        resync_at = loop.time()  # ask at once: the run may be done already
        reconnects = self._reconnects()
        run_done = False  # a run_done event came
        while True:
            if self._reconnects() != reconnects:  # events may have gone by while it was down
                reconnects = self._reconnects()
                resync_at = loop.time()
            if loop.time() >= resync_at:
                await self._resync()
                if self.progress is not None and (self.progress.done or run_done):
                    if not self.progress.done:  # no broker answered after the run_done event
                        self._show(self.progress.model_copy(update={"done": True}))
                    return RunOutcome(progress=self.progress, events=tuple(self.seen))
                resync_at = loop.time() + self.client.resync_s
            self._check(deadline, timeout_s)
            wake = min(resync_at, deadline, self.heard + self.client.broker_timeout_s)
            event = await self._next_event(min(wake - loop.time(), _TICK_S))
            if event is not None:
                self._take(event)
                if event.kind == "run_done":
                    run_done = True
                    resync_at = loop.time()  # the final numbers, from the manifest
                else:
                    resync_at = loop.time() + self.client.resync_s

    async def _resync(self) -> None:
        """Ask a broker where the run stands (none answering is not an error, yet)."""
        store_url = self.progress.store_url if self.progress is not None else None
        try:
            answer = await self.client.status(self.run_id, store_url=store_url)
        except RolloutRefusedError as exc:
            if not exc.retryable:
                raise
            log.info("run %s: the broker cannot say where it stands yet: %s", self.run_id, exc)
            return
        except (BusError, nats.errors.Error) as exc:
            log.info("run %s: no status answer: %s", self.run_id, exc)
            return
        self.heard = self.loop.time()
        self._show(_resynced(self.progress, answer))

    def _check(self, deadline: float, timeout_s: float) -> None:
        now = self.loop.time()
        silent_s = now - self.heard
        if silent_s >= self.client.broker_timeout_s:
            raise BrokerSilentError(
                self.run_id, round(silent_s, 1), connected=self.client.bus.is_connected,
                progress=self.progress,
            )  # fmt: skip
        if now >= deadline:
            raise FollowTimeoutError(self.run_id, timeout_s, self.progress)

    async def _next_event(self, wait_s: float) -> RunEvent | None:
        try:
            return await asyncio.wait_for(self.events.get(), timeout=max(wait_s, 0.0))
        except TimeoutError:
            return None

    def _take(self, event: RunEvent) -> None:
        self.heard = self.loop.time()
        self.seen.append(event)
        if self.on_event is not None:
            self.on_event(event)
        if self.progress is not None:
            self._show(_advanced(self.progress, event))

    def _show(self, progress: RunProgress) -> None:
        self.progress = progress
        if self.on_progress is not None:
            self.on_progress(progress)
