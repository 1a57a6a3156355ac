"""The train side of PhoneWorld's split, enforced where training data is chosen: RL task pools and
SFT episodes. A job refuses test tasks unless its config says `allow_test_split`, because a
policy that trained on them makes every later evaluation on the test split meaningless."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from phonebuddy.protocol import TEST_SEEDS, Split, declared_split


class SplitTagged(Protocol):
    """A task or a stored step: its template and seed (None in exports written before seeds
    were recorded). Whatever `split` label it carries is not read: anyone can write one."""

    @property
    def template_id(self) -> str: ...
    @property
    def seed(self) -> int | None: ...


class TestSplitError(ValueError):
    """Training would touch the test split; the message names what and how to allow it."""

    __test__ = False  # not a pytest test class


def overlaps_test_seeds(seeds: tuple[int, int]) -> bool:
    """Whether the seed range [first, last) reaches into `TEST_SEEDS`."""
    first, last = seeds
    return first < TEST_SEEDS[1] and last > TEST_SEEDS[0]


def is_test_task(task: SplitTagged) -> bool:
    """A task on PhoneWorld's test side by its declaration: a held-out template (at any seed) or
    a test seed. Decided from (template, seed) alone, so a held-out task labelled `train` is
    still a test task."""
    return declared_split(task.template_id, task.seed) is Split.TEST


def check_train_seeds(seeds: tuple[int, int], *, setting: str) -> None:
    if overlaps_test_seeds(seeds):
        raise TestSplitError(
            f"seeds [{seeds[0]}, {seeds[1]}) reach into the test seeds "
            f"[{TEST_SEEDS[0]}, {TEST_SEEDS[1]}); train on seeds below {TEST_SEEDS[0]}, or set "
            f"{setting}=true to train on held-out tasks (their evaluation is then void)"
        )


def check_train_tasks(tasks: Iterable[SplitTagged], *, setting: str) -> None:
    """Refuse tasks on the test side (held-out templates, apps or seeds), naming up to five of
    their templates."""
    held_out = [task for task in tasks if is_test_task(task)]
    if held_out:
        templates = sorted({task.template_id for task in held_out})
        shown = ", ".join(templates[:5])
        if len(templates) > 5:
            shown += f" and {len(templates) - 5} more"
        raise TestSplitError(
            f"{len(held_out)} of them are on PhoneWorld's test split (held-out templates, apps "
            f"or seeds: {shown}); choose train tasks (e.g. the 'train' suite, seeds below "
            f"{TEST_SEEDS[0]}), or set {setting}=true to train on them anyway (their "
            "evaluation is then void)"
        )
