"""Every task template, on several seeds: the oracle succeeds through the normal action
interface, and the verifier rejects the near misses (one step short, wrong parameters or a
wrong answer, an extra side effect)."""

import random
from pathlib import Path

import pytest

from phonebuddy.phoneworld import apps
from phonebuddy.phoneworld.tasks.base import TaskTemplate
from phonebuddy.phoneworld.tasks.registry import all_templates
from phonebuddy.phoneworld.tasks.runner import check_template
from phonebuddy.phoneworld.world import World

SEEDS = (0, 1)
TEMPLATES = all_templates()


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.id for t in TEMPLATES])
@pytest.mark.parametrize("seed", SEEDS)
def test_oracle_passes_and_near_misses_fail(
    world: World, template: TaskTemplate, seed: int
) -> None:
    report = check_template(world, template, seed)
    assert report.error is None, report.error
    assert report.verdict is not None
    assert report.verdict.success, report.verdict.reason
    assert "ACCEPTED" not in report.near_misses.values(), report.near_misses
    assert "rejected" in report.near_misses.values(), report.near_misses


@pytest.mark.parametrize("template", TEMPLATES, ids=[t.id for t in TEMPLATES])
def test_template_metadata_is_complete(world: World, template: TaskTemplate) -> None:
    assert template.apps, "a template names its apps"
    for package in template.apps:
        world.app(package)
    assert 1 <= template.difficulty <= 40
    spec = template.spec(template.sample(world, random.Random(0)), seed=0)
    assert spec.instruction.zh
    assert spec.instruction.en


@pytest.mark.slow
@pytest.mark.parametrize("template", TEMPLATES, ids=[t.id for t in TEMPLATES])
@pytest.mark.parametrize("seed", [2, 3, 4, 5, 6])
def test_more_seeds(world: World, template: TaskTemplate, seed: int) -> None:
    report = check_template(world, template, seed)
    assert report.ok, (report.error, report.verdict, report.near_misses)


def test_every_app_package_is_registered_once_with_its_templates(world: World) -> None:
    packages = sorted(p.parent.name for p in Path(apps.__file__).parent.glob("*/__init__.py"))
    assert sorted(apps.APPS) == packages
    registered = [apps.app_package(name).APP.package for name in apps.APPS]
    assert [app.package for app in world.apps] == registered
    for name in apps.APPS:
        own = apps.app_tasks(name).TEMPLATES
        assert own, f"{name} has no templates"
        assert all(t in TEMPLATES for t in own)
