"""Serve an ASGI app (a FastAPI service) with uvicorn on a free loopback port."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import uvicorn

from phonebuddy.testing.ports import free_port


@contextlib.asynccontextmanager
async def serve_asgi(
    app: Any, *, host: str = "127.0.0.1", port: int | None = None
) -> AsyncIterator[str]:
    """Run `app` in this event loop until the block exits; yields its base URL."""
    config = uvicorn.Config(
        app, host=host, port=port or free_port(host), log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    try:
        while not server.started:
            if task.done():
                task.result()  # raises the start-up error
                raise RuntimeError("uvicorn stopped before it started")
            await asyncio.sleep(0.01)
        yield f"http://{host}:{config.port}"
    finally:
        server.should_exit = True
        await task
