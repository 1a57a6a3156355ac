"""What many templates expect an episode to have added, checked one way: "exactly one new note,
titled X" (the notes list is where templates ask an agent to write down what it found)."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added

NOTES_LIST = "apps/com.pw.notes/notes"


def one_new_note(diff: StateDiff, title: str) -> tuple[dict[str, Any] | None, list[str]]:
    """The single note added in the episode (claimed), and the problems: not exactly one new
    note (then no note), or one with another title than `title`."""
    note, problems = one_added(diff, NOTES_LIST, "note")
    if note is not None and note["title"].strip() != title:
        problems.append(f"the note is titled {note['title']!r}, expected {title!r}")
    return note, problems
