"""What the demo trains and evaluates on: its templates, its prompt setting and its tiny model.

The templates are single-app PhoneWorld tasks with short oracle paths (2-6 actions) whose taps
depend on the instruction (which note, which alarm, which payee...): across train seeds their
oracle paths differ, so a model that does not read the instruction replays the wrong path (the
blind baseline measures exactly that). Three held-out templates measure transfer to tasks the
training never showed.

The prompt is the `ui_tree` observation with element actions (`click` with `element: 7`), a brief
description of the actions instead of the JSON schema, the last 4 actions and the task repeated
before the answer: the tiny model (2 layers, width 128) learns to read the instruction from this
in CPU minutes, where from screenshots it does not (`../shared/design/NOTES.md`).
`--observation screenshot` keeps the paper's path (one screenshot, coordinates, the full schema).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from phonebuddy.protocol import ObservationMode, PromptConfig

DEMO_TEMPLATES: tuple[str, ...] = (
    "notes.pin", "notes.delete", "clock.alarm_toggle", "mail.restore",
    "health.delete_weight", "reader.remove", "reader.bookmark", "bank.delete_payee",
    "circle.follow_or_like", "maps.save_place", "wallet.balance", "phone.last_caller",
)  # fmt: skip
HELD_OUT_TEMPLATES: tuple[str, ...] = (
    "settings.night_mode",
    "music.like_song",
    "wallet.last_transfer",
)


def demo_prompt(observation: ObservationMode) -> PromptConfig:
    """The demo's prompt setting for `observation`: the compact UI-tree profile, or the paper's
    screenshot prompt."""
    if observation == "screenshot":
        return PromptConfig()
    return PromptConfig(
        observation=observation, element_actions=True, tool_schema="brief", history_steps=4,
        repeat_task=True, device_info=False,
    )  # fmt: skip


def tiny_for(texts: Iterable[str], folder: Path, *, seed: int) -> Path:
    """The tiny random Qwen3.5 (initialised from `seed`) with its vocabulary pruned to the ids
    `texts` use: the same random start as `make_tiny`, ~1.5M parameters instead of 64M."""
    from phonebuddy.policy_model import make_tiny, prune_vocabulary

    full = make_tiny(folder / f"full-{seed}", seed=seed)
    return prune_vocabulary(full, texts, folder / f"untrained-{seed}")
