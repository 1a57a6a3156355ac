"""The 充电桩 app through the action interface: the station list's filters and sorting, a
station's page and favourites, starting a session by pile number (and what it refuses), the
session advancing with the clock, stopping it (confirmed) into a bill with the best coupon,
paying from the balance or in the wallet, recharging, adding a vehicle, the order history and
sharing a station."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.charging.base import CHARGING
from phonebuddy.phoneworld.apps.charging.content import BONUS
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.payments import WALLET
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Wait

PAY_CONFIRM = f"{WALLET}:id/pay_confirm"


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(CHARGING)  # type: ignore[no-any-return]

    def shown_stations(self) -> list[str]:
        prefix = f"{CHARGING}:id/station_"
        walk = self.device.ui_tree().walk()
        return [n.resource_id.removeprefix(prefix) for n in walk
                if n.resource_id.startswith(prefix)]  # fmt: skip

    def start(self, pile: str, target: str, *, mode: str = "kwh") -> None:
        self.tap("scan")
        self.type_into("pile", pile)
        if mode == "soc":
            self.tap("mode_soc")
        self.type_into("target", target)
        self.tap("start_charge")


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("充电桩")
    return driver


def _stations(world: World) -> list[Any]:
    return list(world.content(CHARGING)["stations"])


def _free_pile(world: World, kind: str = "快充") -> tuple[Any, Any]:
    for s in _stations(world):
        for p in s["piles"]:
            if p["status"] == "空闲" and p["kind"] == kind:
                return s, p
    raise AssertionError("no free pile")


def test_filters_and_sorting(user: Driver, world: World) -> None:
    by_distance = sorted(_stations(world), key=lambda s: s["distance"])
    assert user.shown_stations() == [s["id"] for s in by_distance][: len(user.shown_stations())]
    user.tap("filter_fast")
    user.tap("filter_free")
    shown = user.shown_stations()
    fast_free = [
        s["id"]
        for s in by_distance
        if any(p["kind"] == "快充" and p["status"] == "空闲" for p in s["piles"])
    ]
    assert shown == fast_free[: len(shown)]
    user.tap("filter_fast")
    user.tap("filter_free")
    user.tap("sort_price")
    cheapest = min(_stations(world), key=lambda s: (s["prices"]["峰"] + s["fee"], s["distance"]))
    assert user.shown_stations()[0] == cheapest["id"]


def test_station_page_and_favourite(user: Driver, world: World) -> None:
    station = sorted(_stations(world), key=lambda s: s["distance"])[1]
    user.tap(f"station_{station['id']}")
    assert user.text("address") == station["address"]
    assert user.visible(text=f"电费¥0.{station['prices']['谷']:02d}/度")
    user.tap("favourite")
    assert [f["id"] for f in user.data["favourites"]] == [station["id"]]
    user.tap("favourite")
    assert user.data["favourites"] == []
    user.tap("share")  # the system share sheet offers WeChat
    assert user.ui.find("com.android.systemui:id/share_messenger") is not None


def test_starting_refuses_bad_piles_and_targets(user: Driver, world: World) -> None:
    busy = [p for s in _stations(world) for p in s["piles"] if p["status"] != "空闲"]
    user.tap("scan")
    for pile in ("99999999", busy[0]["id"]):
        user.type_into("pile", pile)
        user.refuse("start_charge")
    _, free = _free_pile(world)
    user.type_into("pile", free["id"])
    user.refuse("start_charge")  # no target
    user.type_into("target", "500")
    user.refuse("start_charge")  # more than the battery holds
    user.tap("mode_soc")
    user.type_into("target", "20")  # below the current SOC (35%)
    user.refuse("start_charge")
    assert user.data["session"] is None


def test_a_session_charges_stops_and_is_paid_from_the_balance(user: Driver, world: World) -> None:
    station, pile = _free_pile(world)
    user.start(pile["id"], "10")
    assert user.data["session"]["target"] == 1000
    user.act(Wait(time=30))
    assert user.text("state") == "已达到充电目标，请结束充电"
    user.tap("stop")
    user.tap("cancel")
    assert user.data["session"] is not None
    user.tap("stop")
    user.tap("confirm_stop")
    bill = user.data["bill"]
    assert bill["kwh"] == 1000
    price = station["prices"]["峰"]
    service = 10 * station["fee"]
    assert bill["total"] == 10 * price + service - bill["off"]
    assert bill["off"] == max(c["off"] for c in user.data["coupons"] if service >= c["min"])
    assert user.data["vehicles"][0]["soc"] == 35 + 1000 // 76
    balance = user.data["balance"]
    if balance < bill["total"]:
        user.tap("pay_balance")
        user.refuse("confirm_balance")
        return
    user.tap("pay_balance")
    user.tap("confirm_balance")
    assert user.data["balance"] == balance - bill["total"]
    assert user.data["history"][-1]["id"] == bill["id"]
    assert user.data["bill"] is None


def test_a_bill_is_paid_in_the_wallet(user: Driver, world: World) -> None:
    _, pile = _free_pile(world, "慢充")
    user.start(pile["id"], "80", mode="soc")
    user.act(Wait(time=5))
    user.tap("stop")
    user.tap("confirm_stop")
    total = user.data["bill"]["total"]
    wallet = user.app_state(WALLET)["balance_cents"]
    user.tap("pay_wallet")
    user.act(user.ui.tap(PAY_CONFIRM))
    assert user.app_state(WALLET)["balance_cents"] == wallet - total
    assert user.data["history"][-1]["paid_by"] == "钱包"
    assert f"¥{total // 100}.{total % 100:02d}" in user.ui.texts_in("bill_total")


def test_recharge_through_the_wallet(user: Driver) -> None:
    balance = user.data["balance"]
    user.tap("tab_me")
    user.tap("recharge")
    user.refuse("recharge_pay")
    user.tap("pkg_100")
    user.tap("recharge_pay")
    user.act(user.ui.tap(PAY_CONFIRM))
    assert user.data["balance"] == balance + 10000 + BONUS[10000]
    assert user.text("balance_now").endswith(f"{(balance + 10500) // 100}.{balance % 100:02d}")


def test_adding_a_vehicle_validates_the_plate(user: Driver) -> None:
    user.tap("tab_me")
    for plate, battery in (("ABC123", "60"), ("浙A·D12345", "60"), ("浙a12", "60"),
                           ("沪BD66778", "5")):  # fmt: skip
        user.tap("add_vehicle")  # a fresh form each time: typing appends to a field
        user.type_into("plate", plate)
        user.type_into("battery", battery)
        user.refuse("save_vehicle")
        assert user.visible("vehicle_error")
        while not user.visible("tab_me"):  # the first back may only hide the keyboard
            user.back()
    user.tap("add_vehicle")
    user.type_into("plate", "沪BD66778")
    user.type_into("battery", "60")
    user.tap("save_vehicle")
    assert user.data["vehicles"][-1]["plate"] == "沪B·D66778"
    assert user.visible(text="沪B·D66778")


def test_orders_list_totals(user: Driver, world: World) -> None:
    history = world.content(CHARGING)["history"]
    user.tap("tab_orders")
    total = sum(h["kwh"] for h in history)
    assert user.text("total_kwh") == f"累计充电 {total // 100}.{total % 100:02d}度"
    last = history[-1]
    user.tap(f"order_{last['id']}")
    assert user.text("bill_station") == last["name"]


def test_a_short_balance_refuses_and_an_open_session_blocks_another(
    user: Driver, world: World
) -> None:
    _, pile = _free_pile(world)
    user.start(pile["id"], "40")
    user.back()
    user.tap("ongoing")  # the list leads back to the running session
    assert user.visible("stop")
    user.back()
    user.tap("scan")
    user.type_into("pile", pile["id"])
    user.type_into("target", "5")
    user.refuse("start_charge")  # one session at a time
    while not user.visible("ongoing"):
        user.back()
    user.tap("ongoing")
    user.act(Wait(time=60))
    user.tap("stop")
    user.tap("confirm_stop")
    total = user.data["bill"]["total"]
    assert total > user.data["balance"]
    assert "不足" in user.text("balance_left")
    user.tap("pay_balance")
    user.refuse("confirm_balance")
    assert user.data["bill"]["total"] == total
    assert user.data["history"][-1]["id"] != user.data["bill"]["id"]
