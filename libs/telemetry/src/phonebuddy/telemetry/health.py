"""`/livez`, `/readyz` and `/metrics` for FastAPI services.

Liveness checks nothing (the process answers); readiness runs the service's checks (NATS
connected, model loaded, device attached) and answers 503 naming the ones that fail.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Mapping

from fastapi import APIRouter, Response
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST

from phonebuddy.telemetry.metrics import ServiceMetrics

log = logging.getLogger(__name__)
ReadinessCheck = Callable[[], Awaitable[bool] | bool]
CHECK_TIMEOUT_S = 2.0


async def _run_check(check: ReadinessCheck) -> bool | str:
    try:
        result = check()
        if inspect.isawaitable(result):
            result = await asyncio.wait_for(result, CHECK_TIMEOUT_S)
    except TimeoutError:
        return f"timed out after {CHECK_TIMEOUT_S} s"
    except Exception as exc:  # a failing check means "not ready", never a 500
        log.warning("readiness check failed: %s", exc)
        return f"error: {exc}"
    return bool(result)


def health_router(
    *, metrics: ServiceMetrics, readiness: Mapping[str, ReadinessCheck] | None = None
) -> APIRouter:
    checks = dict(readiness or {})
    router = APIRouter(tags=["health"])

    @router.get("/livez")
    async def livez() -> dict[str, str]:
        return {"status": "ok"}

    @router.get("/readyz")
    async def readyz() -> JSONResponse:
        names = list(checks)
        outcomes = await asyncio.gather(*(_run_check(checks[name]) for name in names))
        results = dict(zip(names, outcomes, strict=True))
        ready = all(outcome is True for outcome in outcomes)
        return JSONResponse(
            {"status": "ready" if ready else "not_ready", "checks": results},
            status_code=200 if ready else 503,
        )

    @router.get("/metrics")
    async def metrics_endpoint() -> Response:
        return Response(metrics.render(), media_type=CONTENT_TYPE_LATEST)

    return router
