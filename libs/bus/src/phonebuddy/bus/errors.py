"""Everything the bus raises. Each exception keeps its data as attributes and builds its message
once, in `__init__`, so logs and callers see the same sentence."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from phonebuddy.protocol.errors import ErrorCode, ErrorReply


class BusError(Exception):
    """Base of every error raised by `phonebuddy.bus`."""


class BusConnectError(BusError):
    """The first connect to NATS failed (refused, unreachable, TLS, timeout)."""

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        super().__init__(self._message())

    def _message(self) -> str:
        return f"could not connect to NATS at {self.url}: {self.reason}"


class BusAuthError(BusConnectError):
    """The server answered but rejected the credentials."""

    def __init__(self, url: str, reason: str, *, user: str | None) -> None:
        self.user = user
        super().__init__(url, reason)

    def _message(self) -> str:
        if self.user is None:
            return (
                f"the NATS server at {self.url} rejected a connection without credentials "
                f"({self.reason}); set PHONEBUDDY_NATS_USER and PHONEBUDDY_NATS_PASSWORD"
            )
        return (
            f"the NATS server at {self.url} rejected the credentials for user {self.user!r} "
            f"({self.reason}); check PHONEBUDDY_NATS_USER and PHONEBUDDY_NATS_PASSWORD"
        )


class PermissionDeniedError(BusError):
    """The server refused to let this user publish to or subscribe to a subject."""

    def __init__(self, subject: str, *, action: str, user: str | None) -> None:
        self.subject = subject
        self.action = action
        self.user = user
        who = f"user {user!r}" if user is not None else "a client without credentials"
        super().__init__(
            f"the NATS server does not let {who} {action} to {subject!r}; that subject is not "
            "in the user's permissions (phonebuddy.bus.permissions)"
        )


class RequestTimeoutError(BusError):
    """No reply came within the timeout (a responder exists but did not answer in time)."""

    def __init__(self, subject: str, timeout_s: float) -> None:
        self.subject = subject
        self.timeout_s = timeout_s
        super().__init__(f"no reply on {subject!r} within {timeout_s:g} s")


class NoRespondersError(BusError):
    """Nobody is subscribed to the subject, so the server answered at once with 503."""

    def __init__(self, subject: str) -> None:
        self.subject = subject
        super().__init__(f"no service is listening on {subject!r}")


class PayloadTooLargeError(BusError):
    """A message is bigger than the server's max_payload; it was not sent."""

    def __init__(self, subject: str, size: int, max_payload: int) -> None:
        self.subject = subject
        self.size = size
        self.max_payload = max_payload
        super().__init__(
            f"message for {subject!r} is {size} bytes, more than the server's max_payload "
            f"of {max_payload} bytes"
        )


class PublishError(BusError):
    """JetStream did not store a message (no stream for the subject, stream full, ...)."""

    def __init__(self, subject: str, reason: str) -> None:
        self.subject = subject
        self.reason = reason
        super().__init__(f"JetStream did not store the message for {subject!r}: {reason}")


class StreamError(BusError):
    """A JetStream stream or consumer could not be created, updated or bound."""

    def __init__(self, stream: str, reason: str) -> None:
        self.stream = stream
        self.reason = reason
        super().__init__(f"JetStream stream {stream!r}: {reason}")


class RemoteError(BusError):
    """The service answered with an `ErrorReply`; its fields are kept as attributes."""

    def __init__(
        self,
        subject: str,
        *,
        code: ErrorCode,
        message: str,
        retryable: bool = False,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        self.subject = subject
        self.code = code
        self.message = message
        self.retryable = retryable
        self.details = dict(details or {})
        super().__init__(f"{subject!r} answered {code.value}: {message}")

    @classmethod
    def from_reply(cls, subject: str, reply: ErrorReply) -> RemoteError:
        return cls(
            subject,
            code=reply.code,
            message=reply.message,
            retryable=reply.retryable,
            details=reply.details,
        )

    def to_reply(self) -> ErrorReply:
        return ErrorReply(
            code=self.code, message=self.message, retryable=self.retryable, details=self.details
        )


class InvalidMessageError(BusError):
    """A message (for example a reply) did not validate against its model."""

    def __init__(self, subject: str, errors: list[str]) -> None:
        self.subject = subject
        self.errors = list(errors)
        super().__init__(f"invalid message on {subject!r}: {'; '.join(self.errors)}")


def describe_validation_error(exc: ValidationError) -> list[str]:
    """One short line per field error, e.g. `field 'steps': Input should be a valid integer`."""
    lines = []
    for error in exc.errors(include_url=False, include_input=False):
        location = ".".join(str(part) for part in error["loc"])
        where = f"field {location!r}" if location else "body"
        lines.append(f"{where}: {error['msg']}")
    return lines or [str(exc)]


class ServiceError(Exception):
    """Raised by a request handler to answer with a typed `ErrorReply` instead of a reply."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        retryable: bool = False,
        details: Mapping[str, Any] | None = None,
    ) -> None:
        self.code = ErrorCode(code)
        self.message = message
        self.retryable = retryable
        self.details = dict(details or {})
        super().__init__(f"{self.code.value}: {message}")

    def to_reply(self) -> ErrorReply:
        return ErrorReply(
            code=self.code, message=self.message, retryable=self.retryable, details=self.details
        )


class TransientError(Exception):
    """Raised by a work-queue handler when trying again later may succeed.

    The message is redelivered after `delay_s`, or after the consumer's backoff for this delivery
    when `delay_s` is None, until the consumer's `max_deliver` is used up.
    """

    def __init__(self, message: str, *, delay_s: float | None = None) -> None:
        self.message = message
        self.delay_s = delay_s
        super().__init__(message)
