import json
from pathlib import Path

from typer.testing import CliRunner

from phonebuddy.cli.main import app
from phonebuddy.protocol.schema import PUBLIC_MESSAGES

runner = CliRunner()


def test_help_lists_the_commands() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("version", "schema"):
        assert command in result.output


def test_version_lists_every_installed_phonebuddy_distribution() -> None:
    result = runner.invoke(app, ["version"])
    assert result.exit_code == 0
    names = {line.split()[0] for line in result.output.splitlines()}
    assert {"phonebuddy-protocol", "phonebuddy-bus", "phonebuddy-cli"} <= names


def test_schema_prints_every_public_message() -> None:
    result = runner.invoke(app, ["schema"])
    assert result.exit_code == 0
    schemas = json.loads(result.output)
    assert set(schemas) == set(PUBLIC_MESSAGES)
    assert "discriminator" in schemas["Action"]


def test_schema_writes_one_file_per_message(tmp_path: Path) -> None:
    result = runner.invoke(app, ["schema", "Action", "Episode", "--out", str(tmp_path)])
    assert result.exit_code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["Action.json", "Episode.json"]
    assert json.loads((tmp_path / "Episode.json").read_text())["title"] == "Episode"


def test_schema_of_an_unknown_message_is_a_clear_error() -> None:
    result = runner.invoke(app, ["schema", "Nope"])
    assert result.exit_code == 2
    assert "no public message named 'Nope'" in result.output
