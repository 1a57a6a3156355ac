"""Where the local stack says what it started, so other commands can find it with no flags.

`phonebuddy up` writes `stack.json` (mode 0600: it holds the stack's generated credentials) into
its state directory and removes it on exit; `load_stack()` reads it back.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

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


class StackInfo(BaseModel):
    """What `phonebuddy up` started; `env` holds the PHONEBUDDY_* variables of commands and jobs
    run beside it (NATS as the `client` user), `nats_users` every NATS user's password (each
    service has its own user, see `phonebuddy.bus.permissions`)."""

    model_config = ConfigDict(frozen=True)

    pid: int
    endpoints: tuple[StackEndpoint, ...]
    env: dict[str, str] = Field(default_factory=dict)
    nats_users: dict[str, str] = Field(default_factory=dict)

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
    def __init__(self, path: Path) -> None:
        self.path = path
        super().__init__(
            f"no local stack found ({path} is missing); start one with `phonebuddy up`"
        )


def write_stack(info: StackInfo, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(info.model_dump_json(indent=2))
    os.replace(tmp, path)


def load_stack(path: Path | None = None) -> StackInfo:
    path = path or default_stack_file()
    try:
        return StackInfo.model_validate(json.loads(path.read_text()))
    except FileNotFoundError:
        raise StackNotRunningError(path) from None


def stack_environment(path: Path | None = None) -> dict[str, str]:
    """PhoneBuddy settings for commands run beside a local stack: the running stack's
    PHONEBUDDY_* variables, overridden by those set in this process's environment. Without a
    running stack, just the environment's own."""
    try:
        stack = load_stack(path).env
    except StackNotRunningError:
        stack = {}
    own = {key: value for key, value in os.environ.items() if key.startswith("PHONEBUDDY_")}
    return {**stack, **own}
