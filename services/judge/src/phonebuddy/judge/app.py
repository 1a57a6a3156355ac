"""The judge service: a FastAPI app whose lifespan opens the object store, the judge's HTTP
client and the NATS endpoint. `/livez`, `/readyz` (NATS connected, store answering), `/metrics`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from fastapi import FastAPI

from phonebuddy.bus import Bus, NatsSettings, connect
from phonebuddy.judge.endpoint import JudgeEndpoint
from phonebuddy.judge.judge import Judge
from phonebuddy.judge.metrics import JudgeMetrics
from phonebuddy.judge.settings import JudgeSettings
from phonebuddy.storage import ObjectStore, StoreError, StoreSettings, open_store
from phonebuddy.telemetry import health_router
from phonebuddy.trajectories import RunStores, TrajectoryStore

log = logging.getLogger(__name__)
_PROBE_KEY = "rubrics/readyz-probe"


class JudgeService:
    """Everything the process holds: the store, the judge, the bus connection, the endpoint."""

    def __init__(
        self,
        settings: JudgeSettings,
        nats: NatsSettings,
        store: ObjectStore,
        *,
        store_url: str | None = None,
    ) -> None:
        self.settings = settings
        self.nats_settings = nats
        self.store = store
        self.trajectories = TrajectoryStore(store)
        # Runs' stores that requests name: this one (`store_url`) or under the store roots.
        self.stores = RunStores(home=store_url, roots=settings.store_roots, home_store=store)
        self.metrics = JudgeMetrics()
        self.judge: Judge | None = None
        self.bus: Bus | None = None
        self.endpoint: JudgeEndpoint | None = None
        self._store_open = False

    async def nats_ready(self) -> bool:
        return self.bus is not None and self.bus.is_connected and self.endpoint is not None

    async def store_ready(self) -> bool:
        if not self._store_open:
            return False
        try:
            await self.store.exists(_PROBE_KEY)
        except StoreError as exc:
            log.warning("the object store does not answer: %s", exc)
            return False
        return True

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            await self.store.open()
            stack.push_async_callback(self.store.close)
            self._store_open = True
            self.judge = Judge.from_settings(self.settings, self.trajectories, metrics=self.metrics)
            stack.push_async_callback(self.judge.close)
            self.bus = await connect(self.nats_settings)
            stack.push_async_callback(self.bus.close)
            stack.push_async_callback(self.stores.close)
            self.endpoint = JudgeEndpoint(
                self.judge, self.trajectories, self.bus, self.metrics, stores=self.stores,
                max_concurrency=self.settings.request_concurrency,
            )  # fmt: skip
            await self.endpoint.start()
            stack.push_async_callback(self.endpoint.stop)
            try:
                yield
            finally:
                self._store_open = False


def create_app(
    settings: JudgeSettings,
    nats: NatsSettings,
    store: ObjectStore | None = None,
    *,
    store_url: str | None = None,
) -> FastAPI:
    """The judge app; `store` (at `store_url`) defaults to the one PHONEBUDDY_STORE_*
    describe. Requests may name that store or stores under `settings.store_roots`."""
    if store is None:
        own = StoreSettings()
        store, store_url = open_store(own), own.url
    service = JudgeService(settings, nats, store, store_url=store_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with service.running():
            yield

    app = FastAPI(title="PhoneBuddy rubric judge", lifespan=lifespan)
    app.include_router(
        health_router(
            metrics=service.metrics.registry,
            readiness={"nats": service.nats_ready, "store": service.store_ready},
        )
    )
    app.state.service = service
    return app
