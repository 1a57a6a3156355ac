"""Start a server binary as a child process and stop it again, leaving nothing behind.

Not even when this process dies without stopping it (SIGKILL, a closed terminal): on Linux each
child asks the kernel for SIGTERM when its parent goes (`PR_SET_PDEATHSIG`). The kernel counts
the *thread* that started the child as its parent, so children start on the calling thread (in
`async with`, the event loop's), never on a short-lived worker thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import functools
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Self


class ServerStartError(RuntimeError):
    """A server process exited or never became ready; carries the tail of its log."""

    def __init__(self, name: str, reason: str, log_tail: str) -> None:
        self.name = name
        self.reason = reason
        self.log_tail = log_tail
        super().__init__(
            f"{name} did not start: {reason}\n--- last lines of its log ---\n{log_tail}"
        )


def find_binary(name: str) -> str:
    """Find a server binary next to the running interpreter (pip-installed) or on PATH."""
    beside_python = Path(sys.executable).parent / name
    if beside_python.is_file() and os.access(beside_python, os.X_OK):
        return str(beside_python)
    found = shutil.which(name)
    if found is None:
        raise FileNotFoundError(
            f"'{name}' was found neither next to {sys.executable} nor on PATH; run `make setup`"
        )
    return found


_PR_SET_PDEATHSIG = 1


@functools.cache
def _prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    prctl: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    return prctl


def die_with_parent() -> Callable[[], None] | None:
    """A `preexec_fn` that makes the child get SIGTERM when this process (this thread) ends;
    None where the kernel has no such request (not Linux)."""
    prctl = _prctl()  # looked up before the fork: the child only calls it
    if prctl is None:
        return None
    parent = os.getpid()

    def preexec() -> None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the request took effect
            os.kill(os.getpid(), signal.SIGTERM)

    return preexec


class ManagedProcess:
    """One server process in its own process group, with its output in a log file.

    Subclasses build the argument list in `command()` and say when the server is ready in
    `is_ready()`. `stop()` terminates the whole process group, then kills it if it lingers.
    """

    name = "server"
    ready_timeout_s = 30.0

    def __init__(self, *, work_dir: Path | None = None) -> None:
        self._owns_work_dir = work_dir is None
        self.work_dir = Path(work_dir or tempfile.mkdtemp(prefix=f"phonebuddy-{self.name}-"))
        self.work_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = self.work_dir / f"{self.name}.log"
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    def command(self) -> Sequence[str]:
        raise NotImplementedError

    def is_ready(self) -> bool:
        raise NotImplementedError

    def environment(self) -> dict[str, str] | None:
        """The child's environment; None inherits this process's."""
        return None

    @property
    def pid(self) -> int:
        if self._process is None:
            raise RuntimeError(f"{self.name} is not running")
        return self._process.pid

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def log_tail(self, lines: int = 30) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except FileNotFoundError:
            return ""
        return "\n".join(text.splitlines()[-lines:])

    def start(self) -> Self:
        """Start the process on this thread (it gets SIGTERM when this thread or process ends)
        and wait until it is ready."""
        if not self.running:
            self._spawn()
            self._wait_until(self.is_ready, self.ready_timeout_s)
        return self

    def _spawn(self) -> None:
        self._log = self.log_path.open("ab")
        self._process = subprocess.Popen(
            list(self.command()),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            cwd=self.work_dir,
            env=self.environment(),
            start_new_session=True,
            preexec_fn=die_with_parent(),  # runs only prctl, getppid (and kill) in the child
        )

    def _wait_until(self, condition: Callable[[], bool], timeout_s: float) -> None:
        deadline = time.monotonic() + timeout_s
        delay = 0.01
        while True:
            if self._process is not None and self._process.poll() is not None:
                code = self._process.returncode
                self._close_log()
                raise ServerStartError(self.name, f"exited with code {code}", self.log_tail())
            if condition():
                return
            if time.monotonic() > deadline:
                tail = self.log_tail()
                self.stop()
                raise ServerStartError(self.name, f"not ready after {timeout_s:.0f} s", tail)
            time.sleep(delay)
            delay = min(delay * 2, 0.2)

    def stop(self, timeout_s: float = 10.0) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout_s)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        if process is not None:
            # Children that outlived the leader (a server's helpers) share its process group.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
        self._close_log()

    def cleanup(self) -> None:
        """Stop the process and delete its work directory if this object created it."""
        self.stop()
        if self._owns_work_dir:
            shutil.rmtree(self.work_dir, ignore_errors=True)

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.cleanup()

    async def __aenter__(self) -> Self:
        if not self.running:
            # Spawned on the event loop's thread, which lives as long as the loop: a worker
            # thread that ended would take the child with it.
            self._spawn()
            await asyncio.to_thread(self._wait_until, self.is_ready, self.ready_timeout_s)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await asyncio.to_thread(self.cleanup)
