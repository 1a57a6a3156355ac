"""What the Reader (读书) templates share: content look-ups, oracle steps, checks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.reader.app import READER
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
SHELF = f"apps/{READER}/shelf"
BOOKMARKS = f"apps/{READER}/bookmarks"
QUOTE_TITLES = ("书摘", "好句摘抄", "读书笔记")
WANT = "想读"


def books(world: World) -> list[Any]:
    return list(world.content(READER)["books"])


def shelved(world: World) -> list[Any]:
    """The books on the shelf after a reset, each with its shelf entry under 'entry'."""
    by_id = {b["id"]: b for b in books(world)}
    return [{**by_id[s["id"]], "entry": s} for s in world.content(READER)["shelf"]]


def off_shelf(world: World, *, free: bool | None = None) -> list[Any]:
    on = {s["id"] for s in world.content(READER)["shelf"]}
    return [b for b in books(world)
            if b["id"] not in on and (free is None or (b["price"] == 0) == free)]  # fmt: skip


def book_params(book: Any) -> Params:
    return {"book_id": book["id"], "title": book["title"], "author": book["author"]}


def open_shelf_book(ui: OracleUI, title: str) -> Iterator[Action]:
    yield ui.open("读书")
    yield from ui.scroll_to(text=title)
    yield ui.tap(text=title)


def find_in_store(ui: OracleUI, title: str, book_id: str) -> Iterator[Action]:
    """On 读书's home: the 书城 tab, search the title, open the book."""
    yield ui.tap("tab_store")
    yield from ui.type_into("search", title)
    yield ui.tap(f"book_{book_id}")


def added_to_shelf(diff: StateDiff, book_id: str) -> list[str]:
    entry, problems = one_added(diff, SHELF, "shelf entry")
    if entry is not None and entry["id"] != book_id:
        problems.append(f"shelved {entry['id']}, expected {book_id}")
    return problems


class ReaderTemplate(TaskTemplate):
    """A template of the Reader app alone."""

    category = Category.SINGLE_APP
    apps = (READER,)
