"""What the Food app's screens share: constants, opening hours, delivery fees and times, and
the look-ups of restaurants, orders and carts.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, View
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, minute_of_day
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import Handler, Row, Text, Widget

FOOD_PACKAGE = "com.pw.food"
PRICE_RED: Color = (255, 77, 43)
CART_BAR: Color = (51, 51, 51)
AMBER: Color = (255, 170, 0)
MAX_TABLEWARE = 6
WELCOME_COUPON = {
    "id": "coupon-welcome",
    "title": "新人红包",
    "amount_cents": 500,
    "threshold_cents": 3000,
    "used": False,
}
# Order tracking: seconds after payment when the shop accepts and the rider picks up.
ACCEPT_S, PICKUP_S = 60, 600
SORTS = (
    ("default", "综合排序"),
    ("distance", "距离最近"),
    ("rating", "评分最高"),
    ("fee", "配送费最低"),
)


def money(cents: int) -> str:
    """'¥28', '¥28.5', '¥28.05' like Meituan prints prices."""
    text = f"{cents / 100:.2f}".rstrip("0").rstrip(".")
    return f"¥{text}"


def clock_text(epoch: int) -> str:
    return dt.datetime.fromtimestamp(epoch, BEIJING).strftime("%H:%M")


def date_text(epoch: int) -> str:
    return dt.datetime.fromtimestamp(epoch, BEIJING).strftime("%m-%d %H:%M")


def _minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def is_open(restaurant: Any, epoch: int) -> bool:
    """Opening hours may run past midnight (a barbecue open 17:00-02:00)."""
    now = minute_of_day(epoch)
    opens, closes = _minutes(restaurant["opens"]), _minutes(restaurant["closes"])
    if opens < closes:
        return opens <= now < closes
    return now >= opens or now < closes


def spec_of(dish: Any, choices: Sequence[int]) -> tuple[str, int]:
    """The spec label ('大份/微辣') and unit price of a dish with the given option choices."""
    names, price = [], int(dish["price_cents"])
    for group, choice in zip(dish["options"], choices, strict=True):
        names.append(group["choices"][choice])
        price += int(group["extra_cents"][choice])
    return "/".join(names), price


def cart_key(dish_id: str, choices: Sequence[int]) -> str:
    return "-".join([dish_id, *map(str, choices)])


def order_item(dish: Any, choices: Sequence[int], quantity: int) -> dict[str, Any]:
    """A line of a cart or an order: a dish with its chosen options."""
    spec, unit = spec_of(dish, choices)
    return {
        "id": cart_key(dish["id"], choices),
        "dish_id": dish["id"],
        "name": dish["name"],
        "spec": spec,
        "unit_cents": unit,
        "quantity": quantity,
    }


def items_cents(items: Sequence[Any]) -> int:
    return sum(int(i["unit_cents"]) * int(i["quantity"]) for i in items)


def order_status(order: Any, restaurant: Any, now: int) -> tuple[str, int]:
    """The tracking status of an order and how many of the four steps are done."""
    if order["status"] == "unpaid":
        return "待支付", 0
    if order["status"] == "cancelled":
        return "已取消", 0
    elapsed = now - int(order["paid_at"])
    if elapsed >= int(restaurant["delivery_minutes"]) * 60:
        return "已送达", 4
    if elapsed >= PICKUP_S:
        return "骑手配送中", 3
    if elapsed >= ACCEPT_S:
        return "商家已接单", 2
    return "等待商家接单", 1


class FoodBase(App):
    # -- lookups ------------------------------------------------------------------------------
    @staticmethod
    def restaurant(it: Interaction | View, restaurant_id: str) -> Any:
        restaurant = it.content["by_id"].get(restaurant_id)
        if restaurant is None and isinstance(it, Interaction):
            it.no_op(f"no restaurant {restaurant_id}")
        return restaurant

    @staticmethod
    def find_order(it: Interaction, order_id: str) -> dict[str, Any]:
        order = next((o for o in it.data["orders"] if o["id"] == order_id), None)
        if order is None:
            it.no_op(f"no order {order_id}")
        return order  # type: ignore[return-value]

    @staticmethod
    def cart_of(data: Any, restaurant_id: str) -> list[Any]:
        return [item for item in data["cart"] if item["restaurant_id"] == restaurant_id]


# -- helpers shared by screens and handlers ---------------------------------------------------
def best_coupon(coupons: Sequence[Any], subtotal: int) -> Any:
    usable = [c for c in coupons if not c["used"] and c["threshold_cents"] <= subtotal]
    return max(usable, key=lambda c: c["amount_cents"], default=None)


def order_total(restaurant: Any, subtotal: int, coupon: Any) -> int:
    discount = coupon["amount_cents"] if coupon else 0
    return subtotal + restaurant["packing_fee_cents"] + restaurant["delivery_fee_cents"] - discount


def new_order(
    order_id: str,
    restaurant: Any,
    items: list[dict[str, Any]],
    address: Any,
    placed_at: int,
    coupon: Any,
) -> dict[str, Any]:
    subtotal = items_cents(items)
    return {
        "id": order_id,
        "restaurant_id": restaurant["id"],
        "restaurant": restaurant["name"],
        "items": items,
        "items_cents": subtotal,
        "packing_cents": restaurant["packing_fee_cents"],
        "delivery_cents": restaurant["delivery_fee_cents"],
        "discount_cents": coupon["amount_cents"] if coupon else 0,
        "coupon_id": coupon["id"] if coupon else None,
        "total_cents": order_total(restaurant, subtotal, coupon),
        "address": {k: address[k] for k in ("id", "name", "phone", "text")},
        "tableware": None,
        "remark": "",
        "placed_at": placed_at,
        "paid_at": None,
        "status": "unpaid",
    }


def tableware_text(count: int | None) -> str:
    if count is None:
        return "未选择"
    return "无需餐具" if count == 0 else f"{count}份"


def category_tab(restaurant: Any, category: str) -> str:
    """The id of a menu category's tab (`tab_cat2` on screen)."""
    return f"cat{restaurant['categories'].index(category)}"


def default_choices(item: Any) -> list[int]:
    return [int(c) for c in item["id"].split("-")[2:]]


def choose_tableware(it: Interaction, count: int) -> None:
    it.set_ui("tableware", count)
    it.set_ui("dialog", None)


def restaurant_matches(restaurant: Any, query: str, cuisine: str) -> bool:
    if cuisine and restaurant["cuisine"] != cuisine:
        return False
    if not query:
        return True
    names = [restaurant["name"], restaurant["cuisine"], *(d["name"] for d in restaurant["dishes"])]
    return any(query in name for name in names)


def restaurant_sort_key(restaurant: Any, sort: str) -> float:
    return {
        "distance": restaurant["distance_m"],
        "rating": -restaurant["rating"],
        "fee": restaurant["delivery_fee_cents"],
    }.get(sort, 0)


def distance_text(meters: int) -> str:
    return f"{meters}m" if meters < 1000 else f"{meters / 1000:.1f}km"


def link_text(text: str, on_tap: Handler, widget_id: str) -> Widget:
    """A grey text action: Meituan's secondary actions are plain text, never yellow outlines."""
    return Text(
        text,
        size=40,
        color=theme.TEXT_SECONDARY,
        align="center",
        padding=24,
        on_tap=on_tap,
        id=widget_id,
    )


def fee_row(label: str, value: str, *, bold: bool = False) -> Widget:
    return Row(
        [Text(label, bold=bold, max_lines=1), Text(value, align="right", bold=bold)], weights=(3, 1)
    )


def tracking_steps(done: int) -> Widget:
    steps = ("已下单", "商家接单", "骑手取餐", "送达")
    return Row(
        [
            Text(
                ("● " if i < done else "○ ") + step,
                size=34,
                align="center",
                color=theme.TEXT if i < done else theme.TEXT_SECONDARY,
            )
            for i, step in enumerate(steps)
        ],
        spacing=8,
        id="tracking",
    )
