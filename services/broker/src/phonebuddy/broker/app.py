"""The broker's HTTP side: `/livez`, `/readyz` (NATS connected, consumer running), `/metrics`."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI

from phonebuddy.broker.service import BrokerService
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings
from phonebuddy.telemetry import health_router


def create_app(settings: BrokerSettings, nats: NatsSettings) -> FastAPI:
    service = BrokerService(settings, nats)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with service.running():
            yield

    app = FastAPI(title="PhoneBuddy rollout broker", lifespan=lifespan)
    app.state.service = service
    app.include_router(
        health_router(metrics=service.metrics.registry, readiness={"broker": lambda: service.ready})
    )
    return app
