"""`phonebuddy`: the command line. Services and jobs add their own sub-commands through the
`phonebuddy.cli` entry-point group (name -> a typer app), so this package never imports them."""

from __future__ import annotations

import asyncio
import json
import logging
import shlex
import shutil
import signal
from importlib.metadata import distributions, entry_points
from pathlib import Path
from typing import Annotated

import typer

from phonebuddy.cli.stack import LocalStack
from phonebuddy.cli.stack_file import default_stack_file, load_stack, phonebuddy_home
from phonebuddy.protocol.schema import PUBLIC_MESSAGES, all_json_schemas, json_schema
from phonebuddy.telemetry import configure_logging

app = typer.Typer(
    name="phonebuddy",
    help="PhoneBuddy: train phone-use agents on simulated and real phones.",
    no_args_is_help=True,
    add_completion=False,
)
log = logging.getLogger(__name__)


@app.command()
def version() -> None:
    """Print the version of every installed PhoneBuddy distribution."""
    found = sorted(
        (dist.metadata["Name"], dist.version)
        for dist in distributions()
        if dist.metadata["Name"] and dist.metadata["Name"].startswith("phonebuddy-")
    )
    for name, dist_version in found:
        typer.echo(f"{name} {dist_version}")


@app.command()
def schema(
    names: Annotated[
        list[str] | None, typer.Argument(help="message names; all when none given")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="write one NAME.json per message into this folder")
    ] = None,
) -> None:
    """Print the JSON Schemas of the public messages (the contract between services)."""
    try:
        schemas = {name: json_schema(name) for name in names} if names else all_json_schemas()
    except KeyError as exc:
        typer.echo(f"error: {exc.args[0]}", err=True)
        raise typer.Exit(2) from None
    if out is None:
        typer.echo(json.dumps(schemas, indent=2, ensure_ascii=False))
        return
    out.mkdir(parents=True, exist_ok=True)
    for name, body in schemas.items():
        (out / f"{name}.json").write_text(json.dumps(body, indent=2, ensure_ascii=False) + "\n")
    typer.echo(f"wrote {len(schemas)} schemas to {out}")


schema.__doc__ = f"{schema.__doc__} Names: {', '.join(PUBLIC_MESSAGES)}."


@app.command()
def up(
    store: Annotated[
        str, typer.Option(help="'s3' (an embedded S3 server) or 'local:DIR' (a plain folder)")
    ] = "s3",
    state_dir: Annotated[
        Path | None,
        typer.Option(help="where the stack keeps its data [default: ~/.phonebuddy/stack]"),
    ] = None,
    fresh: Annotated[bool, typer.Option(help="delete the stack's earlier data first")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the endpoints as one JSON line")
    ] = False,
) -> None:
    """Start the local stack (NATS, object store, Prometheus) and run until Ctrl-C."""
    configure_logging()
    state_dir = state_dir or phonebuddy_home() / "stack"
    if fresh:
        shutil.rmtree(state_dir, ignore_errors=True)
    stack_file = default_stack_file()
    try:
        stack = LocalStack(state_dir=state_dir, stack_file=stack_file, store=store)
    except ValueError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    asyncio.run(_serve_stack(stack, as_json=as_json))


async def _serve_stack(stack: LocalStack, *, as_json: bool) -> None:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with stack:
        info = stack.info()
        if as_json:
            endpoints = {e.name: e.url for e in info.endpoints}
            typer.echo(json.dumps({"endpoints": endpoints, "stack_file": str(stack.stack_file)}))
        else:
            typer.echo("PhoneBuddy local stack is up:")
            for endpoint in info.endpoints:
                typer.echo(f"  {endpoint.name:<14} {endpoint.url:<32} {endpoint.description}")
            typer.echo(
                f"Credentials and settings: {stack.stack_file} (`phonebuddy env` prints them)"
            )
            typer.echo("Press Ctrl-C to stop.")
        await stop.wait()
        typer.echo("stopping the local stack...", err=True)
    typer.echo("stopped; no process left behind.", err=True)


@app.command("env")
def env_command() -> None:
    """Print `export` lines for the running local stack's settings (`eval "$(phonebuddy env)"`)."""
    try:
        info = load_stack()
    except RuntimeError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    for key, value in sorted(info.env.items()):
        typer.echo(f"export {key}={shlex.quote(value)}")


def _add_plugin_commands() -> None:
    for entry in entry_points(group="phonebuddy.cli"):
        app.add_typer(entry.load(), name=entry.name)


def run() -> None:
    _add_plugin_commands()
    app()
