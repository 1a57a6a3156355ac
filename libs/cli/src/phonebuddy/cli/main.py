"""`phonebuddy`: the command line. Services, jobs and the local stack (`phonebuddy up`, `env`
from `phonebuddy-stack`) add their own sub-commands through the `phonebuddy.cli` entry-point
group (name -> a typer app), so this package never imports them."""

from __future__ import annotations

import json
from importlib.metadata import distributions, entry_points
from pathlib import Path
from typing import Annotated

import typer

from phonebuddy.protocol.schema import PUBLIC_MESSAGES, all_json_schemas, json_schema

app = typer.Typer(
    name="phonebuddy",
    help="PhoneBuddy: train phone-use agents on simulated and real phones.",
    no_args_is_help=True,
    add_completion=False,
)


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


def full_app() -> typer.Typer:
    """The `phonebuddy` app with every installed distribution's sub-commands (added once)."""
    present = {group.name for group in app.registered_groups}
    for entry in entry_points(group="phonebuddy.cli"):
        if entry.name not in present:
            app.add_typer(entry.load(), name=entry.name)
    return app


def run() -> None:
    full_app()()
