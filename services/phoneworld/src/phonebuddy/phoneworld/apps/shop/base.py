"""What the Shop's screens share: constants, catalogue sorting and filtering, look-ups of
products, orders and cart lines, and the product card and picture widgets.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, View
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, yuan
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import Card, Column, Image, Row, Text, Widget

ORANGE: Color = (255, 80, 0)
PRICE: Color = (255, 68, 0)
PALE_ORANGE: Color = (255, 240, 230)
Product = Mapping[str, Any]

MAX_QUANTITY = 99
HISTORY_SIZE = 10
FEED_SIZE = 12
HOT_SEARCHES = ("蓝牙耳机", "每日坚果", "T恤", "充电宝", "空气炸锅", "防晒霜", "跑步鞋", "三体")
SORTS = (("default", "综合"), ("sales", "销量"), ("price_asc", "价格↑"), ("price_desc", "价格↓"))
# Price bands of the filter row: id, label, lowest and highest price in cents (high excluded).
PRICE_BANDS: tuple[tuple[str, str, int, int | None], ...] = (
    ("any", "不限", 0, None),
    ("0_50", "50元以下", 0, 5000),
    ("50_200", "50-200元", 5000, 20000),
    ("200_1000", "200-1000元", 20000, 100000),
    ("1000_up", "1000元以上", 100000, None),
)
ORDER_TABS = (
    ("all", "全部"),
    ("unpaid", "待付款"),
    ("to_ship", "待发货"),
    ("to_receive", "待收货"),
    ("completed", "已完成"),
)
STATUS_BANNERS = {
    "unpaid": "等待买家付款",
    "to_ship": "买家已付款，等待卖家发货",
    "to_receive": "卖家已发货，请注意查收",
    "completed": "交易成功",
    "cancelled": "交易关闭",
}


def when(timestamp: int) -> str:
    return dt.datetime.fromtimestamp(timestamp, BEIJING).strftime("%Y-%m-%d %H:%M")


def sales_text(sales: int) -> str:
    return f"{sales // 10000}万+人付款" if sales >= 10000 else f"{sales}人付款"


def sort_products(products: Sequence[Product], sort: str) -> list[Product]:
    if sort == "sales":
        return sorted(products, key=lambda p: (-p["sales"], p["id"]))
    if sort == "price_asc":
        return sorted(products, key=lambda p: (p["price_cents"], -p["sales"], p["id"]))
    if sort == "price_desc":
        return sorted(products, key=lambda p: (-p["price_cents"], -p["sales"], p["id"]))
    return list(products)


def in_band(product: Product, band: str) -> bool:
    _, _, low, high = next(b for b in PRICE_BANDS if b[0] == band)
    return product["price_cents"] >= low and (high is None or product["price_cents"] < high)


def best_coupon(coupons: Sequence[Mapping[str, Any]], subtotal: int) -> Mapping[str, Any] | None:
    usable = [c for c in coupons if not c["used"] and c["threshold_cents"] <= subtotal]
    return max(usable, key=lambda c: (c["discount_cents"], c["id"]), default=None)


class ShopBase(App):
    # -- lookups -------------------------------------------------------------------------------
    @staticmethod
    def product(content: Mapping[str, Any], product_id: str) -> Product | None:
        return next((p for p in content["products"] if p["id"] == product_id), None)

    def require_product(self, it: Interaction, product_id: str) -> Product:
        product = self.product(it.content, product_id)
        if product is None:
            it.no_op(f"no product {product_id}")
            raise AssertionError  # no_op raises
        return product

    @staticmethod
    def require_order(it: Interaction, order_id: str) -> dict[str, Any]:
        order = next((o for o in it.data["orders"] if o["id"] == order_id), None)
        if order is None:
            it.no_op(f"no order {order_id}")
            raise AssertionError  # no_op raises
        return order

    @staticmethod
    def require_line(it: Interaction, line_id: str) -> dict[str, Any]:
        line = next((line for line in it.data["cart"] if line["id"] == line_id), None)
        if line is None:
            it.no_op(f"no cart line {line_id}")
            raise AssertionError  # no_op raises
        return line

    # -- shared pieces of screens ------------------------------------------------------------------
    @staticmethod
    def category_colour(content: Mapping[str, Any], key: str) -> Color:
        colour = next(c["color"] for c in content["categories"] if c["key"] == key)
        return (int(colour[0]), int(colour[1]), int(colour[2]))

    def picture(self, v: View, product: Product, height: int) -> Image:
        return Image(
            product["brand"][:6],
            height=height,
            color=self.category_colour(v.content, product["category"]),
        )

    def product_card(self, v: View, product: Product) -> Card:
        """A search result: picture on the left, name, price and sales on the right."""
        return Card(
            [
                Row(
                    [
                        self.picture(v, product, 250),
                        Column(
                            [
                                Text(product["name"], size=40, max_lines=2),
                                Text(
                                    yuan(product["price_cents"]),
                                    size=48,
                                    bold=True,
                                    color=PRICE,
                                ),
                                Text(
                                    f"{sales_text(product['sales'])} · {product['rating']}分",
                                    size=32,
                                    color=theme.TEXT_SECONDARY,
                                ),
                                Text(product["shop"], size=32, color=theme.TEXT_SECONDARY),
                            ],
                            spacing=6,
                        ),
                    ],
                    weights=[1, 2.3],
                )
            ],
            on_tap=v.go("product", product_id=product["id"]),
            id=f"product_{product['id']}",
            padding=24,
        )

    def feed_tile(self, v: View, product: Product) -> Card:
        """A tile of the two-column 猜你喜欢 feed."""
        return Card(
            [
                self.picture(v, product, 330),
                Text(product["name"], size=36, max_lines=2),
                Row(
                    [
                        Text(yuan(product["price_cents"]), size=40, bold=True, color=PRICE),
                        Text(
                            sales_text(product["sales"]),
                            size=28,
                            color=theme.TEXT_SECONDARY,
                            align="right",
                        ),
                    ],
                    spacing=8,
                ),
            ],
            on_tap=v.go("product", product_id=product["id"]),
            id=f"product_{product['id']}",
            padding=20,
            spacing=10,
        )

    @staticmethod
    def bottom_bar(children: Sequence[Widget | None], weights: Sequence[float]) -> Column:
        return Column([Row(children, spacing=20, weights=weights)], padding=20, fill=theme.SURFACE)

    # -- screens: home -----------------------------------------------------------------------------
    @staticmethod
    def share_product(it: Interaction, product: Mapping[str, Any]) -> None:
        """The system share sheet with the product as a link card (WeChat posts it as one)."""
        it.share(
            {
                "kind": "product",
                "title": product["name"],
                "source": "购物",
                "text": f"{product['name']} {yuan(product['price_cents'])}",
                "product_id": product["id"],
            }
        )
