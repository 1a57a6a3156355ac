"""JetStream work queues: durable streams, deduplicated publishing and a consumer loop.

The consumer acknowledges a message only after its handler returned (with `ack_sync`, so the
server has settled it when the handler's caller moves on). A `TransientError` or any other
exception asks for redelivery after the backoff for that delivery; on the last allowed delivery,
and at once for a message that does not validate, the message is copied to the dead-letter subject
with headers saying why, then terminated. While a handler runs the consumer tells the server the
message is in progress, so long handlers are not redelivered; a consumer that dies stops doing so
and the server redelivers the message to another consumer after `ack_wait_s`. Delivery is
at-least-once: handlers must be idempotent.

A worker that dies on the last allowed delivery settles nothing, and the server only gives up on
the message (it stays in the stream, delivered to no one). The server announces that with a
max-deliveries advisory; every consumer listens for its durable's advisories (one process of a
queue group takes each), copies the message from the stream to the dead-letter subject and
deletes it from a work-queue stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from types import TracebackType
from typing import Self, TypeVar

import nats.errors
import nats.js.errors
from nats.aio.client import Client as NatsClient
from nats.aio.msg import Msg
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
from pydantic import BaseModel, ValidationError

from phonebuddy.bus._flush import flush
from phonebuddy.bus.dead_letters import (
    MSG_ID_HEADER,
    DeadLetter,
    DeadLetterReason,
    DeadLetters,
    MaxDeliveriesAdvisory,
    max_deliveries_advisory_subject,
)
from phonebuddy.bus.errors import (
    PayloadTooLargeError,
    PublishError,
    RequestTimeoutError,
    StreamError,
    TransientError,
    describe_validation_error,
)

logger = logging.getLogger(__name__)

MessageT = TypeVar("MessageT", bound=BaseModel)
WorkHandler = Callable[[MessageT], Awaitable[None]]
"""A work-queue handler: takes the validated message; returning means done (it is acked)."""

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
        self._message_type: type[BaseModel] = message_type
        self._handler: WorkHandler[BaseModel] = handler  # type: ignore[assignment]
        self._handler_timeout_s = handler_timeout_s
        self._fetch_timeout_s = fetch_timeout_s
        self._stop_timeout_s = stop_timeout_s
        self._request_timeout_s = request_timeout_s
        self._on_stop = on_stop
        self._psub: JetStreamContext.PullSubscription | None = None
        self._dead_letters = DeadLetters(
            nc, js, stream=stream, subject=dead_letter_subject, timeout_s=request_timeout_s
        )
        self._advisories: Subscription | None = None
        self._work_queue = True
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
        self._work_queue = stream.config.retention == RetentionPolicy.WORK_QUEUE
        # Listen before the first fetch: the server sends the advisory when a pull comes in.
        self._advisories = await self._nc.subscribe(
            max_deliveries_advisory_subject(self.stream, self.durable),
            queue=self.durable,
            cb=self._on_max_deliveries,
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
                task = asyncio.create_task(self._handle(msg), name=f"bus-work {self.durable}")
                self._tasks.add(task)
                task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._slot_free.set()

    async def _handle(self, msg: Msg) -> None:
        try:
            await self._process(msg)
        except asyncio.CancelledError:
            # Stopping: hand the message back now instead of after ack_wait.
            with contextlib.suppress(nats.errors.Error):
                await msg.nak()
            raise
        except Exception:
            logger.exception("settling a message of %s failed", self.durable)

    async def _process(self, msg: Msg) -> None:
        deliveries = msg.metadata.num_delivered
        try:
            message = self._message_type.model_validate_json(msg.data)
        except ValidationError as exc:
            problems = "; ".join(describe_validation_error(exc))
            logger.error(
                "message %d on %s is not a valid %s (%s); dead-lettering it to %s",
                msg.metadata.sequence.stream,
                msg.subject,
                self._message_type.__name__,
                problems,
                self.dead_letter_subject,
            )
            await self._dead_letter(msg, DeadLetterReason.INVALID_MESSAGE, problems)
            return

        keep_alive = asyncio.create_task(self._keep_alive(msg))
        try:
            async with asyncio.timeout(self._handler_timeout_s):
                await self._handler(message)
        except Exception as exc:
            await self._failed(msg, exc, deliveries)
            return
        finally:
            keep_alive.cancel()
            await asyncio.gather(keep_alive, return_exceptions=True)

        try:
            await msg.ack_sync(timeout=self._request_timeout_s)
        except nats.errors.Error as exc:
            logger.warning(
                "ack of message %d on %s failed (%r); it will be redelivered",
                msg.metadata.sequence.stream,
                msg.subject,
                exc,
            )

    async def _failed(self, msg: Msg, exc: Exception, deliveries: int) -> None:
        sequence = msg.metadata.sequence.stream
        if deliveries >= self.max_deliver:
            logger.error(
                "message %d on %s failed on delivery %d of %d; dead-lettering it to %s",
                sequence,
                msg.subject,
                deliveries,
                self.max_deliver,
                self.dead_letter_subject,
                exc_info=exc,
            )
            await self._dead_letter(
                msg, DeadLetterReason.MAX_DELIVER_EXCEEDED, f"{type(exc).__name__}: {exc}"
            )
            return
        delay_s = self._backoff(deliveries)
        if isinstance(exc, TransientError):
            if exc.delay_s is not None:
                delay_s = exc.delay_s
            logger.warning(
                "message %d on %s: transient failure on delivery %d of %d (%s); retry in %g s",
                sequence,
                msg.subject,
                deliveries,
                self.max_deliver,
                exc.message,
                delay_s,
            )
        else:
            logger.warning(
                "message %d on %s: handler failed on delivery %d of %d; retry in %g s",
                sequence,
                msg.subject,
                deliveries,
                self.max_deliver,
                delay_s,
                exc_info=exc,
            )
        await msg.nak(delay=delay_s)

    def _backoff(self, deliveries: int) -> float:
        """The delay before delivery `deliveries + 1`; the last step repeats."""
        return self.backoff_s[min(deliveries, len(self.backoff_s)) - 1]

    async def _keep_alive(self, msg: Msg) -> None:
        """Tell the server the message is still being worked on, every half ack_wait."""
        while True:
            await asyncio.sleep(self.ack_wait_s / 2)
            try:
                await msg.in_progress()
            except nats.errors.Error:
                return

    async def _dead_letter(self, msg: Msg, reason: DeadLetterReason, error: str) -> None:
        """Copy the message to the dead-letter subject, then terminate it (no more deliveries)."""
        metadata = msg.metadata
        letter = DeadLetter(
            data=msg.data,
            headers=dict(msg.headers or {}),
            subject=msg.subject,
            sequence=metadata.sequence.stream,
            deliveries=metadata.num_delivered,
        )
        if await self._dead_letters.send(letter, reason, error):
            await msg.term()
        else:
            await msg.nak(delay=self._backoff(metadata.num_delivered))

    async def _on_max_deliveries(self, event: Msg) -> None:
        """The server gave up on a message nobody settled on its last delivery (its worker
        died or hung): read it back from the stream, dead-letter it, delete it."""
        try:
            advisory = MaxDeliveriesAdvisory.model_validate_json(event.data)
        except ValidationError as exc:
            problems = "; ".join(describe_validation_error(exc))
            logger.warning("ignoring a bad max-deliveries advisory (%s)", problems)
            return
        sequence = advisory.stream_seq
        try:
            stored = await self._js.get_msg(self.stream, sequence)
        except nats.js.errors.NotFoundError:
            logger.info("message %d of %s is settled already", sequence, self.stream)
            return
        except nats.errors.Error as exc:
            logger.error(
                "message %d of %s ran out of deliveries and cannot be read back (%r); "
                "it stays in the stream",
                sequence,
                self.stream,
                exc,
            )
            return
        logger.error(
            "message %d on %s was not settled on its last delivery (%d of %d): its worker died "
            "or hung; dead-lettering it to %s",
            sequence,
            stored.subject,
            advisory.deliveries,
            self.max_deliver,
            self.dead_letter_subject,
        )
        letter = DeadLetter(
            data=stored.data or b"",
            headers=dict(stored.headers or {}),
            subject=stored.subject or "",
            sequence=sequence,
            deliveries=advisory.deliveries,
        )
        error = (
            f"no ack within ack_wait ({self.ack_wait_s:g} s) after delivery "
            f"{advisory.deliveries} of {self.max_deliver}: the worker died or hung"
        )
        if not await self._dead_letters.send(letter, DeadLetterReason.MAX_DELIVER_EXCEEDED, error):
            return
        if not self._work_queue:
            return  # a log stream keeps its messages for its other readers
        try:
            await self._js.delete_msg(self.stream, sequence)
        except nats.js.errors.NotFoundError:
            pass
        except nats.errors.Error as exc:
            logger.error(
                "could not delete dead-lettered message %d from %s (%r)", sequence, self.stream, exc
            )

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
