"""PhoneWorld's train/test split, declared once. Three ways a task is held out:

- held-out seeds: every template, at seeds in `TEST_SEEDS` (a fresh device state and fresh
  parameters for a template the policy trained on);
- held-out templates: templates of trained apps the policy never trains on;
- held-out apps: every template that touches an app the policy never sees in training
  (generalization to an unseen app, the hard case).

A task is on the train side only when its template is neither held out nor touches a held-out
app, and its seed is in `TRAIN_SEEDS`. Training jobs refuse test tasks unless told explicitly;
evaluation samples test seeds only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from phonebuddy.protocol import HELD_OUT, HELD_OUT_APPS, Split, declared_split

if TYPE_CHECKING:
    from phonebuddy.phoneworld.tasks.base import TaskTemplate

# The declaration itself lives in `phonebuddy.protocol.held_out`, where the training jobs read it.
HELD_OUT_TEMPLATES: frozenset[str] = frozenset(
    t for t, why in HELD_OUT.items() if why == "template"
)

__all__ = [
    "HELD_OUT_APPS",
    "HELD_OUT_TEMPLATES",
    "held_out_reason",
    "split_of",
]


def held_out_reason(template: TaskTemplate) -> str | None:
    """Why a template is on the test side at every seed ('app' or 'template'), else None."""
    return HELD_OUT.get(template.id)


def split_of(template: TaskTemplate, seed: int) -> Split | None:
    """The side of the split (template, seed) is on; None for a seed beyond both ranges, which
    neither a training job nor evaluation samples."""
    return declared_split(template.id, seed)
