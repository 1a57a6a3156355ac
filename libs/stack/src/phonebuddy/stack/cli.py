"""`phonebuddy up` (start the local stack, run until Ctrl-C) and `phonebuddy env` (print the
running stack's settings). Both reach the `phonebuddy` command through the `phonebuddy.cli`
entry-point group, so the command line itself does not depend on the stack's servers."""

from __future__ import annotations

import asyncio
import json
import shlex
import shutil
import signal
from pathlib import Path
from typing import Annotated

import typer

from phonebuddy.stack.local import LocalStack
from phonebuddy.stack.stack_file import (
    StackNotRunningError,
    default_stack_file,
    load_stack,
    phonebuddy_home,
)
from phonebuddy.telemetry import configure_logging

up_app = typer.Typer(
    help="Start the local stack and run until Ctrl-C.",
    invoke_without_command=True,
    add_completion=False,
)
env_app = typer.Typer(
    help="Print `export` lines for the running local stack's settings.",
    invoke_without_command=True,
    add_completion=False,
)


@up_app.callback()
def up(
    store: Annotated[
        str, typer.Option(help="'s3' (an embedded S3 server) or 'local:DIR' (a plain folder)")
    ] = "s3",
    state_dir: Annotated[
        Path | None,
        typer.Option(help="where the stack keeps its data \\[default: ~/.phonebuddy/stack]"),
    ] = None,
    fresh: Annotated[bool, typer.Option(help="delete the stack's earlier data first")] = False,
    as_json: Annotated[
        bool, typer.Option("--json", help="print the endpoints as one JSON line")
    ] = False,
) -> None:
    """Start the local stack (NATS, object store, Prometheus, adb, every installed service) and
    run until Ctrl-C."""
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
    # Ctrl-C, a stop, or the terminal closing (SIGHUP): stop everything in order.
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
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


@env_app.callback()
def env(
    user: Annotated[
        str | None,
        typer.Option(
            help="NATS credentials of this service's user (to run it by hand beside the "
            "stack) instead of the client's"
        ),
    ] = None,
) -> None:
    """Print `export` lines for the running local stack's settings (`eval "$(phonebuddy env)"`)."""
    try:
        info = load_stack()
        variables = info.env if user is None else info.env_for(user)
    except StackNotRunningError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    except KeyError as exc:
        typer.echo(f"error: {exc.args[0]}", err=True)
        raise typer.Exit(2) from None
    for key, value in sorted(variables.items()):
        typer.echo(f"export {key}={shlex.quote(value)}")
