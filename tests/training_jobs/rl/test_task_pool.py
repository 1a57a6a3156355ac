"""The RL job trains only on PhoneWorld's train split: its seed range may not reach the test
seeds, and the templates it is given are checked against PhoneWorld's own catalogue (a real
PhoneWorld service on a real nats-server) before any rollout is asked for."""

from __future__ import annotations

from pathlib import Path

import pytest

from phonebuddy.bus import NatsSettings
from phonebuddy.phoneworld.service.app import create_app
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.protocol import TEST_SEEDS
from phonebuddy.rl.config import load_config
from phonebuddy.rl.trainer import RLTrainer
from phonebuddy.testing import NatsServer, serve_asgi
from phonebuddy.training.config import ConfigError
from phonebuddy.training.distributed import init_world
from phonebuddy.training.job import JobError
from phonebuddy.training.metrics import TrainMetrics


def test_a_seed_range_reaching_the_test_seeds_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"test seeds .*rollout\.allow_test_split=true"):
        load_config(overrides=[f"rollout.seeds=[0,{TEST_SEEDS[0] + 1}]"])
    with pytest.raises(ConfigError, match="test seeds"):
        load_config(overrides=[f"rollout.seeds=[{TEST_SEEDS[0]},{TEST_SEEDS[1]}]"])
    allowed = load_config(
        overrides=[f"rollout.seeds=[0,{TEST_SEEDS[1]}]", "rollout.allow_test_split=true"]
    )
    assert allowed.rollout.seeds == (0, TEST_SEEDS[1])


def _trainer(nats: NatsSettings, tmp_path: Path, *overrides: str) -> RLTrainer:
    config = load_config(overrides=[f"checkpoint.output=local:{tmp_path}", *overrides])
    return RLTrainer(config, init_world(), metrics=TrainMetrics("rl"), nats=nats)


async def test_the_task_pool_holds_trained_templates_only(
    nats_server_fn: NatsServer, tmp_path: Path
) -> None:
    nats = NatsSettings(
        url=nats_server_fn.url, user=nats_server_fn.user, password=nats_server_fn.password
    )
    app = create_app(WorldSettings(devices=1, instance_id="pool", port=0), nats)
    async with serve_asgi(app):
        suite = await _trainer(nats, tmp_path)._task_pool()
        named = await _trainer(
            nats, tmp_path, "rollout.templates=[settings.toggle,notes.pin]"
        )._task_pool()
        refused = []
        for held_out in ("settings.night_mode", "music.playlist_count"):
            with pytest.raises(JobError) as caught:
                await _trainer(
                    nats, tmp_path, f"rollout.templates=[notes.pin,{held_out}]"
                )._task_pool()
            refused.append(str(caught.value))
        allowed = await _trainer(
            nats, tmp_path, "rollout.templates=[settings.night_mode]",
            "rollout.allow_test_split=true",
        )._task_pool()  # fmt: skip
        with pytest.raises(JobError, match="suite 'test' is on the test split"):
            await _trainer(nats, tmp_path, "rollout.suite=test")._task_pool()
        with pytest.raises(JobError, match="no task suite 'nope'"):
            await _trainer(nats, tmp_path, "rollout.suite=nope")._task_pool()
    assert len(suite) == len(set(suite)) > 100
    assert not {"settings.night_mode", "music.playlist_count"} & set(suite)
    assert named == ("settings.toggle", "notes.pin")
    for message, held_out in zip(
        refused, ("settings.night_mode", "music.playlist_count"), strict=True
    ):
        assert held_out in message
        assert "1 of them are on PhoneWorld's test split" in message
        assert "rollout.allow_test_split=true" in message
    assert allowed == ("settings.night_mode",)
