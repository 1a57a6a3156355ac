"""A pool of simulated devices with leases. A lease that is not renewed expires; its device is
reset and returned to the pool. All device work runs in worker threads, one at a time per
device, so rendering never stalls the event loop for other devices."""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from phonebuddy.bus import ServiceError
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.state import Doc
from phonebuddy.phoneworld.tasks.runner import TaskInstance
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import ErrorCode, ScreenSize, Source
from phonebuddy.protocol.env import Lease

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class Slot:
    """One device and who holds it."""

    device: Device
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    lease_id: str | None = None
    client_id: str | None = None
    expires_at: float = 0.0  # monotonic
    instance: TaskInstance | None = None
    before: Doc | None = None
    adb_only: bool = False  # driven over ADB only (by a device gateway), never leased here


class DevicePool:
    def __init__(
        self,
        world: World,
        *,
        size: int,
        instance_id: str,
        screen: ScreenSize,
        on_expired: Callable[[str], None] | None = None,
    ) -> None:
        self.world = world
        self.instance_id = instance_id
        self.screen = screen
        self.slots = [
            Slot(Device(world, device_id=f"{instance_id}-{i}", screen=screen)) for i in range(size)
        ]
        self._by_lease: dict[str, Slot] = {}
        self._on_expired = on_expired

    @property
    def leased(self) -> int:
        return len(self._by_lease)

    def lease(self, client_id: str, ttl_s: float) -> Lease:
        leasable = [slot for slot in self.slots if not slot.adb_only]
        free = next((slot for slot in leasable if slot.lease_id is None), None)
        if free is None:
            raise ServiceError(
                ErrorCode.NO_DEVICE_AVAILABLE,
                f"all {len(leasable)} devices of {self.instance_id} are leased",
                retryable=True,
            )
        free.lease_id = secrets.token_hex(12)
        free.client_id = client_id
        free.expires_at = time.monotonic() + ttl_s
        self._by_lease[free.lease_id] = free
        return self._describe(free, ttl_s)

    def _describe(self, slot: Slot, ttl_s: float) -> Lease:
        assert slot.lease_id is not None  # only leased slots are described
        return Lease(
            lease_id=slot.lease_id,
            device_id=slot.device.device_id,
            source=Source.SIM,
            instance_id=self.instance_id,
            screen=self.screen,
            expires_at=dt.datetime.now(dt.UTC) + dt.timedelta(seconds=ttl_s),
        )

    def get(self, lease_id: str) -> Slot:
        slot = self._by_lease.get(lease_id)
        if slot is None:
            raise ServiceError(
                ErrorCode.LEASE_NOT_FOUND,
                f"lease {lease_id} is not held on {self.instance_id} (expired or released)",
            )
        return slot

    def renew(self, lease_id: str, ttl_s: float) -> Lease:
        slot = self.get(lease_id)
        slot.expires_at = time.monotonic() + ttl_s
        return self._describe(slot, ttl_s)

    async def release(self, lease_id: str) -> bool:
        slot = self._by_lease.pop(lease_id, None)
        if slot is None:
            return False
        async with slot.lock:
            slot.lease_id = slot.client_id = None
            slot.instance = slot.before = None
            await asyncio.to_thread(slot.device.reset, 0)
        return True

    async def reap_expired(self) -> list[str]:
        """Release every lease past its TTL (its device is reset for the next client)."""
        now = time.monotonic()
        expired = [lease for lease, slot in self._by_lease.items() if slot.expires_at <= now]
        for lease_id in expired:
            log.info("lease %s expired; resetting its device", lease_id)
            await self.release(lease_id)
            if self._on_expired is not None:
                self._on_expired(lease_id)
        return expired

    async def run_on(self, lease_id: str, work: Callable[[Slot], T]) -> T:
        """Run blocking `work` on the lease's device in a thread, one call at a time."""
        slot = self.get(lease_id)
        async with slot.lock:
            if slot.lease_id != lease_id:  # released while we waited
                raise ServiceError(ErrorCode.LEASE_EXPIRED, f"lease {lease_id} expired")
            return await asyncio.to_thread(work, slot)

    def describe(self) -> dict[str, Any]:
        return {"devices": len(self.slots), "leased": self.leased, "instance": self.instance_id}
