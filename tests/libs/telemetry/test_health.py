import asyncio

import httpx
from fastapi import FastAPI

from phonebuddy.telemetry import ServiceMetrics, health_router
from phonebuddy.testing import PrometheusServer, serve_asgi


def build_app(state: dict[str, bool]) -> tuple[FastAPI, ServiceMetrics]:
    metrics = ServiceMetrics("demo")
    steps = metrics.counter("steps", "Steps taken", ["source"])
    steps.labels(source="sim").inc(3)

    async def nats_connected() -> bool:
        return state["nats"]

    async def hangs() -> bool:
        await asyncio.sleep(60)
        return True

    def explodes() -> bool:
        raise RuntimeError("device unplugged")

    checks = {"nats": nats_connected}
    if state.get("hang"):
        checks["slow"] = hangs
    if state.get("explode"):
        checks["device"] = explodes
    app = FastAPI()
    app.include_router(health_router(metrics=metrics, readiness=checks))
    return app, metrics


async def test_livez_answers_even_when_not_ready() -> None:
    app, _ = build_app({"nats": False})
    async with serve_asgi(app) as url, httpx.AsyncClient(base_url=url) as client:
        response = await client.get("/livez")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


async def test_readyz_fails_until_its_checks_pass() -> None:
    state = {"nats": False}
    app, _ = build_app(state)
    async with serve_asgi(app) as url, httpx.AsyncClient(base_url=url) as client:
        not_ready = await client.get("/readyz")
        state["nats"] = True
        ready = await client.get("/readyz")
    assert not_ready.status_code == 503
    assert not_ready.json() == {"status": "not_ready", "checks": {"nats": False}}
    assert ready.status_code == 200
    assert ready.json()["status"] == "ready"


async def test_readyz_reports_a_raising_or_hanging_check_without_failing_itself() -> None:
    app, _ = build_app({"nats": True, "explode": True, "hang": True})
    async with serve_asgi(app) as url, httpx.AsyncClient(base_url=url, timeout=10) as client:
        response = await client.get("/readyz")
    assert response.status_code == 503
    checks = response.json()["checks"]
    assert checks["nats"] is True
    assert checks["device"] == "error: device unplugged"
    assert checks["slow"].startswith("timed out")


async def test_metrics_are_scraped_by_a_real_prometheus(
    prometheus_server: PrometheusServer,
) -> None:
    app, _ = build_app({"nats": True})
    async with serve_asgi(app) as url:
        prometheus_server.set_targets("demo", [url.removeprefix("http://")])
        result = await asyncio.to_thread(
            prometheus_server.wait_for, 'phonebuddy_demo_steps_total{job="demo",source="sim"}'
        )
    assert float(result[0]["value"][1]) == 3.0
