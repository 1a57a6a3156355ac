"""A leased device over the env verbs (PhoneWorld for `sim`, the device gateway for `real`).

`EnvFailureError` means the device or its endpoint failed (lost, timed out, gone): the episode
is retried on a fresh device. `EnvRejectedError` means the request itself is wrong (unknown task
or app): no other device will do better.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from typing import TypeVar

from prometheus_client import Gauge
from pydantic import BaseModel

from phonebuddy.bus import Bus, BusError, RemoteError
from phonebuddy.protocol import Action, ErrorCode, Source, TaskSpec, Verdict
from phonebuddy.protocol import env as m
from phonebuddy.protocol.env import ImageFormat, Lease
from phonebuddy.protocol.subjects import EnvVerb, env_lease_subject, env_verb_subject

log = logging.getLogger(__name__)
ReplyT = TypeVar("ReplyT", bound=BaseModel)
_REJECTIONS = {ErrorCode.UNKNOWN_TASK, ErrorCode.UNKNOWN_APP, ErrorCode.INVALID_REQUEST}


class EnvFailureError(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class EnvRejectedError(Exception):
    pass


def _classify(exc: BusError, what: str) -> Exception:
    if isinstance(exc, RemoteError) and exc.code in _REJECTIONS:
        return EnvRejectedError(f"{what}: {exc.message}")
    return EnvFailureError(f"{what}: {exc}")


class EnvSession:
    def __init__(self, bus: Bus, lease: Lease, *, timeout_s: float, ttl_s: float) -> None:
        self.bus = bus
        self.lease = lease
        self.timeout_s = timeout_s
        self.ttl_s = ttl_s
        self._renewed = time.monotonic()

    @property
    def device_id(self) -> str:
        return self.lease.device_id

    def _subject(self, verb: EnvVerb) -> str:
        return env_verb_subject(self.lease.source, self.lease.instance_id, verb)

    async def _call(self, verb: EnvVerb, message: BaseModel, reply: type[ReplyT]) -> ReplyT:
        try:
            return await self.bus.request(
                self._subject(verb), message, reply, timeout_s=self.timeout_s
            )
        except BusError as exc:
            raise _classify(exc, f"{verb.value} on {self.device_id}") from exc

    async def keep_alive(self) -> None:
        """Renew the lease once a third of its TTL has passed since the last renewal; the
        episode loop calls it every step, whether or not the step acts (a slow policy that
        writes only invalid answers must not lose its device)."""
        if time.monotonic() - self._renewed > self.ttl_s / 3:
            await self._call(
                EnvVerb.RENEW, m.RenewRequest(lease_id=self.lease.lease_id, ttl_s=self.ttl_s), Lease
            )
            self._renewed = time.monotonic()

    async def reset(self, task: TaskSpec, image_format: ImageFormat) -> m.ObserveReply:
        request = m.ResetRequest(lease_id=self.lease.lease_id, task=task, image_format=image_format)
        return await self._call(EnvVerb.RESET, request, m.ObserveReply)

    async def act(self, action: Action, image_format: ImageFormat) -> m.ActReply:
        await self.keep_alive()
        request = m.ActRequest(
            lease_id=self.lease.lease_id, action=action, observe=True, image_format=image_format
        )
        return await self._call(EnvVerb.ACT, request, m.ActReply)

    async def verify(self, answer: str | None) -> Verdict:
        await self.keep_alive()
        request = m.VerifyRequest(lease_id=self.lease.lease_id, answer=answer)
        return (await self._call(EnvVerb.VERIFY, request, m.VerifyReply)).verdict

    async def release(self) -> None:
        with contextlib.suppress(BusError):
            await self.bus.request(
                self._subject(EnvVerb.RELEASE),
                m.ReleaseRequest(lease_id=self.lease.lease_id),
                m.ReleaseReply,
                timeout_s=self.timeout_s,
            )


@contextlib.asynccontextmanager
async def leased_device(
    bus: Bus,
    source: Source,
    *,
    client_id: str,
    apps: tuple[str, ...],
    timeout_s: float,
    ttl_s: float,
    wait_s: float,
    waiting: Gauge | None = None,
) -> AsyncIterator[EnvSession]:
    """Lease a device of `source`, waiting up to `wait_s` while all are busy; release on exit.
    `waiting` counts the episodes asking for a device right now (the backlog PhoneWorld's
    autoscaler reads)."""
    deadline = time.monotonic() + wait_s
    delay = 0.05
    request = m.LeaseRequest(client_id=client_id[:128], ttl_s=ttl_s, apps=apps)
    if waiting is not None:
        waiting.inc()
    try:
        while True:
            try:
                lease = await bus.request(
                    env_lease_subject(source), request, Lease, timeout_s=timeout_s
                )
                break
            except RemoteError as exc:
                if exc.code != ErrorCode.NO_DEVICE_AVAILABLE or time.monotonic() > deadline:
                    raise _classify(exc, f"lease a {source.value} device") from exc
            except BusError as exc:
                if time.monotonic() > deadline:
                    raise _classify(exc, f"lease a {source.value} device") from exc
            await asyncio.sleep(delay)
            delay = min(delay * 2, 1.0)
    finally:
        if waiting is not None:
            waiting.dec()
    session = EnvSession(bus, lease, timeout_s=timeout_s, ttl_s=ttl_s)
    try:
        yield session
    finally:
        await asyncio.shield(session.release())
