"""A service started by the local stack goes when the stack goes, and takes its own children.

The stack starts each service in a process group of its own with `PHONEBUDDY_PARENT_PID` set to
the stack's pid. On Linux the kernel already sends the service SIGTERM when the stack dies; this
watchdog is the fallback everywhere (a thread that notices its parent pid change) and the part
that also ends what the service started: on the way out a service that leads its process group
terminates the rest of the group.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import threading
import time
from collections.abc import Iterator, MutableMapping

log = logging.getLogger(__name__)

PARENT_PID_ENV = "PHONEBUDDY_PARENT_PID"


def _end_group(sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(os.getpgrp(), sig)


def _parent_gone(parent_pid: int, *, grace_s: float) -> None:
    """Stop this process and its group: SIGTERM first (a graceful shutdown), SIGKILL after
    `grace_s`."""
    log.warning("the local stack (pid %d) is gone; stopping", parent_pid)
    if os.getpgrp() == os.getpid():
        _end_group(signal.SIGTERM)
    else:
        os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(grace_s)
    if os.getpgrp() == os.getpid():
        _end_group(signal.SIGKILL)
    else:
        os.kill(os.getpid(), signal.SIGKILL)


def watch_parent(
    parent_pid: int, *, interval_s: float = 0.5, grace_s: float = 10.0
) -> threading.Thread:
    """Start a daemon thread that stops this process (and its group) once `parent_pid` is no
    longer its parent; at once when it is not its parent already."""

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(interval_s)
        _parent_gone(parent_pid, grace_s=grace_s)

    thread = threading.Thread(target=watch, name="parent-watchdog", daemon=True)
    thread.start()
    return thread


@contextlib.contextmanager
def leashed(environ: MutableMapping[str, str] | None = None) -> Iterator[None]:
    """Watch the parent that `PHONEBUDDY_PARENT_PID` names, if any (the variable is removed, so
    this process's own children do not watch the wrong parent), and on the way out terminate
    what is left of this process's group when it leads one."""
    environ = os.environ if environ is None else environ
    value = environ.pop(PARENT_PID_ENV, None)
    if value is None:
        yield
        return
    watch_parent(int(value))
    try:
        yield
    finally:
        if os.getpgrp() == os.getpid():
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # the group's signal is not for us
            _end_group(signal.SIGTERM)
