"""`connect()` and `Bus`: one authenticated NATS connection and everything done over it.

The first connect fails fast: one quick retry, then `BusAuthError` when the server rejected the
credentials or `BusConnectError` for anything else, within `connect_timeout_s` in total. Once
connected, a lost connection is re-established in the background (`reconnect_wait_s`,
`max_reconnect_attempts`); `Bus.is_connected` says whether it is up right now.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
from collections.abc import Sequence
from types import TracebackType
from typing import Self, TypeVar
from urllib.parse import urlsplit, urlunsplit

import nats.errors
from nats.aio.client import Client as NatsClient
from nats.js.api import StreamInfo
from nats.js.client import JetStreamContext
from pydantic import BaseModel

from phonebuddy.bus import rpc, workqueue
from phonebuddy.bus._denials import Denials
from phonebuddy.bus._flush import flush
from phonebuddy.bus._opening import Opening
from phonebuddy.bus.dead_letters import max_deliveries_advisory_subject
from phonebuddy.bus.errors import BusAuthError, BusConnectError
from phonebuddy.bus.rpc import Handler, Service
from phonebuddy.bus.settings import NatsSettings
from phonebuddy.bus.workqueue import Consumer, PublishAck, Retention, WorkHandler

logger = logging.getLogger(__name__)

RequestT = TypeVar("RequestT", bound=BaseModel)
ReplyT = TypeVar("ReplyT", bound=BaseModel)
MessageT = TypeVar("MessageT", bound=BaseModel)

_DISCARD_WAIT_S = 0.2
_AUTH_REJECTED = ("authorization violation", "authentication expired", "authentication timeout")


def connect(settings: NatsSettings) -> Opening[Bus]:
    """Connect to NATS: `bus = await connect(s)` (then `await bus.close()`) or
    `async with connect(s) as bus:`.

    Raises `BusAuthError` when the server rejects the credentials and `BusConnectError` when it
    cannot be reached, both within `settings.connect_timeout_s`.
    """
    return Opening(lambda: Bus(settings)._connect())


class Bus:
    """A NATS connection with typed request/reply and JetStream work queues.

    Services and consumers started from a bus are stopped by `close()`.
    """

    def __init__(self, settings: NatsSettings) -> None:
        self.settings = settings
        self.safe_url = redact_url(settings.url)
        self._nc = NatsClient()
        self._js: JetStreamContext | None = None
        self._connecting = False
        self._closing = False
        self._connect_problems: list[BaseException] = []
        self._handles: set[Service | Consumer] = set()
        self._denials = Denials(settings.user, settings.reply_prefix)

    # -- connection ---------------------------------------------------------------------------

    async def _connect(self) -> Self:
        settings = self.settings
        try:
            tls = _ssl_context(settings)
        except (OSError, ssl.SSLError) as exc:
            raise BusConnectError(self.safe_url, f"cannot load the TLS files: {exc}") from exc
        self._connecting = True
        try:
            async with asyncio.timeout(settings.connect_timeout_s):
                await self._nc.connect(
                    servers=[settings.url],
                    name=settings.name,
                    user=settings.user,
                    password=settings.password.get_secret_value() if settings.password else None,
                    tls=tls,
                    inbox_prefix=settings.reply_prefix,
                    connect_timeout=settings.connect_timeout_s,  # type: ignore[arg-type]
                    # First connect: no reconnect loop, one quick retry, then give up.
                    allow_reconnect=False,
                    max_reconnect_attempts=1,
                    reconnect_time_wait=0,
                    error_cb=self._on_error,
                    disconnected_cb=self._on_disconnected,
                    reconnected_cb=self._on_reconnected,
                    closed_cb=self._on_closed,
                )
        except (OSError, TimeoutError, ssl.SSLError, nats.errors.Error) as exc:
            await self._discard()
            raise self._connect_error(exc) from exc
        finally:
            self._connecting = False
        # Connected: from now on ride out server restarts in the background.
        self._nc.options["allow_reconnect"] = True
        self._nc.options["max_reconnect_attempts"] = settings.max_reconnect_attempts
        self._nc.options["reconnect_time_wait"] = settings.reconnect_wait_s
        self._js = self._nc.jetstream(timeout=settings.request_timeout_s)
        logger.info("connected to NATS at %s as %s", self.safe_url, settings.name)
        return self

    def _connect_error(self, exc: BaseException) -> BusConnectError:
        problems = [*self._connect_problems, exc]
        for problem in problems:
            if isinstance(problem, nats.errors.AuthorizationError) or any(
                phrase in str(problem).lower() for phrase in _AUTH_REJECTED
            ):
                reason = str(problem).removeprefix("nats: ").strip("'") or "Authorization Violation"
                return BusAuthError(self.safe_url, reason, user=self.settings.user)
        if isinstance(exc, TimeoutError) and not isinstance(exc, nats.errors.Error):
            reason = f"no connection within {self.settings.connect_timeout_s:g} s"
            if self._connect_problems:
                reason += f" (last error: {_describe(self._connect_problems[-1])})"
            return BusConnectError(self.safe_url, reason)
        if isinstance(exc, nats.errors.NoServersError) and self._connect_problems:
            return BusConnectError(self.safe_url, _describe(self._connect_problems[-1]))
        return BusConnectError(self.safe_url, _describe(exc))

    async def _discard(self) -> None:
        """Release what a failed connect left behind (sockets, tasks).

        nats-py's close() closes the socket, then waits for it to be closed; after a failed TLS
        upgrade that wait never ends (the socket belongs to the aborted TLS transport), so the
        wait is cut short: by then everything is released.
        """
        with contextlib.suppress(nats.errors.Error, OSError, TimeoutError):
            await asyncio.wait_for(self._nc.close(), timeout=_DISCARD_WAIT_S)

    async def _on_error(self, exc: Exception) -> None:
        if self._connecting:
            self._connect_problems.append(exc)
            return
        if self._denials.report(str(exc)):
            logger.warning(
                "NATS at %s refused user %s: %s", self.safe_url, self.settings.user, _describe(exc)
            )
            return
        logger.warning("NATS error on %s: %s", self.safe_url, _describe(exc))

    async def _on_disconnected(self) -> None:
        if not (self._connecting or self._closing):
            logger.warning("disconnected from NATS at %s", self.safe_url)

    async def _on_reconnected(self) -> None:
        logger.info("reconnected to NATS at %s", self.safe_url)

    async def _on_closed(self) -> None:
        if not self._connecting:
            logger.info("NATS connection to %s closed", self.safe_url)

    @property
    def is_connected(self) -> bool:
        """Whether the connection is up right now (for readiness probes)."""
        return self._nc.is_connected

    @property
    def nc(self) -> NatsClient:
        """The underlying nats-py client, for what this module does not wrap."""
        return self._nc

    @property
    def jetstream(self) -> JetStreamContext:
        """The nats-py JetStream context (API calls time out after `request_timeout_s`)."""
        if self._js is None:
            raise RuntimeError("the bus is not connected")
        return self._js

    async def close(self) -> None:
        """Stop this bus's services and consumers, flush what is pending, close the connection."""
        self._closing = True
        for handle in list(self._handles):
            await handle.stop()
        if self._nc.is_closed:
            return
        if self._nc.is_connected:
            with contextlib.suppress(nats.errors.Error, TimeoutError):
                await flush(self._nc, timeout_s=self.settings.request_timeout_s)
        with contextlib.suppress(nats.errors.Error, TimeoutError):
            await asyncio.wait_for(self._nc.close(), timeout=self.settings.request_timeout_s)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- request / reply ----------------------------------------------------------------------

    async def request(
        self,
        subject: str,
        message: BaseModel,
        reply_type: type[ReplyT],
        *,
        timeout_s: float | None = None,
    ) -> ReplyT:
        """Send a request and return the reply as `reply_type`; see `rpc.request` for errors,
        and `PermissionDeniedError` when this user may not publish to `subject`."""
        return await self._denials.guard(
            subject,
            rpc.request(
                self._nc,
                subject,
                message,
                reply_type,
                timeout_s=self.settings.request_timeout_s if timeout_s is None else timeout_s,
            ),
        )

    def serve(
        self,
        subject: str,
        request_type: type[RequestT],
        handler: Handler[RequestT],
        *,
        queue: str | None = None,
        max_concurrency: int = 64,
        stop_timeout_s: float = 10.0,
    ) -> Opening[Service]:
        """Answer requests on `subject` with `handler`: `service = await bus.serve(...)` or
        `async with bus.serve(...) as service:`. Services in one `queue` share the requests."""

        async def open_() -> Service:
            service = Service(
                self._nc,
                subject,
                request_type,
                handler,
                queue=queue,
                max_concurrency=max_concurrency,
                stop_timeout_s=stop_timeout_s,
                on_stop=self._handles.discard,
            )
            with self._denials.watch("subscribe", subject) as denied:
                await service.start(timeout_s=self.settings.request_timeout_s)
            if denied.done():  # start() flushed: the server's answer to the SUB has come in
                await service.stop()
                raise denied.result()
            self._handles.add(service)
            return service

        return Opening(open_)

    # -- JetStream work queues ----------------------------------------------------------------

    async def ensure_stream(
        self,
        name: str,
        subjects: Sequence[str],
        *,
        retention: Retention = Retention.WORK_QUEUE,
        max_age_s: float | None = None,
        duplicate_window_s: float = 120.0,
    ) -> StreamInfo:
        """Create the stream (file storage) or update it to this config; idempotent."""
        return await workqueue.ensure_stream(
            self.jetstream,
            name,
            subjects,
            retention=retention,
            max_age_s=max_age_s,
            duplicate_window_s=duplicate_window_s,
        )

    async def publish(
        self,
        subject: str,
        message: BaseModel,
        *,
        msg_id: str | None = None,
        timeout_s: float | None = None,
    ) -> PublishAck:
        """Store a message in JetStream; a repeated `msg_id` within the stream's duplicate
        window is stored once (the ack says `duplicate`)."""
        return await self._denials.guard(
            subject,
            workqueue.publish(
                self.jetstream,
                self._nc,
                subject,
                message,
                msg_id=msg_id,
                timeout_s=self.settings.request_timeout_s if timeout_s is None else timeout_s,
            ),
        )

    def consume(
        self,
        *,
        stream: str,
        durable: str,
        subject: str,
        message_type: type[MessageT],
        handler: WorkHandler[MessageT],
        dead_letter_subject: str,
        max_deliver: int = 5,
        backoff_s: Sequence[float] = (1.0, 5.0, 30.0),
        ack_wait_s: float = 30.0,
        concurrency: int = 1,
        handler_timeout_s: float | None = None,
        fetch_timeout_s: float = 5.0,
        stop_timeout_s: float = 10.0,
    ) -> Opening[Consumer]:
        """Handle the messages of a durable pull consumer: `consumer = await bus.consume(...)`
        or `async with bus.consume(...) as consumer:`.

        `backoff_s[i]` is the delay before delivery i + 2 after a failure (the last value
        repeats). See `phonebuddy.bus.delivery` for what happens to failing messages.
        """

        async def open_() -> Consumer:
            consumer = Consumer(
                self._nc,
                self.jetstream,
                stream=stream,
                durable=durable,
                subject=subject,
                message_type=message_type,
                handler=handler,
                dead_letter_subject=dead_letter_subject,
                max_deliver=max_deliver,
                backoff_s=backoff_s,
                ack_wait_s=ack_wait_s,
                concurrency=concurrency,
                handler_timeout_s=handler_timeout_s,
                fetch_timeout_s=fetch_timeout_s,
                stop_timeout_s=stop_timeout_s,
                request_timeout_s=self.settings.request_timeout_s,
                on_stop=self._handles.discard,
            )
            advisories = max_deliveries_advisory_subject(stream, durable)
            with self._denials.watch("subscribe", advisories) as denied:
                await consumer.start()
            if denied.done():  # start() flushed after subscribing
                await consumer.stop()
                raise denied.result()
            self._handles.add(consumer)
            return consumer

        return Opening(open_)


def redact_url(url: str) -> str:
    """The URL without a password in it, fit for logs and error messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    netloc = f"{parts.username}:***@{host}" if parts.username else f"***@{host}"
    return urlunsplit(parts._replace(netloc=netloc))


def _ssl_context(settings: NatsSettings) -> ssl.SSLContext | None:
    if not settings.uses_tls:
        return None
    context = ssl.create_default_context(
        ssl.Purpose.SERVER_AUTH,
        cafile=str(settings.tls_ca_file) if settings.tls_ca_file else None,
    )
    if settings.tls_cert_file is not None:
        context.load_cert_chain(
            certfile=str(settings.tls_cert_file),
            keyfile=str(settings.tls_key_file) if settings.tls_key_file else None,
        )
    return context


def _describe(exc: BaseException) -> str:
    text = str(exc).removeprefix("nats: ")
    return text or type(exc).__name__
