"""The Travel app through the action interface: picking cities and a date, trains that already
left or are sold out cannot be booked, an order needs a seat class and a passenger and is
confirmed before payment, refunds follow the 12306 fee rules, the passenger form validates, and
the search_trains tool opens the same results as the form."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.travel.base import TRAVEL_PACKAGE, refund_fee_cents
from phonebuddy.phoneworld.apps.travel.content import seats_left
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool, Type

WALLET = "com.pw.wallet"


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    scroll_first = True

    def pick_city(self, field: str, city: str) -> None:
        cities = [c["name"] for c in self.device.world.content(TRAVEL_PACKAGE)["cities"]]
        self.tap(field)
        self.tap(f"city_{cities.index(city)}")

    def search(self, origin: str, destination: str, days: int) -> None:
        self.pick_city("from_city", origin)
        self.pick_city("to_city", destination)
        self.tap(f"date_{days}")
        self.tap("search_trains")

    def type_into(self, field: str, text: str) -> None:
        """Unlike the base's, scrolls the field into view before focusing it."""
        self.tap(field)
        self.act(Type(text=text))

    @property
    def data(self) -> Any:
        return self.app_state(TRAVEL_PACKAGE)

    def visible_ids(self, prefix: str) -> list[str]:
        rid = f"{TRAVEL_PACKAGE}:id/{prefix}"
        return [
            n.resource_id.removeprefix(rid)
            for n in self.device.ui_tree().walk()
            if n.resource_id.startswith(rid)
        ]


def _trains(world: World, origin: str, destination: str) -> list[Any]:
    trains = world.content(TRAVEL_PACKAGE)["routes"][f"{origin}-{destination}"]
    return sorted(trains, key=lambda t: t["depart"])


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.act(driver.ui.open("旅行"))
    return driver


def test_cities_swap_and_fourteen_days_are_offered(user: Driver) -> None:
    user.pick_city("from_city", "杭州")
    user.tap("swap")
    assert user.ui.find("from_city").text == "上海"  # type: ignore[union-attr]
    assert user.ui.find("to_city").text == "杭州"  # type: ignore[union-attr]
    assert user.visible_ids("date_")[-1] == "13"
    assert user.ui.find("date_1").text.endswith("明天")  # type: ignore[union-attr]


def test_trains_that_left_today_cannot_be_booked(world: World, user: Driver) -> None:
    routes = world.content(TRAVEL_PACKAGE)["routes"]
    early = next(t for key in sorted(routes) for t in routes[key] if t["depart"] < "08:30")
    user.search(early["from"], early["to"], 0)
    for action in user.ui.scroll_to(f"train_{early['number']}"):
        user.act(action)
    assert user.device.act(user.ui.tap(f"train_{early['number']}")).effect == "no_op"
    assert user.ui.find(text="已停止售票") is not None


def test_an_order_needs_a_seat_and_a_passenger_then_is_confirmed_and_paid(
    world: World, user: Driver
) -> None:
    train = next(t for t in _trains(world, "北京", "上海") if seats_left(t["number"], "second", 3))
    user.search("北京", "上海", 3)
    user.tap(f"train_{train['number']}")
    user.tap("submit_order")
    assert user.device.state["ui"]["toast"] == "请选择席别"
    user.tap("seat_second")
    user.tap("submit_order")
    assert user.device.state["ui"]["toast"] == "请选择乘车人"
    passenger = user.data["passengers"][0]
    user.tap(f"passenger_{passenger['id']}")
    user.tap("submit_order")
    assert user.ui.visible("confirm_order")
    user.tap("confirm_order")
    user.tap(f"{WALLET}:id/pay_confirm")
    order = user.data["orders"][-1]
    assert order["train"] == train["number"]
    assert order["status"] == "paid"
    assert order["passengers"] == [{"id": passenger["id"], "name": passenger["name"]}]
    assert len(order["seats"]) == 1
    assert user.ui.find("order_status").text == "待出行"  # type: ignore[union-attr]


def test_a_sold_out_class_cannot_be_chosen(world: World, user: Driver) -> None:
    days, train = next(
        (d, t)
        for d in range(1, 14)
        for t in _trains(world, "北京", "上海")
        if seats_left(t["number"], "first", d) == 0
    )
    user.search("北京", "上海", days)
    user.tap(f"train_{train['number']}")
    result = user.device.act(user.ui.tap("seat_first"))
    assert result.effect == "no_op"


def test_refund_fees_follow_the_12306_rules() -> None:
    assert refund_fee_cents(60000, 8 * 24 + 1) == 0
    assert refund_fee_cents(60000, 72) == 3000
    assert refund_fee_cents(60000, 30) == 6000
    assert refund_fee_cents(60000, 3) == 12000
    assert refund_fee_cents(55350, 30) == 5550  # rounded to half a yuan


def test_the_passenger_form_rejects_a_bad_id_number(user: Driver) -> None:
    user.tap("tab_mine")
    user.tap("my_passengers")
    user.tap("add_passenger")
    user.type_into("name", "孙悦")
    user.type_into("id_number", "1101051990")
    user.type_into("phone", "13800138000")
    before = len(user.data["passengers"])
    assert user.device.act(user.ui.tap("save_passenger")).effect == "no_op"
    assert len(user.data["passengers"]) == before


def test_the_search_tool_opens_the_same_results(world: World, device: Device) -> None:
    by_form, by_tool = Driver(device), Driver(Device(world))
    by_form.act(by_form.ui.open("旅行"))
    by_form.search("南京", "上海", 2)
    by_tool.act(by_tool.ui.open("旅行"))
    by_tool.act(
        CallTool(
            name="search_trains",
            arguments={"from_city": "南京", "to_city": "上海", "days_ahead": 2},
        )
    )
    assert by_form.visible_ids("train_") == by_tool.visible_ids("train_")
    assert by_tool.ui.find("travel_date").text == by_form.ui.find("travel_date").text  # type: ignore[union-attr]
