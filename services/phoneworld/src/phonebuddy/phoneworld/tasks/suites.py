"""Named task suites: `smoke` (six short tasks across categories, for demos and quick checks),
one per category, `qa` (question-answer tasks) and `all`."""

from __future__ import annotations

from collections.abc import Sequence

from phonebuddy.phoneworld.tasks.base import TaskTemplate
from phonebuddy.phoneworld.tasks.registry import all_templates, get_template
from phonebuddy.phoneworld.tasks.runner import instantiate
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import TaskSpec

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


def suite_names() -> list[str]:
    return ["smoke", "single_app", "cross_app", "mini_program", "qa", "all"]


def suite_templates(name: str) -> tuple[TaskTemplate, ...]:
    templates = all_templates()
    if name == "smoke":
        return tuple(get_template(template_id) for template_id in SMOKE)
    if name == "all":
        return templates
    if name == "qa":
        return tuple(t for t in templates if t.answers)
    if name in ("single_app", "cross_app", "mini_program"):
        return tuple(t for t in templates if t.category.value == name)
    raise UnknownSuiteError(name)


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
