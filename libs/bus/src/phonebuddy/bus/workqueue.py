"""JetStream work queues: durable streams, deduplicated publishing and a consumer loop.

The consumer fetches messages from a durable pull consumer and settles each as
`phonebuddy.bus.delivery` describes: acknowledged only after its handler returned, retried after
a backoff when it failed, kept alive while it runs, dead-lettered when it does not validate or
failed its last delivery, and dead-lettered (and deleted from a work-queue stream) when the
server announces that its worker died on the last delivery. Every consumer listens for its
durable's max-deliveries advisories (one process of a queue group takes each). Delivery is
at-least-once: handlers must be idempotent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import TracebackType
from typing import Self

import nats.errors
import nats.js.errors
from nats.aio.client import Client as NatsClient
from nats.aio.subscription import Subscription
from nats.js.api import (
    AckPolicy,
    ConsumerConfig,
    DeliverPolicy,
    RetentionPolicy,
    StorageType,
    StreamConfig,
    StreamInfo,
)
from nats.js.client import JetStreamContext
from pydantic import BaseModel

from phonebuddy.bus._flush import flush
from phonebuddy.bus.dead_letters import MSG_ID_HEADER, max_deliveries_advisory_subject
from phonebuddy.bus.delivery import MessageT, Settler, WorkHandler
from phonebuddy.bus.errors import (
    PayloadTooLargeError,
    PublishError,
    RequestTimeoutError,
    StreamError,
)

logger = logging.getLogger(__name__)

# nats-server's error code for "stream name already in use with a different configuration".
_STREAM_NAME_IN_USE = 10058


class Retention(StrEnum):
    """How long a stream keeps messages: until acked (work queue) or until limits (a log)."""

    WORK_QUEUE = "workqueue"
    LIMITS = "limits"


@dataclass(frozen=True)
class PublishAck:
    """Where JetStream stored a message; `duplicate` when an earlier message had its msg_id."""

    stream: str
    sequence: int
    duplicate: bool


async def ensure_stream(
    js: JetStreamContext,
    name: str,
    subjects: Sequence[str],
    *,
    retention: Retention = Retention.WORK_QUEUE,
    max_age_s: float | None = None,
    duplicate_window_s: float = 120.0,
) -> StreamInfo:
    """Create the stream (file storage) or bring an existing one to this config; idempotent."""
    config = StreamConfig(
        name=name,
        subjects=list(subjects),
        retention=RetentionPolicy(retention.value),
        storage=StorageType.FILE,
        max_age=max_age_s,
        duplicate_window=duplicate_window_s,
    )
    try:
        try:
            return await js.add_stream(config)
        except nats.js.errors.BadRequestError as exc:
            if exc.err_code != _STREAM_NAME_IN_USE:
                raise
        logger.info("stream %s exists with another config; updating it", name)
        return await js.update_stream(config)
    except nats.js.errors.APIError as exc:
        raise StreamError(name, exc.description or repr(exc)) from exc
    except nats.errors.TimeoutError as exc:
        raise StreamError(name, "JetStream API did not answer in time") from exc


async def publish(
    js: JetStreamContext,
    nc: NatsClient,
    subject: str,
    message: BaseModel,
    *,
    msg_id: str | None,
    timeout_s: float,
) -> PublishAck:
    """Store `message` in the stream that holds `subject`; `msg_id` makes retries idempotent."""
    payload = message.model_dump_json().encode()
    if len(payload) > nc.max_payload:
        raise PayloadTooLargeError(subject, len(payload), nc.max_payload)
    headers = {MSG_ID_HEADER: msg_id} if msg_id else None
    try:
        ack = await js.publish(subject, payload, timeout=timeout_s, headers=headers)
    except nats.js.errors.NoStreamResponseError as exc:
        raise PublishError(subject, "no stream stores this subject") from exc
    except nats.js.errors.APIError as exc:
        raise PublishError(subject, exc.description or repr(exc)) from exc
    except nats.errors.TimeoutError as exc:
        raise RequestTimeoutError(subject, timeout_s) from exc
    except nats.errors.MaxPayloadError as exc:
        raise PayloadTooLargeError(subject, len(payload), nc.max_payload) from exc
    return PublishAck(stream=ack.stream, sequence=ack.seq, duplicate=bool(ack.duplicate))


class Consumer:
    """A loop over a durable pull consumer that hands each message to an async handler.

    Several `Consumer`s (in one process or many) on the same durable share its messages. Stop it
    with `stop()` or `async with`: it stops fetching, lets running handlers finish for up to
    `stop_timeout_s`, then cancels them (their messages are redelivered at once).
    """

    def __init__(
        self,
        nc: NatsClient,
        js: JetStreamContext,
        *,
        stream: str,
        durable: str,
        subject: str,
        message_type: type[MessageT],
        handler: WorkHandler[MessageT],
        dead_letter_subject: str,
        max_deliver: int,
        backoff_s: Sequence[float],
        ack_wait_s: float,
        concurrency: int,
        handler_timeout_s: float | None,
        fetch_timeout_s: float,
        stop_timeout_s: float,
        request_timeout_s: float,
        on_stop: Callable[[Consumer], None] | None = None,
    ) -> None:
        if max_deliver < 1:
            raise ValueError(f"max_deliver must be at least 1, not {max_deliver}")
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, not {concurrency}")
        if not backoff_s or any(delay < 0 for delay in backoff_s):
            raise ValueError(f"backoff_s must be one or more delays >= 0, not {backoff_s!r}")
        if ack_wait_s <= 0:
            raise ValueError(f"ack_wait_s must be positive, not {ack_wait_s}")
        self.stream = stream
        self.durable = durable
        self.subject = subject
        self.dead_letter_subject = dead_letter_subject
        self.max_deliver = max_deliver
        self.backoff_s = tuple(backoff_s)
        self.ack_wait_s = ack_wait_s
        self.concurrency = concurrency
        self._nc = nc
        self._js = js
        self._fetch_timeout_s = fetch_timeout_s
        self._stop_timeout_s = stop_timeout_s
        self._request_timeout_s = request_timeout_s
        self._on_stop = on_stop
        self._psub: JetStreamContext.PullSubscription | None = None
        self._settler = Settler(
            nc,
            js,
            stream=stream,
            message_type=message_type,
            handler=handler,
            dead_letter_subject=dead_letter_subject,
            max_deliver=max_deliver,
            backoff_s=backoff_s,
            ack_wait_s=ack_wait_s,
            request_timeout_s=request_timeout_s,
            handler_timeout_s=handler_timeout_s,
        )
        self._advisories: Subscription | None = None
        self._loop_task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._slot_free = asyncio.Event()
        self._stopped = False

    async def start(self) -> Self:
        """Create or update the durable consumer, bind to it and start fetching."""
        config = ConsumerConfig(
            name=self.durable,
            durable_name=self.durable,
            deliver_policy=DeliverPolicy.ALL,
            ack_policy=AckPolicy.EXPLICIT,
            ack_wait=self.ack_wait_s,
            max_deliver=self.max_deliver,
            filter_subject=self.subject,
        )
        try:
            stream = await self._js.stream_info(self.stream)
            await self._js.add_consumer(self.stream, config)
        except nats.js.errors.APIError as exc:
            raise StreamError(self.stream, exc.description or repr(exc)) from exc
        except nats.errors.TimeoutError as exc:
            raise StreamError(self.stream, "JetStream API did not answer in time") from exc
        self._settler.work_queue = stream.config.retention == RetentionPolicy.WORK_QUEUE
        # Listen before the first fetch: the server sends the advisory when a pull comes in.
        self._advisories = await self._nc.subscribe(
            max_deliveries_advisory_subject(self.stream, self.durable),
            queue=self.durable,
            cb=self._settler.on_max_deliveries,
        )
        await flush(self._nc, timeout_s=self._request_timeout_s)
        self._psub = await self._js.pull_subscribe_bind(durable=self.durable, stream=self.stream)
        self._loop_task = asyncio.create_task(self._run(), name=f"bus-consume {self.durable}")
        logger.info(
            "consuming %s from stream %s as %s (concurrency %d)",
            self.subject,
            self.stream,
            self.durable,
            self.concurrency,
        )
        return self

    @property
    def in_flight(self) -> int:
        """Messages being handled right now."""
        return len(self._tasks)

    @property
    def running(self) -> bool:
        """Whether the fetch loop is alive (it ends on stop() and when the connection closes)."""
        return self._loop_task is not None and not self._loop_task.done()

    async def stop(self) -> None:
        """Stop fetching, let running handlers finish (or cancel them), unsubscribe."""
        if self._stopped:
            return
        self._stopped = True
        if self._loop_task is not None:
            await _cancel_until_done(self._loop_task)
        if self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=self._stop_timeout_s)
            for task in pending:
                task.cancel()
            if pending:
                logger.warning(
                    "cancelled %d handler(s) of %s still running after %g s; "
                    "their messages will be redelivered",
                    len(pending),
                    self.durable,
                    self._stop_timeout_s,
                )
                await asyncio.gather(*pending, return_exceptions=True)
        psub, self._psub = self._psub, None
        advisories, self._advisories = self._advisories, None
        for subscription in (psub, advisories):
            if subscription is not None and not self._nc.is_closed:
                with contextlib.suppress(nats.errors.Error):
                    await subscription.unsubscribe()
        if self._on_stop is not None:
            self._on_stop(self)
        logger.info("stopped consuming %s as %s", self.subject, self.durable)

    async def _run(self) -> None:
        psub = self._psub
        if psub is None:
            raise RuntimeError("Consumer.start() was not called")
        while not self._stopped:
            while len(self._tasks) >= self.concurrency:
                self._slot_free.clear()
                await self._slot_free.wait()
            try:
                msgs = await psub.fetch(
                    batch=self.concurrency - len(self._tasks), timeout=self._fetch_timeout_s
                )
            except TimeoutError:
                # No message in time. nats-py raises its own TimeoutError, or asyncio's when
                # the deadline ran out between its two pull requests (a busy machine).
                continue
            except nats.errors.ConnectionClosedError:
                logger.error("NATS connection closed; consumer %s stops fetching", self.durable)
                return
            except Exception:
                logger.exception("fetching for %s failed; trying again in 1 s", self.durable)
                await asyncio.sleep(1.0)
                continue
            for msg in msgs:
                task = asyncio.create_task(
                    self._settler.handle(msg), name=f"bus-work {self.durable}"
                )
                self._tasks.add(task)
                task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._slot_free.set()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()


async def _cancel_until_done(task: asyncio.Task[None], retry_s: float = 0.5) -> None:
    """Cancel `task` and wait for it to end.

    Python 3.11's asyncio.wait_for (which nats-py's fetch awaits) loses a cancellation that
    arrives just as its inner wait completes, and the fetch loop then runs on; so cancel again
    until the task has ended.
    """
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=retry_s)
    if not task.cancelled() and task.exception() is not None:
        logger.error("the fetch loop ended with an error", exc_info=task.exception())
