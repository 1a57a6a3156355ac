"""The Calendar app through the action interface: the month view follows the device clock, the
create_event tool and the editor share one handler, the editor refuses impossible events, the
holiday prompt, and deleting asks first."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.calendar.app import CALENDAR
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool, Type


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    def open_calendar(self) -> None:
        self.open("日历")
        if self.ui.visible("holiday_later"):
            self.tap("holiday_later")

    def replace(self, widget_id: str, text: str) -> None:
        """Clear an editor field (which focuses it) and type into it."""
        self.scroll_to(widget_id)
        if self.text(widget_id):
            self.tap(f"clear_{widget_id}")
        else:
            self.tap(widget_id)
        self.act(Type(text=text))


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open_calendar()
    return driver


def events(device: Device) -> list[dict[str, Any]]:
    return [dict(event) for event in device.state["apps"][CALENDAR]["events"]]


def local_today(device: Device) -> dt.date:
    return dt.date.fromisoformat(device.device_time()[:10])


def test_the_month_view_shows_the_device_clocks_month(user: Driver) -> None:
    today = local_today(user.device)
    assert user.text("toolbar_title") == f"{today.year}年{today.month}月"
    assert user.ui.visible(f"day_{today.replace(day=1).isoformat()}")
    assert user.text("day_title").startswith(f"{today.month}月{today.day}日")
    user.tap("next_month")
    following = (today.replace(day=28) + dt.timedelta(days=7)).replace(day=1)
    assert user.text("toolbar_title") == f"{following.year}年{following.month}月"
    user.tap("today")
    assert user.text("toolbar_title") == f"{today.year}年{today.month}月"


def an_event_this_month_but_not_today(device: Device) -> dict[str, Any]:
    today = local_today(device)
    return next(e for e in events(device) if e["date"][:7] == today.isoformat()[:7]
                and e["date"] != today.isoformat())  # fmt: skip


def test_tapping_a_day_lists_its_events(user: Driver) -> None:
    day = an_event_this_month_but_not_today(user.device)["date"]
    user.tap(f"day_{day}")
    titles = {n.text for n in user.device.ui_tree().walk()}
    assert {e["title"] for e in events(user.device) if e["date"] == day} <= titles


def test_the_tool_and_the_editor_create_the_same_event(world: World) -> None:
    by_tool, by_hand = Device(world, seed=5), Device(world, seed=5)
    Driver(by_tool).open_calendar()
    arguments = {"title": "看房", "date": "2026-04-18", "start": "14:00", "end": "15:30"}
    assert by_tool.act(CallTool(name="create_event", arguments=arguments)).effect == "applied"
    user = Driver(by_hand)
    user.open_calendar()
    user.tap("new_event")
    for field, value in arguments.items():
        user.replace(field, value)
    user.tap("save")
    assert events(by_tool) == events(by_hand)
    assert events(by_hand)[-1] == {"id": "evt-00001", **arguments, "location": "",
                                   "reminder": 15, "notes": ""}  # fmt: skip
    assert user.text("day_title").startswith("4月18日")  # back on the month, on its day


def test_the_editor_refuses_an_event_that_ends_before_it_starts(user: Driver) -> None:
    before = events(user.device)
    user.tap("new_event")
    user.replace("title", "复盘")
    user.replace("start", "16:00")
    user.replace("end", "15:00")
    result = user.device.act(user.ui.tap("save"))
    assert result.effect == "no_op"
    assert events(user.device) == before
    assert user.device.state["ui"]["toast"] == "结束时间需晚于开始时间"


def test_the_tool_refuses_a_date_that_does_not_exist(user: Driver) -> None:
    arguments = {"title": "x", "date": "2026-02-30", "start": "09:00", "end": "10:00"}
    assert user.device.act(CallTool(name="create_event", arguments=arguments)).effect == "no_op"


def test_declining_the_holiday_prompt_changes_nothing_that_counts(world: World) -> None:
    device = next(d for seed in range(20)
                  if not (d := Device(world, seed=seed)).state["apps"][CALENDAR][
                      "holiday_prompt_seen"])  # fmt: skip
    subscribed = device.state["apps"][CALENDAR]["holidays_subscribed"]
    user = Driver(device)
    user.act(user.ui.open("日历"))
    assert user.ui.visible("holiday_prompt")
    user.tap("holiday_later")
    assert not user.ui.visible("holiday_prompt")
    assert device.state["apps"][CALENDAR]["holidays_subscribed"] == subscribed
    assert "holiday_prompt_seen" in device.world.app(CALENDAR).ignorable


def test_deleting_an_event_asks_first(user: Driver) -> None:
    event = an_event_this_month_but_not_today(user.device)
    user.tap(f"day_{event['date']}")
    for action in user.ui.scroll_to(f"event_{event['id']}"):
        user.act(action)
    user.tap(f"event_{event['id']}")
    user.tap("delete")
    user.tap("cancel")
    assert event in events(user.device)
    user.tap("delete")
    user.tap("confirm_delete")
    assert event not in events(user.device)
