"""The RL job under torchrun: two ranks (gloo on CPU, FSDP2) train like one process. Both runs
share one rollout store and one job name, so the second run's rounds are the first run's
(identical requests: the broker answers them from what it stored) and any difference in the
steps' numbers comes from the sharded update alone."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.testing import NatsServer, serve_asgi_in_thread

from ..conftest import MEMORIZED_TEMPLATE, Memorized, job_command, job_env, pushable_policy

# Slow (~3 min: two whole RL runs): torchrun and FSDP2 are in the default run through the SFT
# job's two-rank test; `make test-slow` runs this one.
pytestmark = pytest.mark.slow

ADMIN_TOKEN = "rl-ranks-admin-token"
TOLERANCE = 1e-4  # relative: sharded reductions sum in another order


def _run(args: list[str], env: dict[str, str], *, ranks: int) -> list[dict]:
    env = {**os.environ, **env, "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
    command = [*job_command("phonebuddy.rl", ranks=ranks), *args]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-4000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


@pytest.mark.timeout(1500)  # the shared memorizing SFT fixture may be built first
def test_two_ranks_take_the_steps_of_one(
    tmp_path: Path, memorized: Memorized, nats_server: NatsServer
) -> None:
    staging, rollouts = tmp_path / "staging", tmp_path / "rollouts"
    staging.mkdir()
    rollouts.mkdir()
    nats = NatsSettings(url=nats_server.url, user=nats_server.user, password=nats_server.password)
    env = job_env(nats_server, ADMIN_TOKEN)
    policy = pushable_policy(
        memorized.model_url, admin_token=ADMIN_TOKEN, staging=staging, work_dir=tmp_path / "p"
    )
    world = create_world(WorldSettings(devices=4, instance_id="rl-ranks"), nats)
    broker = create_broker(
        BrokerSettings(instance_id="rl-ranks", workers=4, default_store_url=f"local:{rollouts}"),
        nats,
    )
    with policy, serve_asgi_in_thread(world), serve_asgi_in_thread(broker):
        args = [
            "--preset", "tiny-cpu", "--base", memorized.model_url, "--policy-url", policy.url,
            "--set", f"rollout.templates=[{MEMORIZED_TEMPLATE}]", "--set", "rollout.seeds=[0,1]",
            "--set", "rollout.tasks_per_step=1", "--set", "rollout.group_size=4",
            "--set", "rollout.step_budget=6", "--set", "rollout.max_extra_rounds=2",
            "--set", "rollout.sampling_seed=11", "--set", "train.steps=2",
            "--set", f"policy.staging={staging}",
        ]  # fmt: skip
        one = _run([*args, "--output", f"local:{tmp_path / 'one'}"], env, ranks=1)
        two = _run([*args, "--output", f"local:{tmp_path / 'two'}"], env, ranks=2)
    steps = [[e for e in run if e["event"] == "step"] for run in (one, two)]
    assert [e["step"] for e in steps[1]] == [1, 2]
    trained = [i for i, e in enumerate(steps[0]) if e["batch/kept_groups"]]
    assert trained, "no step had an informative group: nothing was compared"
    for i in trained:
        a, b = steps[0][i], steps[1][i]
        assert b["batch/samples"] == a["batch/samples"]  # the same episodes
        for key in ("actor/pg_loss", "actor/grad_norm", "actor/entropy"):
            assert b[key] == pytest.approx(a[key], rel=TOLERANCE, abs=1e-7), key
    assert (tmp_path / "two" / "tiny-rl" / "checkpoints" / "step-00000002" / "COMPLETE").is_file()
