"""The gateway's phones: discovery, health checks, reconnects and leases.

`refresh()` is one pass of the health loop: list the adb server's devices, `adb connect` the
configured network devices that are missing, probe new or returning phones, mark vanished or
silent ones as lost, and ping idle ones. A lost phone loses its lease; the lease id is
remembered for a while so that its holder hears `device_lost`, not `lease_not_found`.
Each phone runs one verb at a time (an asyncio lock); every wait is bounded.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from phonebuddy.bus import ServiceError
from phonebuddy.device_gateway.adb_client import AdbHost, AdbServerError, DeviceLostError
from phonebuddy.device_gateway.metrics import GatewayMetrics
from phonebuddy.device_gateway.phone import (
    DeviceNotReadyError,
    Phone,
    PhoneOptions,
    UnknownPackageError,
)
from phonebuddy.protocol import ErrorCode, Source
from phonebuddy.protocol.env import Lease

log = logging.getLogger(__name__)
T = TypeVar("T")
LOST_LEASE_MEMORY = 4096


@dataclass
class Slot:
    """One phone and who holds it."""

    phone: Phone
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    healthy: bool = False
    ever_healthy: bool = False
    problem: str = "not probed yet"
    lease_id: str | None = None
    client_id: str | None = None
    expires_at: float = 0.0  # monotonic
    task_packages: tuple[str, ...] = ()

    @property
    def serial(self) -> str:
        return self.phone.serial


@dataclass(frozen=True)
class PoolOptions:
    instance_id: str
    serials: tuple[str, ...] = ()
    connect: tuple[str, ...] = ()
    lock_timeout_s: float = 8.0
    ping_timeout_s: float = 3.0
    connect_timeout_s: float = 5.0


class DevicePool:
    def __init__(
        self,
        host: AdbHost,
        options: PoolOptions,
        phone_options: PhoneOptions,
        metrics: GatewayMetrics | None = None,
    ) -> None:
        self.host = host
        self.options = options
        self.phone_options = phone_options
        self.metrics = metrics or GatewayMetrics()
        self.instance_id = options.instance_id
        self.slots: dict[str, Slot] = {}
        self.server_reachable = False
        self._by_lease: dict[str, Slot] = {}
        self._lost_leases: OrderedDict[str, str] = OrderedDict()
        self._refreshing = asyncio.Lock()

    # -- what there is ---------------------------------------------------------------------------
    @property
    def leased(self) -> int:
        return len(self._by_lease)

    @property
    def healthy(self) -> int:
        return sum(slot.healthy for slot in self.slots.values())

    def allowed(self, serial: str) -> bool:
        wanted = self.options.serials
        return not wanted or serial in wanted or serial in self.options.connect

    def describe(self) -> dict[str, Any]:
        return {
            "instance": self.instance_id,
            "adb_server": self.host.address,
            "adb_server_reachable": self.server_reachable,
            "leased": self.leased,
            "devices": [
                {
                    "serial": slot.serial,
                    "healthy": slot.healthy,
                    "leased": slot.lease_id is not None,
                    "problem": None if slot.healthy else slot.problem,
                    "screen": slot.phone.screen.model_dump() if slot.phone.screen else None,
                    "home": slot.phone.home_package,
                }
                for slot in sorted(self.slots.values(), key=lambda s: s.serial)
            ],
        }

    # -- health loop -----------------------------------------------------------------------------
    async def refresh(self) -> None:
        """One discovery and health pass (see the module docstring)."""
        async with self._refreshing:
            try:
                listed = await self.host.devices()
                if await self._connect_missing(listed):
                    listed = await self.host.devices()
            except AdbServerError as exc:
                if self.server_reachable:
                    log.warning("%s", exc)
                self.server_reachable = False
                for slot in self.slots.values():
                    self._lose(slot, "adb server unreachable", kind="adb_server")
                self._count_devices()
                return
            self.server_reachable = True
            checks = []
            for serial, state in listed.items():
                if not self.allowed(serial):
                    continue
                slot = self._slot(serial)
                if state != "device":
                    self._lose(slot, f"adb lists it as {state}", kind="offline")
                elif not slot.healthy:
                    checks.append(self._probe(slot))
                elif not slot.lock.locked():
                    checks.append(self._ping(slot))
            for serial, slot in self.slots.items():
                if serial not in listed:
                    self._lose(slot, "gone from the adb server", kind="gone")
            await asyncio.gather(*checks)
            self._count_devices()

    def _slot(self, serial: str) -> Slot:
        slot = self.slots.get(serial)
        if slot is None:
            slot = self.slots[serial] = Slot(Phone(self.host.link(serial), self.phone_options))
        return slot

    async def _connect_missing(self, listed: dict[str, str]) -> bool:
        missing = [a for a in self.options.connect if listed.get(a) != "device"]

        async def connect(address: str) -> None:
            if address in listed:  # known but offline: start over
                await self.host.disconnect(address)
            answer = await self.host.connect(address, timeout_s=self.options.connect_timeout_s)
            log.debug("adb connect %s: %s", address, answer)

        results = await asyncio.gather(*(connect(a) for a in missing), return_exceptions=True)
        for result in results:
            if isinstance(result, AdbServerError):
                log.debug("%s", result)
            elif isinstance(result, BaseException):
                raise result
        return bool(missing)

    async def _probe(self, slot: Slot) -> None:
        async with slot.lock:
            try:
                await slot.phone.probe()
            except (DeviceLostError, DeviceNotReadyError) as exc:
                slot.problem = exc.reason
                return
            slot.healthy = True
            slot.problem = ""
            if slot.ever_healthy:
                self.metrics.reconnects.labels(device=slot.serial).inc()
                log.info("device %s is back", slot.serial)
            slot.ever_healthy = True

    async def _ping(self, slot: Slot) -> None:
        async with slot.lock:
            try:
                await slot.phone.ping(timeout_s=self.options.ping_timeout_s)
            except DeviceLostError as exc:
                self._lose(slot, exc.reason, kind="ping")

    def _lose(self, slot: Slot, reason: str, *, kind: str) -> None:
        if not slot.healthy and slot.lease_id is None:
            slot.problem = reason
            return
        log.warning("device %s lost: %s", slot.serial, reason)
        slot.healthy = False
        slot.problem = reason
        self.metrics.failures.labels(device=slot.serial, reason=kind).inc()
        if slot.lease_id is not None:
            self._lost_leases[slot.lease_id] = f"device {slot.serial} was lost: {reason}"
            while len(self._lost_leases) > LOST_LEASE_MEMORY:
                self._lost_leases.popitem(last=False)
            self._by_lease.pop(slot.lease_id, None)
            slot.lease_id = slot.client_id = None
            slot.task_packages = ()
            self.metrics.active_leases.set(self.leased)

    def _count_devices(self) -> None:
        healthy = self.healthy
        self.metrics.devices.labels(status="healthy").set(healthy)
        self.metrics.devices.labels(status="lost").set(len(self.slots) - healthy)

    async def close(self) -> None:
        """Disconnect the network devices this pool connected, then stop the ADB threads."""
        results = await asyncio.gather(
            *(self.host.disconnect(address) for address in self.options.connect),
            return_exceptions=True,
        )
        for result in results:
            if isinstance(result, BaseException) and not isinstance(result, AdbServerError):
                raise result
        self.host.close()

    # -- leases ----------------------------------------------------------------------------------
    def lease(self, client_id: str, ttl_s: float, packages: Sequence[str] = ()) -> Lease:
        healthy = [s for s in self.slots.values() if s.healthy]
        capable = [s for s in healthy if s.phone.has_packages(packages)]
        if healthy and not capable:
            raise ServiceError(
                ErrorCode.UNKNOWN_APP,
                f"no device of {self.instance_id} has all of {list(packages)}",
            )
        free = next((s for s in sorted(capable, key=_serial) if s.lease_id is None), None)
        if free is None:
            raise ServiceError(
                ErrorCode.NO_DEVICE_AVAILABLE,
                f"{len(capable)} healthy device(s) of {self.instance_id} fit, all leased",
                retryable=True,
            )
        free.lease_id = secrets.token_hex(12)
        free.client_id = client_id
        free.expires_at = time.monotonic() + ttl_s
        self._by_lease[free.lease_id] = free
        self.metrics.active_leases.set(self.leased)
        return self._describe(free, ttl_s)

    def _describe(self, slot: Slot, ttl_s: float) -> Lease:
        assert slot.lease_id is not None  # only leased slots are described
        screen = slot.phone.screen
        assert screen is not None  # healthy phones are probed
        return Lease(
            lease_id=slot.lease_id,
            device_id=slot.serial,
            source=Source.REAL,
            instance_id=self.instance_id,
            screen=screen,
            expires_at=dt.datetime.now(dt.UTC) + dt.timedelta(seconds=ttl_s),
        )

    def get(self, lease_id: str) -> Slot:
        slot = self._by_lease.get(lease_id)
        if slot is not None:
            return slot
        lost = self._lost_leases.get(lease_id)
        if lost is not None:
            raise ServiceError(ErrorCode.DEVICE_LOST, lost, retryable=True)
        raise ServiceError(
            ErrorCode.LEASE_NOT_FOUND,
            f"lease {lease_id} is not held on {self.instance_id} (expired or released)",
        )

    def renew(self, lease_id: str, ttl_s: float) -> Lease:
        slot = self.get(lease_id)
        slot.expires_at = time.monotonic() + ttl_s
        return self._describe(slot, ttl_s)

    async def release(self, lease_id: str) -> bool:
        """Give the phone back: its last task's apps are stopped and it goes home."""
        if self._lost_leases.pop(lease_id, None) is not None:
            return False
        slot = self._by_lease.pop(lease_id, None)
        if slot is None:
            return False
        packages = slot.task_packages
        slot.lease_id = slot.client_id = None
        slot.task_packages = ()
        self.metrics.active_leases.set(self.leased)
        try:
            async with asyncio.timeout(self.options.lock_timeout_s):
                await slot.lock.acquire()
        except TimeoutError:
            self._lose(slot, "busy past the lock timeout while being released", kind="timeout")
            return True
        try:
            if slot.healthy:
                await slot.phone.tidy(packages)
        except DeviceLostError as exc:
            self._lose(slot, exc.reason, kind="lost")
        finally:
            slot.lock.release()
        return True

    async def reap_expired(self) -> list[str]:
        """Release every lease past its TTL (its phone is tidied for the next client)."""
        now = time.monotonic()
        expired = [lease for lease, slot in self._by_lease.items() if slot.expires_at <= now]
        for lease_id in expired:
            log.info("lease %s expired; tidying its device", lease_id)
            await self.release(lease_id)
            self.metrics.expired_leases.inc()
        return expired

    # -- verbs -----------------------------------------------------------------------------------
    async def run_on(self, lease_id: str, verb: str, work: Callable[[Slot], Awaitable[T]]) -> T:
        """Run `work` on the lease's phone, one verb at a time per phone, every wait bounded.

        A phone that fails to answer is marked lost, its lease ends, and the caller gets a
        retryable `device_lost`.
        """
        slot = self.get(lease_id)
        try:
            async with asyncio.timeout(self.options.lock_timeout_s):
                await slot.lock.acquire()
        except TimeoutError:
            raise ServiceError(
                ErrorCode.TIMEOUT,
                f"device {slot.serial} stayed busy for {self.options.lock_timeout_s:g} s",
                retryable=True,
            ) from None
        try:
            if slot.lease_id != lease_id:  # lost, expired or released while we waited
                self.get(lease_id)
                raise ServiceError(ErrorCode.LEASE_EXPIRED, f"lease {lease_id} expired")
            with self.metrics.timed(slot.serial, verb):
                return await work(slot)
        except DeviceLostError as exc:
            self._lose(slot, exc.reason, kind="lost")
            self._count_devices()
            raise ServiceError(
                ErrorCode.DEVICE_LOST,
                f"device {slot.serial} was lost: {exc.reason}",
                retryable=True,
                details={"device": slot.serial},
            ) from None
        except UnknownPackageError as exc:
            raise ServiceError(ErrorCode.UNKNOWN_APP, str(exc)) from None
        finally:
            slot.lock.release()


def _serial(slot: Slot) -> str:
    return slot.serial
