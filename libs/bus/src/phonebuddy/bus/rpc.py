"""Typed request/reply over core NATS: pydantic models in, pydantic models out.

A successful reply is the reply model's JSON. An error reply is an `ErrorReply` JSON body with the
header `Phonebuddy-Status: error`; `request()` turns it into `RemoteError`. A service answers with
an error reply when the request does not validate (`invalid_request`), when its handler raises
`ServiceError` (that error's code), when the reply is bigger than the server's max_payload
(`payload_too_large`) and when the handler fails in any other way (`internal`, logged with its
traceback). The service keeps serving in every case.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Self, TypeVar

import nats.errors
from nats.aio.client import Client as NatsClient
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription
from pydantic import BaseModel, ValidationError

from phonebuddy.bus._flush import flush
from phonebuddy.bus.errors import (
    InvalidMessageError,
    NoRespondersError,
    PayloadTooLargeError,
    RemoteError,
    RequestTimeoutError,
    ServiceError,
    describe_validation_error,
)
from phonebuddy.protocol.errors import ErrorCode, ErrorReply

logger = logging.getLogger(__name__)

STATUS_HEADER = "Phonebuddy-Status"
"""Header that marks an error reply; its value is `STATUS_ERROR`."""
STATUS_ERROR = "error"

_ERROR_HEADERS = {STATUS_HEADER: STATUS_ERROR}
# "NATS/1.0\r\n" + "Key: value\r\n" per header + "\r\n", as nats-py writes them.
_ERROR_HEADERS_SIZE = 10 + sum(len(k) + len(v) + 4 for k, v in _ERROR_HEADERS.items()) + 2

RequestT = TypeVar("RequestT", bound=BaseModel)
ReplyT = TypeVar("ReplyT", bound=BaseModel)
Handler = Callable[[RequestT], Awaitable[BaseModel]]
"""A request handler: takes the validated request model, returns the reply model."""


async def request(
    nc: NatsClient,
    subject: str,
    message: BaseModel,
    reply_type: type[ReplyT],
    *,
    timeout_s: float,
) -> ReplyT:
    """Send `message` to `subject` and return the reply validated as `reply_type`.

    Raises `RemoteError` for an error reply, `RequestTimeoutError`, `NoRespondersError`,
    `PayloadTooLargeError` (the request was not sent) and `InvalidMessageError` when the reply
    does not validate.
    """
    payload = message.model_dump_json().encode()
    if len(payload) > nc.max_payload:
        raise PayloadTooLargeError(subject, len(payload), nc.max_payload)
    try:
        reply = await nc.request(subject, payload, timeout=timeout_s)
    except nats.errors.NoRespondersError as exc:
        raise NoRespondersError(subject) from exc
    except nats.errors.TimeoutError as exc:
        raise RequestTimeoutError(subject, timeout_s) from exc

    if reply.headers and reply.headers.get(STATUS_HEADER) == STATUS_ERROR:
        try:
            error = ErrorReply.model_validate_json(reply.data)
        except ValidationError as exc:
            raise InvalidMessageError(subject, describe_validation_error(exc)) from exc
        raise RemoteError.from_reply(subject, error)
    try:
        return reply_type.model_validate_json(reply.data)
    except ValidationError as exc:
        raise InvalidMessageError(subject, describe_validation_error(exc)) from exc


class Service:
    """A handler serving requests on one subject. Stop it with `stop()` or `async with`.

    Requests are handled concurrently, at most `max_concurrency` at a time; more wait in the
    subscription's queue.
    """

    def __init__(
        self,
        nc: NatsClient,
        subject: str,
        request_type: type[RequestT],
        handler: Handler[RequestT],
        *,
        queue: str | None,
        max_concurrency: int,
        stop_timeout_s: float,
        on_stop: Callable[[Service], None] | None = None,
    ) -> None:
        if max_concurrency < 1:
            raise ValueError(f"max_concurrency must be at least 1, not {max_concurrency}")
        self.subject = subject
        self.queue = queue
        self._nc = nc
        self._request_type: type[BaseModel] = request_type
        self._handler: Handler[BaseModel] = handler  # type: ignore[assignment]
        self._slots = asyncio.Semaphore(max_concurrency)
        self._stop_timeout_s = stop_timeout_s
        self._on_stop = on_stop
        self._tasks: set[asyncio.Task[None]] = set()
        self._sub: Subscription | None = None
        self._stopped = False

    async def start(self, *, timeout_s: float) -> Self:
        """Subscribe and wait until the server knows about the subscription: a request sent
        from any connection after this returns reaches the service."""
        self._sub = await self._nc.subscribe(self.subject, queue=self.queue or "", cb=self._on_msg)
        try:
            # Not nc.flush(): its PING overtakes the SUB still in the pending buffer.
            await flush(self._nc, timeout_s=timeout_s)
        except nats.errors.TimeoutError as exc:
            await self.stop()
            raise RequestTimeoutError(self.subject, timeout_s) from exc
        except nats.errors.Error:
            await self.stop()
            raise
        logger.info("serving %s (queue %s)", self.subject, self.queue or "-")
        return self

    @property
    def in_flight(self) -> int:
        """Requests being handled right now."""
        return len(self._tasks)

    async def stop(self) -> None:
        """Stop taking requests, finish the ones in flight (cancelled after the stop timeout)."""
        if self._stopped:
            return
        self._stopped = True
        sub, self._sub = self._sub, None
        if sub is not None and not self._nc.is_closed:
            try:
                # drain: unsubscribe, then hand over what the server already sent us.
                await asyncio.wait_for(sub.drain(), self._stop_timeout_s)
            except (nats.errors.Error, TimeoutError):
                with contextlib.suppress(nats.errors.Error):
                    await sub.unsubscribe()
        if self._tasks:
            _, pending = await asyncio.wait(set(self._tasks), timeout=self._stop_timeout_s)
            for task in pending:
                task.cancel()
            if pending:
                logger.warning(
                    "cancelled %d request(s) on %s still running after %g s",
                    len(pending),
                    self.subject,
                    self._stop_timeout_s,
                )
                await asyncio.gather(*pending, return_exceptions=True)
        if self._on_stop is not None:
            self._on_stop(self)
        logger.info("stopped serving %s", self.subject)

    async def _on_msg(self, msg: Msg) -> None:
        await self._slots.acquire()
        task = asyncio.create_task(self._handle(msg), name=f"bus-serve {self.subject}")
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._slots.release()

    async def _handle(self, msg: Msg) -> None:
        body, headers = await self._answer(msg)
        if not msg.reply:
            return
        try:
            await self._nc.publish(msg.reply, body, headers=headers)
        except nats.errors.Error as exc:
            logger.warning("could not send the reply for %s: %r", self.subject, exc)

    async def _answer(self, msg: Msg) -> tuple[bytes, dict[str, str] | None]:
        try:
            request_model = self._request_type.model_validate_json(msg.data)
        except ValidationError as exc:
            problems = describe_validation_error(exc)
            return self._error(
                ErrorReply(
                    code=ErrorCode.INVALID_REQUEST,
                    message=f"invalid {self._request_type.__name__}: {'; '.join(problems)}",
                    details={"errors": problems},
                )
            )
        try:
            reply = await self._handler(request_model)
            body = _reply_body(reply)
        except ServiceError as exc:
            return self._error(exc.to_reply())
        except Exception as exc:
            logger.exception("handler for %s failed", self.subject)
            return self._error(
                ErrorReply(
                    code=ErrorCode.INTERNAL,
                    message=f"the service failed while handling the request ({type(exc).__name__})",
                    details={"exception": type(exc).__name__},
                )
            )
        if len(body) > self._nc.max_payload:
            logger.error(
                "reply on %s is %d bytes, over the server's max_payload of %d; "
                "answering payload_too_large",
                self.subject,
                len(body),
                self._nc.max_payload,
            )
            return self._error(_payload_too_large(len(body), self._nc.max_payload))
        return body, None

    def _error(self, reply: ErrorReply) -> tuple[bytes, dict[str, str]]:
        body = reply.model_dump_json().encode()
        if len(body) + _ERROR_HEADERS_SIZE > self._nc.max_payload:
            body = _payload_too_large(len(body), self._nc.max_payload).model_dump_json().encode()
        return body, dict(_ERROR_HEADERS)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()


def _reply_body(reply: object) -> bytes:
    if not isinstance(reply, BaseModel):
        raise TypeError(f"the handler returned {type(reply).__name__}, not a pydantic model")
    return reply.model_dump_json().encode()


def _payload_too_large(size: int, max_payload: int) -> ErrorReply:
    return ErrorReply(
        code=ErrorCode.PAYLOAD_TOO_LARGE,
        message=(
            f"the reply is {size} bytes, more than the server's max_payload of {max_payload} bytes"
        ),
        details={"size": size, "max_payload": max_payload},
    )
