"""A service the stack started goes when the stack goes, with what it started itself, even where
the kernel's parent-death signal is not asked for (the watchdog alone, here)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from phonebuddy.stack.watchdog import PARENT_PID_ENV

# A service: under the watchdog, it starts a helper of its own (same process group).
SERVICE = """
    import subprocess, sys, time
    from phonebuddy.stack.watchdog import leashed
    with leashed():
        helper = subprocess.Popen(["sleep", "600"])
        print(helper.pid, flush=True)
        time.sleep(float(sys.argv[1]))
"""

# The stack: starts the service in its own session, no parent-death signal, then waits.
STACK = f"""
    import os, subprocess, sys, time
    service = subprocess.Popen(
        [sys.executable, "-c", {textwrap.dedent(SERVICE)!r}, "600"],
        env={{**os.environ, {PARENT_PID_ENV!r}: str(os.getpid())}},
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )
    print(service.pid, service.stdout.readline().strip(), flush=True)
    time.sleep(600)
"""


def running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_gone(pids: list[int], timeout_s: float) -> list[int]:
    deadline = time.monotonic() + timeout_s
    while any(running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if running(pid)]


@pytest.fixture
def leftovers() -> Iterator[list[int]]:
    pids: list[int] = []
    yield pids
    for pid in pids:
        if running(pid):
            os.kill(pid, signal.SIGKILL)


def test_service_and_its_helper_stop_when_the_stack_is_killed(leftovers: list[int]) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(STACK)], stdout=subprocess.PIPE, text=True
    ) as stack:
        assert stack.stdout is not None
        service, helper = (int(pid) for pid in stack.stdout.readline().split())
        leftovers += [service, helper]
        assert running(service)
        assert running(helper)
        helper_env = Path(f"/proc/{helper}/environ").read_bytes()
        stack.kill()

    assert wait_gone([service, helper], 5.0) == []
    assert PARENT_PID_ENV.encode() not in helper_env  # it would watch the wrong parent


def test_a_service_whose_parent_is_already_gone_stops_at_once() -> None:
    not_my_parent = os.getppid()
    started = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(SERVICE), "600"],
        env={**os.environ, PARENT_PID_ENV: str(not_my_parent)},
        capture_output=True, text=True, timeout=30, check=False, start_new_session=True,
    )  # fmt: skip

    assert result.returncode == -signal.SIGTERM
    assert time.monotonic() - started < 10
    assert f"the local stack (pid {not_my_parent}) is gone" in result.stderr


def test_a_service_that_exits_takes_its_helpers_along(leftovers: list[int]) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(SERVICE), "0"],
        env={**os.environ, PARENT_PID_ENV: str(os.getpid())},
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    ) as service:  # fmt: skip
        assert service.stdout is not None
        helper = int(service.stdout.readline())
        leftovers += [service.pid, helper]
        assert service.wait(10) == 0

    assert wait_gone([helper], 5.0) == []
