"""The 街电充电宝, 加油助手 and 社区团购 mini-programs: their pages, every handler's effect on
the state, payments through the wallet, and what they refuse (bad input changes nothing)."""

from __future__ import annotations

import pytest

from phonebuddy.phoneworld.apps.messenger.miniprograms.fuel import fill, parse_hundredths
from phonebuddy.phoneworld.apps.messenger.miniprograms.powerbank import DEPOSIT_CENTS, rental_fee
from phonebuddy.phoneworld.apps.messenger.steps import PAY_CONFIRM
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.testing import enter_mini as enter

# -- 街电充电宝 -------------------------------------------------------------------------------


def test_the_fee_counts_started_half_hours_with_a_daily_cap() -> None:
    assert rental_fee(0) == 200
    assert rental_fee(1800) == 200
    assert rental_fee(1801) == 400
    assert rental_fee(6 * 3600) == 2000
    assert rental_fee(86400 + 60) == 2200


def test_rent_free_and_return_pays_the_fee(device: Device) -> None:
    phone = enter(device, "powerbank")
    stations = phone.content("powerbank")["stations"]
    start = next(s for s in stations if phone.mini("powerbank")["banks"][s["id"]] > 0)
    banks = phone.mini("powerbank")["banks"][start["id"]]
    phone.tap(f"station_{start['id']}")
    assert phone.text("station_address") == start["address"]
    phone.tap("rent_free")
    assert phone.mini("powerbank")["rental"]["station"] == start["id"]
    assert phone.mini("powerbank")["banks"][start["id"]] == banks - 1
    assert phone.ui.visible("return_here")
    before = phone.balance()
    phone.tap("return_here", PAY_CONFIRM)
    order = phone.mini("powerbank")["orders"][0]
    assert (order["status"], order["fee_cents"]) == ("paid", 200)
    assert phone.balance() == before - 200
    assert phone.mini("powerbank")["rental"] is None


def test_an_empty_station_refuses_to_lend_and_a_full_one_to_take_back(device: Device) -> None:
    phone = enter(device, "powerbank")
    stations = phone.content("powerbank")["stations"]
    empty = next(s for s in stations if phone.mini("powerbank")["banks"][s["id"]] == 0)
    full = next(s for s in stations if phone.mini("powerbank")["banks"][s["id"]] == s["capacity"])
    phone.tap(f"station_{empty['id']}")
    assert phone.refused("rent_free")
    assert phone.text("station_error") == "该网点暂无可借充电宝"
    assert phone.mini("powerbank")["rental"] is None
    phone.run([phone.ui.back()])
    other = next(
        s for s in stations if s is not full and phone.mini("powerbank")["banks"][s["id"]] > 0
    )
    phone.tap(f"station_{other['id']}", "rent_free")
    phone.run([phone.ui.back()])
    phone.tap(f"station_{full['id']}")
    assert phone.refused("return_here")
    assert phone.text("station_error") == "该网点没有空闲卡槽，请换一个网点归还"
    assert phone.mini("powerbank")["rental"] is not None


def test_renting_with_a_deposit_pays_99_yuan(device: Device) -> None:
    phone = enter(device, "powerbank")
    stations = phone.content("powerbank")["stations"]
    start = next(s for s in stations if phone.mini("powerbank")["banks"][s["id"]] > 0)
    before = phone.balance()
    phone.tap(f"station_{start['id']}", "rent_deposit", PAY_CONFIRM)
    assert phone.mini("powerbank")["rental"]["mode"] == "deposit"
    assert phone.balance() == before - DEPOSIT_CENTS


# -- 加油助手 ---------------------------------------------------------------------------------


def test_fill_sums_and_coupon_threshold() -> None:
    coupon = {"threshold_cents": 20000, "off_cents": 1500}
    sums = fill(800, "yuan", 20000, coupon)
    assert (sums["gross_cents"], sums["centilitres"]) == (20000, 2500)
    assert (sums["discount_cents"], sums["paid_cents"]) == (1500, 18500)
    assert fill(800, "litre", 1000, coupon)["discount_cents"] == 0
    assert fill(800, "litre", 1000, None)["paid_cents"] == 8000
    assert parse_hundredths("30.5") == 3050
    assert parse_hundredths("1.234") is None


def test_filling_up_by_yuan_with_a_coupon_is_paid_exactly(device: Device) -> None:
    phone = enter(device, "fuel")
    station = phone.content("fuel")["stations"][0]
    before = phone.balance()
    phone.tap(f"station_{station['id']}", "fuel_95")
    phone.type_into("pump", "3")
    phone.type_into("amount", "300")
    phone.tap("coupon_cp2", "pay_fuel", PAY_CONFIRM)
    receipt = phone.mini("fuel")["receipts"][0]
    assert (receipt["fuel"], receipt["pump"], receipt["paid_cents"], receipt["status"]) == (
        "95", 3, 27000, "paid")  # fmt: skip
    assert receipt["unit_cents"] == station["prices"]["95"]
    assert phone.balance() == before - 27000
    assert not phone.ui.visible("coupon_cp2")


@pytest.mark.parametrize(
    ("pump", "amount", "coupon", "error"),
    [("0", "100", None, "请输入正确的油枪号"), ("99", "100", None, "请输入正确的油枪号"),
     ("2", "", None, "请输入正确的加油金额或升数"), ("2", "2000.01", None, "单笔加油金额不能超过"),
     ("2", "150", "coupon_cp1", "未满¥200.00，不能使用该优惠券")],
)  # fmt: skip
def test_bad_fuel_orders_are_refused(
    device: Device, pump: str, amount: str, coupon: str | None, error: str
) -> None:
    phone = enter(device, "fuel")
    station = phone.content("fuel")["stations"][0]
    phone.tap(f"station_{station['id']}")
    phone.type_into("pump", pump)
    if amount:
        phone.type_into("amount", amount)
    if coupon:
        phone.tap(coupon)
    assert phone.refused("pay_fuel")
    assert phone.text("fuel_error").startswith(error)
    assert phone.mini("fuel")["receipts"] == []


# -- 社区团购 ---------------------------------------------------------------------------------


def test_cart_order_pay_code_and_cancel(device: Device) -> None:
    phone = enter(device, "groupbuy")
    items = phone.content("groupbuy")["items"]
    fruit = next(g for g in items if g["kind"] == "fruit" and g["stock"] >= 3)
    phone.tap(f"add_{fruit['id']}", f"add_{fruit['id']}")
    assert phone.mini("groupbuy")["cart"] == {fruit["id"]: 2}
    before = phone.balance()
    phone.tap("open_cart")
    assert phone.text("cart_total") == f"合计 ¥{fruit['price_cents'] * 2 / 100:.2f}"
    phone.tap("point_2", "place_order", PAY_CONFIRM)
    order = phone.mini("groupbuy")["orders"][0]
    assert (order["status"], order["total_cents"]) == ("paid", fruit["price_cents"] * 2)
    assert order["point"] == "文苑社区服务中心"
    assert len(order["code"]) == 6
    assert phone.balance() == before - order["total_cents"]
    assert phone.mini("groupbuy")["cart"] == {}
    assert phone.mini("groupbuy")["stock"][fruit["id"]] == fruit["stock"] - 2
    phone.run([phone.ui.back()])
    phone.tap("my_orders", f"order_{order['id']}")
    assert phone.text("pickup_code") == f"提货码 {order['code']}"
    phone.tap("cancel_order")
    assert order["status"] == "paid"
    phone.tap("confirm_cancel")
    assert phone.mini("groupbuy")["orders"][0]["status"] == "cancelled"
    assert phone.mini("groupbuy")["stock"][fruit["id"]] == fruit["stock"]


def test_sold_out_stock_limits_and_empty_cart_are_refused(device: Device) -> None:
    phone = enter(device, "groupbuy")
    items = phone.content("groupbuy")["items"]
    assert phone.refused(f"add_{items[0]['id']}")
    assert phone.text("shop_error") == "该商品已抢光"
    few = next(g for g in items if g["kind"] == "fruit" and g["stock"] in (3, 5))
    for _ in range(few["stock"]):
        phone.tap(f"add_{few['id']}")
    assert phone.refused(f"add_{few['id']}")
    assert phone.mini("groupbuy")["cart"] == {few["id"]: few["stock"]}
    phone.tap("open_cart")
    for _ in range(few["stock"]):
        phone.tap(f"less_{few['id']}")
    assert phone.refused("place_order")
    assert phone.text("cart_error") == "购物车是空的"
    assert len(phone.mini("groupbuy")["orders"]) == 3
