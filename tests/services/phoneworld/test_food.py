"""The Food app through the action interface: the add_to_cart tool and the menu buttons share
one handler, the minimum order and opening hours hold, the welcome red packet is applied at
checkout, a cancelled payment leaves the order unpaid, and tracking follows the clock."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.food.base import FOOD_PACKAGE, is_open
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool, Wait

WALLET = "com.pw.wallet"


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    def open_food(self, *, accept_red_packet: bool = False) -> None:
        self.open("外卖")
        if self.ui.visible("promo_close"):
            self.tap("promo_accept" if accept_red_packet else "promo_close")

    def open_shop(self, shop: Any) -> None:
        self.scroll_to(f"shop_{shop['id']}")
        self.tap(f"shop_{shop['id']}")

    @property
    def data(self) -> Any:
        return self.app_state(FOOD_PACKAGE)


def _shops(world: World) -> list[Any]:
    return list(world.content(FOOD_PACKAGE)["restaurants"])


def _open_shop_with_plain_dish(world: World, device: Device) -> tuple[Any, Any]:
    """A restaurant open now whose first menu tab starts with a dish without options."""
    now = device.state["os"]["clock"]
    for shop in _shops(world):
        first = [d for d in shop["dishes"] if d["category"] == shop["categories"][0]]
        if is_open(shop, now) and not first[0]["options"]:
            return shop, first[0]
    raise AssertionError("no suitable restaurant")


@pytest.fixture
def user(device: Device) -> Driver:
    return Driver(device)


def test_the_tool_and_the_plus_button_fill_the_same_cart(world: World) -> None:
    by_hand, by_tool = Driver(Device(world)), Driver(Device(world))
    shop, dish = _open_shop_with_plain_dish(world, by_hand.device)
    by_hand.open_food()
    by_hand.open_shop(shop)
    by_hand.tap(f"add_{dish['id']}")
    by_hand.tap(f"add_{dish['id']}")
    by_tool.open_food()
    by_tool.act(
        CallTool(
            name="add_to_cart",
            arguments={"restaurant_id": shop["name"], "dish_id": dish["name"], "quantity": 2},
        )
    )
    assert by_hand.data["cart"] == by_tool.data["cart"]
    assert by_hand.data["cart"][0]["quantity"] == 2


def test_checkout_waits_for_the_minimum_order(world: World, user: Driver) -> None:
    shop, dish = _open_shop_with_plain_dish(world, user.device)
    user.open_food()
    user.open_shop(shop)
    assert user.text("checkout").endswith("起送")
    assert user.device.act(user.ui.tap("checkout")).effect == "no_op"
    while (
        user.data["cart"] == []
        or sum(i["unit_cents"] * i["quantity"] for i in user.data["cart"]) < shop["min_order_cents"]
    ):
        user.tap(f"add_{dish['id']}")
    assert user.text("checkout") == "去结算"
    user.tap("checkout")
    assert user.ui.visible("submit_order")


def test_a_closed_restaurant_takes_no_orders(world: World, user: Driver) -> None:
    now = user.device.state["os"]["clock"]
    closed = next(s for s in _shops(world) if not is_open(s, now))
    dish = closed["dishes"][0]
    user.open_food()
    user.open_shop(closed)
    assert not user.ui.visible(f"add_{dish['id']}")
    assert user.text("checkout") == "休息中"
    result = user.device.act(
        CallTool(
            name="add_to_cart",
            arguments={"restaurant_id": closed["id"], "dish_id": dish["id"], "quantity": 1},
        )
    )
    assert result.effect == "no_op"
    assert user.data["cart"] == []


def _fill_cart_and_checkout(world: World, user: Driver, cents: int) -> Any:
    shop, dish = _open_shop_with_plain_dish(world, user.device)
    quantity = -(-max(cents, shop["min_order_cents"]) // dish["price_cents"])
    user.act(
        CallTool(
            name="add_to_cart",
            arguments={"restaurant_id": shop["id"], "dish_id": dish["id"], "quantity": quantity},
        )
    )
    user.open_shop(shop)
    user.tap("checkout")
    user.tap("tableware")
    user.tap("tableware_1")
    return shop


def test_the_red_packet_is_applied_at_checkout(world: World, device: Device) -> None:
    device.state["apps"][FOOD_PACKAGE]["promo_seen"] = False
    user = Driver(device)
    user.open_food(accept_red_packet=True)
    assert [c["id"] for c in user.data["coupons"]] == ["coupon-welcome"]
    _fill_cart_and_checkout(world, user, 3000)
    user.tap("submit_order")
    user.tap(f"{WALLET}:id/pay_confirm")
    order = user.data["orders"][-1]
    assert order["discount_cents"] == 500
    assert order["status"] == "paid"
    assert (
        order["total_cents"]
        == order["items_cents"] + order["packing_cents"] + order["delivery_cents"] - 500
    )
    assert user.data["coupons"][0]["used"] is True


def test_a_cancelled_payment_leaves_the_order_unpaid(world: World, user: Driver) -> None:
    user.open_food()
    _fill_cart_and_checkout(world, user, 0)
    user.tap("submit_order")
    user.tap(f"{WALLET}:id/pay_cancel")
    assert user.data["orders"][-1]["status"] == "unpaid"
    assert user.text("order_status") == "待支付"
    assert user.ui.visible("pay_order")


def test_tracking_follows_the_clock(world: World, user: Driver) -> None:
    user.open_food()
    _fill_cart_and_checkout(world, user, 0)
    user.tap("submit_order")
    user.tap(f"{WALLET}:id/pay_confirm")
    assert user.text("order_status") == "等待商家接单"
    user.act(Wait(time=60))
    assert user.text("order_status") == "商家已接单"
    for _ in range(10):
        user.act(Wait(time=60))
    assert user.text("order_status") == "骑手配送中"
