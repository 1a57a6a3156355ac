"""Train-to-inference consistency end to end: fine-tune the tiny model until it memorizes one
teacher episode, serve the checkpoint with `phonebuddy policy serve`, roll it out through the
broker on exactly that task and seed, and the verifier must pass it.

Any disagreement between training and inference (tokenizer, chat template, the empty think
block of the generation prompt, image resizing, action parsing) turns the memorized answers into
garbage on the way, so the episode fails.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings, connect
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.protocol import (
    Episode,
    RolloutAccepted,
    RolloutRequest,
    SourceMix,
    TaskSelection,
)
from phonebuddy.protocol.subjects import ROLLOUT_SUBMIT
from phonebuddy.stack.local import ServiceProcess
from phonebuddy.storage import LocalStore
from phonebuddy.testing import NatsServer, serve_asgi_in_thread
from phonebuddy.trajectories import RunStatus, TrajectoryStore

from ..conftest import MEMORIZED_SEED, MEMORIZED_TEMPLATE, Memorized

TEMPLATE, SEED = MEMORIZED_TEMPLATE, MEMORIZED_SEED
API_KEY = "memorize-test-key"
SERVED_NAME = "memorized"


def _policy_server(model_url: str, work_dir: Path) -> ServiceProcess:
    """`phonebuddy policy serve --model <store URL>` as its own process."""
    return ServiceProcess(
        name="policy",
        args=["policy", "serve", "--model", model_url],
        env={
            "PHONEBUDDY_POLICY_API_KEY": API_KEY,
            "PHONEBUDDY_POLICY_SERVED_MODEL_NAME": SERVED_NAME,
        },
        work_dir=work_dir,
    )


async def _roll_out(nats: NatsSettings, store: TrajectoryStore, run_id: str) -> list[Episode]:
    request = RolloutRequest(
        run_id=run_id,
        tasks=TaskSelection(template_ids=(TEMPLATE,), seeds=(SEED,)),
        policy={"endpoint": "policy", "model": SERVED_NAME},  # type: ignore[arg-type]
        group_size=1,
        mix=SourceMix(sim=1.0),
        sampling={"temperature": 0.0, "max_tokens": 64},  # type: ignore[arg-type]
        step_budget=8,
    )
    async with connect(nats) as bus:
        await bus.request(ROLLOUT_SUBMIT, request, RolloutAccepted, timeout_s=60)
    deadline = time.monotonic() + 300
    while (await store.read_manifest(run_id)).status != RunStatus.DONE:
        assert time.monotonic() < deadline, "the rollout did not finish in 300 s"
        await asyncio.sleep(0.2)
    return [episode async for episode in store.episodes(run_id)]


@pytest.mark.timeout(1500)  # the shared memorizing SFT fixture may be built first (~2-9 min)
def test_a_memorizing_checkpoint_serves_and_rolls_out_its_episode(
    tmp_path: Path,
    memorized: Memorized,
    nats_server: NatsServer,
) -> None:
    (demo,) = memorized.teacher.episodes
    assert demo.verdict is not None
    assert demo.verdict.success
    model_url = memorized.model_url
    assert model_url.startswith("local:")  # served straight from the store, as a job would

    nats = NatsSettings(url=nats_server.url, user=nats_server.user, password=nats_server.password)
    rollouts = tmp_path / "rollouts"
    policy = _policy_server(model_url, tmp_path / "policy")  # its port is chosen now
    world = create_world(WorldSettings(devices=1, instance_id="memo", port=0), nats)
    broker = create_broker(
        BrokerSettings(
            instance_id="memo", workers=1, port=0, default_store_url=f"local:{rollouts}",
            policy_url=f"{policy.url}/v1", policy_api_key=API_KEY,  # type: ignore[arg-type]
        ),
        nats,
    )  # fmt: skip
    with policy, serve_asgi_in_thread(world), serve_asgi_in_thread(broker):
        rollouts.mkdir()
        store = TrajectoryStore(LocalStore(rollouts))
        (episode,) = asyncio.run(_roll_out(nats, store, "memorized-rollout"))

    served = [step.raw_output for step in episode.steps]
    taught = [step.raw_output for step in demo.steps]
    assert episode.verdict is not None, (served, taught)
    assert episode.verdict.success, (served, taught)
    assert [step.action for step in episode.steps] == [step.action for step in demo.steps]
