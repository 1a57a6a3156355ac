"""The Health app (运动健康) through the action interface: the dashboard and its screens, the
step history tabs, the weight log (add, validation, delete with a confirmation), the step goal
and its validation, starting and finishing a workout, sharing a workout, and the medals."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.health.app import DAYS, HEALTH, parse_day, parse_weight
from phonebuddy.phoneworld.device import Device
from phonebuddy.protocol import Type


class Driver(testing.Driver):
    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(HEALTH)  # type: ignore[no-any-return]

    def enter(self, entry: str) -> None:
        self.scroll_to(entry)
        self.tap(entry)


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("运动健康")
    return driver


def test_dashboard_shows_today(user: Driver) -> None:
    today = next(d for d in user.data["days"] if d["ago"] == 0)
    assert user.text("today_steps") == str(today["steps"])
    assert str(user.data["goal"]) in user.text("today_goal")
    assert len(user.data["days"]) == DAYS


def test_history_tabs(user: Driver) -> None:
    user.enter("open_history")
    assert "day_0" in user.ids()
    user.scroll_to(f"day_{DAYS - 1}")
    user.tap("tab_week")
    assert user.text("week_average").startswith("近7天日均")
    user.tap("tab_month")
    total = sum(d["steps"] for d in user.data["days"])
    assert str(total) in user.text("month_total")


def test_sleep_and_heart_lists(user: Driver) -> None:
    user.enter("open_sleep")
    assert "night_1" in user.ids()
    user.back()
    user.enter("open_heart")
    assert "heart_0" in user.ids()


def test_log_weight_today_and_on_a_day(user: Driver) -> None:
    before = len(user.data["weights"])
    user.enter("open_weights")
    user.tap("add_weight")
    user.type_into("kg", "66.4")
    user.tap("save_weight")
    assert user.data["weights"][0]["kg"] == 66.4
    assert user.data["weights"][0]["ago"] == 0
    assert len(user.data["weights"]) == before + 1


def test_weight_validation(user: Driver) -> None:
    user.enter("open_weights")
    before = [dict(w) for w in user.data["weights"]]
    for bad in ("", "15", "301", "65.25", "abc"):
        user.tap("add_weight")
        if bad:
            user.type_into("kg", bad)
        user.refuse("save_weight")
        assert "20–300" in user.text("error")
        while not user.visible("add_weight"):  # the keyboard first, then the page
            user.back()
    user.tap("add_weight")
    user.type_into("kg", "65")
    user.type_into("date", "13月40日")
    user.refuse("save_weight")
    assert "日期" in user.text("error")
    assert user.data["weights"] == before


def test_delete_weight_asks_first(user: Driver) -> None:
    first = user.data["weights"][0]
    user.enter("open_weights")
    user.scroll_to(f"delete_{first['id']}")
    user.tap(f"delete_{first['id']}")
    user.back()
    assert user.data["weights"][0] == first
    user.tap(f"delete_{first['id']}")
    user.tap("confirm_delete")
    assert all(w["id"] != first["id"] for w in user.data["weights"])


def test_goal_validation_and_save(user: Driver) -> None:
    user.enter("open_goal")
    user.tap("clear_goal")
    user.act(Type(text="999"))
    user.refuse("save_goal")
    assert "1000" in user.text("error")
    goal = user.data["goal"]
    assert goal != 12500
    user.tap("clear_goal")
    user.act(Type(text="12500"))
    user.tap("save_goal")
    assert user.data["goal"] == 12500


def test_start_and_finish_workout(user: Driver) -> None:
    count = len(user.data["workouts"])
    user.scroll_to("start_workout")
    user.tap("start_workout")
    user.tap("start_2")
    assert user.data["active"]["kind"] == "骑行"
    user.tap("finish")
    user.tap("confirm_finish")
    assert user.data["active"] is None
    assert len(user.data["workouts"]) == count + 1
    assert user.data["workouts"][0]["kind"] == "骑行"
    assert user.data["workouts"][0]["ago"] == 0


def test_workout_filter_detail_and_share(user: Driver) -> None:
    user.enter("open_workouts")
    user.tap("kind_1")
    runs = [w for w in user.data["workouts"] if w["kind"] == "跑步"]
    shown = {i for i in user.ids() if i.startswith("workout_")}
    assert shown <= {f"workout_{w['id']}" for w in runs}
    user.tap(f"workout_{runs[0]['id']}")
    assert user.text("kind") == "跑步"
    user.tap("share")
    assert "com.android.systemui:id/share_messenger" in {
        n.resource_id for n in user.device.ui_tree().walk()
    }


def test_medals(user: Driver) -> None:
    user.enter("open_medals")
    assert "medal_0" in user.ids()


def test_parsers() -> None:
    assert parse_weight("65.3") == 65.3
    assert parse_weight("65.35") is None
    assert parse_weight("19.9") is None
    assert parse_weight("300") == 300
    clock = 1773622800  # 2026-03-16 09:00 +08:00
    assert parse_day("3月14日", clock) == 2
    assert parse_day("3-16", clock) == 0
    assert parse_day("3月17日", clock) is None
    assert parse_day("1月1日", clock) is None
