"""`phonebuddy world serve --adb-ports BASE --adb-register HOST:PORT` as a subprocess: its
devices register with a real adb server, and `adb -s emulator-N ...` drives each of them."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import httpx
import pytest

from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.testing import AdbServer, ManagedProcess, free_port
from phonebuddy.testing.ports import port_is_free

DEVICES = 3


def free_port_run(count: int) -> int:
    """The first of `count` consecutive free loopback ports (below the ephemeral range)."""
    for _ in range(200):
        base = free_port()
        if all(port_is_free(base + i) for i in range(1, count)):
            return base
    raise RuntimeError(f"no run of {count} free ports")


class WorldServe(ManagedProcess):
    name = "world-serve"

    def __init__(self, *, adb_base: int, register: str) -> None:
        super().__init__()
        self.http_port = free_port()
        self.adb_base = adb_base
        self.register = register

    def command(self) -> Sequence[str]:
        launcher = str(Path(sys.executable).parent / "phonebuddy")
        return [
            launcher, "world", "serve", "--devices", str(DEVICES), "--port", str(self.http_port),
            "--adb-ports", str(self.adb_base), "--adb-register", self.register,
        ]  # fmt: skip

    def is_ready(self) -> bool:
        try:
            return httpx.get(f"http://127.0.0.1:{self.http_port}/livez", timeout=0.5).is_success
        except httpx.HTTPError:
            return False


@pytest.fixture
def served(adb_server: AdbServer) -> Iterator[WorldServe]:
    with WorldServe(
        adb_base=free_port_run(DEVICES), register=f"127.0.0.1:{adb_server.port}"
    ) as process:
        yield process


def wait_for(condition: object, timeout_s: float = 15.0) -> None:
    assert callable(condition)
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("condition not met in time")
        time.sleep(0.05)


def test_served_devices_register_with_the_adb_server(
    served: WorldServe, adb_server: AdbServer
) -> None:
    serials = [f"emulator-{served.adb_base + i - 1}" for i in range(DEVICES)]
    wait_for(lambda: all(adb_server.devices().get(s) == "device" for s in serials))
    for index, serial in enumerate(serials):
        model = adb_server.run("-s", serial, "shell", "getprop ro.serialno")
        assert model.stdout.strip().endswith(f"-{index}")
    tapped = adb_server.run("-s", serials[1], "shell", "input tap 157 249 && dumpsys window")
    assert "mCurrentFocus=Window{" in tapped.stdout
    assert "com.pw.notes/com.pw.notes.MainActivity" in tapped.stdout
    untouched = adb_server.run("-s", serials[0], "shell", "dumpsys window windows")
    assert "com.pw.launcher/com.pw.launcher.Launcher" in untouched.stdout
    served.stop()
    wait_for(lambda: not set(serials) & set(adb_server.devices()))


@pytest.mark.parametrize(
    ("options", "problem"),
    [
        ({"devices": 3, "adb_base_port": 65534}, "runs past port 65535"),
        ({"adb_base_port": 20000, "adb_register": "nohost"}, "HOST:PORT"),
        ({"adb_register": "127.0.0.1:5037"}, "needs adb_base_port"),
    ],
)
def test_adb_settings_are_checked_at_start(options: dict[str, object], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        WorldSettings(**options)  # type: ignore[arg-type]
