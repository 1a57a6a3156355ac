"""The 扫码点餐 and 快递寄件 mini-programs: their pages, every handler's effect on the state,
payments through the wallet, and what they refuse (bad input changes nothing)."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms import PROGRAMS
from phonebuddy.phoneworld.apps.messenger.miniprograms.dining_rules import line_key, totals
from phonebuddy.phoneworld.apps.messenger.miniprograms.shipping_rules import (
    billed_kilos,
    freight,
    insure_fee,
    parse_weight,
    rate_for,
)
from phonebuddy.phoneworld.apps.messenger.steps import PAY_CONFIRM
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.testing import MESSENGER, WALLET
from phonebuddy.phoneworld.testing import MiniProgramPhone as Phone
from phonebuddy.phoneworld.testing import enter_mini as enter

# -- 扫码点餐 --------------------------------------------------------------------------------


def _dishes(phone: Phone, restaurant: str) -> list[Any]:
    return [d for d in phone.content("restaurant")["dishes"] if d["restaurant"] == restaurant]


def _add_dish(phone: Phone, dish: Any, spice: int = 1, size: str = "l") -> None:
    phone.tap(f"tab_{dish['category']}", f"dish_{dish['id']}")
    if dish["spicy"]:
        phone.tap(f"spice_{spice}")
    if dish["large_extra_cents"]:
        phone.tap(f"size_{size}")
    phone.tap("add_to_cart")


def test_the_sums_apply_a_coupon_to_the_dishes_only() -> None:
    coupon = {"threshold_cents": 10000, "off_cents": 1000}
    assert totals(9900, 3, 200, coupon)["total_cents"] == 9900 + 600
    assert totals(10000, 3, 200, coupon)["total_cents"] == 10000 + 600 - 1000
    assert line_key("d3", -1, "") == "d3_x_n"


def test_ordering_with_specs_people_and_a_coupon_pays_and_shows_the_number(
    device: Device,
) -> None:
    phone = enter(device, "restaurant")
    rest = phone.content("restaurant")["restaurants"][0]
    dishes = [d for d in _dishes(phone, rest["id"]) if not d["sold_out"]]
    big = max(dishes, key=lambda d: d["price_cents"])
    phone.tap(f"restaurant_{rest['id']}")
    _add_dish(phone, big)
    _add_dish(phone, big)
    assert device.foreground == MESSENGER
    phone.tap("open_cart")
    key = line_key(big["id"], 1 if big["spicy"] else -1, "l" if big["large_extra_cents"] else "")
    assert phone.mini("restaurant")["carts"][rest["id"]] == {key: 2}
    phone.tap(f"more_{key}", f"less_{key}")
    assert phone.refused("place_order"), "no table yet"
    phone.type_into("table", "0")
    assert phone.refused("place_order"), "no table 0"
    phone.type_into("table", "8")
    assert phone.refused("place_order"), "no people chosen"
    phone.tap("people_4")
    phone.type_into("remark", "少放盐")
    phone.tap("coupon_cp3")
    unit = big["price_cents"] + big["large_extra_cents"]
    if unit * 2 < 30000:
        assert phone.refused("place_order"), "below the coupon's threshold"
        phone.tap("coupon_cp3")
    phone.tap("coupon_cp1")
    before = phone.balance()
    phone.tap("place_order")
    assert device.foreground == WALLET
    phone.tap(PAY_CONFIRM)
    order = phone.mini("restaurant")["orders"][0]
    want = totals(unit * 2, 4, rest["fee_cents"], phone.content("restaurant")["coupons"][0])
    assert order["total_cents"] == want["total_cents"]
    assert (order["table"], order["people"], order["remark"], order["coupon"]) == (
        8,
        4,
        "少放盐",
        "cp1",
    )
    assert order["status"] == "cooking"
    assert phone.balance() == before - want["total_cents"]
    assert phone.last_bill()["reference"] == f"restaurant:{order['id']}"
    assert phone.text("pickup_number") == f"取餐号 {order['number']}"
    assert rest["id"] not in phone.mini("restaurant")["carts"]


def test_sold_out_and_unspecified_dishes_are_refused(device: Device) -> None:
    phone = enter(device, "restaurant")
    rest = phone.content("restaurant")["restaurants"][2]
    gone = next(d for d in _dishes(phone, rest["id"]) if d["sold_out"])
    spicy = next(d for d in _dishes(phone, rest["id"]) if d["spicy"] and not d["sold_out"])
    phone.tap(f"restaurant_{rest['id']}", f"tab_{gone['category']}", f"dish_{gone['id']}")
    assert phone.refused("add_to_cart")
    phone.run([phone.ui.back()])
    phone.tap(f"tab_{spicy['category']}", f"dish_{spicy['id']}")
    assert phone.refused("add_to_cart"), "no spice level chosen"
    assert phone.mini("restaurant")["carts"] == {}


def test_adding_dishes_to_the_open_order_pays_only_the_addition(device: Device) -> None:
    phone = enter(device, "restaurant")
    order = next(o for o in phone.mini("restaurant")["orders"] if o["status"] == "cooking")
    dish = next(
        d
        for d in _dishes(phone, order["restaurant"])
        if not d["sold_out"] and not d["spicy"] and not d["large_extra_cents"]
    )
    total, lines = order["total_cents"], len(order["lines"])
    phone.tap("my_orders", f"order_{order['id']}", "add_dishes")
    _add_dish(phone, dish)
    phone.tap("open_cart", "place_order", PAY_CONFIRM)
    order = next(o for o in phone.mini("restaurant")["orders"] if o["id"] == order["id"])
    assert order["total_cents"] == total + dish["price_cents"]
    assert len(order["lines"]) == lines + 1
    assert order["pending"] is None
    assert phone.last_bill()["reference"] == f"restaurant:{order['id']}+1"


# -- 快递寄件 --------------------------------------------------------------------------------


def test_weights_are_billed_by_the_started_kilogram() -> None:
    assert parse_weight("2.5") == 25
    assert parse_weight("2.55") is None
    assert parse_weight("3kg") == 30
    assert billed_kilos(25) == 3
    assert billed_kilos(3) == 1
    assert freight({"first_cents": 1200, "extra_cents": 500}, 25) == 2200
    assert insure_fee(0) == 0
    assert insure_fee(5000) == 100
    assert insure_fee(250000) == 2500


def test_a_new_recipient_is_validated_and_saved(device: Device) -> None:
    phone = enter(device, "shipping")
    phone.tap("address_book", "book_add")
    phone.type_into("name", "周小雨")
    phone.type_into("phone", "1381234567")
    phone.tap("prov_5")
    phone.type_into("address", "广州市天河区体育西路191号")
    before = list(phone.mini("shipping")["recipients"])
    assert phone.refused("save_recipient"), "ten digits"
    phone.type_into("phone", "8")
    phone.tap("save_recipient")
    added = phone.mini("shipping")["recipients"][-1]
    assert len(phone.mini("shipping")["recipients"]) == len(before) + 1
    assert (added["name"], added["phone"], added["province"]) == ("周小雨", "13812345678", "广东")


def test_sending_a_parcel_prices_it_pays_and_can_be_cancelled(device: Device) -> None:
    phone = enter(device, "shipping")
    content = phone.content("shipping")
    recipient = content["recipients"][3]
    full = next(s for s in content["slots"] if s["full"])
    free = next(s for s in content["slots"] if not s["full"])
    phone.tap("new_shipment")
    assert phone.refused("submit_shipment"), "nothing chosen"
    phone.tap(f"rcpt_{recipient['id']}", "item_digital")
    phone.type_into("weight", "2.3")
    phone.tap("courier_sf")
    assert phone.refused(f"slot_{full['id']}")
    phone.tap(f"slot_{free['id']}")
    phone.type_into("insured", "2000")
    cost = freight(rate_for(content, "sf", recipient["province"]), 23)
    assert phone.text("send_total") == f"合计 ¥{(cost + 2000) / 100:.2f}"
    before = phone.balance()
    phone.tap("submit_shipment", PAY_CONFIRM)
    order = phone.mini("shipping")["orders"][0]
    assert (order["status"], order["total_cents"], order["insure_fee_cents"]) == (
        "waiting",
        cost + 2000,
        2000,
    )
    assert phone.balance() == before - cost - 2000
    assert phone.text("waybill") == f"运单号 {order['waybill']}"
    assert order["waybill"].startswith("SF")
    phone.tap("cancel_shipment", "cancel")
    assert order["status"] == "waiting", "取消 keeps it"
    phone.tap("cancel_shipment", "confirm_cancel")
    assert phone.mini("shipping")["orders"][0]["status"] == "cancelled"


def test_the_price_table_lists_every_courier_for_a_province(device: Device) -> None:
    phone = enter(device, "shipping")
    content = phone.content("shipping")
    phone.tap("price_table", "prov_9")
    rate = rate_for(content, "zto", "四川")
    assert f"首重1kg ¥{rate['first_cents'] / 100:.2f}" in phone.text("rate_zto") or any(
        f"¥{rate['first_cents'] / 100:.2f}" in c.text for c in phone.ui.find("rate_zto").children
    )


def test_both_programs_are_found_by_search_in_the_mini_program_list(device: Device) -> None:
    assert PROGRAMS["restaurant"].matches("点餐")
    assert PROGRAMS["shipping"].matches("寄快递")
    assert not PROGRAMS["shipping"].matches("点餐")
    assert enter(device, "shipping").text("new_shipment") == "寄快递"


def test_declining_the_payment_leaves_the_shipment_cancelled_and_unpaid(device: Device) -> None:
    phone = enter(device, "shipping")
    content = phone.content("shipping")
    free = next(s for s in content["slots"] if not s["full"])
    phone.tap("new_shipment", "rcpt_rc1", "item_doc")
    phone.type_into("weight", "0.5")
    phone.type_into("insured", "12.5")
    phone.tap("courier_zto", f"slot_{free['id']}")
    assert phone.refused("submit_shipment"), "the insured value is whole yuan"
    before = phone.balance()
    phone.type_into("weight", "0")  # '0.50' is no longer a weight
    assert phone.refused("submit_shipment")
    assert phone.balance() == before
    assert [o["id"] for o in phone.mini("shipping")["orders"]] == [
        o["id"] for o in content["orders"]
    ]


def test_the_order_history_lists_every_order_with_its_status(device: Device) -> None:
    phone = enter(device, "restaurant")
    phone.tap("my_orders")
    for order in phone.mini("restaurant")["orders"]:
        phone.run(phone.ui.scroll_to(f"order_{order['id']}"))
        assert phone.ui.find(f"order_{order['id']}") is not None
    open_order = phone.mini("restaurant")["orders"][0]
    phone.tap(f"order_{open_order['id']}")
    assert phone.text("order_status") == "制作中"
    assert phone.text("pickup_number") == f"取餐号 {open_order['number']}"


def test_declining_a_dining_payment_cancels_the_order_and_keeps_the_cart(device: Device) -> None:
    phone = enter(device, "restaurant")
    rest = phone.content("restaurant")["restaurants"][1]
    dish = next(d for d in _dishes(phone, rest["id"]) if not d["sold_out"])
    phone.tap(f"restaurant_{rest['id']}")
    _add_dish(phone, dish, size="s")
    phone.tap("open_cart")
    phone.type_into("table", "3")
    phone.tap("people_2", "place_order", "pay_cancel")
    order = phone.mini("restaurant")["orders"][0]
    assert order["status"] == "cancelled"
    assert phone.mini("restaurant")["carts"][rest["id"]]
