"""A constant-answer agent against every question-answer template: it learns, for each template,
the most common right answer over train seeds and gives it at test seeds without acting. A
template it passes at more than 10 % of the test seeds has an answer that barely depends on the
seed, which RL would learn instead of reading the screen.

The usual fix: the template's `sample` draws this task's own values and `setup` writes them
into its start state, or, where the answer space is a handful of names, the question also asks
a number the seed varies."""

from __future__ import annotations

import functools
from collections import Counter

import pytest

from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.base import TaskTemplate
from phonebuddy.phoneworld.tasks.runner import evaluate, instantiate, run_oracle, start
from phonebuddy.phoneworld.tasks.suites import suite_templates
from phonebuddy.phoneworld.world import World, default_world
from phonebuddy.protocol import TEST_SEEDS

SEEDS = 20
MAX_WINS = SEEDS // 10  # at most 10 % of the test seeds
QA = tuple(t for t in suite_templates("all") if t.answers)  # held-out ones too


@functools.cache
def _world() -> World:
    return default_world(0)


def _oracle_answer(template: TaskTemplate, seed: int) -> str | None:
    world = _world()
    device = Device(world, device_id="constant")
    instance = instantiate(template, world, seed)
    start(device, instance)
    _, answer = run_oracle(device, template, instance.params)
    return answer


def _wins(template: TaskTemplate, answer: str) -> int:
    world = _world()
    wins = 0
    for seed in range(TEST_SEEDS[0], TEST_SEEDS[0] + SEEDS):
        device = Device(world, device_id="constant")
        instance = instantiate(template, world, seed)
        before = start(device, instance)  # answered at the start state, without acting
        wins += evaluate(
            world, template, instance.params, before, device.snapshot(), answer
        ).success
    return wins


@pytest.mark.parametrize("template", QA, ids=[t.id for t in QA])
def test_a_constant_answer_wins_at_most_a_tenth_of_the_test_seeds(template: TaskTemplate) -> None:
    answers = Counter(_oracle_answer(template, seed) for seed in range(SEEDS))
    (constant, _), *_ = answers.most_common(1)
    assert constant, "the oracle gave no answer"
    wins = _wins(template, constant)
    assert wins <= MAX_WINS, (
        f"answering {constant!r} without acting wins {wins} of {SEEDS} test seeds"
    )
