"""`phonebuddy gateway ...`: serve phones over NATS, or list what the gateway would drive."""

from __future__ import annotations

import asyncio
import json
import os
from typing import Annotated, Any

import typer

app = typer.Typer(help="The real-device gateway: phones over ADB.", no_args_is_help=True)

AdbServerOption = Annotated[
    str | None, typer.Option("--adb-server", help="adb server HOST:PORT [127.0.0.1:5037]")
]
ConnectOption = Annotated[
    list[str] | None,
    typer.Option("--connect", help="network device HOST:PORT to `adb connect` (repeatable)"),
]
SerialOption = Annotated[
    list[str] | None, typer.Option("--serial", help="only this serial (repeatable)")
]


def _settings(**given: Any) -> Any:
    from pydantic import ValidationError

    from phonebuddy.device_gateway.settings import GatewaySettings

    try:
        return GatewaySettings(**{key: value for key, value in given.items() if value})
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors()
        )
        typer.echo(f"error: invalid gateway settings: {problems}", err=True)
        raise typer.Exit(2) from None


@app.command()
def serve(
    adb_server: AdbServerOption = None,
    connect: ConnectOption = None,
    serial: SerialOption = None,
    nats_url: Annotated[
        str | None, typer.Option(help="NATS server; credentials from PHONEBUDDY_NATS_*")
    ] = None,
    host: Annotated[str | None, typer.Option(help="HTTP bind address [127.0.0.1]")] = None,
    port: Annotated[int | None, typer.Option(help="HTTP port [8091]")] = None,
    instance_id: Annotated[str | None, typer.Option(help="subject token of this instance")] = None,
    ready_without_devices: Annotated[
        bool,
        typer.Option(help="report ready before any phone is healthy (a local stack without one)"),
    ] = False,
) -> None:
    """Drive the adb server's phones and serve the env verbs (source `real`) over NATS, plus
    /livez /readyz /metrics /devices. Options left out come from PHONEBUDDY_GATEWAY_*."""
    import uvicorn

    from phonebuddy.bus import NatsSettings
    from phonebuddy.device_gateway.app import create_app
    from phonebuddy.telemetry import configure_logging

    configure_logging()
    settings = _settings(
        adb_server=adb_server, connect=tuple(connect or ()), serials=tuple(serial or ()),
        host=host, port=port, instance_id=instance_id, ready_without_devices=ready_without_devices,
    )  # fmt: skip
    url = nats_url or os.environ.get("PHONEBUDDY_NATS_URL")
    nats = NatsSettings(url=url) if url else None
    typer.echo(f"device gateway {settings.instance_id}: adb server {settings.adb_server}")
    if settings.connect:
        typer.echo(f"  connect {', '.join(settings.connect)}")
    typer.echo(f"  http   http://{settings.host}:{settings.port}  (/livez /readyz /metrics)")
    typer.echo(f"  nats   {url or 'disabled (no --nats-url)'}")
    uvicorn.run(
        create_app(settings, nats), host=settings.host, port=settings.port, log_level="warning"
    )


@app.command()
def devices(
    adb_server: AdbServerOption = None,
    connect: ConnectOption = None,
    serial: SerialOption = None,
) -> None:
    """Connect, probe once and print the devices the gateway would drive (JSON)."""
    from phonebuddy.device_gateway.app import build_pool
    from phonebuddy.device_gateway.metrics import GatewayMetrics

    settings = _settings(
        adb_server=adb_server, connect=tuple(connect or ()), serials=tuple(serial or ())
    )

    async def probe() -> dict[str, Any]:
        pool = build_pool(settings, GatewayMetrics())
        try:
            await pool.refresh()
            return pool.describe()
        finally:
            pool.host.close()  # no disconnect: a running gateway may be using these phones

    described = asyncio.run(probe())
    typer.echo(json.dumps(described, indent=2))
    if not described["adb_server_reachable"]:
        raise typer.Exit(1)
