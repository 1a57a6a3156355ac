"""Where the local stack says what it started, so other commands can find it with no flags.

`phonebuddy up` writes `stack.json` (mode 0600: it holds the stack's generated credentials) into
its state directory and removes it on exit; `load_stack()` reads it back. A `phonebuddy up` that
was SIGKILLed cannot remove it, so the file names its owner (pid, and where there is a /proc the
owner's start time, which a later process given the same pid does not share): a file whose owner
is gone is stale, read as no stack at all, and the next `phonebuddy up` replaces it.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

HOME_ENV = "PHONEBUDDY_HOME"


def phonebuddy_home() -> Path:
    return Path(os.environ.get(HOME_ENV) or Path.home() / ".phonebuddy")


def default_stack_file() -> Path:
    return phonebuddy_home() / "stack.json"


class StackEndpoint(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    url: str
    pid: int | None = None
    description: str = ""


_PROC = Path("/proc")
_GONE_STATES = frozenset({"Z", "X"})  # a zombie (dead, not yet reaped) or dead


def _proc_stat(pid: int) -> tuple[str, int] | None:
    """(state, start time in clock ticks since boot) of `pid` from /proc, None if it has no
    entry there."""
    try:
        stat = (_PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    # "pid (comm) state ppid ...": comm may hold anything, so split after its last ")".
    fields = stat.rsplit(")", 1)[1].split()
    return fields[0], int(fields[19])  # fields 3 and 22 of proc_pid_stat(5)


def process_start_ticks(pid: int) -> int | None:
    """When process `pid` started (clock ticks since boot); None without /proc or such a
    process. With the pid it names one process for good: a reused pid starts later."""
    if not (_PROC / "self" / "stat").exists():
        return None
    stat = _proc_stat(pid)
    return None if stat is None else stat[1]


def process_running(pid: int, start_ticks: int | None = None) -> bool:
    """Whether `pid` is a live process (a zombie is not) and, when `start_ticks` is given and
    /proc can tell, the one that started then."""
    if not (_PROC / "self" / "stat").exists():  # no procfs (macOS): ask the kernel for the pid
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # another user's process, but a process
            return True
        return True
    stat = _proc_stat(pid)
    if stat is None:
        return False
    state, started = stat
    return state not in _GONE_STATES and start_ticks in (None, started)


class StackInfo(BaseModel):
    """What `phonebuddy up` started; `env` holds the PHONEBUDDY_* variables of commands and jobs
    run beside it (NATS as the `client` user), `nats_users` every NATS user's password (each
    service has its own user, see `phonebuddy.bus.permissions`). `pid` and `pid_start_ticks`
    name the `phonebuddy up` process that owns the stack."""

    model_config = ConfigDict(frozen=True)

    pid: int = Field(ge=1)
    pid_start_ticks: int | None = Field(
        default=None,
        description="when `pid` started, in clock ticks since boot (/proc/<pid>/stat field 22); "
        "None where there is no /proc (then the pid alone is checked)",
    )
    endpoints: tuple[StackEndpoint, ...]
    env: dict[str, str] = Field(default_factory=dict)
    nats_users: dict[str, str] = Field(default_factory=dict)

    @classmethod
    def of_this_process(cls, **fields: Any) -> StackInfo:
        """A stack owned by the calling process."""
        pid = os.getpid()
        return cls(pid=pid, pid_start_ticks=process_start_ticks(pid), **fields)

    @property
    def owner_running(self) -> bool:
        """Whether the process that wrote this is still running (else the file is stale)."""
        return process_running(self.pid, self.pid_start_ticks)

    def env_for(self, user: str) -> dict[str, str]:
        """`env` with NATS credentials of `user` instead (to run a service by hand beside it)."""
        if user not in self.nats_users:
            raise KeyError(
                f"the local stack has no NATS user {user!r}; "
                f"it has {', '.join(sorted(self.nats_users)) or 'none'}"
            )
        return {
            **self.env,
            "PHONEBUDDY_NATS_USER": user,
            "PHONEBUDDY_NATS_PASSWORD": self.nats_users[user],
        }

    def endpoint(self, name: str) -> StackEndpoint:
        for endpoint in self.endpoints:
            if endpoint.name == name:
                return endpoint
        raise KeyError(f"the local stack has no endpoint {name!r}")


class StackNotRunningError(RuntimeError):
    """No local stack: no stack file at `path`, or (with `pid`) a stale one whose owner is
    gone."""

    def __init__(self, path: Path, *, pid: int | None = None) -> None:
        self.path = path
        self.pid = pid
        if pid is None:
            message = f"no local stack found ({path} is missing); start one with `phonebuddy up`"
        else:
            message = (
                f"the local stack is not running: {path} names pid {pid}, which has exited "
                "(the stack was killed before it could remove the file); start one with "
                "`phonebuddy up`, which replaces the file"
            )
        super().__init__(message)


def write_stack(info: StackInfo, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(info.model_dump_json(indent=2))
    os.replace(tmp, path)


def load_stack(path: Path | None = None) -> StackInfo:
    """The running local stack; `StackNotRunningError` when there is no stack file or its owner
    is gone (the file is then left for the next `phonebuddy up` to replace)."""
    path = path or default_stack_file()
    try:
        info = StackInfo.model_validate(json.loads(path.read_text()))
    except FileNotFoundError:
        raise StackNotRunningError(path) from None
    if not info.owner_running:
        raise StackNotRunningError(path, pid=info.pid)
    return info


def stack_environment(path: Path | None = None) -> dict[str, str]:
    """PhoneBuddy settings for commands run beside a local stack: the running stack's
    PHONEBUDDY_* variables, overridden by those set in this process's environment. Without a
    running stack (no stack file, or a stale one), just the environment's own."""
    try:
        stack = load_stack(path).env
    except StackNotRunningError:
        stack = {}
    own = {key: value for key, value in os.environ.items() if key.startswith("PHONEBUDDY_")}
    return {**stack, **own}
