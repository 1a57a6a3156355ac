"""`phonebuddy broker serve`: run the rollout broker."""

from __future__ import annotations

import os
from typing import Annotated

import typer

app = typer.Typer(help="The rollout broker.", no_args_is_help=True)


@app.command()
def serve(
    nats_url: Annotated[
        str | None, typer.Option(help="NATS server; credentials from PHONEBUDDY_NATS_*")
    ] = None,
    host: Annotated[str | None, typer.Option(help="HTTP bind address [127.0.0.1]")] = None,
    port: Annotated[int | None, typer.Option(help="HTTP port [8096]")] = None,
    workers: Annotated[int | None, typer.Option(help="episodes run at once [32]")] = None,
    store_root: Annotated[
        list[str] | None,
        typer.Option(
            help="another store (or folder of stores: local:DIR, s3://bucket/prefix; ~ is your "
            "home) that requests may name, besides PHONEBUDDY_STORE_ROOTS; repeatable"
        ),
    ] = None,
) -> None:
    """Take rollout requests over NATS and run their episodes; /livez /readyz /metrics over HTTP.
    Options left out come from PHONEBUDDY_BROKER_* (and PHONEBUDDY_STORE_*, PHONEBUDDY_NATS_*)."""
    import uvicorn
    from pydantic import ValidationError

    from phonebuddy.broker.app import create_app
    from phonebuddy.broker.settings import BrokerSettings
    from phonebuddy.bus import NatsSettings
    from phonebuddy.telemetry import configure_logging

    configure_logging()
    given = {"host": host, "port": port, "workers": workers}
    try:
        settings = BrokerSettings(**{k: v for k, v in given.items() if v is not None})
        if store_root:
            roots = (*settings.store_roots, *store_root)
            settings = BrokerSettings(**{**settings.model_dump(), "store_roots": roots})
        url = nats_url or os.environ.get("PHONEBUDDY_NATS_URL")
        nats = NatsSettings(url=url) if url else NatsSettings()
    except ValidationError as exc:
        typer.echo(f"error: invalid broker settings: {exc}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"rollout broker {settings.instance_id}: nats {nats.url}")
    typer.echo(f"  http   http://{settings.host}:{settings.port}  (/livez /readyz /metrics)")
    typer.echo(f"  store  {settings.default_store_url or '(each request names one)'}")
    if settings.store_roots:
        typer.echo(f"  stores also under {', '.join(settings.store_roots)}")
    endpoints = settings.endpoints()
    for name, endpoint in sorted(endpoints.configured.items()):
        key = "with its API key" if endpoint.api_key is not None else "no API key"
        kind = ", teacher" if endpoint.teacher else ""
        typer.echo(f"  policy {name}: {endpoint.base_url} ({key}{kind})")
    if endpoints.open_urls:
        typer.echo("  policy any other URL a request names: called without credentials")
    uvicorn.run(
        create_app(settings, nats), host=settings.host, port=settings.port, log_level="warning"
    )
