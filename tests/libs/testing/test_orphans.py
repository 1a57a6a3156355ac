"""A server started by a process that then dies without stopping it (SIGKILL, a closed terminal)
goes with it, whether it was started with `with` (this thread) or `async with` (the loop's)."""

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

PARENTS = {
    "with": """
        import sys, time
        from phonebuddy.testing import NatsServer
        with NatsServer(work_dir=sys.argv[1]) as server:
            print(server.pid, flush=True)
            time.sleep(600)
    """,
    "async with": """
        import asyncio, sys
        from phonebuddy.testing import NatsServer
        async def main():
            async with NatsServer(work_dir=sys.argv[1]) as server:
                print(server.pid, flush=True)
                await asyncio.sleep(600)
        asyncio.run(main())
    """,
}


def running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie waiting for its reaper counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def wait_gone(pid: int, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while running(pid):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
@pytest.mark.parametrize("how", list(PARENTS))
def test_server_exits_when_its_parent_is_killed(tmp_path: Path, how: str) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(PARENTS[how]), str(tmp_path)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert parent.stdout is not None
    try:
        server_pid = int(parent.stdout.readline())
        assert running(server_pid)
    finally:
        parent.kill()  # no cleanup code runs in the parent
        parent.wait(10)
        parent.stdout.close()
    try:
        assert wait_gone(server_pid, 5.0), "nats-server outlived its killed parent"
    finally:
        if running(server_pid):
            os.kill(server_pid, signal.SIGKILL)
