"""PhoneWorld's simulated devices, each with the lock whoever drives it holds (the env kit for
NATS verbs, the ADB hub for ADB connections) and the task it was last reset to. Which device
is leased to whom lives in `leases` (the env kit's lease table)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from phonebuddy.env_endpoint import LeaseTable
from phonebuddy.env_endpoint.leases import Clock
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.state import Doc
from phonebuddy.phoneworld.tasks.runner import TaskInstance
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import ScreenSize


@dataclass
class Slot:
    """One device and the task it runs."""

    device: Device
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
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
        clock: Clock = time.monotonic,
    ) -> None:
        self.world = world
        self.instance_id = instance_id
        self.screen = screen
        self.slots = [
            Slot(Device(world, device_id=f"{instance_id}-{i}", screen=screen)) for i in range(size)
        ]
        self._by_id = {slot.device.device_id: slot for slot in self.slots}
        self.leases = LeaseTable(instance_id, clock=clock)

    @property
    def leased(self) -> int:
        return len(self.leases)

    def slot(self, device_id: str) -> Slot:
        return self._by_id[device_id]

    def leasable(self) -> list[str]:
        """The devices NATS clients may lease, in order (not those kept for ADB)."""
        return [slot.device.device_id for slot in self.slots if not slot.adb_only]

    def describe(self) -> dict[str, Any]:
        return {"devices": len(self.slots), "leased": self.leased, "instance": self.instance_id}
