"""The Shop's orders (tabs by status, an order's page, cancelling and confirming receipt),
and the 我的 pages of addresses and coupons.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.shop.base import (
    ORANGE,
    ORDER_TABS,
    PRICE,
    STATUS_BANNERS,
    ShopBase,
    when,
)
from phonebuddy.phoneworld.apps.shop.content import ORDER_STATUS, options_text
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Column,
    Dialog,
    Image,
    ListItem,
    Page,
    Row,
    Tabs,
    Text,
    Widget,
)


class OrderScreens(ShopBase):
    @staticmethod
    def view_order(it: Interaction, order_id: str) -> None:
        it.replace("order", order_id=order_id)

    @staticmethod
    def back_home(it: Interaction) -> None:
        it.reset_to("home")

    # -- handlers: orders --------------------------------------------------------------------------
    def cancel_order(self, it: Interaction, order_id: str) -> None:
        order = self.require_order(it, order_id)
        if order["status"] != "unpaid":
            it.no_op("only unpaid orders can be cancelled")
        order["status"] = "cancelled"
        order["cancelled_at"] = it.clock
        for coupon in it.data["coupons"]:
            if coupon["id"] == order["coupon_id"]:
                coupon["used"] = False  # a cancelled order gives its coupon back
        it.set_ui("dialog", None)
        it.toast("订单已取消")

    def confirm_receipt(self, it: Interaction, order_id: str) -> None:
        order = self.require_order(it, order_id)
        if order["status"] != "to_receive":
            it.no_op("only shipped orders can be received")
        order["status"] = "completed"
        order["completed_at"] = it.clock
        it.set_ui("dialog", None)
        it.toast("交易成功")

    # -- screens: orders ---------------------------------------------------------------------------
    @screen("orders")
    def orders(self, v: View) -> Page:
        tab = v.ui("tab", v.params.get("tab", "all"))
        orders = sorted(v.data["orders"], key=lambda o: (-o["created_at"], o["id"]))
        shown = [o for o in orders if tab == "all" or o["status"] == tab]
        cards: list[Widget | None] = [self.order_card(v, o) for o in shown]
        return Page(
            "我的订单",
            cards or [Text("暂无相关订单", color=theme.TEXT_SECONDARY, padding=40)],
            header=Tabs(ORDER_TABS, tab, v.on_select("tab")),
            on_back=v.back(),
            body_padding=24,
            spacing=20,
        )

    def order_card(self, v: View, order: Mapping[str, Any]) -> Card:
        items = [
            Row(
                [
                    self.picture_of_line(v, line, 180),
                    Column(
                        [
                            Text(line["name"], size=36, max_lines=2),
                            Text(
                                f"{options_text(line['options'])}  ×{line['quantity']}",
                                size=30,
                                color=theme.TEXT_SECONDARY,
                            ),
                        ],
                        spacing=6,
                    ),
                ],
                spacing=20,
                weights=[1, 3.2],
            )
            for line in order["items"]
        ]
        shop = order["items"][0]["shop"] if order["items"] else ""
        return Card(
            [
                Row(
                    [
                        Text(shop, size=38, bold=True),
                        Text(
                            ORDER_STATUS[order["status"]],
                            size=38,
                            color=PRICE,
                            align="right",
                            id=f"status_{order['id']}",
                        ),
                    ],
                    weights=[3, 1],
                ),
                *items,
                Text(f"实付款 {yuan(order['total_cents'])}", size=38, bold=True, align="right"),
                Text(f"订单号 {order['number']}", size=30, color=theme.TEXT_SECONDARY),
            ],
            on_tap=v.go("order", order_id=order["id"]),
            id=f"order_{order['id']}",
            padding=28,
            spacing=14,
        )

    def picture_of_line(self, v: View, line: Mapping[str, Any], height: int) -> Widget:
        product = self.product(v.content, line["product_id"])
        if product is None:
            return Image("", height=height)
        return self.picture(v, product, height)

    @screen("order")
    def order(self, v: View) -> Page:
        order = next((o for o in v.data["orders"] if o["id"] == v.params["order_id"]), None)
        if order is None:
            return Page("订单详情", [Text("订单不存在", padding=40)], on_back=v.back())
        address = self.chosen_address(v.data, order["address_id"])
        status = order["status"]
        body = [
            Card(
                [
                    Text(STATUS_BANNERS[status], size=48, bold=True, color=theme.WHITE),
                    Text(ORDER_STATUS[status], size=34, color=theme.WHITE, id="order_status"),
                ],
                fill=ORANGE,
            ),
            Card(
                [
                    Text(f"{address['name']} {address['phone']}", size=40, bold=True),
                    Text(
                        f"{address['region']} {address['detail']}",
                        size=34,
                        color=theme.TEXT_SECONDARY,
                    ),
                ]
            ),
            self.order_card(v, order),
            Card(
                [
                    Text(f"商品总价 {yuan(order['subtotal_cents'])}", size=36),
                    Text(f"优惠 -{yuan(order['discount_cents'])}", size=36),
                    Text(
                        f"实付款 {yuan(order['total_cents'])}",
                        size=40,
                        bold=True,
                        color=PRICE,
                        id="order_total",
                    ),
                ]
            ),
            Card(
                [
                    Text(f"订单编号 {order['number']}", size=34, id="order_number"),
                    Text(f"创建时间 {when(order['created_at'])}", size=34),
                    Text(f"付款时间 {when(order['paid_at'])}", size=34)
                    if order["paid_at"]
                    else None,
                ]
            ),
        ]
        return Page(
            "订单详情",
            body,
            bottom=self.order_actions(v, order),
            on_back=v.back(),
            body_padding=24,
            spacing=20,
            overlay=self.order_dialog(v, order),
        )

    def order_actions(self, v: View, order: Mapping[str, Any]) -> Column | None:
        if order["status"] == "unpaid":
            return self.bottom_bar(
                [
                    Button(
                        "取消订单",
                        v.set_ui("dialog", "cancel"),
                        id="cancel_order",
                        style="secondary",
                        height=120,
                    ),
                    Button(
                        "立即付款", v.do(self.pay_order, order["id"]), id="pay_order", height=120
                    ),
                ],
                weights=[1, 1],
            )
        if order["status"] == "to_receive":
            return self.bottom_bar(
                [
                    Button(
                        "确认收货", v.set_ui("dialog", "receipt"), id="confirm_receipt", height=120
                    )
                ],
                weights=[1],
            )
        return None

    def order_dialog(self, v: View, order: Mapping[str, Any]) -> Dialog | None:
        dialog = v.ui("dialog")
        if dialog == "cancel":
            return v.confirm(
                "确定要取消这个订单吗？",
                v.do(self.cancel_order, order["id"]),
                message="取消后，使用的优惠券将退回你的账户",
                label="确定取消",
                confirm_id="cancel_confirm",
                danger=True,
                cancel_label="暂不取消",
                cancel_id="cancel_keep",
            )
        if dialog == "receipt":
            return v.confirm(
                "确认收货",
                v.do(self.confirm_receipt, order["id"]),
                message="请确认已收到货物，确认后货款将打给卖家",
                label="确认",
                confirm_id="receipt_confirm",
                cancel_label="再等等",
                cancel_id="receipt_later",
            )
        return None

    @screen("addresses")
    def addresses(self, v: View) -> Page:
        return Page(
            "收货地址",
            [
                ListItem(
                    f"[{a['tag']}] {a['name']} {a['phone']}" + (" 默认" if a["default"] else ""),
                    subtitle=f"{a['region']} {a['detail']}",
                    id=f"address_{a['id']}",
                )
                for a in v.data["addresses"]
            ],
            on_back=v.back(),
        )

    @screen("coupons")
    def coupons(self, v: View) -> Page:
        return Page(
            "我的优惠券",
            [
                Card(
                    [
                        Text(
                            f"{yuan(c['discount_cents'])}  {c['title']}",
                            size=44,
                            bold=True,
                            color=theme.TEXT_SECONDARY if c["used"] else PRICE,
                        ),
                        Text(
                            f"满{c['threshold_cents'] // 100}可用 · 有效期至 {c['expires']}"
                            + (" · 已使用" if c["used"] else ""),
                            size=32,
                            color=theme.TEXT_SECONDARY,
                        ),
                    ],
                    id=f"coupon_{c['id']}",
                )
                for c in v.data["coupons"]
            ],
            on_back=v.back(),
            body_padding=24,
            spacing=20,
        )
