"""Task templates: parameters sampled from the world, an instruction, a start state, a verifier
and a scripted oracle.

    class CreateNote(TaskTemplate):
        id = "notes.create"
        category = Category.SINGLE_APP
        apps = ("com.pw.notes",)
        difficulty = 5

        def sample(self, world, rng): return {"title": ..., "body": ...}
        def phrasings(self, params): return phrased(zh=[..., ..., ...], en=[..., ..., ...])
        def verify(self, diff, params, answer): -> list of problems ([] = success)
        def solve(self, ui, params): yield ui.open("备忘录"); yield ui.tap("new_note"); ...

`verify` claims the changes it expects from the StateDiff (`diff.added(...)`,
`diff.touched(...)`); every change left unclaimed is an unexpected side effect and fails the
task. `solve` is a generator of actions that reads the screen through `ui` between actions,
exactly like an agent would.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from phonebuddy.phoneworld.tasks.answers import Expectation, check_answer
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.splits import split_of
from phonebuddy.protocol import Action, Category, Instruction, Source, TaskSpec

if TYPE_CHECKING:
    from phonebuddy.phoneworld.interaction import Interaction
    from phonebuddy.phoneworld.tasks.oracle import OracleUI
    from phonebuddy.phoneworld.world import World

Params = dict[str, Any]


class TaskTemplate:
    id: ClassVar[str]
    category: ClassVar[Category]
    apps: ClassVar[tuple[str, ...]]
    difficulty: ClassVar[int]  # roughly the number of steps of the oracle
    # Question-answer tasks are solved by an `answer` action checked against state.
    answers: ClassVar[bool] = False
    # Extra paths (beyond every app's own ignorables) whose changes are not side effects.
    ignorable: ClassVar[tuple[str, ...]] = ()

    def sample(self, world: World, rng: random.Random) -> Params:
        raise NotImplementedError

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        """Every wording of the task, each a zh and en pair (`phrased` builds them); a task's
        spec takes one by its seed. A template writes this, or `instruction` for one wording."""
        return (self.instruction(params),)

    def instruction(self, params: Params) -> Instruction:
        """The first wording (the only one of a template that writes just this)."""
        if type(self).phrasings is TaskTemplate.phrasings:
            raise NotImplementedError(f"{self.id} writes neither phrasings nor instruction")
        return self.phrasings(params)[0]

    def instruction_for(self, params: Params, seed: int) -> Instruction:
        """The wording the task of this seed is asked in."""
        options = self.phrasings(params)
        return options[random.Random(f"phrasing:{self.id}:{seed}").randrange(len(options))]

    def question_texts(self, params: Params) -> tuple[str, ...]:
        """Every wording in both languages: values they state are not an answer's own."""
        return tuple(text for asked in self.phrasings(params) for text in (asked.zh, asked.en))

    def setup(self, it: Interaction, params: Params) -> None:
        """Prepare the start state (e.g. add the chat message that holds an address)."""

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        """The problems of the episode ([] = success). Question-answer templates need not
        write it: theirs checks the answer against `expected_answer` (`answer_problems`)."""
        if self.answers:
            return self.answer_problems(diff, params, answer)
        raise NotImplementedError

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        raise NotImplementedError

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        """For answer tasks: what the answer must state, read from the start state."""
        raise NotImplementedError

    def answer_problems(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        """For answer tasks: what is wrong with `answer` ([] = right)."""
        expected = self.expected_answer(diff, params)
        return check_answer(answer, expected, question=self.question_texts(params))

    def wrong_answer(self, params: Params) -> str | None:
        """For answer tasks: a plausible but wrong answer (a near miss the verifier rejects)."""
        return None

    def spec(self, params: Params, *, seed: int, language: str = "zh") -> TaskSpec:
        return TaskSpec(
            template_id=self.id,
            seed=seed,
            params=params,
            instruction=self.instruction_for(params, seed),
            language=language,  # type: ignore[arg-type]
            category=self.category,
            apps=self.apps,
            source=Source.SIM,
            split=split_of(self, seed),
        )


def phrased(zh: Sequence[str], en: Sequence[str]) -> tuple[Instruction, ...]:
    """Wordings of one task: the i-th Chinese one with the i-th English one."""
    if len(zh) != len(en) or not zh:
        raise ValueError(f"{len(zh)} Chinese and {len(en)} English wordings: pair them")
    return tuple(Instruction(zh=z, en=e) for z, e in zip(zh, en, strict=True))


def pick(rng: random.Random, items: Any, k: int | None = None) -> Any:
    """A seeded choice from read-only content (tuples of mappings)."""
    pool = list(items)
    return rng.choice(pool) if k is None else rng.sample(pool, k)
