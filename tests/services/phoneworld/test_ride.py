"""The Ride app through the action interface: the location permission on first use, the
request_ride tool and the call button create the same trip, a trip moves through its phases
with the clock and can only be paid at the end, cancelling and saved places."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.ride.app import RIDE_PACKAGE
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.testing import ALLOW
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool, Type, Wait

WALLET = "com.pw.wallet"


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    def open_ride(self) -> None:
        self.open("打车")

    def search(self, entry: str, place: Any) -> None:
        self.tap(entry)
        self.tap("query")
        self.act(Type(text=place["name"]))
        self.tap(f"place_{place['id']}")

    @property
    def data(self) -> Any:
        return self.app_state(RIDE_PACKAGE)


def _place(world: World, name: str) -> Any:
    return next(p for p in world.content(RIDE_PACKAGE)["places"] if p["name"] == name)


def _destination(world: World) -> Any:
    here = world.content(RIDE_PACKAGE)["here"]
    return next(p for p in world.content(RIDE_PACKAGE)["places"] if p["id"] != here["id"])


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open_ride()
    return driver


def test_location_is_asked_once(device: Device) -> None:
    user = Driver(device)
    user.act(user.ui.open("打车"))
    assert user.ui.visible(ALLOW)
    user.tap(ALLOW)
    user.act(user.ui.back())
    user.act(user.ui.open("打车"))
    assert not user.ui.visible(ALLOW)
    assert user.ui.find(contains="当前位置") is not None


def test_the_tool_and_the_call_button_create_the_same_trip(world: World) -> None:
    place = _destination(world)
    by_hand, by_tool = Driver(Device(world)), Driver(Device(world))
    by_hand.open_ride()
    by_hand.search("where_to", place)
    by_hand.tap("car_premium")
    by_hand.tap("call_ride")
    by_tool.open_ride()
    by_tool.act(
        CallTool(name="request_ride", arguments={"destination": place["name"], "car_type": "专车"})
    )
    trips = [dict(driver.data["trips"][-1]) for driver in (by_hand, by_tool)]
    for trip in trips:
        del trip["requested_at"]  # the GUI took more steps, hence more seconds
    assert trips[0] == trips[1]
    assert trips[0]["car_type"] == "专车"
    assert by_tool.text("trip_status") == "司机正在赶来"


def test_a_trip_runs_on_the_clock_and_is_paid_at_the_end(world: World, user: Driver) -> None:
    user.search("where_to", _destination(world))
    user.tap("call_ride")
    seen = [user.text("trip_status")]
    assert not user.ui.visible("pay_trip")
    while not user.ui.visible("pay_trip"):
        user.act(Wait(time=30))
        seen.append(user.text("trip_status"))
    assert list(dict.fromkeys(seen)) == ["司机正在赶来", "行程中", "已到达目的地"]
    balance = user.device.state["apps"][WALLET]["balance_cents"]
    user.tap("pay_trip")
    user.tap(f"{WALLET}:id/pay_confirm")
    trip = user.data["trips"][-1]
    assert trip["status"] == "paid"
    assert user.device.state["apps"][WALLET]["balance_cents"] == balance - trip["fare_cents"]


def test_one_trip_at_a_time_and_no_unknown_places(world: World, user: Driver) -> None:
    place = _destination(world)
    user.act(
        CallTool(name="request_ride", arguments={"destination": place["name"], "car_type": "快车"})
    )
    again = user.device.act(
        CallTool(name="request_ride", arguments={"destination": place["name"], "car_type": "快车"})
    )
    nowhere = user.device.act(
        CallTool(name="request_ride", arguments={"destination": "火星基地", "car_type": "快车"})
    )
    assert again.effect == nowhere.effect == "no_op"
    assert len([t for t in user.data["trips"] if t["status"] == "ongoing"]) == 1


def test_cancelling_asks_first_and_ends_once_the_driver_arrives(world: World, user: Driver) -> None:
    user.act(
        CallTool(
            name="request_ride",
            arguments={"destination": _destination(world)["name"], "car_type": "拼车"},
        )
    )
    user.tap("cancel_trip")
    user.tap("keep_trip")
    assert user.data["trips"][-1]["status"] == "ongoing"
    user.act(Wait(time=60))
    user.act(Wait(time=60))
    user.act(Wait(time=60))
    assert user.text("trip_status") == "行程中"
    assert not user.ui.visible("cancel_trip")


def test_saving_home_from_the_profile(world: World, user: Driver) -> None:
    home = _place(world, "天通苑")
    user.tap("tab_mine")
    user.search("saved_home", home)
    assert user.data["saved_places"]["home"] == home["id"]
    user.tap("tab_home")
    assert user.text("shortcut_home") == "家 · 天通苑"
