"""A rollout rig for the client's tests: a real nats-server of the module's own, PhoneWorld phones
over NATS, the teacher policy and a broker writing to a local store, all in-process on loopback;
and a TCP proxy in front of NATS that can cut a client's connection and let it back."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.policy.app import create_app as create_policy
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.teacher_backend import TeacherBackend
from phonebuddy.protocol import RolloutRequest, TaskSelection
from phonebuddy.testing import NatsServer, free_port, serve_asgi_in_thread

API_KEY = "rollouts-test-key"
PHONES = 4


def rollout_request(run_id: str, **overrides: Any) -> RolloutRequest:
    """The teacher on two templates, two episodes each (two groups)."""
    values: dict[str, Any] = {
        "run_id": run_id,
        "tasks": TaskSelection(template_ids=("settings.toggle", "notes.pin")),
        "policy": {"endpoint": "teacher"},
        "group_size": 2,
        "concurrency": 2,
        **overrides,
    }
    return RolloutRequest(**values)


@dataclass
class Rig:
    nats: NatsSettings
    nats_server: NatsServer
    store_root: Path

    @property
    def store_url(self) -> str:
        return f"local:{self.store_root}"


@pytest.fixture(scope="module")
def rig(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Rig]:
    store_root = tmp_path_factory.mktemp("rollouts")
    with contextlib.ExitStack() as stack:
        server = stack.enter_context(NatsServer())
        nats = NatsSettings(url=server.url, user=server.user, password=server.password)
        world = WorldSettings(devices=PHONES, instance_id="rollouts", port=0)
        stack.enter_context(serve_asgi_in_thread(create_world(world, nats)))
        teacher = PolicySettings(backend="teacher", api_key=API_KEY, port=0)
        teacher_url = stack.enter_context(
            serve_asgi_in_thread(create_policy(teacher, TeacherBackend(teacher, nats)))
        )
        broker = BrokerSettings(
            instance_id="rollouts", workers=PHONES, port=0, default_store_url=f"local:{store_root}",
            teacher_url=f"{teacher_url}/v1", policy_api_key=API_KEY,  # type: ignore[arg-type]
            reconcile_interval_s=0.5, lease_wait_s=30, env_timeout_s=10,
        )  # fmt: skip
        stack.enter_context(serve_asgi_in_thread(create_broker(broker, nats)))
        yield Rig(nats=nats, nats_server=server, store_root=store_root)


class CuttableProxy:
    """A TCP proxy to `target_port` on loopback. `cut()` drops every connection through it and
    refuses new ones, as a network outage would; `restore()` listens again on the same port."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = free_port()
        self._server: asyncio.Server | None = None
        self._transports: set[asyncio.BaseTransport] = set()

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    async def restore(self) -> None:
        self._server = await asyncio.start_server(
            self._connected, "127.0.0.1", self.port, reuse_address=True
        )

    async def cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for transport in list(self._transports):
            transport.abort()
        self._transports.clear()

    async def _connected(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            upstream_reader, upstream_writer = await asyncio.open_connection(
                "127.0.0.1", self.target_port
            )
        except OSError:
            writer.transport.abort()
            return
        self._transports |= {writer.transport, upstream_writer.transport}
        await asyncio.gather(
            _pipe(reader, upstream_writer), _pipe(upstream_reader, writer), return_exceptions=True
        )


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.transport.abort()


@pytest.fixture
async def proxy(rig: Rig) -> AsyncIterator[CuttableProxy]:
    proxy = CuttableProxy(rig.nats_server.port)
    await proxy.restore()
    try:
        yield proxy
    finally:
        await proxy.cut()
