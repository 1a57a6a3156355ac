"""The Weather app through the action interface: the add_city tool and the search share one
handler, removing cities (the default hands over, the last one stays), the °C/°F setting, the
7-day list follows the phone's clock, the location permission."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.weather.base import WEATHER, fahrenheit
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.answers import YesNo, check_answer
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool, Type


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    scroll_first = True

    def open_weather(self, *, allow: bool = True) -> None:
        self.open("天气", allow=allow)


def weather_data(device: Device) -> dict[str, Any]:
    return device.state["apps"][WEATHER]


def saved_ids(device: Device) -> list[str]:
    return [c["id"] for c in weather_data(device)["cities"]]


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open_weather()
    return driver


def test_the_tool_and_the_search_add_the_same_city(world: World) -> None:
    by_tool, by_hand = Device(world, seed=3), Device(world, seed=3)
    assert "chengdu" not in saved_ids(by_tool)
    Driver(by_tool).open_weather()
    result = by_tool.act(CallTool(name="add_city", arguments={"name": "成都市"}))
    assert result.effect == "applied", result.note
    user = Driver(by_hand)
    user.open_weather()
    user.tap("cities")
    user.tap("add")
    user.act(Type(text="chengdu"))  # pinyin finds it too
    user.tap("result_chengdu")
    user.tap("add_city")
    assert weather_data(by_tool)["cities"] == weather_data(by_hand)["cities"]
    assert saved_ids(by_hand)[-1] == "chengdu"
    assert user.ui.visible("city_chengdu")  # back on 城市管理, with the new city listed


def test_a_saved_city_cannot_be_added_again(user: Driver) -> None:
    saved = saved_ids(user.device)[1]
    again = user.device.act(CallTool(name="add_city", arguments={"name": saved}))
    assert again.effect == "no_op"
    unknown = user.device.act(CallTool(name="add_city", arguments={"name": "纽约"}))
    assert unknown.effect == "no_op"
    user.tap("cities")
    user.tap(f"city_{saved}")
    assert not user.ui.visible("add_city")  # only a preview from search offers to add


def test_removing_the_default_city_hands_over_and_the_last_one_stays(user: Driver) -> None:
    user.tap("cities")
    first, second, *rest = saved_ids(user.device)
    assert weather_data(user.device)["default_city"] == first
    user.tap(f"more_{first}")
    user.tap("remove")
    user.tap("cancel")
    assert saved_ids(user.device)[0] == first
    for city in (first, *rest):
        user.tap(f"more_{city}")
        user.tap("remove")
        user.tap("confirm_remove")
    assert saved_ids(user.device) == [second]
    assert weather_data(user.device)["default_city"] == second
    user.tap(f"more_{second}")
    assert not user.ui.visible("set_default")  # it already is the default
    assert "last city" in user.refuse("remove")
    assert user.device.state["ui"]["toast"] == "至少保留一个城市"


def test_the_unit_changes_every_temperature_shown(user: Driver) -> None:
    celsius = int(user.text("now_temp").rstrip("°"))
    user.tap("settings")
    user.tap("unit_F")
    assert "already" in user.refuse("unit_F")
    user.act(user.ui.back())
    assert user.text("now_temp") == f"{fahrenheit(celsius)}°F"
    low, high = user.text("day_1_temp").split("~")
    assert low.endswith("°F")
    assert high.endswith("°F")
    assert weather_data(user.device)["unit"] == "F"


def test_the_week_follows_the_clock_and_a_weekday_keeps_its_forecast(world: World) -> None:
    rows: list[dict[str, str]] = []
    phones = [Device(world, seed=seed) for seed in (0, 4)]
    assert phones[0].device_time()[:10] != phones[1].device_time()[:10]
    for phone in phones:
        user = Driver(phone)
        user.open_weather()
        assert user.text("day_0_label") == "今天"
        assert user.text("day_1_label") == "明天"
        by_weekday = {}
        for offset in range(7):
            for action in user.ui.scroll_to(f"day_{offset}"):
                user.act(action)
            node = user.ui.find(f"day_{offset}")
            assert node is not None
            weekday = next(t for t in (n.text for n in node.walk()) if "周" in t)[-2:]
            by_weekday[weekday] = user.text(f"day_{offset}_weather")
        assert len(by_weekday) == 7
        rows.append(by_weekday)
    assert rows[0] == rows[1]


def test_the_location_permission_decides_what_home_says(world: World) -> None:
    allowed, denied = Driver(Device(world, seed=1)), Driver(Device(world, seed=1))
    allowed.open_weather(allow=True)
    denied.open_weather(allow=False)
    assert allowed.text("now_place").startswith("定位")
    assert not allowed.ui.visible("location_off")
    assert denied.ui.visible("location_off")
    assert denied.text("now_place") == "北京"


@pytest.mark.parametrize(
    ("answer", "says"),
    [
        ("会下雨", True),
        ("周六有小雨", True),
        ("Yes, it will rain", True),
        ("不会下雨", False),
        ("没有雨，晴天", False),
        ("No.", False),
        ("不确定", None),
        ("It will be sunny", None),
        ("会下雨，不会", None),
        ("无锡会下雨", True),
    ],
)
def test_the_rain_question_reads_yes_and_no_in_both_languages(
    answer: str, says: bool | None
) -> None:
    accepted = [value for value in (True, False) if not check_answer(answer, YesNo(value))]
    assert accepted == ([] if says is None else [says])
