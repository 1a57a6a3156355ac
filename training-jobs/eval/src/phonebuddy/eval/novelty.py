"""How new each held-out task is to a trained model: the split of results that tells whether it
learned to read instructions or remembered training situations.

A task's situation is its template, its instruction text and its sampled parameters (PhoneWorld
builds the start state from them). Against the tasks of the training runs, a held-out task is

- `repeat`: the same situation as a training task (a word-for-word training prompt at step 1);
- `new_seen_values`: a new situation of a trained template, every parameter value seen in
  training (a new combination);
- `new_values`: a trained template with a parameter value never seen in training;
- `new_template`: a template the training never saw.

`new_situation` in reports is the union of the two middle classes: what a model that reads the
instruction should solve and a model that remembers cannot.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable
from enum import StrEnum

from phonebuddy.protocol import TaskSpec


class Novelty(StrEnum):
    REPEAT = "repeat"
    NEW_SEEN_VALUES = "new_seen_values"
    NEW_VALUES = "new_values"
    NEW_TEMPLATE = "new_template"


NEW_SITUATION = "new_situation"
NEW_SITUATION_CLASSES = frozenset({Novelty.NEW_SEEN_VALUES, Novelty.NEW_VALUES})


def _value(value: object) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def situation(task: TaskSpec) -> tuple[str, str, str]:
    return (task.template_id, task.instruction_text, _value(task.params))


class Situations:
    """The training tasks' situations and parameter values, per template."""

    def __init__(self, training: Iterable[TaskSpec]) -> None:
        self.seen: set[tuple[str, str, str]] = set()
        self.values: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.templates: set[str] = set()
        for task in training:
            self.seen.add(situation(task))
            self.templates.add(task.template_id)
            for name, value in task.params.items():
                self.values[task.template_id][name].add(_value(value))

    def __len__(self) -> int:
        return len(self.seen)

    def classify(self, task: TaskSpec) -> Novelty:
        if task.template_id not in self.templates:
            return Novelty.NEW_TEMPLATE
        if situation(task) in self.seen:
            return Novelty.REPEAT
        known = self.values.get(task.template_id, {})
        if all(_value(value) in known.get(name, ()) for name, value in task.params.items()):
            return Novelty.NEW_SEEN_VALUES
        return Novelty.NEW_VALUES

    def labels(self, task: TaskSpec) -> tuple[str, ...]:
        """The report's keys for `task`: its class, plus `new_situation` when it is one."""
        novelty = self.classify(task)
        return (
            (novelty.value, NEW_SITUATION) if novelty in NEW_SITUATION_CLASSES else (novelty.value,)
        )
