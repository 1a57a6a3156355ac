"""The end of a demo: the trajectory viewer over the stack's store (and the evaluation report at
`/report`) on loopback until Ctrl-C or SIGTERM."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable

import uvicorn
from fastapi.responses import HTMLResponse

from phonebuddy.storage import StoreSettings, open_store
from phonebuddy.trajectories import TrajectoryStore
from phonebuddy.trajectories.viewer import create_viewer

REPORT_PATH = "/report"


async def serve_until_stopped(
    env: dict[str, str],
    port: int,
    *,
    report_html: str | None = None,
    echo: Callable[[str], None] = print,
) -> None:
    """Serve the viewer (and `report_html` at /report) until SIGINT or SIGTERM."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with open_store(StoreSettings.from_variables(env)) as raw:
        app = create_viewer(TrajectoryStore(raw))
        if report_html is not None:

            @app.get(REPORT_PATH, response_class=HTMLResponse, include_in_schema=False)
            async def report() -> str:
                return report_html

        config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
        server = uvicorn.Server(config)
        server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
        task = asyncio.create_task(server.serve())
        echo(f"trajectory viewer: http://127.0.0.1:{port}/  (Ctrl-C stops the demo)")
        if report_html is not None:
            echo(f"evaluation report: http://127.0.0.1:{port}{REPORT_PATH}")
        await stop.wait()
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await task
