"""The Reader app (读书) through the action interface: the store's search and categories, a
book's page, shelving a free book, buying a paid one (a confirmation, then the wallet's payment),
the chapter reader (next/previous, bookmarks), removing from the shelf, the reading goal, and
what it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.reader.app import READER
from phonebuddy.phoneworld.apps.reader.content import progress
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.payments import WALLET
from phonebuddy.phoneworld.world import World


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(READER)  # type: ignore[no-any-return]

    def shelf_ids(self) -> list[str]:
        return [s["id"] for s in self.data["shelf"]]

    def shown_books(self) -> set[str]:
        return {i.removeprefix("book_") for i in self.ids() if i.startswith("book_")}


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("读书")
    return driver


def _books(world: World) -> list[Any]:
    return list(world.content(READER)["books"])


def _off_shelf(world: World, free: bool) -> dict[str, Any]:
    on = {s["id"] for s in world.content(READER)["shelf"]}
    return next(b for b in _books(world) if b["id"] not in on and (b["price"] == 0) == free)


def test_store_search_and_categories_filter(user: Driver, world: World) -> None:
    user.tap("tab_store")
    book = _books(world)[5]
    user.type_into("search", book["title"])
    assert user.shown_books() == {book["id"]}
    user.type_into("search", "不存在")
    assert user.shown_books() == set()
    assert user.visible(text=f"没有找到“{book['title']}不存在”")
    user.tap("clear_search")
    user.tap("cat_科幻")
    expected = {b["id"] for b in _books(world) if b["category"] == "科幻"}
    assert user.shown_books() <= expected  # a category can need a scroll
    for book_id in sorted(expected):
        user.scroll_to(f"book_{book_id}")


def test_a_free_book_is_shelved_from_its_page(user: Driver, world: World) -> None:
    book = _off_shelf(world, free=True)
    user.tap("tab_store")
    user.type_into("search", book["title"])
    user.tap(f"book_{book['id']}")
    assert user.text("title") == book["title"]
    assert user.text("price") == "免费"
    user.tap("add_shelf")
    assert user.shelf_ids()[0] == book["id"]
    assert user.data["shelf"][0]["progress"] == 0
    assert user.visible("read")


def test_a_paid_book_is_paid_in_the_wallet_after_confirming(user: Driver, world: World) -> None:
    book = _off_shelf(world, free=False)
    user.tap("tab_store")
    user.type_into("search", book["title"])
    user.tap(f"book_{book['id']}")
    assert not user.visible("add_shelf")
    user.tap("buy")
    user.tap("cancel")
    assert book["id"] not in user.shelf_ids()
    assert not any(p["id"] == book["id"] for p in user.data["purchased"])
    balance = user.app_state(WALLET)["balance_cents"]
    user.tap("buy")
    user.tap("pay")  # the wallet's payment screen: cancelling there buys nothing
    user.act(user.ui.tap("com.pw.wallet:id/pay_cancel"))
    assert not any(p["id"] == book["id"] for p in user.data["purchased"])
    assert user.app_state(WALLET)["balance_cents"] == balance
    user.tap("buy")
    user.tap("pay")
    user.act(user.ui.tap("com.pw.wallet:id/pay_confirm"))
    assert {"id": book["id"], "price": book["price"]} in user.data["purchased"]
    assert user.shelf_ids()[0] == book["id"]
    assert user.app_state(WALLET)["balance_cents"] == balance - book["price"]


def test_reading_turns_chapters_and_saves_progress(user: Driver, world: World) -> None:
    entry = dict(user.data["shelf"][0])
    book = next(b for b in _books(world) if b["id"] == entry["id"])
    user.tap(f"shelf_{book['id']}")
    user.tap("read")
    chapter = book["chapters"][entry["chapter"]]
    assert user.text("chapter_title") == chapter["title"]
    assert user.text("para_0") == chapter["paragraphs"][0]
    user.tap("next_chapter")
    saved = user.data["shelf"][0]
    assert saved["chapter"] == entry["chapter"] + 1
    assert saved["progress"] == progress(entry["chapter"] + 1, len(book["chapters"]))
    assert saved["last_read"] > entry["last_read"]
    user.tap("prev_chapter")
    assert user.data["shelf"][0]["chapter"] == entry["chapter"]


def test_turning_past_the_ends_is_refused(user: Driver, world: World) -> None:
    book = _off_shelf(world, free=True)
    user.tap("tab_store")
    user.type_into("search", book["title"])
    user.tap(f"book_{book['id']}")
    user.tap("add_shelf")
    user.tap("read")
    user.refuse("prev_chapter")
    for _ in range(len(book["chapters"]) - 1):
        user.tap("next_chapter")
    assert user.data["shelf"][0]["progress"] == 100
    user.refuse("next_chapter")


def test_bookmarks_toggle(user: Driver) -> None:
    entry = user.data["shelf"][1]
    user.tap(f"shelf_{entry['id']}")
    user.tap("read")
    user.tap("bookmark")
    [mark] = user.data["bookmarks"]
    assert (mark["book"], mark["chapter"]) == (entry["id"], entry["chapter"])
    user.tap("bookmark")
    assert user.data["bookmarks"] == []


def test_removing_from_the_shelf_needs_confirming(user: Driver) -> None:
    book_id = user.shelf_ids()[2]
    user.tap(f"remove_{book_id}")
    user.tap("cancel")
    assert book_id in user.shelf_ids()
    user.tap(f"remove_{book_id}")
    user.tap("confirm_remove")
    assert book_id not in user.shelf_ids()
    assert not user.visible(f"shelf_{book_id}")


def test_sorting_by_progress(user: Driver) -> None:
    user.tap("sort_progress")
    prefix = f"{READER}:id/shelf_"
    walk = user.device.ui_tree().walk()
    shown = [n.resource_id.removeprefix(prefix) for n in walk if n.resource_id.startswith(prefix)]
    by_progress = sorted(user.data["shelf"], key=lambda s: -s["progress"])
    assert shown == [s["id"] for s in by_progress][: len(shown)]


def test_week_minutes_and_goal_validation(user: Driver, world: World) -> None:
    user.tap("tab_me")
    minutes = world.content(READER)["minutes"]
    user.scroll_to("day_6")
    assert user.visible(text=f"{minutes[6]}分钟")
    user.refuse("save_goal")  # empty
    assert user.text("goal_error") == "请输入1到600之间的分钟数"
    user.type_into("goal", "45")
    user.tap("save_goal")
    assert user.data["goal"] == 45
    assert user.text("goal_now") == "每日阅读目标：45分钟"
    user.refuse("save_goal")  # unchanged
    user.type_into("goal", "00")  # 4500: out of range
    user.refuse("save_goal")
    assert user.data["goal"] == 45
    assert user.visible("goal_error")
