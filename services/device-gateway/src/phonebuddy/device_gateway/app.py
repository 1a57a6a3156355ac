"""The gateway service: a FastAPI app whose lifespan runs the device pool (health loop, lease
reaper) and its NATS endpoint. `/livez`, `/readyz` (NATS connected, at least one healthy
device), `/metrics`, and `/devices` for a quick look."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi import FastAPI

from phonebuddy.bus import Bus, NatsSettings, connect
from phonebuddy.device_gateway.actions import AppTable
from phonebuddy.device_gateway.adb_client import AdbHost
from phonebuddy.device_gateway.endpoint import GatewayBackend
from phonebuddy.device_gateway.metrics import GatewayMetrics
from phonebuddy.device_gateway.phone import PhoneOptions
from phonebuddy.device_gateway.pool import DevicePool, PoolOptions
from phonebuddy.device_gateway.settings import GatewaySettings
from phonebuddy.env_endpoint import EnvEndpoint, EnvHost, EnvMetrics
from phonebuddy.telemetry import ReadinessCheck, health_router

log = logging.getLogger(__name__)


def build_pool(settings: GatewaySettings, metrics: GatewayMetrics) -> DevicePool:
    host, port = settings.adb_address
    adb = AdbHost(
        host, port, timeout_s=settings.adb_timeout_s, max_threads=settings.max_adb_threads
    )
    phone_options = PhoneOptions(
        apps=AppTable(settings.apps),
        settle_s=settings.settle_s,
        jpeg_quality=settings.jpeg_quality,
        adb_keyboard_ime=settings.adb_keyboard_ime,
        protected_packages=frozenset(settings.protected_packages),
        launcher_packages=frozenset(settings.launcher_packages),
        task_setup_action=settings.task_setup_action,
    )
    pool_options = PoolOptions(
        instance_id=settings.instance_id,
        serials=settings.serials,
        connect=settings.connect,
        ping_timeout_s=settings.ping_timeout_s,
    )
    return DevicePool(adb, pool_options, phone_options, metrics)


class GatewayService:
    """Everything the process holds: the pool, the env host over it, their loops, the bus
    connection, the endpoint."""

    def __init__(self, settings: GatewaySettings, nats: NatsSettings | None) -> None:
        self.settings = settings
        self.nats_settings = nats
        self.metrics = GatewayMetrics()
        self.pool = build_pool(settings, self.metrics)
        self.host = EnvHost(
            GatewayBackend(self.pool, self.metrics),
            EnvMetrics(self.metrics.registry, self.pool.leases, per_device=True),
            lock_timeout_s=settings.lock_timeout_s,
        )
        self.bus: Bus | None = None
        self.endpoint: EnvEndpoint | None = None

    async def nats_ready(self) -> bool:
        return self.bus is not None and self.bus.is_connected

    async def device_ready(self) -> bool:
        return self.pool.healthy > 0

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        await self.pool.refresh()
        loops = [
            asyncio.create_task(self._every(self.settings.health_interval_s, self.pool.refresh)),
            asyncio.create_task(self.host.reap_forever(self.settings.reap_interval_s)),
        ]
        try:
            if self.nats_settings is not None:
                self.bus = await connect(self.nats_settings)
                self.endpoint = EnvEndpoint(self.host, self.bus)
                await self.endpoint.start()
            yield
        finally:
            for task in loops:
                task.cancel()
            await asyncio.gather(*loops, return_exceptions=True)
            if self.endpoint is not None:
                await self.endpoint.stop()
            if self.bus is not None:
                await self.bus.close()
            await self.pool.close()

    @staticmethod
    async def _every(interval_s: float, work: Callable[[], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(interval_s)
            try:
                await work()
            except Exception:
                log.exception("periodic %s failed; trying again", getattr(work, "__name__", work))


def create_app(settings: GatewaySettings, nats: NatsSettings | None) -> FastAPI:
    service = GatewayService(settings, nats)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with service.running():
            yield

    app = FastAPI(title="PhoneBuddy device gateway", lifespan=lifespan)
    readiness: dict[str, ReadinessCheck] = {}
    if not settings.ready_without_devices:
        readiness["device"] = service.device_ready
    if nats is not None:
        readiness["nats"] = service.nats_ready
    app.include_router(health_router(metrics=service.metrics.registry, readiness=readiness))

    @app.get("/devices")
    async def devices() -> dict[str, Any]:
        return service.pool.describe()

    app.state.service = service
    return app
