"""The gateway's phones: discovery, health checks and reconnects.

`refresh()` is one pass of the health loop: list the adb server's devices, `adb connect` the
configured network devices that are missing, probe new or returning phones, mark vanished or
silent ones as lost, and ping idle ones. A lost phone loses its lease in `leases` (the env
kit's lease table), which remembers it for a while so that its holder hears `device_lost`, not
`lease_not_found`. Each phone has one lock: the kit holds it for every verb, the health loop
for every probe and ping.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from phonebuddy.device_gateway.adb_client import AdbHost, AdbServerError, DeviceLostError
from phonebuddy.device_gateway.metrics import GatewayMetrics
from phonebuddy.device_gateway.phone import DeviceNotReadyError, Phone, PhoneOptions
from phonebuddy.env_endpoint import LeaseTable
from phonebuddy.env_endpoint.leases import Clock

log = logging.getLogger(__name__)


@dataclass
class Slot:
    """One phone and who holds it."""

    phone: Phone
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    healthy: bool = False
    ever_healthy: bool = False
    problem: str = "not probed yet"
    task_packages: tuple[str, ...] = ()  # the apps of the task it was last reset to

    @property
    def serial(self) -> str:
        return self.phone.serial


@dataclass(frozen=True)
class PoolOptions:
    instance_id: str
    serials: tuple[str, ...] = ()
    connect: tuple[str, ...] = ()
    ping_timeout_s: float = 3.0
    connect_timeout_s: float = 5.0


class DevicePool:
    def __init__(
        self,
        host: AdbHost,
        options: PoolOptions,
        phone_options: PhoneOptions,
        metrics: GatewayMetrics | None = None,
        *,
        clock: Clock = time.monotonic,
    ) -> None:
        self.host = host
        self.options = options
        self.phone_options = phone_options
        self.metrics = metrics or GatewayMetrics()
        self.instance_id = options.instance_id
        self.slots: dict[str, Slot] = {}
        self.server_reachable = False
        self.leases = LeaseTable(options.instance_id, clock=clock)
        self._refreshing = asyncio.Lock()

    # -- what there is ---------------------------------------------------------------------------
    @property
    def leased(self) -> int:
        return len(self.leases)

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
                    "leased": self.leases.holder(slot.serial) is not None,
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
                    self.lose(slot.serial, "adb server unreachable", kind="adb_server")
                self._count_devices()
                return
            self.server_reachable = True
            checks = []
            for serial, state in listed.items():
                if not self.allowed(serial):
                    continue
                slot = self._slot(serial)
                if state != "device":
                    self.lose(slot.serial, f"adb lists it as {state}", kind="offline")
                elif not slot.healthy:
                    checks.append(self._probe(slot))
                elif not slot.lock.locked():
                    checks.append(self._ping(slot))
            for serial, slot in self.slots.items():
                if serial not in listed:
                    self.lose(slot.serial, "gone from the adb server", kind="gone")
            await asyncio.gather(*checks)
            self._count_devices()

    def _slot(self, serial: str) -> Slot:
        slot = self.slots.get(serial)
        if slot is None:
            slot = self.slots[serial] = Slot(Phone(self.host.link(serial), self.phone_options))
            self.metrics.add_device(serial)
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
                self.lose(slot.serial, exc.reason, kind="ping")

    def lose(self, serial: str, reason: str, *, kind: str) -> None:
        """Mark a phone lost (unhealthy until a probe passes again); its lease ends."""
        slot = self.slots[serial]
        leased = self.leases.holder(serial) is not None
        if not slot.healthy and not leased:
            slot.problem = reason
            return
        log.warning("device %s lost: %s", serial, reason)
        slot.healthy = False
        slot.problem = reason
        slot.task_packages = ()
        self.metrics.failures.labels(device=serial, reason=kind).inc()
        self.leases.lose(serial, reason)
        self._count_devices()

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
