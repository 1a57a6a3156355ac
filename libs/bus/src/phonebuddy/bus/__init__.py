"""NATS for PhoneBuddy: authenticated connections, typed request/reply, JetStream work queues.

    async with connect(NatsSettings()) as bus:
        async with bus.serve("pb.echo", Ping, handle_ping):
            pong = await bus.request("pb.echo", Ping(n=1), Pong)

        await bus.ensure_stream("PB_WORK", ["pb.work.>"])
        await bus.publish("pb.work.jobs", Job(id="j1"), msg_id="j1")
        async with bus.consume(stream="PB_WORK", durable="workers", subject="pb.work.jobs",
                               message_type=Job, handler=run_job,
                               dead_letter_subject="pb.dlq.PB_WORK"):
            ...

Request handlers raise `ServiceError` to answer with a typed `ErrorReply`; callers get
`RemoteError`. Work-queue handlers raise `TransientError` (or anything else) to be retried with
backoff; messages that never succeed, or do not validate, go to the dead-letter subject.
"""

from phonebuddy.bus._opening import Opening
from phonebuddy.bus.connection import Bus, connect, redact_url
from phonebuddy.bus.dead_letters import (
    DEAD_LETTER_DELIVERIES_HEADER,
    DEAD_LETTER_ERROR_HEADER,
    DEAD_LETTER_MSG_ID_HEADER,
    DEAD_LETTER_REASON_HEADER,
    DEAD_LETTER_SEQUENCE_HEADER,
    DEAD_LETTER_STREAM_HEADER,
    DEAD_LETTER_SUBJECT_HEADER,
    DeadLetterReason,
)
from phonebuddy.bus.delivery import Settler
from phonebuddy.bus.errors import (
    BusAuthError,
    BusConnectError,
    BusError,
    InvalidMessageError,
    NoRespondersError,
    PayloadTooLargeError,
    PermissionDeniedError,
    PublishError,
    RemoteError,
    RequestTimeoutError,
    ServiceError,
    StreamError,
    TransientError,
)
from phonebuddy.bus.rpc import STATUS_ERROR, STATUS_HEADER, Handler, Service
from phonebuddy.bus.settings import NatsSettings
from phonebuddy.bus.workqueue import Consumer, PublishAck, Retention, WorkHandler

__all__ = [
    "DEAD_LETTER_DELIVERIES_HEADER",
    "DEAD_LETTER_ERROR_HEADER",
    "DEAD_LETTER_MSG_ID_HEADER",
    "DEAD_LETTER_REASON_HEADER",
    "DEAD_LETTER_SEQUENCE_HEADER",
    "DEAD_LETTER_STREAM_HEADER",
    "DEAD_LETTER_SUBJECT_HEADER",
    "STATUS_ERROR",
    "STATUS_HEADER",
    "Bus",
    "BusAuthError",
    "BusConnectError",
    "BusError",
    "Consumer",
    "DeadLetterReason",
    "Handler",
    "InvalidMessageError",
    "NatsSettings",
    "NoRespondersError",
    "Opening",
    "PayloadTooLargeError",
    "PermissionDeniedError",
    "PublishAck",
    "PublishError",
    "RemoteError",
    "RequestTimeoutError",
    "Retention",
    "Service",
    "ServiceError",
    "Settler",
    "StreamError",
    "TransientError",
    "WorkHandler",
    "connect",
    "redact_url",
]
