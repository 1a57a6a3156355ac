"""The Clock app through the action interface: the set_alarm tool and the alarm editor share one
handler, a typed time wins over the stepper, deleting asks first, the city search, the timer."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.clock.base import CLOCK
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool, Type, Wait


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    def open_clock(self) -> None:
        self.open("时钟")


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open_clock()
    return driver


def clock_data(device: Device) -> dict[str, Any]:
    return device.state["apps"][CLOCK]


def test_the_tool_and_the_editor_create_the_same_alarm(world: World) -> None:
    by_tool, by_hand = Device(world, seed=3), Device(world, seed=3)
    Driver(by_tool).open_clock()
    result = by_tool.act(CallTool(name="set_alarm", arguments={"hour": 6, "minute": 5,
                                                               "label": "晨跑"}))  # fmt: skip
    assert result.effect == "applied"
    user = Driver(by_hand)
    user.open_clock()
    user.tap("add_alarm")
    user.type_into("time", "6:05")
    user.type_into("label", "晨跑")
    user.tap("save")
    assert clock_data(by_tool)["alarms"] == clock_data(by_hand)["alarms"]
    assert clock_data(by_hand)["alarms"][-1] == {
        "id": "alarm-00001", "hour": 6, "minute": 5, "label": "晨跑", "repeat": [],
        "enabled": True,
    }  # fmt: skip


def test_the_tool_refuses_a_time_that_does_not_exist(user: Driver) -> None:
    before = list(clock_data(user.device)["alarms"])
    result = user.device.act(
        CallTool(name="set_alarm", arguments={"hour": 24, "minute": 0, "label": ""})
    )
    assert result.effect == "no_op"
    assert clock_data(user.device)["alarms"] == before


def test_a_typed_time_wins_and_a_bad_one_saves_nothing(user: Driver) -> None:
    user.tap("add_alarm")
    user.tap("hour_up")
    assert user.text("time_display") == "08:00"
    user.type_into("time", "25:61")
    before = list(clock_data(user.device)["alarms"])
    assert "not a time" in user.refuse("save")
    assert clock_data(user.device)["alarms"] == before
    user.tap("clear_time")
    user.act(Type(text="21:45"))
    assert user.text("time_display") == "21:45"
    user.tap("repeat_5")
    user.tap("repeat_6")
    assert user.text("repeat_summary") == "重复：周末"
    user.tap("save")
    added = clock_data(user.device)["alarms"][-1]
    assert (added["hour"], added["minute"], added["repeat"]) == (21, 45, [5, 6])


def test_deleting_an_alarm_asks_first(user: Driver) -> None:
    alarm = clock_data(user.device)["alarms"][0]
    user.tap(f"alarm_{alarm['id']}")
    user.tap("delete_alarm")
    user.tap("cancel")
    assert alarm in clock_data(user.device)["alarms"]
    user.tap("delete_alarm")
    user.tap("confirm_delete")
    assert alarm not in clock_data(user.device)["alarms"]


def test_the_switch_on_a_row_toggles_only_that_alarm(user: Driver) -> None:
    first, *others = (dict(alarm) for alarm in clock_data(user.device)["alarms"])
    user.tap(f"switch_{first['id']}")
    after = clock_data(user.device)["alarms"]
    assert after[0]["enabled"] is not first["enabled"]
    assert after[1:] == others


def test_the_city_search_adds_a_city_once(user: Driver) -> None:
    user.tap("tab_world")
    present = {c["id"] for c in clock_data(user.device)["world_clocks"]}
    city = next(c for c in user.device.world.content(CLOCK)["cities"] if c["id"] not in present)
    user.tap("add_city")
    user.type_into("query", city["name_en"].lower()[:4])
    assert user.ui.visible(f"city_{city['id']}")
    user.tap(f"city_{city['id']}")
    assert {"id": city["id"]} in clock_data(user.device)["world_clocks"]
    assert user.ui.visible(f"world_{city['id']}")
    user.tap("add_city")
    user.type_into("query", city["name"])
    row = user.ui.find(f"city_{city['id']}")
    assert row is not None
    assert not row.clickable
    assert "已添加" in [n.text for n in row.walk()]


def test_the_timer_runs_and_its_length_is_locked_while_it_does(user: Driver) -> None:
    user.tap("tab_timer")
    user.tap("preset_15")
    user.tap("timer_plus")
    user.tap("timer_start")
    timer = clock_data(user.device)["timer"]
    assert (timer["duration_seconds"], timer["running"]) == (16 * 60, True)
    user.act(Wait(time=30))
    assert user.text("timer_display") == "15:30"  # counting down with the device clock
    assert not user.ui.visible("preset_15")
    user.tap("timer_cancel")
    assert clock_data(user.device)["timer"]["running"] is False
