"""航班管家 (Flights) through the action interface: searching a route with sorting and filters,
a flight's cabins (sold out refused), the order form (passengers, contact, insurance), paying in
the wallet after a confirmation, adding passengers (ID checksum), online check-in with a seat
map, refunds behind a confirmation, and today's flight status with 关注."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.flights.base import (
    FLIGHTS,
    SEAT_LETTERS,
    SEAT_ROWS,
    hours_before,
    refund_fee_cents,
    seat_taken,
)
from phonebuddy.phoneworld.apps.flights.content import (
    FEE_CENTS,
    INSURANCE_CENTS,
    id_check,
    valid_id,
)
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.payments import WALLET
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Key


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(FLIGHTS)  # type: ignore[no-any-return]

    def refuse(self, widget_id: str) -> str:
        self.scroll_to(widget_id)
        return super().refuse(widget_id)

    def clear(self, widget_id: str, count: int) -> None:
        """Focus a field and delete `count` characters with the keyboard's delete key."""
        self.tap(widget_id)
        for _ in range(count):
            self.act(Key(text="DEL"))

    def shown_flights(self) -> list[str]:
        prefix = f"{FLIGHTS}:id/flight_"
        walk = self.device.ui_tree().walk()
        return [n.resource_id.removeprefix(prefix) for n in walk
                if n.resource_id.startswith(prefix)]  # fmt: skip


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("航班管家")
    return driver


def _flights(world: World) -> list[Any]:
    return list(world.content(FLIGHTS)["flights"])


def _route(world: World, origin: str, dest: str, day: int) -> list[Any]:
    return [f for f in _flights(world) if (f["from"], f["to"], f["day"]) == (origin, dest, day)]


def _search(user: Driver, origin: str, dest: str, day: int) -> None:
    for field, code in (("from_city", origin), ("to_city", dest)):
        user.tap(field)
        user.tap(f"city_{code}")
    user.tap(f"date_{day}")
    user.tap("search")


def _open_flight(user: Driver, flight: Any) -> None:
    _search(user, flight["from"], flight["to"], flight["day"])
    user.tap(f"flight_{flight['number']}")


def test_id_numbers_carry_a_checksum() -> None:
    first17 = "11010519491231002"
    assert valid_id(first17 + id_check(first17))
    assert id_check(first17) == "X"
    assert not valid_id(first17 + "1")
    assert not valid_id("12345")


def test_search_sorts_and_filters(user: Driver, world: World) -> None:
    _search(user, "SHA", "PEK", 2)
    route = _route(world, "SHA", "PEK", 2)
    assert user.shown_flights() == [f["number"] for f in sorted(route, key=lambda f: f["depart"])]
    user.tap("sort_price")
    by_price = sorted(route, key=lambda f: f["prices"]["economy"])
    assert user.shown_flights() == [f["number"] for f in by_price]
    user.tap("filter_direct")
    assert user.shown_flights() == [f["number"] for f in by_price if not f["stop"]]
    code = route[0]["code"]
    user.tap(f"air_{code}")
    expected = [f["number"] for f in by_price if not f["stop"] and f["code"] == code]
    assert user.shown_flights() == expected
    user.tap("day_3")  # another day keeps the route
    assert set(user.shown_flights()) <= {f["number"] for f in _route(world, "SHA", "PEK", 3)}


def test_the_same_city_twice_is_refused(user: Driver) -> None:
    user.tap("to_city")
    user.tap("city_PEK")
    user.refuse("search")
    user.tap("swap")
    assert user.text("from_city") == user.text("to_city") == "北京"


def test_a_sold_out_cabin_refuses_booking(user: Driver, world: World) -> None:
    flight = next(f for f in _flights(world) if f["day"] >= 1 and f["seats"]["economy"] == 0)
    _open_flight(user, flight)
    assert user.visible(text="已售罄")
    user.refuse("book_economy")
    assert not user.visible("submit")


def test_booking_confirms_then_pays_in_the_wallet(user: Driver, world: World) -> None:
    flight = next(f for f in _flights(world) if f["day"] == 1 and f["seats"]["economy"] > 3
                  and f["prices"]["economy"] < 70000)  # fmt: skip
    _open_flight(user, flight)
    user.tap("book_economy")
    user.refuse("submit")  # no passenger yet
    me, dad = user.data["passengers"][:2]
    user.tap(f"pax_{me['id']}")
    user.tap(f"pax_{dad['id']}")
    user.tap(f"pax_{dad['id']}")  # ticked twice: off again
    user.type_into("contact", "12345")
    user.refuse("submit")
    user.type_into("contact", "678901")  # 12345678901: starts with 1, eleven digits
    user.tap("insurance")
    total = flight["prices"]["economy"] + FEE_CENTS + INSURANCE_CENTS
    assert user.text("total") == f"合计 ¥{total // 100}"
    user.tap("submit")
    user.tap("cancel")
    assert len(user.data["bookings"]) == 2
    balance = user.app_state(WALLET)["balance_cents"]
    user.tap("submit")
    user.tap("confirm_pay")
    user.act(user.ui.tap(f"{WALLET}:id/pay_cancel"))
    booking = user.data["bookings"][-1]
    assert booking["status"] == "待支付"
    assert user.app_state(WALLET)["balance_cents"] == balance
    user.tap("pay")
    user.act(user.ui.tap(f"{WALLET}:id/pay_confirm"))
    assert booking["id"] == user.data["bookings"][-1]["id"]
    assert user.data["bookings"][-1]["status"] == "已出票"
    assert user.data["bookings"][-1]["insurance"] is True
    assert user.data["bookings"][-1]["contact"] == "12345678901"
    assert user.app_state(WALLET)["balance_cents"] == balance - total
    assert user.text("trip_status") == "已出票"


def test_passengers_need_a_valid_id_number(user: Driver) -> None:
    user.tap("tab_me")
    user.tap("new_passenger")
    user.type_into("pax_name", "周子涵")
    user.type_into("pax_id", "110105199001011234")
    user.refuse("save_passenger")
    first17 = "31010419900101123"
    user.clear("pax_id", 18)
    user.type_into("pax_id", first17 + id_check(first17))
    user.tap("save_passenger")
    assert user.data["passengers"][-1]["name"] == "周子涵"
    existing = user.data["passengers"][0]
    user.tap("new_passenger")
    user.type_into("pax_name", existing["name"])
    user.type_into("pax_id", existing["id_number"])
    user.refuse("save_passenger")


def test_check_in_refuses_taken_seats(user: Driver) -> None:
    booking = user.data["bookings"][1]
    user.tap("tab_trips")
    user.tap(f"trip_{booking['id']}")
    user.tap("checkin_0")
    seats = [f"{r}{c}" for r in SEAT_ROWS for c in SEAT_LETTERS]
    taken = next(s for s in seats if seat_taken(booking["flight_id"], s))
    free = next(s for s in seats if not seat_taken(booking["flight_id"], s))
    user.refuse(f"seat_{taken}")
    user.tap(f"seat_{free}")
    assert user.data["bookings"][1]["passengers"][0]["seat"] == free
    assert user.data["bookings"][1]["status"] == "已值机"
    assert not user.visible("checkin_0")


def test_refunds_need_confirming_and_charge_by_time(user: Driver, world: World) -> None:
    booking = user.data["bookings"][1]
    flight = next(f for f in _flights(world) if f["id"] == booking["flight_id"])
    user.tap("tab_trips")
    user.tap(f"trip_{booking['id']}")
    user.tap("refund")
    user.tap("cancel")
    assert user.data["bookings"][1]["status"] == "已出票"
    user.tap("refund")
    user.tap("confirm_refund")
    fee = refund_fee_cents(
        booking["fare_cents"], hours_before(flight, int(user.device.state["os"]["clock"]))
    )
    refunded = user.data["bookings"][1]
    assert (refunded["status"], refunded["refund_fee_cents"]) == ("已退票", fee)
    assert refunded["refund_cents"] == booking["total_cents"] - fee
    assert not user.visible("refund")


def test_status_lookup_and_follow(user: Driver, world: World) -> None:
    flight = next(f for f in _flights(world) if f["day"] == 0 and f["status"]["state"] == "延误")
    user.tap("tab_status")
    user.refuse("look_up")  # empty
    user.type_into("query", "XX0000")
    user.refuse("look_up")
    user.clear("query", 6)
    user.type_into("query", flight["number"].lower())  # case does not matter
    user.tap("look_up")
    assert user.text("status_state") == f"延误 {flight['status']['delay']} 分钟"
    assert user.text("status_plan") == f"计划起飞 {flight['depart']}  计划到达 {flight['arrive']}"
    user.tap("follow")
    assert [f["id"] for f in user.data["follows"]] == [flight["number"]]
    assert user.text("follow") == "取消关注"
    user.back()
    assert user.visible(f"followed_{flight['number']}")
    user.tap(f"followed_{flight['number']}")
    user.tap("follow")
    assert user.data["follows"] == []


def test_sharing_a_trip_opens_the_share_sheet(user: Driver) -> None:
    booking = user.data["bookings"][0]
    user.tap("tab_trips")
    user.tap(f"trip_{booking['id']}")
    user.tap("share")
    assert user.visible("com.android.systemui:id/share_messenger")
