"""Every command's `--help` renders: the root, each installed distribution's sub-commands and
theirs, recursively. Help text is Rich markup, so a stray `[...]` either crashes the help
(`[/prefix]`) or silently vanishes from it (`[default: ~/x]`); literal brackets are written `\\[`.
"""

from collections.abc import Iterator
from typing import Any

import pytest
import typer
import typer.rich_utils
from typer.testing import CliRunner

from phonebuddy.cli.main import full_app

runner = CliRunner()


def command_paths(command: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, ...]]:
    """The path of `command` and of every command below it (groups have `commands`)."""
    yield path
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from command_paths(sub, (*path, name))


def command_at(path: tuple[str, ...]) -> Any:
    command: Any = typer.main.get_command(full_app())
    for name in path:
        command = command.commands[name]
    return command


def words(text: str) -> str:
    return " ".join(text.replace("│", " ").split())


PATHS = list(command_paths(typer.main.get_command(full_app())))


def test_the_walk_reaches_nested_sub_commands() -> None:
    assert ("schema",) in PATHS
    assert any(len(path) > 1 for path in PATHS), "no sub-command of a sub-command found"


@pytest.mark.parametrize("path", PATHS, ids=lambda path: " ".join(path) or "phonebuddy")
def test_help_of_every_command_renders_all_its_option_help(
    path: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(typer.rich_utils, "MAX_WIDTH", 2000)  # one line per option

    result = runner.invoke(full_app(), [*path, "--help"])

    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"`phonebuddy {' '.join(path)} --help` crashed: {result.exception!r}"
    )
    assert result.exit_code == 0, result.output
    shown = words(result.output)
    assert f"Usage: phonebuddy {' '.join(path)}".strip() in shown
    for param in command_at(path).params:
        help_text = getattr(param, "help", None)
        if help_text:
            assert words(help_text.replace("\\[", "[")) in shown, f"{param.name}'s help is cut"
