"""`phonebuddy up` / `phonebuddy env` as the stack registers them, and the launcher that starts a
service's sub-command with no `phonebuddy` command installed."""

import json
import os
import subprocess
import sys
import time
from importlib.metadata import entry_points
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from phonebuddy.bus.permissions import SERVICE_PERMISSIONS
from phonebuddy.stack.cli import env_app, up_app
from phonebuddy.stack.launch import (
    UnknownCommandError,
    as_phonebuddy,
    command_app,
    launch_command,
)
from phonebuddy.stack.local import ServiceProcess, registered_services
from phonebuddy.stack.stack_file import (
    StackInfo,
    StackNotRunningError,
    default_stack_file,
    load_stack,
    stack_environment,
    write_stack,
)

runner = CliRunner()


def test_up_and_env_reach_phonebuddy_through_entry_points() -> None:
    registered = {e.name: e.load() for e in entry_points(group="phonebuddy.cli")}
    assert registered["up"] is up_app
    assert registered["env"] is env_app


def test_env_without_a_running_stack_says_how_to_start_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PHONEBUDDY_HOME", str(tmp_path))
    result = runner.invoke(env_app, [])
    assert result.exit_code == 1
    assert "start one with `phonebuddy up`" in result.output


def test_up_rejects_an_unknown_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONEBUDDY_HOME", str(tmp_path))
    result = runner.invoke(up_app, ["--store", "ftp://x"])
    assert result.exit_code == 2
    assert "--store must be 's3' or 'local:DIR'" in result.output


def test_services_start_without_the_phonebuddy_command(tmp_path: Path) -> None:
    """The stack's children run `python -m phonebuddy.stack.launch ...`, never the script of
    `phonebuddy-cli`, so the stack (and `phonebuddy demo`) work in an image without it."""
    process = ServiceProcess(name="x", args=["world", "serve"], env={}, work_dir=tmp_path)
    command = list(process.command())
    assert command[:3] == [sys.executable, "-m", "phonebuddy.stack.launch"]
    assert command[3:5] == ["world", "serve"]
    assert not any(Path(part).name == "phonebuddy" for part in command)


def test_the_launcher_runs_a_registered_sub_command(tmp_path: Path) -> None:
    result = subprocess.run(
        launch_command(["env"]),
        env={**os.environ, "PHONEBUDDY_HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    assert "start one with `phonebuddy up`" in result.stderr


def test_the_launcher_parses_a_single_command_app_as_phonebuddy_does() -> None:
    """`phonebuddy broker serve`: a sub-app with one command is still a group under phonebuddy."""
    served: list[int] = []
    single = typer.Typer()

    @single.command()
    def serve(port: int = 0) -> None:
        served.append(port)

    result = runner.invoke(as_phonebuddy("svc", single), ["svc", "serve", "--port", "7"])

    assert result.exit_code == 0, result.output
    assert served == [7]


def test_the_launcher_names_the_installed_commands_for_an_unknown_one() -> None:
    with pytest.raises(UnknownCommandError, match=r"'nope'.*installed: .*up") as caught:
        command_app("nope")
    assert "env" in caught.value.known
    result = subprocess.run(
        launch_command(["nope"]), capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2
    assert "no installed distribution adds the sub-command 'nope'" in result.stderr


def test_env_prints_the_clients_nats_user_or_a_services_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PHONEBUDDY_HOME", str(tmp_path))
    info = StackInfo(
        pid=os.getpid(), endpoints=(),
        env={"PHONEBUDDY_NATS_USER": "client", "PHONEBUDDY_NATS_PASSWORD": "c-pw"},
        nats_users={"client": "c-pw", "broker": "b-pw"},
    )  # fmt: skip
    write_stack(info, default_stack_file())

    client = runner.invoke(env_app, [])
    broker = runner.invoke(env_app, ["--user", "broker"])
    unknown = runner.invoke(env_app, ["--user", "nobody"])

    assert "export PHONEBUDDY_NATS_USER=client" in client.output
    assert "export PHONEBUDDY_NATS_USER=broker" in broker.output
    assert "export PHONEBUDDY_NATS_PASSWORD=b-pw" in broker.output
    assert unknown.exit_code == 2
    assert "no NATS user 'nobody'; it has broker, client" in unknown.output


def test_every_stack_service_runs_as_a_nats_user_with_permissions() -> None:
    specs = registered_services()
    assert specs
    for spec in specs:
        user = spec.get("nats_user", spec["name"])
        assert user is None or user in SERVICE_PERMISSIONS, spec["name"]


def _stack_owned_by(pid: int, **fields: object) -> Path:
    """A stack file that names `pid` as the process that wrote it."""
    path = default_stack_file()
    info = StackInfo(pid=pid, endpoints=(), env={"PHONEBUDDY_NATS_URL": "nats://127.0.0.1:1"})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**info.model_dump(mode="json"), **fields}))
    return path


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def test_env_says_the_stack_is_not_running_once_its_owner_was_killed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A SIGKILLed `phonebuddy up` leaves its stack.json behind: the file is stale, not a
    stack; everything reading it treats it as absent."""
    monkeypatch.setenv("PHONEBUDDY_HOME", str(tmp_path))
    monkeypatch.delenv("PHONEBUDDY_NATS_URL", raising=False)
    owner = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    try:
        path = _stack_owned_by(owner.pid)
        alive = runner.invoke(env_app, [])
        assert alive.exit_code == 0, alive.output
        assert "export PHONEBUDDY_NATS_URL=" in alive.output

        owner.kill()
        for _ in range(100):  # dead but not yet reaped: a zombie is no stack either
            if _state(owner.pid) == "Z":
                break
            time.sleep(0.05)
        zombie = runner.invoke(env_app, [])
        owner.wait(10)
        dead = runner.invoke(env_app, [])
    finally:
        owner.kill()
        owner.wait(10)

    for result in (zombie, dead):
        assert result.exit_code == 1, result.output
        assert "export" not in result.output
        assert f"the local stack is not running: {path} names pid {owner.pid}" in result.output
        assert "start one with `phonebuddy up`" in result.output
    with pytest.raises(StackNotRunningError) as raised:
        load_stack()
    assert (raised.value.path, raised.value.pid) == (path, owner.pid)
    assert "PHONEBUDDY_NATS_URL" not in stack_environment()  # as if there were no file


def test_a_live_process_that_reuses_the_owners_pid_is_not_the_stack(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file records when its owner started, so a pid the kernel gave to another process
    since is not taken for the stack."""
    monkeypatch.setenv("PHONEBUDDY_HOME", str(tmp_path))
    path = _stack_owned_by(os.getpid(), pid_start_ticks=1)  # this process started later
    result = runner.invoke(env_app, [])
    assert result.exit_code == 1, result.output
    assert f"the local stack is not running: {path} names pid {os.getpid()}" in result.output


def test_the_stack_file_records_its_owners_pid_and_start(tmp_path: Path) -> None:
    from phonebuddy.stack.stack_file import process_start_ticks

    info = StackInfo.of_this_process(endpoints=())
    assert info.pid == os.getpid()
    assert info.pid_start_ticks == process_start_ticks(os.getpid())
    write_stack(info, tmp_path / "stack.json")
    assert load_stack(tmp_path / "stack.json") == info
