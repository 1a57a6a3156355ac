"""`phonebuddy train ...`: each training job adds its command through the `phonebuddy.train`
entry-point group (name -> a typer app), so the core never imports a job."""

from __future__ import annotations

from importlib.metadata import entry_points

import typer


def _app() -> typer.Typer:
    group = typer.Typer(
        help="Training jobs: SFT, RL and evaluation on stored trajectories.",
        no_args_is_help=True,
        add_completion=False,
    )
    for entry in sorted(entry_points(group="phonebuddy.train"), key=lambda e: e.name):
        group.add_typer(entry.load(), name=entry.name)
    return group


app = _app()
