"""Run a PhoneBuddy sub-command without the `phonebuddy` command: `python -m
phonebuddy.stack.launch world serve --devices 8` runs what `phonebuddy world serve --devices 8`
runs. Services register their commands in the `phonebuddy.cli` entry-point group themselves, so
the local stack (and `phonebuddy demo`) starts them in an image that has no `phonebuddy-cli`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib.metadata import entry_points

import typer

from phonebuddy.stack.watchdog import leashed

COMMAND_GROUP = "phonebuddy.cli"


class UnknownCommandError(LookupError):
    def __init__(self, name: str, known: Sequence[str]) -> None:
        self.name = name
        self.known = tuple(known)
        super().__init__(
            f"no installed distribution adds the sub-command {name!r} "
            f"(installed: {', '.join(self.known) or 'none'})"
        )


def command_app(name: str) -> typer.Typer:
    """The typer app an installed distribution registers as `phonebuddy <name>`."""
    found = {entry.name: entry for entry in entry_points(group=COMMAND_GROUP)}
    if name not in found:
        raise UnknownCommandError(name, sorted(found))
    app: typer.Typer = found[name].load()
    return app


def as_phonebuddy(name: str, app: typer.Typer) -> typer.Typer:
    """`app` as the sub-command `name` of a `phonebuddy` app, so arguments parse exactly as under
    `phonebuddy` (a sub-app with a single command is a group there, not that command)."""
    root = typer.Typer(name="phonebuddy", add_completion=False)
    root.add_typer(app, name=name)
    return root


def launch_command(args: Sequence[str]) -> list[str]:
    """The argument list that runs `phonebuddy <args>` in a child process with this Python."""
    return [sys.executable, "-m", __name__, *args]


def main(argv: Sequence[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0].startswith("-"):
        print("usage: python -m phonebuddy.stack.launch COMMAND [ARGS]...", file=sys.stderr)  # noqa: T201
        raise SystemExit(2)
    try:
        app = command_app(args[0])
    except UnknownCommandError as exc:
        print(f"error: {exc}", file=sys.stderr)  # noqa: T201
        raise SystemExit(2) from None
    with leashed():  # started by the local stack: go when it goes
        as_phonebuddy(args[0], app)(args=args, prog_name="phonebuddy")


if __name__ == "__main__":
    main()
