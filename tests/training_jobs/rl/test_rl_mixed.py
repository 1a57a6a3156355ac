"""The RL job on the whole local stack: `sim` episodes on PhoneWorld phones over NATS and `real`
episodes on more PhoneWorld phones behind the device gateway (adb server, ADB protocol), graded
by the rubric judge whose model is a ScriptedLLM. A 2-step mixed run advances the policy's
version every step and every stored step names it; a run killed with SIGTERM checkpoints, exits
0 and resumes from that checkpoint to the end.

The scripted grader is honest about how an episode ended: it passes an episode whose agent
called terminate (the memorized settings.toggle episode ends so) and fails one that ran out of
steps. Its first grading answer of every round is unusable, a judge error the trainer masks."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings
from phonebuddy.device_gateway.app import create_app as create_gateway
from phonebuddy.device_gateway.settings import GatewaySettings
from phonebuddy.judge.app import create_app as create_judge
from phonebuddy.judge.settings import JudgeSettings
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.phoneworld.world import default_world
from phonebuddy.rl.cli import app as rl_app
from phonebuddy.rl.trainer import version_name
from phonebuddy.storage import LocalStore
from phonebuddy.testing import (
    AdbServer,
    NatsServer,
    ScriptedLLM,
    ScriptedReply,
    free_port_range,
    serve_asgi_in_thread,
)
from phonebuddy.testing.scripted_llm import RecordedRequest
from phonebuddy.trajectories import TrajectoryStore

from ..conftest import MEMORIZED_TEMPLATE, Memorized, job_env, pushable_policy

ADMIN_TOKEN = "rl-mixed-admin-token"
GROUP_SIZE = 3
SIM_PHONES = 3
REAL_PHONES = GROUP_SIZE
RUBRIC_ITEMS = ("task_done",)


class TerminateGrader:
    """The judge's model: a one-item rubric, graded by how the episode ended; every
    `GROUP_SIZE`-th grading answer (the first of each real group) is unusable."""

    def __init__(self) -> None:
        self._gradings = itertools.count()

    def __call__(self, body: dict[str, Any]) -> ScriptedReply:
        request = RecordedRequest(path="/v1/chat/completions", headers={}, body=body, received_at=0)
        if request.model == "rubric":
            items = [{"id": item, "criterion": f"{item} holds"} for item in RUBRIC_ITEMS]
            return ScriptedReply.json_object({"items": items})
        if next(self._gradings) % GROUP_SIZE == 0:
            return ScriptedReply.text("I cannot tell, sorry.")
        passed = "the agent called terminate" in request.text()
        results = [{"id": i, "passed": passed, "evidence": "scripted"} for i in RUBRIC_ITEMS]
        return ScriptedReply.json_object({"results": results})


@dataclass(frozen=True)
class Stack:
    policy_url: str
    rollouts: Path
    staging: Path
    env: dict[str, str]  # what a job process needs besides os.environ


def _phoneworld_apps() -> dict[str, str]:
    """The gateway's app table: PhoneWorld's apps by their English and Chinese labels."""
    apps = default_world(0).apps
    return {label: app.package for app in apps for label in (app.label.en, app.label.zh)}


@pytest.fixture(scope="module")
def stack(memorized: Memorized, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    """The whole stack on its own nats-server and adb server: in a full run the session's
    servers carry what earlier tests left (devices, streams, consumers), and the mixed run once
    sat idle behind them."""
    root = tmp_path_factory.mktemp("rl-mixed")
    with NatsServer(work_dir=root / "nats") as nats_server, AdbServer() as adb_server:
        yield from _stack(memorized, nats_server, adb_server, root)


def _stack(
    memorized: Memorized, nats_server: NatsServer, adb_server: AdbServer, root: Path
) -> Iterator[Stack]:
    rollouts, staging = root / "rollouts", root / "staging"
    rollouts.mkdir()
    staging.mkdir()
    nats = NatsSettings(url=nats_server.url, user=nats_server.user, password=nats_server.password)
    env = job_env(nats_server, ADMIN_TOKEN)
    base = free_port_range(REAL_PHONES)
    world = WorldSettings(
        devices=SIM_PHONES + REAL_PHONES, instance_id="rl-mixed", port=0, adb_base_port=base,
        adb_register=f"127.0.0.1:{adb_server.port}", adb_devices=REAL_PHONES,
    )  # fmt: skip
    gateway = GatewaySettings(
        adb_server=f"127.0.0.1:{adb_server.port}", instance_id="rl-mixed-gw", port=0,
        serials=tuple(f"emulator-{base - 1 + i}" for i in range(REAL_PHONES)),
        apps=_phoneworld_apps(), settle_s=0, health_interval_s=0.3, adb_timeout_s=5,
    )  # fmt: skip
    policy = pushable_policy(
        memorized.model_url, admin_token=ADMIN_TOKEN, staging=staging, work_dir=root / "policy"
    )
    with contextlib.ExitStack() as running:
        patch = running.enter_context(pytest.MonkeyPatch.context())
        for key, value in env.items():
            patch.setenv(key, value)
        running.enter_context(policy)
        running.enter_context(serve_asgi_in_thread(create_world(world, nats)))
        running.enter_context(serve_asgi_in_thread(create_gateway(gateway, nats)))
        llm = running.enter_context(ScriptedLLM(TerminateGrader()))
        # No retries: the unusable answer must stay a judge error.
        judge = JudgeSettings(
            rubric_base_url=llm.base_url, rubric_model="rubric", grader_base_url=llm.base_url,
            grader_model="grader", max_retries=0, store_roots=(f"local:{rollouts}",),
        )  # fmt: skip
        running.enter_context(serve_asgi_in_thread(create_judge(judge, nats)))
        broker = BrokerSettings(
            instance_id="rl-mixed", workers=6, default_store_url=f"local:{rollouts}",
            lease_wait_s=60,  # the gateway's phones come up as they register over ADB
        )  # fmt: skip
        running.enter_context(serve_asgi_in_thread(create_broker(broker, nats)))
        yield Stack(policy.url, rollouts, staging, env)


def _rl_args(memorized: Memorized, stack: Stack, output: Path, *settings: str) -> list[str]:
    args = [
        "--preset", "tiny-cpu", "--base", memorized.model_url, "--policy-url", stack.policy_url,
        "--output", f"local:{output}", "--set", f"policy.staging={stack.staging}",
        "--set", f"rollout.templates=[{MEMORIZED_TEMPLATE}]", "--set", "rollout.seeds=[0,2]",
        "--set", "rollout.max_extra_rounds=0", "--set", "rollout.step_budget=6",
    ]  # fmt: skip
    for setting in settings:
        args += ["--set", setting]
    return args


def _events(output: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def _stored_versions(rollouts: Path, run_id: str) -> dict[str, set[str | None]]:
    """The policy versions each source's stored steps of run `run_id` name."""

    async def read() -> dict[str, set[str | None]]:
        versions: dict[str, set[str | None]] = {}
        async for episode in TrajectoryStore(LocalStore(rollouts)).episodes(run_id):
            named = versions.setdefault(episode.task.source.value, set())
            named.update(step.policy_version for step in episode.steps)
        return versions

    return asyncio.run(read())


@pytest.mark.timeout(1500)  # the shared memorizing SFT fixture may be built first (~2-9 min)
def test_mixed_run_advances_the_version_every_step_on_both_sources(
    memorized: Memorized, stack: Stack, tmp_path: Path
) -> None:
    result = CliRunner().invoke(
        rl_app,
        [
            *_rl_args(
                memorized, stack, tmp_path / "rl", "rollout.tasks_per_step=2",
                f"rollout.group_size={GROUP_SIZE}", "train.steps=2",
            ),
            "--mix", "real=0.5,sim=0.5",
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    events = _events(result.stdout)
    by_kind = {kind: [e for e in events if e["event"] == kind] for kind in ("weights", "step")}
    assert [e["version"] for e in by_kind["weights"]] == [
        version_name("tiny-rl", k) for k in (0, 1, 2)
    ]
    assert [e["step"] for e in by_kind["step"]] == [1, 2]
    for event in by_kind["step"]:
        assert event["critic/score/sim"] is not None, event
        assert event["critic/score/real"] is not None, event
        assert event["batch/masked_episodes"] >= 1, event  # the unusable grading
    assert events[-1]["event"] == "done"
    assert events[-1]["step"] == 2

    for step in (0, 1):
        versions = _stored_versions(stack.rollouts, f"tiny-rl-step{step:05d}-r0")
        named = {version_name("tiny-rl", step)}
        assert versions == {"sim": named, "real": named}


def _run_job(
    args: list[str], env: dict[str, str], log: Path, *, kill_after_step: int | None
) -> tuple[int, list[dict[str, Any]]]:
    """`python -m phonebuddy.rl ARGS`; SIGTERM once it logs the checkpoint of
    `kill_after_step`. Its exit status and events."""
    command = [sys.executable, "-m", "phonebuddy.rl", *args]
    process_env = {**os.environ, **env, "PYTHONUNBUFFERED": "1"}
    events: list[dict[str, Any]] = []
    with (
        log.open("w") as stderr,
        subprocess.Popen(
            command, env=process_env, stdout=subprocess.PIPE, stderr=stderr, text=True
        ) as process,
    ):
        assert process.stdout is not None
        for line in process.stdout:
            if not line.startswith("{"):
                continue
            event = json.loads(line)
            events.append(event)
            if event["event"] == "checkpoint" and event["step"] == kill_after_step:
                process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=600)
    return status, events


@pytest.mark.timeout(1500)  # the shared memorizing SFT fixture may be built first (~2-9 min)
def test_killed_run_checkpoints_and_resumes_to_the_end(
    memorized: Memorized, stack: Stack, tmp_path: Path
) -> None:
    args = [
        *_rl_args(
            memorized, stack, tmp_path / "rl", "name=tiny-rl-resume", "rollout.tasks_per_step=1",
            "rollout.group_size=2", "train.steps=3", "checkpoint.every_steps=1",
        ),
        "--mix", "sim=1",
    ]  # fmt: skip
    log = tmp_path / "job.log"
    status, events = _run_job(args, stack.env, log, kill_after_step=1)
    assert status == 0, log.read_text()
    done = events[-1]
    assert done["event"] == "done"
    assert done["stopped"] == "sigterm"
    assert 1 <= done["step"] < 3
    assert done["checkpoint"]
    killed_at = done["step"]

    status, events = _run_job(args, stack.env, log, kill_after_step=None)
    assert status == 0, log.read_text()
    resumed = [e for e in events if e["event"] == "resumed"]
    assert [e["step"] for e in resumed] == [killed_at]
    steps = [e["step"] for e in events if e["event"] == "step"]
    assert steps == list(range(killed_at + 1, 4))
    assert events[-1]["event"] == "done"
    assert events[-1]["step"] == 3
    assert events[-1]["stopped"] == "finished"
