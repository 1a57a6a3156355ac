"""Work queues per run, served in turn: how the broker's workers are shared between runs.

Each run's items go to their own subject of the rollout stream (`<subject>.<run key>`), read
through their own durable consumer (`<durable>-<run key>`) that every broker process shares.
A broker takes an item only when one of its workers is free, one at a time (a JetStream pull
with `no_wait`), from the run that has the fewest items running in this process (of equal
ones, the one served longest ago). A run submitted behind others therefore waits for the next
free worker, however many items the earlier runs have queued, and a broker never holds an
item it is not running (the other brokers can take it meanwhile).

Which runs to ask: the one this process just queued an item for (`announce`), and every
`poll_s` those the stream says have items (other brokers' runs, items whose retry delay ran
out or whose broker died, a restarted broker's runs). A run with nothing left in the stream is
forgotten; the server deletes its consumer once nobody has pulled or acknowledged on it for
`idle_s` (never while one of its items is delivered and not yet acknowledged; the item's
reports of progress count as activity too), and a pull that finds it gone creates it again.
Items an older broker queued on `<subject>` itself, for the durable `<durable>`, are served
the same way.

An item is settled by `phonebuddy.bus.Settler`, as `phonebuddy.bus.Consumer` settles its
messages: acknowledged only after its handler returned; reported in progress while it runs, so
it is not redelivered; retried after the backoff for its delivery when the handler failed;
copied to the dead-letter subject and terminated when it does not validate or failed its last
delivery, and, when the server announces that a broker died on the last delivery, read back
from the stream, dead-lettered and deleted.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

import nats.errors
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from pydantic import BaseModel

from phonebuddy.bus import Bus, Settler, WorkHandler
from phonebuddy.bus.dead_letters import max_deliveries_advisory_subject
from phonebuddy.protocol.subjects import check_token

log = logging.getLogger(__name__)
MessageT = TypeVar("MessageT", bound=BaseModel)

# One item if there is one, else at once a 404 status (no lingering pull holds an item back).
_PULL_ONE = json.dumps({"batch": 1, "no_wait": True}).encode()
_NO_ITEM = frozenset({"404", "408"})  # no messages; request timed out


@dataclass(eq=False)
class RunQueue:
    """One run's queue as this process sees it."""

    subject: str
    durable: str
    running: int = 0  # its items being handled in this process
    served: int = 0  # when this process last took an item of it (a counter; 0: never)
    ask: bool = True  # it may have an item ready: pull
    consumer: bool = False  # its durable is known to exist
    announced: float = 0.0  # when this process last queued an item of it (monotonic)


class RunQueues(Generic[MessageT]):
    """The per-run queues of one stream and the loop that hands their items to `workers`
    handlers in turn. `announce(key)` after publishing an item to `subject_of(key)`."""

    def __init__(
        self,
        bus: Bus,
        *,
        stream: str,
        subject: str,
        durable: str,
        message_type: type[MessageT],
        handler: WorkHandler[MessageT],
        workers: int,
        dead_letter_subject: str,
        max_deliver: int,
        backoff_s: Sequence[float],
        ack_wait_s: float,
        poll_s: float = 1.0,
        idle_s: float = 600.0,
        stop_timeout_s: float = 10.0,
    ) -> None:
        if workers < 1 or max_deliver < 1 or not backoff_s or ack_wait_s <= 0 or poll_s <= 0:
            raise ValueError("workers, max_deliver, backoff_s, ack_wait_s and poll_s must be > 0")
        if idle_s < 2 * ack_wait_s:
            raise ValueError(f"idle_s ({idle_s}) must be at least twice ack_wait_s ({ack_wait_s})")
        self.stream = stream
        self.subject = subject
        self.durable = durable
        self.workers = workers
        self.max_deliver = max_deliver
        self.backoff_s = tuple(backoff_s)
        self.ack_wait_s = ack_wait_s
        self.poll_s = poll_s
        self.idle_s = idle_s
        self._bus = bus
        self._stop_timeout_s = stop_timeout_s
        self._timeout_s = bus.settings.request_timeout_s
        self._settler = Settler(
            bus.nc, bus.jetstream, stream=stream, message_type=message_type, handler=handler,
            dead_letter_subject=dead_letter_subject, max_deliver=max_deliver,
            backoff_s=backoff_s, ack_wait_s=ack_wait_s, request_timeout_s=self._timeout_s,
            owns=self._owns, handled_by="broker",
        )  # fmt: skip
        self._queues: dict[str, RunQueue] = {}  # by subject
        self._tasks: set[asyncio.Task[None]] = set()
        self._slot_free = asyncio.Event()
        self._wake = asyncio.Event()
        self._served = 0
        self._next_look = 0.0
        self._loop: asyncio.Task[None] | None = None
        self._advisories: Subscription | None = None
        self._stopped = False

    def subject_of(self, key: str) -> str:
        """The subject of the queue `key` (a single subject token)."""
        return f"{self.subject}.{check_token(key)}"

    def announce(self, key: str) -> None:
        """An item was just published to `subject_of(key)`: ask that queue next."""
        queue = self._queue(self.subject_of(key))
        queue.ask = True
        queue.announced = time.monotonic()
        self._wake.set()

    @property
    def running(self) -> bool:
        """Whether the dispatch loop is alive (for readiness)."""
        return self._loop is not None and not self._loop.done()

    @property
    def in_flight(self) -> int:
        return len(self._tasks)

    def queued_runs(self) -> list[str]:
        """The subjects of the queues this process knows to have items (for tests, logs)."""
        return sorted(self._queues)

    # ---- life ----

    async def start(self) -> None:
        nc = self._bus.nc
        # Listen before the first pull: the server sends the advisory when a pull comes in.
        self._advisories = await nc.subscribe(
            max_deliveries_advisory_subject(self.stream, "*"), queue=self.durable,
            cb=self._settler.on_max_deliveries,
        )  # fmt: skip
        await nc.flush(timeout=max(1, round(self._timeout_s)))
        await self._look(legacy=True)
        self._loop = asyncio.create_task(self._run(), name=f"run-queues {self.durable}")
        log.info("serving the run queues %s.* of %s to %d workers", self.subject, self.stream,
                 self.workers)  # fmt: skip

    async def stop(self) -> None:
        """Stop taking items, let running handlers finish (or cancel them: their items are
        handed back at once), stop listening."""
        if self._stopped:
            return
        self._stopped = True
        if self._loop is not None:
            while not self._loop.done():  # a cancellation can be lost in wait_for (3.11)
                self._loop.cancel()
                await asyncio.wait({self._loop}, timeout=0.5)
        if self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=self._stop_timeout_s)
            for task in pending:
                task.cancel()
            if pending:
                log.warning("cancelled %d handlers still running after %g s; their items go "
                            "back to the queue", len(pending), self._stop_timeout_s)  # fmt: skip
                await asyncio.gather(*pending, return_exceptions=True)
        if self._advisories is not None and not self._bus.nc.is_closed:
            with contextlib.suppress(nats.errors.Error):
                await self._advisories.unsubscribe()
        self._advisories = None

    # ---- which queue next ----

    def _owns(self, consumer: str) -> bool:
        """Whether `consumer` is one of these queues' durables (for max-deliveries advisories)."""
        return consumer == self.durable or consumer.startswith(f"{self.durable}-")

    def _queue(self, subject: str) -> RunQueue:
        queue = self._queues.get(subject)
        if queue is None:
            legacy = subject == self.subject
            durable = self.durable if legacy else f"{self.durable}-{subject.rsplit('.', 1)[1]}"
            queue = self._queues[subject] = RunQueue(subject=subject, durable=durable)
        return queue

    async def _look(self, *, legacy: bool = False) -> None:
        """Ask every queue the stream has items for (and forget the others)."""
        began = time.monotonic()
        self._next_look = began + self.poll_s
        js = self._bus.jetstream
        try:
            info = await js.stream_info(self.stream, subjects_filter=f"{self.subject}.*")
            found = dict(info.state.subjects or {})
            if legacy:
                info = await js.stream_info(self.stream, subjects_filter=self.subject)
                found |= info.state.subjects or {}
        except nats.errors.Error as exc:
            log.warning("cannot list the queues of %s (%r); asking the known ones", self.stream,
                        exc)  # fmt: skip
            for queue in self._queues.values():
                queue.ask = True
            return
        for subject in found:
            self._queue(subject)
        for subject, queue in list(self._queues.items()):
            if subject in found or queue.running or queue.announced >= began:
                queue.ask = True
            else:
                del self._queues[subject]

    async def _take(self) -> tuple[Msg, RunQueue] | None:
        """An item from the queue with the fewest items running here, if any queue has one."""
        self._wake.clear()  # an announcement from now on asks again
        asking = sorted(
            (queue for queue in self._queues.values() if queue.ask),
            key=lambda queue: (queue.running, queue.served),
        )
        for queue in asking:
            queue.ask = False
            msg = await self._pull(queue)
            if msg is not None:
                queue.ask = True  # it may have more
                self._served += 1
                queue.served = self._served
                return msg, queue
        return None

    async def _pull(self, queue: RunQueue) -> Msg | None:
        nc = self._bus.nc
        for _ in range(2):
            if not queue.consumer and not await self._create(queue):
                return None
            try:
                # Old style: a JetStream delivery keeps its own subject, so the shared reply
                # subscription of new-style requests cannot match it to the request.
                msg = await nc.request(
                    f"$JS.API.CONSUMER.MSG.NEXT.{self.stream}.{queue.durable}", _PULL_ONE,
                    timeout=self._timeout_s, old_style=True,
                )  # fmt: skip
            except nats.errors.NoRespondersError:
                queue.consumer = False  # deleted while idle: create it again
                continue
            except nats.errors.TimeoutError:
                log.warning("no answer from the consumer %s in %g s", queue.durable,
                            self._timeout_s)  # fmt: skip
                return None
            status = msg.headers.get("Status") if msg.headers else None
            if status is None:
                return msg
            if status not in _NO_ITEM:
                log.warning("pulling from %s: %s %s", queue.durable, status,
                            msg.headers.get("Description", "") if msg.headers else "")  # fmt: skip
            return None
        return None

    async def _create(self, queue: RunQueue) -> bool:
        config = ConsumerConfig(
            name=queue.durable, durable_name=queue.durable, deliver_policy=DeliverPolicy.ALL,
            ack_policy=AckPolicy.EXPLICIT, ack_wait=self.ack_wait_s,
            max_deliver=self.max_deliver, filter_subject=queue.subject,
            inactive_threshold=self.idle_s,
        )  # fmt: skip
        try:
            await self._bus.jetstream.add_consumer(self.stream, config)
        except nats.errors.Error as exc:
            log.warning("cannot create the consumer %s (%r)", queue.durable, exc)
            return False
        queue.consumer = True
        return True

    async def _run(self) -> None:
        while not self._stopped:
            while len(self._tasks) >= self.workers:
                self._slot_free.clear()
                await self._slot_free.wait()
            try:
                if time.monotonic() >= self._next_look:
                    await self._look()
                taken = await self._take()
            except nats.errors.ConnectionClosedError:
                log.error("NATS connection closed; the run queues are no longer served")
                return
            except Exception:
                log.exception("taking an item failed; trying again in 1 s")
                await asyncio.sleep(1.0)
                continue
            if taken is None:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(max(0.0, self._next_look - time.monotonic())):
                        await self._wake.wait()
                continue
            msg, queue = taken
            queue.running += 1
            task = asyncio.create_task(self._settler.handle(msg), name=f"run-item {queue.durable}")
            self._tasks.add(task)
            task.add_done_callback(functools.partial(self._done, queue))

    def _done(self, queue: RunQueue, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        queue.running -= 1
        self._slot_free.set()
