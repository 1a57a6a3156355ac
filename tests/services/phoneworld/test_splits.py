"""PhoneWorld's train/test split: suites on either side never share a (template, seed), held-out
templates and apps are in no train suite, every task carries its split, and the catalogue
refuses seeds from the other side of a suite's split."""

from __future__ import annotations

import itertools

import pytest

from phonebuddy.bus import NatsSettings, RemoteError, connect
from phonebuddy.phoneworld.service.app import create_app
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.phoneworld.tasks.registry import all_templates, get_template
from phonebuddy.phoneworld.tasks.splits import (
    HELD_OUT_APPS,
    HELD_OUT_TEMPLATES,
    held_out_reason,
    split_of,
)
from phonebuddy.phoneworld.tasks.suites import Suite, get_suite, suite_names, task_specs
from phonebuddy.phoneworld.world import default_world
from phonebuddy.protocol import (
    HELD_OUT,
    TEST_SEEDS,
    TRAIN_SEEDS,
    Category,
    ErrorCode,
    Split,
    TaskList,
    TaskQuery,
    seed_split,
)
from phonebuddy.protocol.subjects import WORLD_TASKS
from phonebuddy.testing import NatsServer, serve_asgi


def _suites(split: Split) -> list[Suite]:
    return [get_suite(name) for name in suite_names() if get_suite(name).split is split]


def _pairs(suite: Suite) -> set[tuple[str, int]]:
    """(template, seed) pairs at the edges and middle of the suite's seed range: with seed ranges
    disjoint by construction, any shared pair would show up at a shared seed."""
    assert suite.seeds is not None
    first, last = suite.seeds
    probe = (first, first + 1, (first + last) // 2, last - 1)
    return {(t.id, seed) for t in suite.templates for seed in probe}


def test_no_test_suite_task_occurs_in_a_train_suite() -> None:
    train, test = _suites(Split.TRAIN), _suites(Split.TEST)
    assert {s.name for s in train} >= {"train", "smoke", "qa", *(c.value for c in Category)}
    assert {s.name for s in test} >= {"test", "test_seeds", "test_templates", "test_apps"}
    # the seed ranges themselves are disjoint, so no pair can be shared at any seed
    assert TRAIN_SEEDS[1] <= TEST_SEEDS[0]
    for train_suite, test_suite in itertools.product(train, test):
        assert train_suite.seeds == TRAIN_SEEDS
        assert test_suite.seeds == TEST_SEEDS
        assert not _pairs(train_suite) & _pairs(test_suite), (train_suite.name, test_suite.name)
    trained = {t.id for suite in train for t in suite.templates}
    held_out = {t.id for t in all_templates() if held_out_reason(t) is not None}
    assert not trained & held_out


def test_held_out_templates_and_apps_are_declared_and_cover_every_category() -> None:
    for template_id in HELD_OUT:
        get_template(template_id)  # a typo would hold out nothing
    touching = {t.id for t in all_templates() if HELD_OUT_APPS & set(t.apps)}
    assert touching
    # the protocol's table (what training jobs read) lists every template touching a held-out
    # app as such: a new one must be added there, or training would take it for a train task
    declared = {template_id for template_id, why in HELD_OUT.items() if why == "app"}
    assert declared == touching, (
        f"add to phonebuddy.protocol.held_out: {sorted(touching - declared)}; "
        f"remove: {sorted(declared - touching)}"
    )
    assert touching == {t.id for t in get_suite("test_apps").templates}
    assert {t.id for t in get_suite("test_templates").templates} == HELD_OUT_TEMPLATES - touching
    assert {t.category for t in get_suite("test_templates").templates} == set(Category)
    # mini programs live inside trained host apps, so an unseen app has none
    assert {t.category for t in get_suite("test_apps").templates} == {
        Category.SINGLE_APP,
        Category.CROSS_APP,
    }
    assert len(get_suite("train").templates) + len(HELD_OUT_TEMPLATES | touching) == len(
        all_templates()
    )
    # question-answer templates are held out too, so answering is evaluated on unseen ones
    assert any(t.answers for t in get_suite("test_templates").templates)


def test_every_task_carries_its_split() -> None:
    world = default_world()
    music = next(t for t in all_templates() if "com.pw.music" in t.apps)
    cases = [
        (get_template("settings.toggle"), 3, Split.TRAIN),
        (get_template("settings.toggle"), TEST_SEEDS[0] + 3, Split.TEST),
        (get_template("settings.night_mode"), 3, Split.TEST),  # held-out template
        (music, 0, Split.TEST),  # held-out app
    ]
    for template, seed, split in cases:
        (spec,) = task_specs(world, [template], [seed])
        assert spec.split is split == split_of(template, seed), (template.id, seed)
    assert seed_split(TEST_SEEDS[1]) is None
    assert split_of(get_template("notes.pin"), 2**40) is None


def test_suites_check_their_seed_range() -> None:
    get_suite("train").check_seeds([0, TRAIN_SEEDS[1] - 1])
    get_suite("test").check_seeds([TEST_SEEDS[0], TEST_SEEDS[1] - 1])
    get_suite("all").check_seeds([0, TEST_SEEDS[0]])
    with pytest.raises(ValueError, match="train split"):
        get_suite("smoke").check_seeds([5, TEST_SEEDS[0]])
    with pytest.raises(ValueError, match="test split"):
        get_suite("test_apps").check_seeds([TRAIN_SEEDS[1] - 1])


async def test_the_catalogue_never_lists_a_suite_at_the_other_splits_seeds(
    nats_server_fn: NatsServer,
) -> None:
    nats = NatsSettings(
        url=nats_server_fn.url, user=nats_server_fn.user, password=nats_server_fn.password
    )
    app = create_app(WorldSettings(devices=1, instance_id="splits", port=0), nats)
    async with serve_asgi(app), connect(nats) as bus:
        held_out = await bus.request(
            WORLD_TASKS, TaskQuery(suite="test_smoke", seeds=(TEST_SEEDS[0],)), TaskList
        )
        trained = await bus.request(WORLD_TASKS, TaskQuery(suite="smoke", seeds=(7,)), TaskList)
        refused = []
        for query in (
            TaskQuery(suite="test", seeds=(0,)),
            TaskQuery(suite="train", seeds=(TEST_SEEDS[0],)),
        ):
            with pytest.raises(RemoteError) as caught:
                await bus.request(WORLD_TASKS, query, TaskList)
            refused.append(caught.value)
    assert {task.split for task in held_out.tasks} == {Split.TEST}
    assert {task.split for task in trained.tasks} == {Split.TRAIN}
    assert [error.code for error in refused] == [ErrorCode.INVALID_REQUEST] * 2
    assert "test split" in str(refused[0])
    assert "train split" in str(refused[1])
