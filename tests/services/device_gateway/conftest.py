"""Fixtures for the gateway: PhoneWorld phones speaking ADB (in this process, so that tests can
reach their state and verifier), a real adb server, a real NATS server, and the gateway."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import pytest
from pydantic import BaseModel

from phonebuddy.bus import Bus, NatsSettings, connect
from phonebuddy.device_gateway.app import GatewayService, create_app
from phonebuddy.device_gateway.settings import GatewaySettings
from phonebuddy.phoneworld.adb import AdbDeviceServer, AdbPhone
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.service.app import WorldService
from phonebuddy.phoneworld.service.app import create_app as create_world_app
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.phoneworld.tasks.registry import get_template
from phonebuddy.phoneworld.tasks.runner import (
    TaskInstance,
    evaluate,
    instantiate,
    run_oracle,
    start,
)
from phonebuddy.phoneworld.world import World, default_world
from phonebuddy.protocol import Action, Answer, Source, TaskSpec
from phonebuddy.protocol import env as m
from phonebuddy.protocol.subjects import EnvVerb, env_lease_subject, env_verb_subject
from phonebuddy.testing import AdbServer, NatsServer, serve_asgi
from phonebuddy.testing.ports import port_is_free

ReplyT = TypeVar("ReplyT", bound=BaseModel)


def free_port_block(count: int) -> int:
    """The first of `count` consecutive free loopback ports (below the ephemeral range)."""
    rng = random.SystemRandom()
    for _ in range(200):
        base = rng.randrange(20000, 32000 - count)
        if all(port_is_free(base + i) for i in range(count)):
            return base
    raise RuntimeError(f"no {count} consecutive free ports")


def phoneworld_apps() -> dict[str, str]:
    """PhoneWorld's display names -> packages, as a deployment would configure the gateway."""
    table: dict[str, str] = {}
    for app in default_world(0).apps:
        table[app.label.en] = app.package
        table[app.label.zh] = app.package
    return table


@dataclass
class Phones:
    """PhoneWorld phones served over ADB by an in-process PhoneWorld service."""

    service: WorldService
    url: str

    @property
    def hub_servers(self) -> list[AdbDeviceServer]:
        assert self.service.adb is not None
        return self.service.adb.servers

    @property
    def addresses(self) -> list[str]:
        return [f"127.0.0.1:{server.port}" for server in self.hub_servers]

    def _index(self, address: str) -> int:
        return self.addresses.index(address)

    def device(self, address: str) -> Device:
        return self.service.pool.slots[self._index(address)].device

    def phone(self, address: str) -> AdbPhone:
        return self.hub_servers[self._index(address)].phone

    def lock(self, address: str) -> Any:
        return self.service.pool.slots[self._index(address)].lock

    async def unplug(self, address: str) -> None:
        """Stop the phone's ADB listener and drop its connections (a phone that vanished)."""
        await self.hub_servers[self._index(address)].close()

    async def plug_in(self, address: str) -> None:
        await self.hub_servers[self._index(address)].start()


@dataclass
class Gateway:
    service: GatewayService
    url: str
    bus: Bus

    @property
    def instance_id(self) -> str:
        return self.service.settings.instance_id

    def subject(self, verb: EnvVerb) -> str:
        return env_verb_subject(Source.REAL, self.instance_id, verb)

    async def call(
        self, verb: EnvVerb, request: BaseModel, reply: type[ReplyT], timeout_s: float = 10
    ) -> ReplyT:
        return await self.bus.request(self.subject(verb), request, reply, timeout_s=timeout_s)

    async def lease(self, ttl_s: float = 60, apps: Sequence[str] = ()) -> m.Lease:
        request = m.LeaseRequest(client_id="test", ttl_s=ttl_s, apps=tuple(apps))
        return await self.bus.request(env_lease_subject(Source.REAL), request, m.Lease)

    async def reset(self, lease: m.Lease, task: TaskSpec) -> m.ObserveReply:
        request = m.ResetRequest(lease_id=lease.lease_id, task=task, image_format="png")
        return await self.call(EnvVerb.RESET, request, m.ObserveReply)

    async def observe(self, lease: m.Lease, **options: Any) -> m.ObserveReply:
        request = m.ObserveRequest(lease_id=lease.lease_id, **{"image_format": "png", **options})
        return await self.call(EnvVerb.OBSERVE, request, m.ObserveReply)

    async def act(self, lease: m.Lease, action: Action, **options: Any) -> m.ActReply:
        request = m.ActRequest(lease_id=lease.lease_id, action=action, **options)
        return await self.call(EnvVerb.ACT, request, m.ActReply)

    async def release(self, lease: m.Lease) -> bool:
        request = m.ReleaseRequest(lease_id=lease.lease_id)
        return (await self.call(EnvVerb.RELEASE, request, m.ReleaseReply)).released

    async def http(self, path: str) -> httpx.Response:
        async with httpx.AsyncClient(base_url=self.url) as client:
            return await client.get(path)

    async def metrics(self) -> str:
        return (await self.http("/metrics")).text


def nats_settings(server: NatsServer) -> NatsSettings:
    return NatsSettings(url=server.url, user=server.user, password=server.password)


StartWorld = Callable[..., contextlib.AbstractAsyncContextManager[Phones]]
StartGateway = Callable[..., contextlib.AbstractAsyncContextManager[Gateway]]


@pytest.fixture
def start_world(nats_server: NatsServer, unique_name: str) -> StartWorld:
    """`async with start_world(devices=N) as phones:` PhoneWorld phones on N ADB ports."""

    @contextlib.asynccontextmanager
    async def start(devices: int = 2, name: str = "w") -> AsyncIterator[Phones]:
        settings = WorldSettings(
            devices=devices, instance_id=f"{unique_name}{name}", port=0,
            adb_base_port=free_port_block(devices),
        )  # fmt: skip
        app = create_world_app(settings, nats_settings(nats_server))
        async with serve_asgi(app) as url:
            yield Phones(app.state.service, url)

    return start


@pytest.fixture
def start_gateway(nats_server: NatsServer, adb_server: AdbServer, unique_name: str) -> StartGateway:
    """`async with start_gateway(addresses, **settings) as gateway:` the gateway, in-process,
    connecting the given ADB addresses through the session's adb server."""

    @contextlib.asynccontextmanager
    async def start(addresses: Sequence[str], **overrides: Any) -> AsyncIterator[Gateway]:
        options: dict[str, Any] = {
            "adb_server": f"127.0.0.1:{adb_server.port}",
            "connect": tuple(addresses),
            "serials": tuple(addresses),
            "instance_id": f"{unique_name}gw",
            "port": 0,
            "apps": phoneworld_apps(),
            "settle_s": 0,
            "health_interval_s": 0.2,
            "reap_interval_s": 0.1,
            "adb_timeout_s": 3,
            "ping_timeout_s": 1,
            **overrides,
        }
        nats = nats_settings(nats_server)
        app = create_app(GatewaySettings(**options), nats)
        async with serve_asgi(app) as url, connect(nats) as bus:
            yield Gateway(app.state.service, url, bus)

    return start


def record_oracle(
    world: World, template_id: str, seed: int = 0
) -> tuple[TaskInstance, list[Action]]:
    """The oracle's actions, recorded on a local device (PhoneWorld is deterministic)."""
    template = get_template(template_id)
    device = Device(world)
    instance = instantiate(template, world, seed)
    start(device, instance)
    actions, _ = run_oracle(device, template, instance.params)  # past any friction too
    return instance, actions


async def solve_through_gateway(
    world: World, gateway: Gateway, phones: Phones, template_id: str, seed: int = 0
) -> tuple[bool, str]:
    """Lease a phone, reset it to the task through the gateway, set the task's start state up
    on the PhoneWorld side, replay the oracle through the gateway, and let PhoneWorld's own
    verifier judge the phone's state. Returns (success, reason)."""
    instance, actions = record_oracle(world, template_id, seed)
    lease = await gateway.lease(apps=instance.template.apps)
    await gateway.reset(lease, instance.spec)
    address = lease.device_id
    device = phones.device(address)
    async with phones.lock(address):
        before = await asyncio.to_thread(start, device, instance)
    answer = None
    for action in actions:
        reply = await gateway.act(lease, action)
        if reply.effect not in ("applied", "final"):
            return False, f"{action!r} was a {reply.effect}: {reply.note}"
        if isinstance(action, Answer):
            answer = action.text
    verdict = evaluate(world, instance.template, instance.params, before, device.snapshot(), answer)
    await gateway.release(lease)
    return verdict.success, verdict.reason


Solve = Callable[[Gateway, Phones, str], Awaitable[tuple[bool, str]]]


@pytest.fixture(scope="session")
def world() -> World:
    return default_world(0)


@pytest.fixture
def solve(world: World) -> Solve:
    """`ok, reason = await solve(gateway, phones, template_id)`: see solve_through_gateway."""

    async def run(gateway: Gateway, phones: Phones, template_id: str) -> tuple[bool, str]:
        return await solve_through_gateway(world, gateway, phones, template_id)

    return run


@pytest.fixture
def oracle(world: World) -> Callable[[str], tuple[TaskInstance, list[Action]]]:
    """`instance, actions = oracle(template_id)`: the oracle's actions for seed 0."""
    return lambda template_id: record_oracle(world, template_id)


@pytest.fixture
def port_block() -> Callable[[int], int]:
    """`base = port_block(n)`: the first of n consecutive free loopback ports."""
    return free_port_block
