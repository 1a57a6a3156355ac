"""The training jobs' split check reads (template, seed) against PhoneWorld's declaration in
`phonebuddy.protocol.held_out`; the `split` label a task carries is never believed."""

from __future__ import annotations

import pytest

from phonebuddy.protocol import HELD_OUT, TEST_SEEDS, Category, Instruction, Split, TaskSpec
from phonebuddy.training.splits import TestSplitError, check_train_tasks, is_test_task


def _spec(template_id: str, seed: int, split: Split | None) -> TaskSpec:
    return TaskSpec(
        template_id=template_id, seed=seed, instruction=Instruction(zh="做", en="do"),
        category=Category.SINGLE_APP, apps=("com.pw.settings",), split=split,
    )  # fmt: skip


@pytest.mark.parametrize("label", [Split.TRAIN, Split.TEST, None])
def test_membership_comes_from_template_and_seed_whatever_the_label(label: Split | None) -> None:
    assert HELD_OUT["settings.night_mode"] == "template"
    assert HELD_OUT["music.playlist_count"] == "app"
    assert is_test_task(_spec("settings.night_mode", 3, label))  # held-out template
    assert is_test_task(_spec("music.playlist_count", 3, label))  # held-out app
    assert is_test_task(_spec("settings.toggle", TEST_SEEDS[0] + 3, label))  # held-out seed
    assert not is_test_task(_spec("settings.toggle", 3, label))


def test_a_relabelled_held_out_task_is_refused() -> None:
    forged = _spec("settings.night_mode", TEST_SEEDS[0] + 3, Split.TRAIN)
    with pytest.raises(TestSplitError, match=r"settings\.night_mode.*allow_test_split"):
        check_train_tasks(
            [_spec("settings.toggle", 3, Split.TRAIN), forged], setting="allow_test_split"
        )
