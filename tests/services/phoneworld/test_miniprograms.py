"""The mini-programs inside the messenger: the capsule frame, entering by search, card and the
recent list, and each program's handlers and edge cases, through `Device.act` and the UI tree."""

from __future__ import annotations

import re
from collections.abc import Iterable

import pytest

from phonebuddy.phoneworld.apps.messenger.miniprograms import PROGRAMS
from phonebuddy.phoneworld.apps.messenger.miniprograms.bike import ride_fee
from phonebuddy.phoneworld.apps.messenger.miniprograms.parking import parking_fee
from phonebuddy.phoneworld.apps.messenger.steps import (
    PAY_CONFIRM,
    facts,
    open_messenger,
    open_mini,
    open_private_chat,
    pass_first_use_prompts,
    shown_name,
)
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, CallTool, Wait

MESSENGER = "com.pw.messenger"


class Phone:
    """Drives a device like an agent; every step must have an effect."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.ui = OracleUI(device)

    def run(self, actions: Iterable[Action]) -> None:
        for action in actions:  # lazily: oracle steps read the screen between actions
            result = self.device.act(action)
            assert result.effect == "applied", (action, result.note)

    def tap(self, *widget_ids: str) -> None:
        for widget_id in widget_ids:
            self.run([self.ui.tap(widget_id)])

    def type_into(self, widget_id: str, text: str) -> None:
        self.run(self.ui.type_into(widget_id, text))

    def scroll_to(self, widget_id: str) -> None:
        self.run(self.ui.scroll_to(widget_id))

    def refused(self, widget_id: str) -> bool:
        return self.device.act(self.ui.tap(widget_id)).effect == "no_op"

    def text(self, widget_id: str) -> str:
        node = self.ui.find(widget_id)
        assert node is not None, widget_id
        return node.text

    def mini(self, name: str) -> dict:
        return self.device.state["apps"][MESSENGER]["mini"][name]


def enter(device: Device, name: str) -> Phone:
    phone = Phone(device)
    phone.run(open_mini(phone.ui, name))
    phone.run(pass_first_use_prompts(phone.ui))
    return phone


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_every_program_runs_in_the_capsule_frame_and_closes_back(device: Device, name: str) -> None:
    phone = enter(device, name)
    assert phone.text("mini_title") == PROGRAMS[name].title
    assert phone.ui.visible("mini_more")
    assert phone.ui.visible("mini_close")
    assert not phone.ui.visible("back"), "a mini-program has the capsule, not the app bar"
    phone.tap("mini_close")
    assert device.top_entry(MESSENGER)["screen"] == "minis", "⊙ returns to where it was opened"


def test_the_recent_list_and_the_tool_open_programs(device: Device) -> None:
    phone = Phone(device)
    recent = device.state["apps"][MESSENGER]["recent_minis"][0]
    phone.run(open_mini(phone.ui, recent, via_recent=True))
    phone.run(pass_first_use_prompts(phone.ui))
    assert phone.text("mini_title") == PROGRAMS[recent].title
    phone.tap("mini_close")
    phone.run([CallTool(name="open_mini_program", arguments={"name": "快递"})])
    assert phone.text("mini_title") == "裹裹快递"
    assert device.state["apps"][MESSENGER]["recent_minis"][0] == "parcels"
    phone.tap("mini_close")
    phone.run([CallTool(name="open_mini_program", arguments={"name": "生活缴费"})])
    assert device.state["apps"][MESSENGER]["recent_minis"][0] == "utilities"


def test_the_capsule_menu_restarts_the_program_at_its_home(device: Device) -> None:
    phone = enter(device, "movies")
    phone.tap("tab_cinemas", "cinema_ci1", "mini_more", "capsule_restart")
    entry = device.top_entry(MESSENGER)
    assert (entry["params"]["program"], entry["params"]["page"]) == ("movies", "home")


def test_a_card_in_a_chat_opens_its_program_page(device: Device, world: World) -> None:
    card = facts(world, "card", program="movies")[0]
    friend = next(f for f in world.content(MESSENGER)["friends"] if f["id"] == card["friend"])
    phone = Phone(device)
    phone.run(open_private_chat(phone.ui, shown_name(friend), friend["id"]))
    phone.run(phone.ui.scroll_to(text=card["title"], scroll="messages"))
    phone.run([phone.ui.tap(text=card["title"])])
    entry = device.top_entry(MESSENGER)
    assert (entry["params"]["program"], entry["params"]["page"]) == ("movies", "film")
    assert phone.ui.visible("film_title")


def _first_drink(device: Device) -> str:
    drinks = device.world.content(MESSENGER)["mini"]["coffee"]["drinks"]
    return next(d["id"] for d in drinks if not d["sold_out"])


def test_coffee_order_paid_gets_a_pickup_code_and_a_wallet_bill(device: Device) -> None:
    phone = enter(device, "coffee")
    drink = _first_drink(device)
    phone.scroll_to(f"drink_{drink}")
    phone.tap(f"drink_{drink}", "size_large", "qty_plus", "add_to_cart", "go_checkout",
              "submit_order")  # fmt: skip
    assert device.foreground == "com.pw.wallet"
    phone.tap(PAY_CONFIRM)
    order = phone.mini("coffee")["orders"][0]
    assert (order["status"], order["items"][0]["qty"], order["items"][0]["size"]) == (
        "paid", 2, "大杯")  # fmt: skip
    assert phone.text("pickup_code") == order["pickup_code"]
    bill = device.state["apps"]["com.pw.wallet"]["bills"][-1]
    assert bill["reference"] == f"coffee:{order['id']}"
    assert bill["amount_cents"] == order["total_cents"]
    assert phone.mini("coffee")["cart"] == []


def test_a_cancelled_coffee_payment_leaves_the_order_to_pay_later(device: Device) -> None:
    phone = enter(device, "coffee")
    drink = _first_drink(device)
    phone.scroll_to(f"drink_{drink}")
    phone.tap(f"drink_{drink}", "add_to_cart", "go_checkout", "submit_order",
              "com.pw.wallet:id/pay_cancel")  # fmt: skip
    assert phone.mini("coffee")["orders"][0]["status"] == "unpaid"
    assert phone.text("order_status") == "待支付"
    assert phone.ui.visible("pay_order")


def test_sold_out_drinks_cannot_be_added(device: Device) -> None:
    phone = enter(device, "coffee")
    drinks = device.world.content(MESSENGER)["mini"]["coffee"]["drinks"]
    sold_out = next(d["id"] for d in drinks if d["sold_out"])
    phone.scroll_to(f"drink_{sold_out}")
    phone.tap(f"drink_{sold_out}")
    assert phone.refused("add_to_cart")
    assert phone.mini("coffee")["cart"] == []


def test_the_new_customer_coupon_is_taken_off_the_first_order(world: World) -> None:
    device = Device(world)
    device.state["apps"][MESSENGER]["mini"]["coffee"]["welcome_shown"] = False  # a first visit
    device.version += 1
    phone = Phone(device)
    phone.run(open_mini(phone.ui, "coffee"))
    drink = _first_drink(device)
    phone.tap("coupon_claim")
    phone.scroll_to(f"drink_{drink}")
    phone.tap(f"drink_{drink}", "add_to_cart", "go_checkout", "submit_order", PAY_CONFIRM)
    order = phone.mini("coffee")["orders"][0]
    assert (order["discount_cents"], order["total_cents"]) == (500, order["subtotal_cents"] - 500)
    assert phone.mini("coffee")["coupons"][0]["used"] is True


def test_parking_fee_runs_from_entry_to_the_device_clock() -> None:
    lot = {"rate_cents": 600, "cap_cents": 5000}
    assert parking_fee(lot, 0, 15 * 60) == 0, "the first 15 minutes are free"
    assert parking_fee(lot, 0, 16 * 60) == 600
    assert parking_fee(lot, 0, 2 * 3600 + 60) == 1800, "every started hour counts"
    assert parking_fee(lot, 0, 20 * 3600) == 5000, "capped for the day"


def test_parking_pay_then_the_record_shows_paid_and_bad_plates_are_refused(
    device: Device,
) -> None:
    phone = enter(device, "parking")
    phone.type_into("query", "12345")
    assert phone.refused("query_submit")
    plate = phone.mini("parking")["plates"][0]["number"]
    phone.run([phone.ui.back()])  # hide the keyboard
    phone.tap(f"plate_{plate}", "pay_now", PAY_CONFIRM)
    payment = phone.mini("parking")["payments"][0]
    assert (payment["plate"], payment["status"]) == (plate, "paid")
    assert phone.text("session_fee") == "¥0.00"
    assert not phone.ui.visible("pay_now")


def test_paying_again_after_backing_out_retries_the_same_payment(device: Device) -> None:
    phone = enter(device, "parking")
    plate = phone.mini("parking")["plates"][0]["number"]
    phone.tap(f"plate_{plate}", "pay_now", "com.pw.wallet:id/pay_cancel")
    assert [p["status"] for p in phone.mini("parking")["payments"]] == ["cancelled"]
    phone.tap("pay_now", PAY_CONFIRM)
    assert [p["status"] for p in phone.mini("parking")["payments"]] == ["paid"]


def test_binding_a_plate_twice_is_refused_and_plates_are_normalized(device: Device) -> None:
    phone = enter(device, "parking")
    plates = phone.mini("parking")["plates"]
    count = len(plates)
    phone.tap("add_plate")
    phone.type_into("plate", plates[0]["number"].lower())
    assert phone.refused("save_plate")
    phone.run([phone.ui.back(), phone.ui.back()])
    phone.tap("add_plate")
    phone.type_into("plate", "浙a·12345")
    phone.tap("save_plate")
    assert [p["number"] for p in phone.mini("parking")["plates"]][count:] == ["浙A12345"]


def test_a_broken_bike_does_not_unlock_and_a_ride_is_priced_by_the_clock(device: Device) -> None:
    bikes = device.world.content(MESSENGER)["mini"]["bike"]["bikes"]
    broken = next(b["id"] for b in bikes if b["broken"])
    working = next(b["id"] for b in bikes if not b["broken"])
    phone = enter(device, "bike")

    def unlock(bike: str) -> None:
        phone.scroll_to("scan")
        phone.tap("scan")
        phone.scroll_to("bike_number")
        phone.type_into("bike_number", bike)
        phone.run([phone.ui.enter()])
        phone.tap("unlock")

    unlock(broken)
    assert phone.ui.visible("broken_ok")
    assert phone.mini("bike")["rides"] == []
    phone.tap("broken_ok")
    phone.run([phone.ui.back(), phone.ui.back()])
    unlock(working)
    phone.run([Wait(time=60)])
    phone.tap("end_ride", "confirm_end")
    ride = phone.mini("bike")["rides"][0]
    assert ride["status"] == "unpaid"
    assert ride["end"] - ride["start"] >= 60
    assert ride["fee_cents"] == ride_fee(ride["end"] - ride["start"]) == 150
    phone.tap("pay_ride", PAY_CONFIRM)
    assert phone.mini("bike")["rides"][0]["status"] == "paid"


def test_sold_seats_cannot_be_chosen_and_at_most_four_are(device: Device) -> None:
    showtime = device.world.content(MESSENGER)["mini"]["movies"]["showtimes"][0]
    phone = enter(device, "movies")
    phone.tap(f"film_{showtime['film']}")
    phone.scroll_to(f"cinema_{showtime['cinema']}")
    phone.tap(f"cinema_{showtime['cinema']}", f"show_{showtime['time'].replace(':', '')}")
    row, column = showtime["sold"][0][:-1].split("排")
    assert phone.refused(f"seat_{row}_{column}")
    seat = re.compile(rf"{MESSENGER}:id/seat_\d+_\d+$")
    free = [n.resource_id for n in phone.ui.find_all() if seat.match(n.resource_id) and n.enabled]
    phone.tap(*free[:4])
    assert phone.refused(free[4])
    assert phone.text("chosen_seats").count("座") == 4


def test_unknown_numbers_show_no_route_and_a_tracked_number_offers_removal(
    device: Device,
) -> None:
    phone = enter(device, "parcels")
    phone.type_into("number", "sf 9999999999")
    phone.run([phone.ui.enter()])
    assert "暂无物流信息" in phone.text("detail_status")
    phone.tap("track")
    assert not phone.ui.visible("track")
    assert phone.ui.visible("untrack")
    assert phone.mini("parcels")["tracked"][0]["number"] == "SF9999999999"
    phone.run([phone.ui.back()])
    phone.tap("query_submit")
    assert phone.ui.visible("untrack"), "looking it up again finds it tracked"
    phone.tap("untrack")
    assert all(t["number"] != "SF9999999999" for t in phone.mini("parcels")["tracked"])


def test_payment_results_for_unknown_programs_or_orders_change_nothing(device: Device) -> None:
    phone = Phone(device)
    phone.run(open_messenger(phone.ui))
    before = device.snapshot()["apps"][MESSENGER]
    device.complete_payment(MESSENGER, "unknown:x-1", paid=True)
    device.complete_payment(MESSENGER, "coffee:no-such-order", paid=True)
    assert device.state["apps"][MESSENGER] == before


def test_adding_a_mini_program_changes_no_other_programs_content_or_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from phonebuddy.phoneworld.apps.messenger.app import Messenger
    from phonebuddy.phoneworld.world import seeded_rng

    messenger = Messenger()

    def built() -> tuple[dict, dict]:
        content = messenger.build_content(seeded_rng("content", 0, "messenger"))
        data = messenger.initial_data(content, seeded_rng("data", 0, 0, "messenger"))
        return dict(content["mini"]), data["mini"]

    content, data = built()
    monkeypatch.delitem(PROGRAMS, "coffee")  # as if coffee were the program added last
    fewer_content, fewer_data = built()
    assert fewer_content == {name: c for name, c in content.items() if name != "coffee"}
    assert fewer_data == {name: d for name, d in data.items() if name != "coffee"}
