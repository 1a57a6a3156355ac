"""Dead letters: what a work-queue consumer publishes for a message it gives up on.

A dead letter carries the message's body and its own headers (not the `Nats-*` ones), plus
headers saying why it died and where it came from. It goes to a stream when one stores the
dead-letter subject, else out on core NATS.

`MaxDeliveriesAdvisory` is nats-server's announcement that a message used up `max_deliver`
without being acked or terminated (its worker died or hung on the last delivery).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import StrEnum

import nats.errors
import nats.js.errors
from nats.aio.client import Client as NatsClient
from nats.js.client import JetStreamContext
from pydantic import BaseModel, ConfigDict

logger = logging.getLogger(__name__)

MSG_ID_HEADER = "Nats-Msg-Id"
DEAD_LETTER_REASON_HEADER = "Phonebuddy-Dead-Letter-Reason"
DEAD_LETTER_ERROR_HEADER = "Phonebuddy-Dead-Letter-Error"
DEAD_LETTER_STREAM_HEADER = "Phonebuddy-Dead-Letter-Stream"
DEAD_LETTER_SUBJECT_HEADER = "Phonebuddy-Dead-Letter-Subject"
DEAD_LETTER_SEQUENCE_HEADER = "Phonebuddy-Dead-Letter-Sequence"
DEAD_LETTER_DELIVERIES_HEADER = "Phonebuddy-Dead-Letter-Deliveries"
DEAD_LETTER_MSG_ID_HEADER = "Phonebuddy-Dead-Letter-Msg-Id"
_MAX_HEADER_VALUE = 1000

MAX_DELIVERIES_ADVISORY_PREFIX = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES"


def max_deliveries_advisory_subject(stream: str, durable: str) -> str:
    """Where the server announces a message of `durable` that ran out of deliveries."""
    return f"{MAX_DELIVERIES_ADVISORY_PREFIX}.{stream}.{durable}"


class DeadLetterReason(StrEnum):
    """Why a message went to the dead-letter subject (the value of its reason header)."""

    INVALID_MESSAGE = "invalid_message"
    MAX_DELIVER_EXCEEDED = "max_deliver_exceeded"


class MaxDeliveriesAdvisory(BaseModel):
    """The part of nats-server's `io.nats.jetstream.advisory.v1.max_deliver` event we use."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    stream: str
    consumer: str
    stream_seq: int
    deliveries: int


@dataclass(frozen=True)
class DeadLetter:
    """A message to dead-letter, taken from a delivery or read back from its stream."""

    data: bytes
    headers: dict[str, str]
    subject: str
    sequence: int
    deliveries: int


class DeadLetters:
    """Publishes the dead letters of one stream's consumer to `subject`."""

    def __init__(
        self, nc: NatsClient, js: JetStreamContext, *, stream: str, subject: str, timeout_s: float
    ) -> None:
        self.stream = stream
        self.subject = subject
        self._nc = nc
        self._js = js
        self._timeout_s = timeout_s

    async def send(self, letter: DeadLetter, reason: DeadLetterReason, error: str) -> bool:
        """Publish `letter` with headers saying why; False (logged) when that failed."""
        headers = {
            key: value
            for key, value in letter.headers.items()
            if not key.lower().startswith("nats-")
        }
        headers.update(
            {
                DEAD_LETTER_REASON_HEADER: reason.value,
                DEAD_LETTER_ERROR_HEADER: " ".join(error.split())[:_MAX_HEADER_VALUE],
                DEAD_LETTER_STREAM_HEADER: self.stream,
                DEAD_LETTER_SUBJECT_HEADER: letter.subject,
                DEAD_LETTER_SEQUENCE_HEADER: str(letter.sequence),
                DEAD_LETTER_DELIVERIES_HEADER: str(letter.deliveries),
            }
        )
        msg_id = letter.headers.get(MSG_ID_HEADER)
        if msg_id:
            headers[DEAD_LETTER_MSG_ID_HEADER] = msg_id
        try:
            if await self._stream_holds(self.subject):
                await self._js.publish(
                    self.subject, letter.data, timeout=self._timeout_s, headers=headers
                )
            else:
                logger.warning(
                    "no stream stores %s; the dead letter goes out on core NATS only",
                    self.subject,
                )
                await self._nc.publish(self.subject, letter.data, headers=headers)
        except nats.errors.Error as exc:
            logger.error(
                "could not dead-letter message %d on %s (%r)", letter.sequence, letter.subject, exc
            )
            return False
        return True

    async def _stream_holds(self, subject: str) -> bool:
        """Whether a stream stores `subject` (asked each time: dead letters are rare)."""
        try:
            await self._js.find_stream_name_by_subject(subject)
        except nats.js.errors.NotFoundError:
            return False
        return True
