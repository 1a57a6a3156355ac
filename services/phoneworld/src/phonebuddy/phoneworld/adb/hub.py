"""ADB listeners for a set of devices: device i on port `base_port + i`, optionally registered
with an adb server. The service's lifespan holds one hub for its pool."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from types import TracebackType
from typing import Self

from phonebuddy.phoneworld.adb.phone import AdbPhone
from phonebuddy.phoneworld.adb.register import Registration
from phonebuddy.phoneworld.adb.server import AdbDeviceServer
from phonebuddy.phoneworld.device import Device

log = logging.getLogger(__name__)


class AdbHub:
    def __init__(
        self,
        devices: Sequence[tuple[Device, asyncio.Lock]],
        *,
        host: str = "127.0.0.1",
        base_port: int,
        register: tuple[str, int] | None = None,
    ) -> None:
        self.phones = [AdbPhone(device, lock, serial=device.device_id) for device, lock in devices]
        self.servers = [
            AdbDeviceServer(phone, host=host, port=base_port + index)
            for index, phone in enumerate(self.phones)
        ]
        self.host = host
        self.registration: Registration | None = None
        if register is not None:
            self.registration = Registration(
                *register, device_host=host, ports=[base_port + i for i in range(len(devices))]
            )

    @property
    def ports(self) -> list[int]:
        return [server.port for server in self.servers]

    async def start(self) -> None:
        try:
            for server in self.servers:
                await server.start()
        except OSError:
            await self.close()
            raise
        if self.registration is not None:
            self.registration.start()

    async def close(self) -> None:
        if self.registration is not None:
            await self.registration.stop()
        await asyncio.gather(*(server.close() for server in self.servers))

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
