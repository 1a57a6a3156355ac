"""Huddle (teamchat) through the action interface: the channel list with unread badges, posting
in a channel, threads, reactions, pinning behind a confirmation, editing and deleting your own
message (cancel and accept), saving, reminders, muting, member profiles and DMs, the status,
search with from:/in: filters, and what it refuses."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.teamchat.base import TEAMCHAT
from phonebuddy.phoneworld.apps.teamchat.content import ME
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(TEAMCHAT)  # type: ignore[no-any-return]

    def message(self, msg_id: str) -> dict[str, Any] | None:
        return next((m for m in self.data["messages"] if m["id"] == msg_id), None)

    def press(self, widget_id: str) -> None:
        """Tap a button of the actions sheet or a dialog, drawn over the page: no scrolling."""
        self.act(self.ui.tap(widget_id))

    def mine(self) -> list[dict[str, Any]]:
        return [m for m in self.data["messages"] if m["id"].startswith("msg-")]


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("Huddle")
    return driver


def _top(world: World, channel: str, *, mine: bool = False) -> dict[str, Any]:
    """A top-level message of the channel without replies, by me or by someone else."""
    msgs = world.content(TEAMCHAT)["messages"]
    parents = {m["parent"] for m in msgs}
    return next(
        m
        for m in msgs
        if m["channel"] == channel
        and not m["parent"]
        and (m["author"] == ME) == mine
        and m["id"] not in parents
    )


def test_channels_list_unread_and_opening_clears_it(user: Driver, world: World) -> None:
    unread = world.content(TEAMCHAT)["unread"]
    channel = next(c for c, n in unread.items() if n and not c.startswith("dm-"))
    assert user.visible(f"channel_{channel}")
    user.tap(f"channel_{channel}")
    assert user.text("toolbar_title") == f"#{channel}"
    assert user.data["unread"][channel] == 0


def test_post_reply_and_refuse_empty(user: Driver, world: World) -> None:
    user.tap("channel_design")
    user.refuse("send")
    user.type_into("composer", "New mockups look great")
    user.tap("send")
    [posted] = user.mine()
    assert (posted["channel"], posted["text"], posted["parent"]) == (
        "design", "New mockups look great", None)  # fmt: skip
    parent = _top(world, "design")
    user.tap(f"more_{parent['id']}")
    user.press("act_thread")
    assert user.text("reply_count") == "No replies yet"
    user.type_into("reply", "Agreed")
    user.tap("send")
    reply = user.mine()[-1]
    assert (reply["parent"], reply["text"]) == (parent["id"], "Agreed")
    assert user.text("reply_count") == "1 replies"


def test_react_toggles_my_reaction(user: Driver, world: World) -> None:
    msg = _top(world, "random")
    user.tap("channel_random")
    user.tap(f"more_{msg['id']}")
    user.press("add_1")
    assert ME in user.message(msg["id"])["reactions"]["tada"]  # type: ignore[index]
    chip = f"react_{msg['id']}_1"
    user.tap(chip)
    assert ME not in user.message(msg["id"])["reactions"].get("tada", [])  # type: ignore[union-attr]


def test_pin_needs_confirmation(user: Driver, world: World) -> None:
    msg = _top(world, "launch")
    user.tap("channel_launch")
    user.tap(f"more_{msg['id']}")
    user.press("act_pin")
    user.press("cancel")
    assert not user.message(msg["id"])["pinned"]  # type: ignore[index]
    user.tap(f"more_{msg['id']}")
    user.press("act_pin")
    user.press("confirm_pin")
    assert user.message(msg["id"])["pinned"]  # type: ignore[index]
    assert user.visible(f"pinned_{msg['id']}")
    user.tap("details")
    assert user.visible(f"pinned_item_{msg['id']}")


def test_edit_and_delete_own_message_only(user: Driver, world: World) -> None:
    theirs = _top(world, "general")
    user.tap("channel_general")
    user.tap(f"more_{theirs['id']}")
    assert not user.visible("act_edit")
    assert not user.visible("act_delete")
    user.press("act_cancel")
    user.type_into("composer", "Typo here")
    user.tap("send")
    [mine] = user.mine()
    user.back()  # the keyboard
    user.tap(f"more_{mine['id']}")
    user.press("act_edit")
    user.refuse("save_edit")  # unchanged
    user.type_into("edit", " fixed")
    user.tap("save_edit")
    assert user.message(mine["id"])["text"] == "Typo here fixed"  # type: ignore[index]
    assert user.message(mine["id"])["edited"]  # type: ignore[index]
    user.tap(f"more_{mine['id']}")
    user.press("act_delete")
    user.press("cancel")
    assert user.message(mine["id"]) is not None
    user.tap(f"more_{mine['id']}")
    user.press("act_delete")
    user.press("confirm_delete")
    assert user.message(mine["id"]) is None


def test_save_remind_and_mute(user: Driver, world: World) -> None:
    msg = _top(world, "engineering")
    user.tap("channel_engineering")
    user.tap(f"more_{msg['id']}")
    user.press("act_save")
    user.tap(f"more_{msg['id']}")
    user.press("act_remind_tomorrow")
    user.tap(f"more_{msg['id']}")
    user.refuse("act_remind_hour")  # one reminder per message
    user.press("act_cancel")
    user.tap("details")
    user.tap("mute")
    assert user.data["muted"] == ["engineering"]
    assert [s["id"] for s in user.data["saved"]] == [msg["id"]]
    [rem] = user.data["reminders"]
    assert (rem["message"], rem["when"]) == (msg["id"], "tomorrow")
    user.back()
    user.back()
    assert user.visible(text="muted")
    user.tap("tab_you")
    assert user.visible(f"saved_{msg['id']}")
    user.tap(f"cancel_{rem['id']}")
    assert user.data["reminders"] == []


def test_status_needs_text_and_clear_after(user: Driver) -> None:
    user.tap("tab_you")
    user.tap("set_status")
    user.refuse("save_status")
    user.type_into("status_text", "In a meeting")
    user.refuse("save_status")  # no clear-after chosen
    assert user.text("status_error") == "Choose when to clear it"
    user.tap("clear_1h")
    user.tap("save_status")
    assert user.data["status"] == {"text": "In a meeting", "clear_after": "1h"}
    assert user.text("my_status") == "Status: In a meeting (clears: 1 hour)"
    user.tap("clear_status")
    assert user.data["status"]["text"] == ""


def test_profile_local_time_and_dm_anyone(user: Driver, world: World) -> None:
    member = world.content(TEAMCHAT)["members"][4]
    user.tap("members")
    user.tap(f"member_{member['id']}")
    assert user.text("profile_time").endswith(f"(UTC{member['tz']:+d}, {member['city']})")
    assert member["phone"][-4:] in user.text("profile_phone")
    user.tap("message_member")
    user.type_into("composer", "Hi there")
    user.tap("send")
    assert user.mine()[0]["channel"] == f"dm-{member['id']}"


def test_search_with_filters(user: Driver, world: World) -> None:
    msgs = world.content(TEAMCHAT)["messages"]
    user.tap("search")
    user.type_into("query", "taxi in:#expenses")
    expected = [m for m in msgs if m["channel"] == "expenses" and "taxi" in m["text"].lower()]
    assert user.text("result_count") == f"{len(expected)} results"
    user.tap("clear_query")
    author = world.content(TEAMCHAT)["members"][1]
    user.type_into("query", f"from:{author['name'].split()[0]} in:#design")
    expected = [m for m in msgs if m["channel"] == "design" and m["author"] == author["id"]]
    assert user.text("result_count") == f"{len(expected)} results"
    user.tap("clear_query")
    user.type_into("query", "zzzz nothing")
    assert user.visible("no_results")
