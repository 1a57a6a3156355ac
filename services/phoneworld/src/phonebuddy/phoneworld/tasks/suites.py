"""Named task suites, each on one side of PhoneWorld's split (`splits.py`): train suites
(`train`, `smoke`, one per category, `qa`: trained templates at train seeds) and test suites
(`test`, `test_seeds`, `test_templates`, `test_apps`, `test_smoke`: at held-out seeds); `all` is
the whole catalogue at any seed, for tools."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from phonebuddy.phoneworld.tasks.base import TaskTemplate
from phonebuddy.phoneworld.tasks.registry import all_templates, get_template
from phonebuddy.phoneworld.tasks.runner import instantiate
from phonebuddy.phoneworld.tasks.splits import held_out_reason
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import TEST_SEEDS, TRAIN_SEEDS, Category, Split, TaskSpec

SMOKE = (
    "settings.toggle",
    "notes.pin",
    "wallet.balance",
    "notes.create",
    "clock.alarm_from_note",
    "mini.parking.fee",
)


class UnknownSuiteError(KeyError):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name

    def __str__(self) -> str:
        return f"no task suite {self.name!r}; known: {', '.join(suite_names())}"


class SuiteSeedError(ValueError):
    """Seeds asked of a suite outside its split's seed range."""


@dataclass(frozen=True, slots=True)
class Suite:
    """Templates and the split they are taken on: a train suite's seeds are in TRAIN_SEEDS, a
    test suite's in TEST_SEEDS; `all` (split None) is the whole catalogue at any seed."""

    name: str
    split: Split | None
    description: str
    templates: tuple[TaskTemplate, ...]

    @property
    def seeds(self) -> tuple[int, int] | None:
        if self.split is None:
            return None
        return TRAIN_SEEDS if self.split is Split.TRAIN else TEST_SEEDS

    def check_seeds(self, seeds: Sequence[int]) -> None:
        allowed = self.seeds
        if allowed is None:
            return
        outside = [seed for seed in seeds if not allowed[0] <= seed < allowed[1]]
        if outside:
            raise SuiteSeedError(
                f"suite {self.name!r} is on the {self.split} split: its seeds are in "
                f"[{allowed[0]}, {allowed[1]}), not {outside[0]}"
            )


def _trained(templates: Sequence[TaskTemplate]) -> tuple[TaskTemplate, ...]:
    return tuple(t for t in templates if held_out_reason(t) is None)


def _suites() -> dict[str, Suite]:
    every = all_templates()
    trained = _trained(every)
    train, test = Split.TRAIN, Split.TEST
    suites = [
        Suite("train", train, "every template the policy trains on", trained),
        Suite("smoke", train, "six short tasks across categories, for demos and quick checks",
              tuple(get_template(template_id) for template_id in SMOKE)),
        *(
            Suite(category.value, train, f"trained {category.value} templates",
                  tuple(t for t in trained if t.category is category))
            for category in Category
        ),
        Suite("qa", train, "trained question-answer templates",
              tuple(t for t in trained if t.answers)),
        Suite("test", test, "every template at held-out seeds", every),
        Suite("test_seeds", test, "trained templates at held-out seeds", trained),
        Suite("test_templates", test, "held-out templates of trained apps",
              tuple(t for t in every if held_out_reason(t) == "template")),
        Suite("test_apps", test, "every template touching a held-out app",
              tuple(t for t in every if held_out_reason(t) == "app")),
        Suite("test_smoke", test, "the smoke templates at held-out seeds",
              tuple(get_template(template_id) for template_id in SMOKE)),
        Suite("all", None, "the whole catalogue at any seed (tools, not jobs)", every),
    ]  # fmt: skip
    return {suite.name: suite for suite in suites}


@cache
def _registry() -> dict[str, Suite]:
    return _suites()


def suite_names() -> list[str]:
    return list(_registry())


def get_suite(name: str) -> Suite:
    try:
        return _registry()[name]
    except KeyError:
        raise UnknownSuiteError(name) from None


def suite_templates(name: str) -> tuple[TaskTemplate, ...]:
    return get_suite(name).templates


def task_specs(
    world: World,
    templates: Sequence[TaskTemplate],
    seeds: Sequence[int],
    *,
    language: str = "en",
) -> tuple[TaskSpec, ...]:
    """Every template at every seed, instantiated (parameters sampled from the world)."""
    return tuple(
        instantiate(template, world, seed, language=language).spec
        for template in templates
        for seed in seeds
    )
