"""The RL job end to end on CPU, sim only: the memorizing SFT checkpoint served by `phonebuddy
policy serve`, PhoneWorld and the broker over a real NATS, `phonebuddy train rl` for two steps.
Every step pushes new weights; the server then serves that version and every stored step of the
next round names it; the tokens trained on are the ones the server sampled."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.rl.cli import app as rl_app
from phonebuddy.stack.local import ServiceProcess
from phonebuddy.storage import LocalStore
from phonebuddy.testing import NatsServer, serve_asgi_in_thread
from phonebuddy.trajectories import TrajectoryStore

from ..conftest import MEMORIZED_TEMPLATE, Memorized

ADMIN_TOKEN = "rl-test-admin-token"


def _events(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


@pytest.mark.timeout(1500)  # the shared memorizing SFT fixture may be built first (~2-9 min)
def test_two_grpo_steps_push_weights_and_roll_out_each_version(
    tmp_path: Path,
    memorized: Memorized,
    nats_server: NatsServer,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    staging = tmp_path / "staging"
    staging.mkdir()
    rollouts = tmp_path / "rollouts"
    rollouts.mkdir()
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
                "--set", f"policy.staging={staging}",
            ],
        )  # fmt: skip
    assert result.exit_code == 0, result.output
    events = _events(result.stdout)
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
    assert events[-1]["event"] == "done"
    assert events[-1]["step"] == 2

    store = TrajectoryStore(LocalStore(rollouts))
    for step in (0, 1):
        run_id = f"tiny-rl-step{step:05d}-r0"

        async def stored(run: str = run_id) -> list:
            return [episode async for episode in store.episodes(run)]

        episodes = asyncio.run(stored())
        assert len(episodes) == 4
        versions = {s.policy_version for e in episodes for s in e.steps}
        assert versions == {f"tiny-rl-step-{step}"}
        assert all(s.sample is not None for e in episodes for s in e.steps)
