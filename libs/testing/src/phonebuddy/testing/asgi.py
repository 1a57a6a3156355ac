"""Serve an ASGI app (a FastAPI service) with uvicorn on a free loopback port."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Iterator
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


@contextlib.contextmanager
def serve_asgi_in_thread(
    app: Any, *, host: str = "127.0.0.1", port: int | None = None, start_timeout_s: float = 120.0
) -> Iterator[str]:
    """Run `app` on its own event loop in a background thread (for fixtures shared by many
    tests, benchmarks, synchronous clients); yields its base URL, stops it on exit."""
    config = uvicorn.Config(
        app, host=host, port=port or free_port(host), log_level="warning", lifespan="on"
    )
    server = uvicorn.Server(config)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(server.serve())
        except BaseException as exc:  # reported to the caller below
            errors.append(exc)

    thread = threading.Thread(target=run, name=f"asgi-{config.port}", daemon=True)
    thread.start()
    deadline = time.monotonic() + start_timeout_s
    while not server.started:
        if errors or not thread.is_alive():
            raise RuntimeError(f"the app stopped before it started: {errors[:1]}")
        if time.monotonic() > deadline:
            server.should_exit = True
            raise TimeoutError(f"the app did not start within {start_timeout_s} s")
        time.sleep(0.01)
    try:
        yield f"http://{host}:{config.port}"
    finally:
        server.should_exit = True
        thread.join(timeout=30)
