"""The PhoneWorld service over a real NATS server: leases, the env verbs, expiry, errors."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass

import httpx
import pytest

from phonebuddy.bus import Bus, NatsSettings, RemoteError, connect
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.service.app import create_app
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.phoneworld.tasks.registry import get_template
from phonebuddy.phoneworld.tasks.runner import instantiate, run_oracle, start
from phonebuddy.phoneworld.tasks.suites import task_specs
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import TEST_SEEDS, Action, ErrorCode, Instruction, Source, Split, TaskSpec
from phonebuddy.protocol import env as m
from phonebuddy.protocol.subjects import EnvVerb, env_lease_subject, env_verb_subject
from phonebuddy.testing import NatsServer, serve_asgi


@dataclass
class Running:
    bus: Bus
    url: str
    instance_id: str

    def subject(self, verb: EnvVerb) -> str:
        return env_verb_subject(Source.SIM, self.instance_id, verb)

    async def lease(self, ttl_s: float = 60) -> m.Lease:
        return await self.bus.request(
            env_lease_subject(Source.SIM), m.LeaseRequest(client_id="test", ttl_s=ttl_s), m.Lease
        )


@pytest.fixture
async def world_service(
    nats_server: NatsServer, unique_name: str, request: pytest.FixtureRequest
) -> AsyncIterator[Running]:
    marker = request.node.get_closest_marker("world")
    options = dict(marker.kwargs) if marker else {}
    settings = WorldSettings(
        devices=options.get("devices", 3), instance_id=unique_name, port=0,
        reap_interval_s=options.get("reap_interval_s", 0.1),
    )  # fmt: skip
    nats = NatsSettings(url=nats_server.url, user=nats_server.user, password=nats_server.password)
    async with serve_asgi(create_app(settings, nats)) as url, connect(nats) as bus:
        yield Running(bus, url, unique_name)


def oracle_actions(world: World, template_id: str, seed: int) -> tuple[TaskSpec, list[Action]]:
    """The oracle's actions, recorded on a local device (PhoneWorld is deterministic)."""
    template = get_template(template_id)
    device = Device(world)
    instance = instantiate(template, world, seed)
    start(device, instance)
    actions, _ = run_oracle(device, template, instance.params)  # past any friction too
    return instance.spec, actions


async def solve_remotely(service: Running, world: World, seed: int) -> bool:
    spec, actions = oracle_actions(world, "notes.create", seed)
    lease = await service.lease()
    reply = await service.bus.request(
        service.subject(EnvVerb.RESET), m.ResetRequest(lease_id=lease.lease_id, task=spec),
        m.ObserveReply,
    )  # fmt: skip
    assert reply.frame is not None
    assert reply.frame.ref == reply.observation.frame
    for action in actions:
        acted = await service.bus.request(
            service.subject(EnvVerb.ACT), m.ActRequest(lease_id=lease.lease_id, action=action),
            m.ActReply,
        )  # fmt: skip
        assert acted.effect == "applied", acted.note
    verdict = await service.bus.request(
        service.subject(EnvVerb.VERIFY), m.VerifyRequest(lease_id=lease.lease_id), m.VerifyReply
    )
    await service.bus.request(
        service.subject(EnvVerb.RELEASE), m.ReleaseRequest(lease_id=lease.lease_id),
        m.ReleaseReply,
    )  # fmt: skip
    return verdict.verdict.success


async def test_a_task_solved_over_nats_is_verified(world_service: Running, world: World) -> None:
    assert await solve_remotely(world_service, world, seed=0)


async def test_verify_fails_when_the_task_was_not_done(
    world_service: Running, world: World
) -> None:
    spec, _ = oracle_actions(world, "notes.create", 0)
    lease = await world_service.lease()
    await world_service.bus.request(
        world_service.subject(EnvVerb.RESET), m.ResetRequest(lease_id=lease.lease_id, task=spec),
        m.ObserveReply,
    )  # fmt: skip
    reply = await world_service.bus.request(
        world_service.subject(EnvVerb.VERIFY), m.VerifyRequest(lease_id=lease.lease_id),
        m.VerifyReply,
    )  # fmt: skip
    assert not reply.verdict.success
    assert "expected one new note" in reply.verdict.reason


async def test_concurrent_leases_each_get_their_own_device(
    world_service: Running, world: World
) -> None:
    results = await asyncio.gather(*(solve_remotely(world_service, world, s) for s in range(3)))
    assert results == [True, True, True]


@pytest.mark.world(devices=2)
async def test_no_free_device_is_a_retryable_error(world_service: Running) -> None:
    await world_service.lease()
    await world_service.lease()
    with pytest.raises(RemoteError) as raised:
        await world_service.lease()
    assert raised.value.code == ErrorCode.NO_DEVICE_AVAILABLE
    assert raised.value.retryable


@pytest.mark.world(devices=1, reap_interval_s=0.1)
async def test_an_expired_lease_is_reclaimed_and_its_device_reset(
    world_service: Running, world: World
) -> None:
    lease = await world_service.lease(ttl_s=0.5)
    spec, actions = oracle_actions(world, "notes.create", 0)
    await world_service.bus.request(
        world_service.subject(EnvVerb.RESET), m.ResetRequest(lease_id=lease.lease_id, task=spec),
        m.ObserveReply,
    )  # fmt: skip
    await asyncio.sleep(1.0)
    with pytest.raises(RemoteError) as raised:
        await world_service.bus.request(
            world_service.subject(EnvVerb.ACT),
            m.ActRequest(lease_id=lease.lease_id, action=actions[0]), m.ActReply,
        )  # fmt: skip
    assert raised.value.code == ErrorCode.LEASE_NOT_FOUND
    again = await world_service.lease()  # the only device is free again
    observed = await world_service.bus.request(
        world_service.subject(EnvVerb.OBSERVE), m.ObserveRequest(lease_id=again.lease_id),
        m.ObserveReply,
    )  # fmt: skip
    assert observed.observation.foreground_app is None  # reset to the home screen
    async with httpx.AsyncClient(base_url=world_service.url) as client:
        metrics = (await client.get("/metrics")).text
    assert "phonebuddy_phoneworld_expired_leases_total 1.0" in metrics


async def test_bad_requests_get_clear_errors_and_the_service_keeps_serving(
    world_service: Running, world: World
) -> None:
    lease = await world_service.lease()
    spec, _ = oracle_actions(world, "notes.create", 0)
    unknown = spec.model_copy(update={"template_id": "nope.task", "params": {}})
    with pytest.raises(RemoteError) as raised:
        await world_service.bus.request(
            world_service.subject(EnvVerb.RESET),
            m.ResetRequest(lease_id=lease.lease_id, task=unknown), m.ObserveReply,
        )  # fmt: skip
    assert raised.value.code == ErrorCode.UNKNOWN_TASK
    forged = spec.model_copy(update={"params": {"title": "x", "body": "y"}})
    with pytest.raises(RemoteError) as raised:
        await world_service.bus.request(
            world_service.subject(EnvVerb.RESET),
            m.ResetRequest(lease_id=lease.lease_id, task=forged), m.ObserveReply,
        )  # fmt: skip
    assert raised.value.code == ErrorCode.INVALID_REQUEST
    with pytest.raises(RemoteError) as raised:
        await world_service.bus.request(
            world_service.subject(EnvVerb.OBSERVE), m.ObserveRequest(lease_id="0" * 24),
            m.ObserveReply,
        )  # fmt: skip
    assert raised.value.code == ErrorCode.LEASE_NOT_FOUND
    with pytest.raises(RemoteError) as raised:
        await world_service.bus.request(
            env_lease_subject(Source.SIM), m.LeaseRequest(client_id="x", apps=("com.nope",)),
            m.Lease,
        )  # fmt: skip
    assert raised.value.code == ErrorCode.UNKNOWN_APP
    assert await solve_remotely(world_service, world, seed=1)


async def test_health_endpoints(world_service: Running) -> None:
    async with httpx.AsyncClient(base_url=world_service.url) as client:
        assert (await client.get("/livez")).status_code == 200
        ready = await client.get("/readyz")
        devices = (await client.get("/devices")).json()
    assert ready.status_code == 200
    assert ready.json()["checks"] == {"nats": True}
    assert devices["devices"] == 3


async def test_reset_refuses_a_spec_that_relabels_its_split_or_rewrites_its_instruction(
    world_service: Running, world: World
) -> None:
    """PhoneWorld derives the split and the wording from (template, seed): a held-out task
    labelled `train`, or a task whose instruction says something else than what is verified,
    is refused before the device is touched; the genuine spec still resets."""
    lease = await world_service.lease()
    (held_out,) = task_specs(world, [get_template("settings.night_mode")], [TEST_SEEDS[0] + 3])
    assert held_out.split is Split.TEST
    relabelled = held_out.model_copy(update={"split": Split.TRAIN})
    rewritten = held_out.model_copy(
        update={"instruction": Instruction(zh="打开蓝牙", en="Turn Bluetooth on")}
    )
    other_apps = held_out.model_copy(update={"apps": ("com.pw.notes",)})
    for forged, field in ((relabelled, "split"), (rewritten, "instruction"), (other_apps, "apps")):
        with pytest.raises(RemoteError) as raised:
            await world_service.bus.request(
                world_service.subject(EnvVerb.RESET),
                m.ResetRequest(lease_id=lease.lease_id, task=forged), m.ObserveReply,
            )  # fmt: skip
        assert raised.value.code == ErrorCode.INVALID_REQUEST
        assert field in str(raised.value)
    reply = await world_service.bus.request(
        world_service.subject(EnvVerb.RESET),
        m.ResetRequest(lease_id=lease.lease_id, task=held_out), m.ObserveReply,
    )  # fmt: skip
    assert reply.frame is not None  # the genuine spec resets the device
