"""How often a template's held-out seeds repeat a training situation: the same instruction and
sampled parameters as some train seed. A template whose parameters come from a small pool gives
many repeats, and a model can pass them by remembering; `phonebuddy world overlap` lists the
share per template so that evaluation numbers can be read (and templates chosen) with it."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from phonebuddy.phoneworld.tasks.base import TaskTemplate
from phonebuddy.phoneworld.tasks.runner import instantiate
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import TEST_SEEDS, TRAIN_SEEDS


@dataclass(frozen=True, slots=True)
class Overlap:
    template_id: str
    train_seeds: int
    test_seeds: int
    repeats: int  # test seeds whose situation some train seed has
    distinct_train_situations: int

    @property
    def share(self) -> float:
        return self.repeats / self.test_seeds if self.test_seeds else 0.0


def _situation(template: TaskTemplate, world: World, seed: int, language: str) -> str:
    spec = instantiate(template, world, seed, language=language).spec
    return json.dumps([spec.instruction_text, spec.params], sort_keys=True, ensure_ascii=False)


def overlap(
    template: TaskTemplate,
    world: World,
    *,
    train_seeds: int = 100,
    test_seeds: int = 20,
    language: str = "zh",
) -> Overlap:
    """Of the first `test_seeds` test seeds, how many repeat one of the first `train_seeds`
    train seeds' situations."""
    seen = {
        _situation(template, world, seed, language)
        for seed in range(TRAIN_SEEDS[0], TRAIN_SEEDS[0] + train_seeds)
    }
    tests: Iterable[int] = range(TEST_SEEDS[0], TEST_SEEDS[0] + test_seeds)
    repeats = sum(_situation(template, world, seed, language) in seen for seed in tests)
    return Overlap(template.id, train_seeds, test_seeds, repeats, len(seen))
