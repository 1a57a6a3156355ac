"""Settling JetStream deliveries: what a work-queue consumer does with each message it took.

A message is acknowledged only after its handler returned (with `ack_sync`, so the server has
settled it when the handler's caller moves on). A `TransientError` or any other exception asks
for redelivery after the backoff for that delivery; on the last allowed delivery, and at once for
a message that does not validate, the message is copied to the dead-letter subject with headers
saying why, then terminated. While a handler runs the server is told the message is in progress,
so long handlers are not redelivered; a process that dies stops doing so and the server
redelivers the message after `ack_wait_s`. Delivery is at-least-once: handlers must be idempotent.

A process that dies on the last allowed delivery settles nothing, and the server only gives up on
the message (it stays in the stream, delivered to no one). The server announces that with a
max-deliveries advisory; `Settler.on_max_deliveries` copies the message from the stream to the
dead-letter subject and deletes it from a work-queue stream.

How messages are fetched and how many run at once is the caller's business
(`phonebuddy.bus.Consumer`, or a service's own dispatch loop): it runs `Settler.handle(msg)` as
a task per message and subscribes `Settler.on_max_deliveries` to the advisories of its consumers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import nats.errors
import nats.js.errors
from nats.aio.client import Client as NatsClient
from nats.aio.msg import Msg
from nats.js.client import JetStreamContext
from pydantic import BaseModel, ValidationError

from phonebuddy.bus.dead_letters import (
    DeadLetter,
    DeadLetterReason,
    DeadLetters,
    MaxDeliveriesAdvisory,
)
from phonebuddy.bus.errors import TransientError, describe_validation_error

logger = logging.getLogger(__name__)

MessageT = TypeVar("MessageT", bound=BaseModel)
WorkHandler = Callable[[MessageT], Awaitable[None]]
"""A work-queue handler: takes the validated message; returning means done (it is acked)."""


class Settler:
    """Hands each delivered message of `stream` to `handler` and settles it (see the module).

    `owns(consumer)` picks the max-deliveries advisories to act on (None: every one that arrives);
    `handled_by` names what runs the handlers in the dead-letter error of a message whose handler
    never settled it ("worker", "broker"). `work_queue`: whether such a message, once
    dead-lettered, is deleted from the stream (a log stream keeps it for its other readers).
    """

    def __init__(
        self,
        nc: NatsClient,
        js: JetStreamContext,
        *,
        stream: str,
        message_type: type[MessageT],
        handler: WorkHandler[MessageT],
        dead_letter_subject: str,
        max_deliver: int,
        backoff_s: Sequence[float],
        ack_wait_s: float,
        request_timeout_s: float,
        handler_timeout_s: float | None = None,
        owns: Callable[[str], bool] | None = None,
        handled_by: str = "worker",
    ) -> None:
        self.stream = stream
        self.dead_letter_subject = dead_letter_subject
        self.max_deliver = max_deliver
        self.backoff_s = tuple(backoff_s)
        self.ack_wait_s = ack_wait_s
        self.work_queue = True
        self._js = js
        self._message_type: type[BaseModel] = message_type
        self._handler: WorkHandler[BaseModel] = handler  # type: ignore[assignment]
        self._handler_timeout_s = handler_timeout_s
        self._request_timeout_s = request_timeout_s
        self._owns = owns
        self._handled_by = handled_by
        self._dead_letters = DeadLetters(
            nc, js, stream=stream, subject=dead_letter_subject, timeout_s=request_timeout_s
        )

    async def handle(self, msg: Msg) -> None:
        """Handle one delivered message and settle it; run it as a task per message."""
        try:
            await self._process(msg)
        except asyncio.CancelledError:
            # Stopping: hand the message back now instead of after ack_wait.
            with contextlib.suppress(nats.errors.Error):
                await msg.nak()
            raise
        except Exception:
            logger.exception("settling a message on %s failed", msg.subject)

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

    async def on_max_deliveries(self, event: Msg) -> None:
        """The server gave up on a message nobody settled on its last delivery (its process
        died or hung): read it back from the stream, dead-letter it, delete it."""
        try:
            advisory = MaxDeliveriesAdvisory.model_validate_json(event.data)
        except ValidationError as exc:
            problems = "; ".join(describe_validation_error(exc))
            logger.warning("ignoring a bad max-deliveries advisory (%s)", problems)
            return
        if self._owns is not None and not self._owns(advisory.consumer):
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
            "message %d on %s was not settled on its last delivery (%d of %d): its %s died "
            "or hung; dead-lettering it to %s",
            sequence,
            stored.subject,
            advisory.deliveries,
            self.max_deliver,
            self._handled_by,
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
            f"{advisory.deliveries} of {self.max_deliver}: the {self._handled_by} died or hung"
        )
        if not await self._dead_letters.send(letter, DeadLetterReason.MAX_DELIVER_EXCEEDED, error):
            return
        if not self.work_queue:
            return  # a log stream keeps its messages for its other readers
        try:
            await self._js.delete_msg(self.stream, sequence)
        except nats.js.errors.NotFoundError:
            pass
        except nats.errors.Error as exc:
            logger.error(
                "could not delete dead-lettered message %d from %s (%r)", sequence, self.stream, exc
            )
