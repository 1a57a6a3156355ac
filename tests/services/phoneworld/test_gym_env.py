"""`PhoneWorld-v0` through gymnasium.make, as an in-process trainer uses it."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

from phonebuddy.phoneworld.gym_env import PhoneWorldEnv
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.registry import get_template
from phonebuddy.protocol import Terminate, TerminateStatus

ENV = "phonebuddy.phoneworld.gym_env:PhoneWorld-v0"


def test_oracle_actions_earn_the_reward() -> None:
    env = gym.make(ENV, step_budget=50)
    observation, info = env.reset(seed=2, options={"task": "notes.create"})
    assert observation.shape == (2400, 1080, 3)
    assert observation.dtype == np.uint8
    assert "备忘录" in info["instruction"]
    inner: PhoneWorldEnv = env.unwrapped  # type: ignore[assignment]
    assert inner.instance is not None
    template = get_template("notes.create")
    for action in template.solve(OracleUI(inner.device), inner.instance.params):
        _, reward, terminated, truncated, info = env.step(action)
        assert info["effect"] == "applied"
        assert not terminated
    _, reward, terminated, truncated, info = env.step(Terminate(status=TerminateStatus.SUCCESS))
    assert terminated
    assert not truncated
    assert reward == 1.0
    assert info["verdict"].success


def test_terminating_without_doing_the_task_earns_nothing() -> None:
    env = gym.make(ENV)
    env.reset(seed=0, options={"task": "notes.create"})
    _, reward, terminated, _, info = env.step({"action": "terminate", "status": "success"})
    assert terminated
    assert reward == 0.0
    assert not info["verdict"].success


def test_the_step_budget_truncates_the_episode() -> None:
    env = gym.make(ENV, step_budget=3)
    env.reset(seed=0, options={"task": "notes.create"})
    results = [env.step({"action": "wait", "time": 1}) for _ in range(3)]
    assert [r[3] for r in results] == [False, False, True]


def test_an_unknown_task_is_a_clear_error() -> None:
    env = gym.make(ENV)
    with pytest.raises(KeyError, match="unknown task template 'nope'"):
        env.reset(options={"task": "nope"})


def test_random_actions_from_the_action_space_are_valid() -> None:
    env = gym.make(ENV)
    env.reset(seed=0)
    env.action_space.seed(3)
    for _ in range(20):
        action = env.action_space.sample()
        assert env.action_space.contains(action)
        env.step(action)
