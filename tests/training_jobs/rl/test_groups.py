"""A round's episodes -> GRPO groups: which rewards count, which are masked."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from phonebuddy.protocol import Category, Episode, EpisodeStatus, Source, TaskSpec, Verdict
from phonebuddy.protocol.episodes import PolicyRef
from phonebuddy.protocol.tasks import Instruction
from phonebuddy.rl.config import load_config
from phonebuddy.rl.episodes import reward_of, round_groups
from phonebuddy.rl.trainer import server_root, step_of, version_name
from phonebuddy.training.config import ConfigError
from phonebuddy.training.grpo import select_groups
from phonebuddy.trajectories import GroupStatus
from phonebuddy.trajectories.manifest import GroupRecord, RunManifest

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _episode(episode_id: str, verdict: Verdict | None, status=EpisodeStatus.TERMINATED) -> Episode:
    return Episode(
        episode_id=episode_id, run_id="r", group_id="g", sample_index=0,
        task=TaskSpec(task_id="t", template_id="settings.toggle", source="sim",
                      instruction=Instruction(zh="x", en="x"),
                      category=Category.SINGLE_APP, apps=("settings",)),
        device_id="pw-1",
        steps=[], status=status, verdict=verdict, started_at=NOW, finished_at=NOW,
        policy=PolicyRef(model="m", version="v"),
    )  # fmt: skip


def _verdict(success: bool, *, judge_error: bool = False) -> Verdict:
    return Verdict(
        success=success, reward=float(success), grader="judge" if judge_error else "verifier",
        judge_error=judge_error,
    )  # fmt: skip


def test_rewards_are_binary_and_untrustworthy_episodes_are_masked() -> None:
    assert reward_of(_episode("a", _verdict(True))) == 1.0
    assert reward_of(_episode("b", _verdict(False))) == 0.0
    assert reward_of(_episode("c", None)) is None
    assert reward_of(_episode("d", _verdict(False, judge_error=True))) is None
    assert reward_of(_episode("e", _verdict(False), EpisodeStatus.ENV_ERROR)) is None
    assert reward_of(_episode("f", _verdict(False), EpisodeStatus.POLICY_ERROR)) is None


def _record(group_id: str, episodes: list[str], status=GroupStatus.COMPLETE) -> GroupRecord:
    return GroupRecord(
        group_id=group_id, task_id="t", template_id="settings.toggle",
        category=Category.SINGLE_APP, apps=("settings",), source=Source.SIM,
        size=len(episodes) or 1, status=status, episodes=episodes,
    )  # fmt: skip


def test_round_groups_keep_informative_groups_and_mask_failed_ones() -> None:
    episodes = [
        _episode("a1", _verdict(True)), _episode("a2", _verdict(False)),
        _episode("a3", _verdict(False, judge_error=True)),
        _episode("b1", _verdict(True)), _episode("b2", _verdict(True)),
        _episode("c1", _verdict(True)), _episode("c2", _verdict(False)),
    ]  # fmt: skip
    manifest = RunManifest(
        run_id="r",
        groups=[
            _record("a", ["a1", "a2", "a3"]),
            _record("b", ["b1", "b2"]),
            _record("c", ["c1", "c2"], GroupStatus.FAILED),
        ],
    )
    groups = round_groups(manifest, episodes)
    selection = select_groups(g.group for g in groups)

    assert [g.task_id for g in selection.kept] == ["r/a"]
    assert selection.dropped_uniform == 1
    assert selection.dropped_masked == 1  # the failed group: none of its rewards count
    assert selection.masked_episodes == 3
    assert groups[0].group.advantages() == {"a1": 0.5, "a2": -0.5}


def test_versions_name_their_step() -> None:
    assert step_of(version_name("tiny-rl", 12), "tiny-rl") == 12
    assert step_of("tiny-rl-step-x", "tiny-rl") is None
    assert step_of("other-step-3", "tiny-rl") is None
    assert step_of(None, "tiny-rl") is None


def test_config_needs_tasks_a_valid_mix_and_a_seed_range() -> None:
    assert load_config().rollout.suite == "train"
    assert load_config(overrides=["rollout.templates=[a.b]"]).rollout.templates == ("a.b",)
    with pytest.raises(ConfigError, match="name the tasks"):
        load_config(overrides=["rollout.suite=null"])
    with pytest.raises(ConfigError, match="mix"):
        load_config(overrides=["rollout.mix=phones=1"])
    with pytest.raises(ConfigError, match="seeds"):
        load_config(overrides=["rollout.seeds=[5,5]"])


def test_the_policy_url_may_name_the_api_root_or_the_server() -> None:
    assert server_root("http://h:1/v1/") == server_root("http://h:1") == "http://h:1"
