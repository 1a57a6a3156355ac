"""The app kit's building blocks on a small app: `View.confirm` dialogs and the `action` slot
of `ListItem`, driven through the action interface."""

from __future__ import annotations

import random
from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.app import App, Label, View, screen
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui.widgets import Chip, IconButton, ListItem, Page
from phonebuddy.phoneworld.world import World

PACKAGE = "com.test.kit"


class Shelf(App):
    package = PACKAGE
    label = Label(zh="书架", en="Shelf")
    domain = "test"

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"books": ["三体", "活着", "围城"], "opened": [], "starred": []}

    def remove(self, it: Interaction, title: str) -> None:
        it.data["books"].remove(title)
        it.set_ui("dialog", None)

    @screen("home")
    def home(self, v: View) -> Page:
        rows = [
            ListItem(
                title,
                subtitle="已收藏" if title in v.data["starred"] else "",
                trailing="在读",
                on_tap=v.do(lambda it, t: it.data["opened"].append(t), title),
                id=f"book_{i}",
                action=IconButton(
                    "more", f"{title}的更多操作", v.set_ui("dialog", title), id=f"more_{i}"
                )
                if i
                else Chip("收藏", v.do(lambda it, t: it.data["starred"].append(t), title),
                          id="star_0"),
            )
            for i, title in enumerate(v.data["books"])
        ]  # fmt: skip
        chosen = v.ui("dialog")
        dialog = None
        if chosen:
            dialog = v.confirm(
                f"移除《{chosen}》？",
                v.do(self.remove, chosen),
                message="移除后可在书城重新加入。",
                label="移除",
                confirm_id="confirm_remove",
                danger=True,
            )
        return Page("书架", rows, overlay=dialog)


@pytest.fixture
def user() -> testing.Driver:
    driver = testing.Driver(Device(World([Shelf()], seed=0)))
    driver.open("书架")
    return driver


def _books(user: testing.Driver) -> dict[str, Any]:
    return user.app_state(PACKAGE)  # type: ignore[no-any-return]


def test_the_action_slot_takes_its_own_taps_and_the_row_keeps_the_rest(
    user: testing.Driver,
) -> None:
    user.tap("star_0")
    assert _books(user)["starred"] == ["三体"]
    assert _books(user)["opened"] == []
    user.tap("book_0")
    assert _books(user)["opened"] == ["三体"]
    user.tap("more_1")
    assert user.visible("confirm_remove")
    assert _books(user)["opened"] == ["三体"]


def test_the_action_sits_inside_the_row_right_of_its_trailing_text(user: testing.Driver) -> None:
    row = user.ui.find("book_1")
    action = user.ui.find("more_1")
    assert row is not None
    assert action is not None
    trailing = next(n for n in user.device.ui_tree().walk() if n.text == "在读")
    inside = row.bounds
    assert inside.left <= action.bounds.left
    assert action.bounds.right <= inside.right
    assert inside.top <= action.bounds.top
    assert action.bounds.bottom <= inside.bottom
    assert trailing.bounds.right <= action.bounds.left


def test_confirm_cancel_closes_the_dialog_and_changes_nothing(user: testing.Driver) -> None:
    user.tap("more_2")
    assert user.visible(text="移除《围城》？")
    user.tap("cancel")
    assert not user.visible("confirm_remove")
    assert _books(user)["books"] == ["三体", "活着", "围城"]


def test_confirm_runs_the_action_and_closes(user: testing.Driver) -> None:
    user.tap("more_2")
    assert user.visible(text="移除后可在书城重新加入。")
    user.tap("confirm_remove")
    assert _books(user)["books"] == ["三体", "活着"]
    assert not user.visible("confirm_remove")
