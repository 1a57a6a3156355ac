"""The env verbs over a backend's devices: leases with TTLs, one verb at a time per device with
bounded waits, lost devices, and the TTL reaper. No transport: `EnvEndpoint` puts these verbs on
NATS; tests call them directly."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from phonebuddy.bus import ServiceError
from phonebuddy.env_endpoint.backend import DeviceLostError, EnvBackend
from phonebuddy.env_endpoint.leases import LeaseRecord
from phonebuddy.env_endpoint.metrics import EnvMetrics
from phonebuddy.protocol import ErrorCode
from phonebuddy.protocol import env as messages

log = logging.getLogger(__name__)
T = TypeVar("T")
WallClock = Callable[[], dt.datetime]


def _utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class EnvHost:
    """Serves the seven env verbs for `backend`'s devices.

    `lock_timeout_s` bounds how long a verb (or a release) waits for a busy device: a verb then
    answers a retryable `timeout`, a release gives up on tidying and reports the device lost.
    None waits as long as it takes (devices that cannot hang, like simulated ones).
    """

    def __init__(
        self,
        backend: EnvBackend,
        metrics: EnvMetrics,
        *,
        lock_timeout_s: float | None = None,
        wall_clock: WallClock = _utc_now,
    ) -> None:
        if lock_timeout_s is not None and lock_timeout_s <= 0:
            raise ValueError(f"lock_timeout_s must be > 0 or None, got {lock_timeout_s}")
        self.backend = backend
        self.leases = backend.leases
        self.metrics = metrics
        self.lock_timeout_s = lock_timeout_s
        self._wall_clock = wall_clock
        self._tidying: set[str] = set()  # devices whose lease ended, not yet ready again

    @property
    def instance_id(self) -> str:
        return self.backend.instance_id

    # -- leases ----------------------------------------------------------------------------------
    async def lease(self, request: messages.LeaseRequest) -> messages.Lease:
        """The first free device that fits (no await between choosing and granting); a device
        is free once its last lease ended and it was tidied."""
        fitting = list(self.backend.leasable(request))
        free = next(
            (d for d in fitting if self.leases.holder(d) is None and d not in self._tidying),
            None,
        )
        if free is None:
            raise ServiceError(
                ErrorCode.NO_DEVICE_AVAILABLE,
                f"{len(fitting)} device(s) of {self.instance_id} fit, all leased",
                retryable=True,
            )
        return self._describe(self.leases.grant(free, request.client_id, request.ttl_s))

    async def renew(self, request: messages.RenewRequest) -> messages.Lease:
        return self._describe(self.leases.renew(request.lease_id, request.ttl_s))

    def _describe(self, record: LeaseRecord) -> messages.Lease:
        remaining = record.remaining_s(self.leases.clock())
        return messages.Lease(
            lease_id=record.lease_id,
            device_id=record.device_id,
            source=self.backend.source,
            instance_id=self.instance_id,
            screen=self.backend.screen(record.device_id),
            expires_at=self._wall_clock() + dt.timedelta(seconds=remaining),
        )

    async def release(self, request: messages.ReleaseRequest) -> messages.ReleaseReply:
        return messages.ReleaseReply(released=await self.end_lease(request.lease_id))

    async def end_lease(self, lease_id: str) -> bool:
        """End a lease and tidy its device for the next client. False when the lease is not
        live (released, expired or its device lost)."""
        record = self.leases.end(lease_id)
        if record is None:
            return False
        device = record.device_id
        self._tidying.add(device)
        try:
            lock = await self._acquire(device)
            if lock is None:
                self._lost(
                    device, "busy past the lock timeout while being released", kind="timeout"
                )
                return True
            try:
                await self.backend.tidy(device)
            except DeviceLostError as exc:
                self._lost(device, exc.reason, kind="lost")
            finally:
                lock.release()
        finally:
            self._tidying.discard(device)
        return True

    async def reap_expired(self) -> list[str]:
        """End every lease past its TTL (each device is tidied for the next client)."""
        reaped = []
        for record in self.leases.expired():
            current = self.leases.holder(record.device_id)
            if current is None or current.lease_id != record.lease_id:
                continue  # it ended while an earlier device was tidied
            if current.expires_at > self.leases.clock():
                continue  # renewed meanwhile
            log.info("lease %s on %s expired; tidying it", record.lease_id, record.device_id)
            if await self.end_lease(record.lease_id):
                self.metrics.expired_leases.inc()
                reaped.append(record.lease_id)
        return reaped

    async def reap_forever(self, interval_s: float) -> None:
        """`reap_expired` every `interval_s` until cancelled; a failed pass is logged."""
        while True:
            await asyncio.sleep(interval_s)
            try:
                await self.reap_expired()
            except Exception:
                log.exception("reaping expired leases failed; trying again")

    def device_lost(self, device_id: str, reason: str) -> None:
        """End the lease on a device the backend found lost; its holder hears `device_lost`."""
        if self.leases.lose(device_id, reason) is not None:
            log.warning("device %s lost while leased: %s", device_id, reason)

    # -- device verbs ----------------------------------------------------------------------------
    async def reset(self, request: messages.ResetRequest) -> messages.ObserveReply:
        return await self.run(request.lease_id, "reset", lambda d: self.backend.reset(d, request))

    async def observe(self, request: messages.ObserveRequest) -> messages.ObserveReply:
        return await self.run(
            request.lease_id, "observe", lambda d: self.backend.observe(d, request)
        )

    async def act(self, request: messages.ActRequest) -> messages.ActReply:
        reply = await self.run(request.lease_id, "act", lambda d: self.backend.act(d, request))
        self.metrics.steps.labels(outcome=reply.effect).inc()
        return reply

    async def verify(self, request: messages.VerifyRequest) -> messages.VerifyReply:
        return await self.run(request.lease_id, "verify", lambda d: self.backend.verify(d, request))

    async def run(self, lease_id: str, verb: str, work: Callable[[str], Awaitable[T]]) -> T:
        """Run `work(device_id)` on the lease's device, one verb at a time per device.

        A busy device past the lock timeout answers a retryable `timeout`; a lease that ended
        while waiting answers `lease_expired` (or `device_lost`); a device lost during the work
        ends the lease and answers a retryable `device_lost`.
        """
        device = self.leases.get(lease_id).device_id
        lock = await self._acquire(device)
        if lock is None:
            raise ServiceError(
                ErrorCode.TIMEOUT,
                f"device {device} stayed busy for {self.lock_timeout_s:g} s",
                retryable=True,
            )
        try:
            held = self.leases.holder(device)
            if held is None or held.lease_id != lease_id:
                lost = self.leases.lost_reason(lease_id)
                if lost is not None:
                    raise ServiceError(ErrorCode.DEVICE_LOST, lost, retryable=True)
                raise ServiceError(
                    ErrorCode.LEASE_EXPIRED,
                    f"lease {lease_id} ended while waiting for device {device}",
                )
            with self.metrics.timed(device, verb):
                return await work(device)
        except DeviceLostError as exc:
            self._lost(device, exc.reason, kind="lost")
            raise ServiceError(
                ErrorCode.DEVICE_LOST,
                f"device {device} was lost: {exc.reason}",
                retryable=True,
                details={"device": device},
            ) from None
        finally:
            lock.release()

    async def _acquire(self, device_id: str) -> asyncio.Lock | None:
        """The device's lock, acquired; None when it stays busy past the lock timeout."""
        lock = self.backend.lock(device_id)
        try:
            async with asyncio.timeout(self.lock_timeout_s):
                await lock.acquire()
        except TimeoutError:
            return None
        return lock

    def _lost(self, device_id: str, reason: str, *, kind: str) -> None:
        self.backend.device_lost(device_id, reason, kind=kind)
        self.device_lost(device_id, reason)
