"""PhoneWorld's task catalogue and oracle over NATS, suites, recorded demonstrations, and phones
reserved for ADB."""

from __future__ import annotations

import pytest

from phonebuddy.bus import NatsSettings, RemoteError, connect
from phonebuddy.phoneworld.demonstrations import record_demonstration
from phonebuddy.phoneworld.service.app import create_app
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.phoneworld.tasks.registry import all_templates
from phonebuddy.phoneworld.tasks.suites import SMOKE, suite_names, suite_templates
from phonebuddy.phoneworld.world import default_world
from phonebuddy.protocol import (
    Answer,
    Category,
    ErrorCode,
    OracleReply,
    OracleRequest,
    Source,
    TaskList,
    TaskQuery,
    Terminate,
)
from phonebuddy.protocol import env as m
from phonebuddy.protocol.subjects import WORLD_ORACLE, WORLD_TASKS, env_lease_subject
from phonebuddy.testing import NatsServer, free_port_range, serve_asgi


def settings_for(server: NatsServer) -> NatsSettings:
    return NatsSettings(url=server.url, user=server.user, password=server.password)


async def test_catalogue_lists_suites_and_templates_and_solves_tasks(
    nats_server_fn: NatsServer,
) -> None:
    nats = settings_for(nats_server_fn)
    app = create_app(WorldSettings(devices=1, instance_id="cat", port=0), nats)
    async with serve_asgi(app), connect(nats) as bus:
        smoke = await bus.request(WORLD_TASKS, TaskQuery(suite="smoke", seeds=(0, 1)), TaskList)
        picked = await bus.request(
            WORLD_TASKS, TaskQuery(template_ids=("notes.create",), language="zh"), TaskList
        )
        oracle = await bus.request(WORLD_ORACLE, OracleRequest(task=picked.tasks[0]), OracleReply)
        with pytest.raises(RemoteError) as unknown:
            await bus.request(WORLD_TASKS, TaskQuery(suite="nope"), TaskList)
    assert [t.template_id for t in smoke.tasks] == [t for t in SMOKE for _ in (0, 1)]
    assert {t.seed for t in smoke.tasks} == {0, 1}
    assert picked.tasks[0].language == "zh"
    assert isinstance(oracle.actions[-1], Answer | Terminate)
    assert unknown.value.code == ErrorCode.UNKNOWN_TASK
    demo = record_demonstration(
        default_world(), "notes.create", 0, run_id="r", episode_id="e", language="zh",
        actions=oracle.actions,
    )  # fmt: skip
    assert demo.episode.verdict is not None
    assert demo.episode.verdict.success, demo.episode.verdict.reason


def test_suites_cover_their_categories() -> None:
    assert "smoke" in suite_names()
    every = suite_templates("all")
    assert len(every) == len(all_templates())
    for category in Category:
        chosen = suite_templates(category.value)
        assert chosen
        assert all(t.category == category for t in chosen)
    assert all(t.answers for t in suite_templates("qa"))
    assert {t.category for t in suite_templates("smoke")} == set(Category)


def test_demonstrations_succeed_and_near_misses_fail() -> None:
    world = default_world()
    full = record_demonstration(world, "notes.create", 0, run_id="r", episode_id="ok")
    short = record_demonstration(
        world, "notes.create", 0, run_id="r", episode_id="no", stop_after=2
    )
    assert full.episode.verdict is not None
    assert full.episode.verdict.success
    assert full.episode.status.value == "terminated"
    refs = {step.observation.frame.sha256 for step in full.episode.steps}
    assert refs <= set(full.frames)
    assert short.episode.verdict is not None
    assert not short.episode.verdict.success
    assert len(short.episode.steps) == 2


async def test_phones_reserved_for_adb_are_never_leased_over_nats(
    nats_server_fn: NatsServer,
) -> None:
    nats = settings_for(nats_server_fn)
    settings = WorldSettings(
        devices=3, instance_id="split", port=0, adb_base_port=free_port_range(1), adb_devices=1
    )
    async with serve_asgi(create_app(settings, nats)), connect(nats) as bus:
        leases = [
            await bus.request(env_lease_subject(Source.SIM), m.LeaseRequest(client_id="t"), m.Lease)
            for _ in range(2)
        ]
        with pytest.raises(RemoteError) as full:
            await bus.request(env_lease_subject(Source.SIM), m.LeaseRequest(client_id="t"), m.Lease)
    assert {lease.device_id for lease in leases} == {"split-0", "split-1"}
    assert full.value.code == ErrorCode.NO_DEVICE_AVAILABLE
    with pytest.raises(ValueError, match="more than devices"):
        WorldSettings(devices=1, adb_base_port=20000, adb_devices=2)
