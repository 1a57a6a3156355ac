"""The PhoneWorld service: a FastAPI app whose lifespan hosts the device pool, its NATS
endpoint and (with `adb_base_port`) its ADB listeners. `/livez`, `/readyz` (NATS connected),
`/metrics`, `/devices` for a quick look, and (with `ground_truth_judge`) the ground-truth
grader's OpenAI-compatible routes under `/ground-truth/v1`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

from phonebuddy.bus import Bus, NatsSettings, connect
from phonebuddy.env_endpoint import EnvEndpoint, EnvHost, EnvMetrics
from phonebuddy.phoneworld.adb import AdbHub, parse_host_port
from phonebuddy.phoneworld.service.catalog import CatalogEndpoint
from phonebuddy.phoneworld.service.endpoint import WorldBackend
from phonebuddy.phoneworld.service.ground_truth_api import ground_truth_router
from phonebuddy.phoneworld.service.metrics import WorldMetrics
from phonebuddy.phoneworld.service.pool import DevicePool
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.phoneworld.world import default_world
from phonebuddy.protocol import ScreenSize
from phonebuddy.telemetry import health_router

log = logging.getLogger(__name__)


class WorldService:
    """Everything the process holds: the pool, the env host over it, the bus connection, the
    endpoint."""

    def __init__(self, settings: WorldSettings, nats: NatsSettings | None) -> None:
        self.settings = settings
        self.nats_settings = nats
        self.metrics = WorldMetrics()
        screen = ScreenSize(width=settings.screen_width, height=settings.screen_height)
        self.pool = DevicePool(
            default_world(settings.world_seed),
            size=settings.devices,
            instance_id=settings.instance_id,
            screen=screen,
        )
        self.metrics.devices.set(settings.devices)
        self.host = EnvHost(
            WorldBackend(self.pool, self.metrics),
            EnvMetrics(self.metrics.registry, self.pool.leases),
        )
        self.bus: Bus | None = None
        self.endpoint: EnvEndpoint | None = None
        self.catalog: CatalogEndpoint | None = None
        self.adb: AdbHub | None = None

    async def nats_ready(self) -> bool:
        return self.bus is not None and self.bus.is_connected

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        reaper = asyncio.create_task(self.host.reap_forever(self.settings.reap_interval_s))
        try:
            if self.nats_settings is not None:
                self.bus = await connect(self.nats_settings)
                self.endpoint = EnvEndpoint(self.host, self.bus)
                await self.endpoint.start()
                self.catalog = CatalogEndpoint(self.pool.world, self.bus)
                await self.catalog.start()
            if self.settings.adb_base_port is not None:
                # The same Device objects and locks as the NATS endpoint: one device, one lock.
                register = self.settings.adb_register
                adb_slots = self.pool.slots
                if self.settings.adb_devices is not None:
                    adb_slots = adb_slots[len(adb_slots) - self.settings.adb_devices :]
                    for slot in adb_slots:
                        slot.adb_only = True
                self.adb = AdbHub(
                    [(slot.device, slot.lock) for slot in adb_slots],
                    host=self.settings.host,
                    base_port=self.settings.adb_base_port,
                    register=parse_host_port(register) if register else None,
                )
                await self.adb.start()
            yield
        finally:
            if self.adb is not None:
                await self.adb.close()
            reaper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await reaper
            if self.catalog is not None:
                await self.catalog.stop()
            if self.endpoint is not None:
                await self.endpoint.stop()
            if self.bus is not None:
                await self.bus.close()


def create_app(settings: WorldSettings, nats: NatsSettings | None) -> FastAPI:
    service = WorldService(settings, nats)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with service.running():
            yield

    app = FastAPI(title="PhoneWorld", lifespan=lifespan)
    readiness = {"nats": service.nats_ready} if nats is not None else {}
    app.include_router(health_router(metrics=service.metrics.registry, readiness=readiness))

    if settings.ground_truth_judge:
        app.include_router(ground_truth_router(service.pool.world, service.pool.screen))

    @app.get("/devices")
    async def devices() -> dict[str, Any]:
        return service.pool.describe()

    app.state.service = service
    return app
