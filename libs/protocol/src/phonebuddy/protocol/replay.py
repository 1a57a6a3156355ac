"""The blind baseline's table: each template's most common successful training path and the
training instructions that name the template. The eval job (or the demo) builds it from a run;
the policy server's `replay` backend serves it (`phonebuddy.policy.replay_backend`)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from phonebuddy.protocol.actions import Action, action_adapter
from phonebuddy.protocol.episodes import Episode


class ReplayPath(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    instructions: tuple[str, ...]  # the template's training instructions (to recognise it)
    actions: tuple[Action, ...]  # its most common successful path
    share: float  # of the successful training episodes that took exactly this path


class ReplayTable(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    templates: dict[str, ReplayPath]


def build_replay_table(episodes: Iterable[Episode]) -> ReplayTable:
    """Per template, the most common action sequence of its successful episodes (ties: the one
    seen first in the order of the episodes' ids)."""
    paths: dict[str, Counter[str]] = {}
    instructions: dict[str, set[str]] = {}
    for episode in sorted(episodes, key=lambda e: e.episode_id):
        if episode.verdict is None or not episode.verdict.success:
            continue
        actions = [step.action for step in episode.steps if step.action is not None]
        key = json.dumps([action.model_dump(mode="json") for action in actions])
        paths.setdefault(episode.task.template_id, Counter())[key] += 1
        instructions.setdefault(episode.task.template_id, set()).add(episode.task.instruction_text)
    table = {}
    for template, counts in sorted(paths.items()):
        key, count = counts.most_common(1)[0]
        table[template] = ReplayPath(
            instructions=tuple(sorted(instructions[template])),
            actions=tuple(action_adapter.validate_python(a) for a in json.loads(key)),
            share=round(count / sum(counts.values()), 4),
        )
    return ReplayTable(templates=table)
