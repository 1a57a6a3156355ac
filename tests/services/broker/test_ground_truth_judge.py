"""`real` episodes on PhoneWorld phones behind the device gateway, graded by the rubric judge
whose model is PhoneWorld's ground-truth grader — the local stack's and the demo's set-up. The
gateway's task set-up broadcast gives each real phone its task's start state, the judge sends
the task's identity as metadata, and the grader replays the logged actions: the teacher's real
episodes pass exactly like its sim ones, an agent that only presses Home fails every one (a
failure, not a judge error), and every verdict names the stand-in model."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings
from phonebuddy.device_gateway.app import create_app as create_gateway
from phonebuddy.device_gateway.settings import GatewaySettings
from phonebuddy.judge.app import create_app as create_judge
from phonebuddy.judge.settings import JudgeSettings
from phonebuddy.phoneworld.adb.task_setup import TASK_SETUP_ACTION
from phonebuddy.phoneworld.ground_truth import MODEL
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.ground_truth_api import PREFIX
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.policy.app import create_app as create_policy
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.teacher_backend import TeacherBackend
from phonebuddy.protocol import Episode, RolloutRequest, SourceMix, TaskSelection
from phonebuddy.rollouts import RolloutClient
from phonebuddy.storage import LocalStore
from phonebuddy.testing import (
    AdbServer,
    NatsServer,
    ScriptedLLM,
    free_port_range,
    serve_asgi_in_thread,
)
from phonebuddy.trajectories import TrajectoryStore

from .conftest import API_KEY, gateway_apps, slow_home_policy

REAL_PHONES = 4
TEMPLATES = ("settings.toggle", "notes.create", "wallet.balance", "contacts.add")
REAL_ONLY = SourceMix(sim=0, real=1)


@dataclass(frozen=True)
class Stack:
    nats: NatsSettings
    teacher_url: str
    home_url: str
    runs: Path


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    root = tmp_path_factory.mktemp("ground-truth")
    runs = root / "runs"
    runs.mkdir()
    with contextlib.ExitStack() as running:
        nats_server = running.enter_context(NatsServer(work_dir=root / "nats"))
        adb_server = running.enter_context(AdbServer())
        nats = NatsSettings(
            url=nats_server.url, user=nats_server.user, password=nats_server.password
        )
        base = free_port_range(REAL_PHONES)
        world = WorldSettings(
            devices=2 + REAL_PHONES, instance_id="gt", port=0, adb_base_port=base,
            adb_register=f"127.0.0.1:{adb_server.port}", adb_devices=REAL_PHONES,
            ground_truth_judge=True,
        )  # fmt: skip
        world_url = running.enter_context(serve_asgi_in_thread(create_world(world, nats)))
        gateway = GatewaySettings(
            adb_server=f"127.0.0.1:{adb_server.port}", instance_id="gt-gw", port=0,
            serials=tuple(f"emulator-{base - 1 + i}" for i in range(REAL_PHONES)),
            apps=gateway_apps(), settle_s=0, health_interval_s=0.3, adb_timeout_s=5,
            task_setup_action=TASK_SETUP_ACTION,
        )  # fmt: skip
        running.enter_context(serve_asgi_in_thread(create_gateway(gateway, nats)))
        teacher = PolicySettings(backend="teacher", api_key=API_KEY, port=0)
        teacher_url = running.enter_context(
            serve_asgi_in_thread(create_policy(teacher, TeacherBackend(teacher, nats)))
        )
        home = running.enter_context(ScriptedLLM(slow_home_policy(0)))
        judge = JudgeSettings(
            rubric_base_url=f"{world_url}{PREFIX}", rubric_model=MODEL,
            grader_base_url=f"{world_url}{PREFIX}", grader_model=MODEL, task_metadata=True,
            max_retries=0, timeout_s=30, port=0, store_roots=(f"local:{runs}",),
        )  # fmt: skip
        running.enter_context(serve_asgi_in_thread(create_judge(judge, nats)))
        broker = BrokerSettings(
            instance_id="gt", workers=REAL_PHONES, default_store_url=f"local:{runs}",
            policy_api_key=API_KEY, teacher_url=f"{teacher_url}/v1", lease_wait_s=60,
            judge_timeout_s=60, port=0,
        )  # fmt: skip
        running.enter_context(serve_asgi_in_thread(create_broker(broker, nats)))
        yield Stack(nats, f"{teacher_url}/v1", home.base_url, runs)


def _rollout(stack: Stack, run_id: str, policy_url: str, mix: SourceMix) -> list[Episode]:
    request = RolloutRequest(
        run_id=run_id, tasks=TaskSelection(template_ids=TEMPLATES, seeds=(3,)),
        policy={"base_url": policy_url, "model": "phonebuddy-policy"},  # type: ignore[arg-type]
        group_size=2, mix=mix, step_budget=12, concurrency=REAL_PHONES, redundancy=0,
    )  # fmt: skip

    async def run() -> list[Episode]:
        async with RolloutClient.connect(stack.nats) as client:
            await client.run(request, timeout_s=300)
        store = TrajectoryStore(LocalStore(stack.runs))
        return [episode async for episode in store.episodes(run_id)]

    return asyncio.run(run())


@pytest.mark.timeout(600)
def test_the_teachers_real_episodes_pass_as_its_sim_ones_do(stack: Stack) -> None:
    real = _rollout(stack, "gt-teacher-real", stack.teacher_url, REAL_ONLY)
    sim = _rollout(stack, "gt-teacher-sim", stack.teacher_url, SourceMix())
    assert len(real) == len(sim) == 2 * len(TEMPLATES)
    assert all(e.task.source.value == "real" for e in real)
    for episode in real:
        verdict = episode.verdict
        assert verdict is not None, episode.episode_id
        assert verdict.grader == "judge"
        assert not verdict.judge_error, verdict
        assert verdict.success, (episode.task.task_id, verdict)
        assert verdict.details["models"] == {"rubric": MODEL, "grader": MODEL}
    assert all(e.verdict is not None and e.verdict.success for e in sim)


@pytest.mark.timeout(600)
def test_an_agent_that_only_presses_home_fails_every_real_episode(stack: Stack) -> None:
    episodes = _rollout(stack, "gt-home-real", stack.home_url, REAL_ONLY)
    assert len(episodes) == 2 * len(TEMPLATES)
    for episode in episodes:
        verdict = episode.verdict
        assert verdict is not None
        assert not verdict.judge_error, verdict
        assert not verdict.success
        assert "task_done" in verdict.reason
        assert "stand-in" in verdict.reason
