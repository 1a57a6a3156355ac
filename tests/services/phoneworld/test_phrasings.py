"""Every template's wordings: at least three per language, each a different text, all of one
language stating the same values (numbers and quoted names: a wording that drops the amount asks
another task), and the task of a seed asked in one of them, the same one every time, all of them
used across seeds."""

from __future__ import annotations

import re

import pytest

from phonebuddy.phoneworld.tasks.base import TaskTemplate
from phonebuddy.phoneworld.tasks.registry import all_templates
from phonebuddy.phoneworld.world import World, seeded_rng

TEMPLATES = all_templates()
IDS = [t.id for t in TEMPLATES]
NUMBER = re.compile(r"\d+(?:[.:]\d+)*")
QUOTED = re.compile(r"“([^”]+)”|(?<!\w)'([^']+)'(?!\w)|「([^」]+)」|《([^》]+)》")


def _values(text: str) -> tuple[list[str], list[str]]:
    quoted = sorted(next(g for g in m.groups() if g) for m in QUOTED.finditer(text))
    without_quotes = QUOTED.sub(" ", text)
    return sorted(NUMBER.findall(without_quotes)), quoted


@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_wordings_are_distinct_and_state_the_same_values(
    world: World, template: TaskTemplate
) -> None:
    for seed in (0, 1, 2):
        params = template.sample(world, seeded_rng("phrasing-test", world.seed, seed, template.id))
        wordings = template.phrasings(params)
        for language in ("zh", "en"):
            texts = [getattr(w, language) for w in wordings]
            assert len(set(texts)) == len(texts), f"the same {language} wording twice: {texts}"
            assert len(texts) >= 3, f"{len(texts)} {language} wordings"
            first = _values(texts[0])
            for text in texts[1:]:
                assert _values(text) == first, f"{text!r} states other values than {texts[0]!r}"


@pytest.mark.parametrize("template", TEMPLATES, ids=IDS)
def test_a_seed_is_asked_in_one_wording_and_seeds_use_them_all(
    world: World, template: TaskTemplate
) -> None:
    params = template.sample(world, seeded_rng("phrasing-test", world.seed, 0, template.id))
    wordings = template.phrasings(params)
    asked = [template.spec(params, seed=seed).instruction for seed in range(40)]
    assert asked == [template.spec(params, seed=seed).instruction for seed in range(40)]
    assert set(asked) == set(wordings)
