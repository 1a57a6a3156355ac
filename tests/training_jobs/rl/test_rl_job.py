"""The RL job end to end on CPU, sim only: the memorizing SFT checkpoint served by `phonebuddy
policy serve`, PhoneWorld and the broker over a real NATS, `phonebuddy train rl` for two steps.
Every step pushes new weights; the server then serves that version and every stored step of the
next round names it; the tokens trained on are the ones the server sampled. In asynchronous mode
(max_staleness 1) the next round is rolled out while a step trains, by the version before."""

from __future__ import annotations

import asyncio
import json
import tempfile
import traceback
from datetime import datetime
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.protocol import Episode
from phonebuddy.rl.cli import app as rl_app
from phonebuddy.stack.local import ServiceProcess
from phonebuddy.storage import LocalStore
from phonebuddy.testing import NatsServer, serve_asgi_in_thread
from phonebuddy.trajectories import TrajectoryStore

from ..conftest import MEMORIZED_TEMPLATE, Memorized

ADMIN_TOKEN = "rl-test-admin-token"


def _events(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def _run_rl(
    tmp_path: Path,
    memorized: Memorized,
    nats_server: NatsServer,
    monkeypatch: pytest.MonkeyPatch,
    *extra: str,
) -> tuple[list[dict], TrajectoryStore]:
    """`phonebuddy train rl` for two steps on the memorized template; its events and the store."""
    staging = tmp_path / "staging"
    staging.mkdir()
    rollouts = tmp_path / "rollouts"
    rollouts.mkdir()
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    policy = ServiceProcess(
        name="policy",
        args=["policy", "serve", "--model", memorized.model_url],
        env={
            "PHONEBUDDY_POLICY_ADMIN_TOKEN": ADMIN_TOKEN,
            "PHONEBUDDY_POLICY_WEIGHT_ROOTS": str(staging),
        },
        work_dir=tmp_path / "policy",
    )
    nats = NatsSettings(url=nats_server.url, user=nats_server.user, password=nats_server.password)
    for name, value in (("URL", nats.url), ("USER", nats.user), ("PASSWORD", nats_server.password)):
        monkeypatch.setenv(f"PHONEBUDDY_NATS_{name}", str(value))
    monkeypatch.setenv("PHONEBUDDY_POLICY_ADMIN_TOKEN", ADMIN_TOKEN)
    world = create_world(WorldSettings(devices=4, instance_id="rl"), nats)
    broker = create_broker(
        BrokerSettings(instance_id="rl", workers=4, default_store_url=f"local:{rollouts}"), nats
    )
    with policy, serve_asgi_in_thread(world), serve_asgi_in_thread(broker):
        result = CliRunner().invoke(
            rl_app,
            [
                "--preset", "tiny-cpu", "--base", memorized.model_url, "--policy-url", policy.url,
                "--output", f"local:{tmp_path / 'rl'}",
                "--set", f"rollout.templates=[{MEMORIZED_TEMPLATE}]",
                "--set", "rollout.seeds=[0,1]", "--set", "rollout.tasks_per_step=1",
                "--set", "rollout.group_size=4", "--set", "rollout.step_budget=6",
                "--set", "rollout.max_extra_rounds=0", "--set", "train.steps=2",
                "--set", f"policy.staging={staging}", *extra,
            ],
        )  # fmt: skip
    crash = "".join(traceback.format_exception(*result.exc_info)) if result.exc_info else ""
    assert result.exit_code == 0, result.output + crash
    assert not list(scratch.glob("phonebuddy-rl-*"))  # the job's scratch (base, saves) is gone
    return _events(result.stdout), TrajectoryStore(LocalStore(rollouts))


def _round(store: TrajectoryStore, step: int) -> list[Episode]:
    async def stored() -> list[Episode]:
        return [episode async for episode in store.episodes(f"tiny-rl-step{step:05d}-r0")]

    return asyncio.run(stored())


def _check_steps(events: list[dict]) -> list[dict]:
    pushed = [e["version"] for e in events if e["event"] == "weights"]
    assert pushed == ["tiny-rl-step-0", "tiny-rl-step-1", "tiny-rl-step-2"]
    steps = [e for e in events if e["event"] == "step"]
    assert [e["step"] for e in steps] == [1, 2]
    for event in steps:
        groups = event["batch/kept_groups"] + event["batch/dropped_uniform_groups"]
        assert groups + event["batch/dropped_masked_groups"] >= 1
        if event["batch/kept_groups"]:
            assert event["batch/samples"] > 0
            assert event["rollout/logprob_diff"] < 1e-2  # trained on the sampled tokens
            assert event["actor/grad_norm"] > 0
            assert event["actor/entropy"] > 0  # a sampling policy at temperature 1
    assert events[-1]["event"] == "done"
    assert events[-1]["step"] == 2
    return steps


@pytest.mark.timeout(1500)  # the shared memorizing SFT fixture may be built first (~2-9 min)
def test_two_grpo_steps_push_weights_and_roll_out_each_version(
    tmp_path: Path,
    memorized: Memorized,
    nats_server: NatsServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events, store = _run_rl(
        tmp_path, memorized, nats_server, monkeypatch, "--set", "optim.warmup_steps=2"
    )
    steps = _check_steps(events)
    assert [e["rollout/staleness"] for e in steps] == [0, 0]
    for event in steps:  # the optimizer's rate of each trained step (warm-up over two steps)
        if event["batch/kept_groups"]:
            assert event["actor/lr"] == pytest.approx(1e-4 * event["step"] / 2)
    for step in (0, 1):
        episodes = _round(store, step)
        assert len(episodes) == 4
        versions = {s.policy_version for e in episodes for s in e.steps}
        assert versions == {f"tiny-rl-step-{step}"}
        assert all(s.sample is not None for e in episodes for s in e.steps)


@pytest.mark.slow  # ~150 s; the default run has the synchronous job and test_prefetch.py
@pytest.mark.timeout(1500)
def test_asynchronous_mode_rolls_out_the_next_step_while_this_one_trains(
    tmp_path: Path,
    memorized: Memorized,
    nats_server: NatsServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events, store = _run_rl(
        tmp_path, memorized, nats_server, monkeypatch, "--set", "rollout.max_staleness=1"
    )
    steps = _check_steps(events)
    served_at = {
        e["version"]: datetime.fromisoformat(e["served_at"])
        for e in events
        if e["event"] == "weights"
    }
    second = _round(store, 1)
    assert len(second) == 4
    # Step 1's round started before step 0 had trained and its weights were served, so its
    # first actions came from version 0 - the staleness the broker was told to accept, no more.
    assert min(e.started_at for e in second) < served_at["tiny-rl-step-1"]
    versions = {s.policy_version for e in second for s in e.steps}
    assert "tiny-rl-step-0" in versions
    assert versions <= {"tiny-rl-step-0", "tiny-rl-step-1"}
    assert steps[1]["rollout/staleness"] <= 1
    # Step 0's round was the on-policy start: every action came from the weights pushed first.
    assert {s.policy_version for e in _round(store, 0) for s in e.steps} == {"tiny-rl-step-0"}
