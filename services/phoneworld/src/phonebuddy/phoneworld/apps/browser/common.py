"""What the 浏览器 templates share: content look-ups, oracle steps (open an address, search and
open a result, read a page's lines), and checks (a bookmark added, visits recorded)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.browser.base import BROWSER
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

APP_LABEL = "浏览器"
BOOKMARKS = f"apps/{BROWSER}/bookmarks"
HISTORY = f"apps/{BROWSER}/history"
DOWNLOADS = f"apps/{BROWSER}/downloads"
TABS = f"apps/{BROWSER}/tabs"


def pages(world: World, kind: str | None = None) -> list[Any]:
    return [p for p in world.content(BROWSER)["pages"] if kind is None or p["kind"] == kind]


def page_of(world: World, url: str) -> Any:
    return next(p for p in pages(world) if p["url"] == url)


def page_params(page: Any) -> Params:
    return {"url": page["url"], "title": page["title"], "page_id": page["id"]}


def not_bookmarked(world: World) -> list[Any]:
    marked = {b["url"] for b in world.content(BROWSER)["bookmarks"]}
    return [p for p in pages(world) if p["url"] not in marked]


def open_address(ui: OracleUI, url: str) -> Iterator[Action]:
    """Open 浏览器 and go to `url` through the address bar."""
    yield ui.open(APP_LABEL)
    yield from go_to(ui, url)


def go_to(ui: OracleUI, text: str) -> Iterator[Action]:
    """In the browser: type into the address bar and press enter."""
    yield from ui.type_into("address", text)
    yield ui.enter()


def search_open(ui: OracleUI, query: str, page_id: str) -> Iterator[Action]:
    """In the browser: search `query`, then open the result `page_id`."""
    yield from go_to(ui, query)
    yield from ui.scroll_to(f"result_{page_id}")
    yield ui.tap(f"result_{page_id}")


def read_lines(ui: OracleUI, section: int, count: int, lines: list[str]) -> Iterator[Action]:
    """Scroll through the first `count` lines of a page's section, reading them into `lines`."""
    for line in range(count):
        yield from ui.scroll_to(f"para_{section}_{line}")
        lines.append(ui.text_of(f"para_{section}_{line}"))


def bookmarked(diff: StateDiff, url: str) -> list[str]:
    """Exactly one bookmark added, of `url`; the visits made on the way are fine."""
    visits(diff)
    mark, problems = one_added(diff, BOOKMARKS, "bookmark")
    if mark is not None and mark["url"] != url:
        problems.append(f"bookmarked {mark['url']}, expected {url}")
    return problems


def visits(diff: StateDiff) -> list[dict[str, Any]]:
    """The history entries added by browsing (claimed): a visit is no side effect."""
    return diff.added(HISTORY)


class BrowserTemplate(TaskTemplate):
    """A template of 浏览器 alone."""

    category = Category.SINGLE_APP
    apps = (BROWSER,)
