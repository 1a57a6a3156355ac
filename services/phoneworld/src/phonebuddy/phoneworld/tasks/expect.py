"""What many templates expect an episode to have added, checked one way: "exactly one new note,
titled X" (the notes list is where templates ask an agent to write down what it found), and
"the text written states the value found, and no other" (`WritesValue`)."""

from __future__ import annotations

from typing import Any, ClassVar

from phonebuddy.phoneworld.tasks.answers import Expectation, check_written
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added

NOTES_LIST = "apps/com.pw.notes/notes"


def one_new_note(diff: StateDiff, title: str) -> tuple[dict[str, Any] | None, list[str]]:
    """The single note added in the episode (claimed), and the problems: not exactly one new
    note (then no note), or one with another title than `title`."""
    note, problems = one_added(diff, NOTES_LIST, "note")
    if note is not None and note["title"].strip() != title:
        problems.append(f"the note is titled {note['title']!r}, expected {title!r}")
    return note, problems


class WritesValue(TaskTemplate):
    """A template whose agent writes down a value it found on the phone — a price into a chat,
    a time into a note: the text must state that value and no other of its kind
    (`check_written`), so that writing down every candidate earns nothing. `written` is where
    that text lies in the state, a path with `[*]` for any item
    ('apps/com.pw.notes/notes[*]/body'), for tests that try other texts there."""

    written: ClassVar[str]

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        """What the text must state, read from the start state."""
        raise NotImplementedError

    def writing_problems(
        self, diff: StateDiff, params: Params, text: str | None, *, what: str
    ) -> list[str]:
        """What is wrong with the text written ([] = right); `what` names it ('the note')."""
        expected = self.expected_writing(diff, params)
        return check_written(text, expected, what=what, context=self.question_texts(params))
