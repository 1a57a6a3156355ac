"""Travel's orders: paying a train order through the wallet, refunds with their fees, the
orders tab and an order's page (train or hotel).
"""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.travel.base import (
    BLUE,
    PALE_BLUE,
    PRICE_ORANGE,
    TravelBase,
    date_label,
    hotel_order_status,
    hours_until,
    refund_fee_cents,
    train_order_status,
)
from phonebuddy.phoneworld.apps.travel.content import SEAT_BY_KEY
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan_short
from phonebuddy.phoneworld.ui.widgets import (
    AppBar,
    Button,
    Card,
    ListItem,
    Page,
    Row,
    Spacer,
    Text,
    Widget,
)


class OrderScreens(TravelBase):
    @staticmethod
    def request_payment(it: Interaction, order: Any) -> None:
        if order["kind"] == "train":
            merchant = "铁路客户服务中心"
            description = (
                f"{order['train']} {order['from_station']}-{order['to_station']} {order['date']}"
            )
        else:
            merchant = order["hotel"]
            description = f"{order['room']} {order['checkin']} 共{order['nights']}晚"
        it.request_payment(
            amount_cents=order["total_cents"],
            merchant=merchant,
            reference=order["id"],
            description=description,
        )

    def pay_order(self, it: Interaction, order_id: str) -> None:
        order = self.find_order(it, order_id)
        if order["status"] != "unpaid":
            it.no_op("the order is not waiting for payment")
        self.request_payment(it, order)

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order = next((o for o in it.data["orders"] if o["id"] == reference), None)
        if order is None:
            return
        if paid:
            order["status"], order["paid_at"] = "paid", it.clock
            it.toast("支付成功")
        it.reset_to("home")
        it.push("order", order_id=order["id"])

    def refund(self, it: Interaction, order_id: str) -> None:
        order = self.find_order(it, order_id)
        it.set_ui("dialog", None)
        if order["kind"] != "train" or train_order_status(order, it.clock) != "待出行":
            it.no_op("only a paid ticket for a train yet to leave can be refunded")
        fee = refund_fee_cents(order["total_cents"], hours_until(order, it.clock))
        order.update(
            status="refunded",
            refund_fee_cents=fee,
            refund_cents=order["total_cents"] - fee,
            refunded_at=it.clock,
        )
        it.toast("退票成功")

    def _orders_tab(self, v: View) -> list[Widget | None]:
        clock = int(v.os["clock"])
        items: list[Widget | None] = [Spacer(12)]
        for order in sorted(v.data["orders"], key=lambda o: -o["created_at"]):
            if order["kind"] == "train":
                title = f"{order['train']} {order['from_station']}→{order['to_station']}"
                names = "、".join(p["name"] for p in order["passengers"])
                seat = SEAT_BY_KEY[order["seat"]].name
                subtitle = f"{date_label(order['date'])} {order['depart']} · {seat} · {names}"
                status = train_order_status(order, clock)
            else:
                title = order["hotel"]
                checkin = date_label(order["checkin"])
                subtitle = f"{checkin}入住 · {order['nights']}晚 · {order['room']}"
                status = hotel_order_status(order, clock)
            items.append(
                ListItem(
                    title,
                    subtitle=subtitle,
                    trailing=status,
                    leading="车" if order["kind"] == "train" else "店",
                    leading_color=BLUE if order["kind"] == "train" else PRICE_ORANGE,
                    on_tap=v.go("order", order_id=order["id"]),
                    id=f"order_{order['id']}",
                )
            )
        if len(items) == 1:
            items.append(Text("暂无订单", color=theme.TEXT_SECONDARY, align="center", padding=60))
        items.append(Spacer(40))
        return items

    # -- screens: orders ----------------------------------------------------------------------
    @screen("order")
    def order(self, v: View) -> Page:
        order = next((o for o in v.data["orders"] if o["id"] == v.params["order_id"]), None)
        if order is None:
            return Page(AppBar("订单详情", on_back=v.back()), [Text("订单不存在", padding=40)])
        clock = int(v.os["clock"])
        if order["kind"] == "train":
            body, status = self._train_order_body(order), train_order_status(order, clock)
        else:
            body, status = self._hotel_order_body(order), hotel_order_status(order, clock)
        actions: list[Widget | None] = []
        if order["status"] == "unpaid":
            actions.append(Button("去支付", v.do(self.pay_order, order["id"]), id="pay_order"))
        if order["kind"] == "train" and status == "待出行":
            actions.append(
                Button("退票", v.set_ui("dialog", "refund"), id="refund", style="secondary")
            )
        dialog = None
        if v.ui("dialog") == "refund" and order["kind"] == "train":
            fee = refund_fee_cents(order["total_cents"], hours_until(order, clock))
            dialog = v.confirm(
                "确认退票？",
                v.do(self.refund, order["id"]),
                message=f"{order['train']}次 {date_label(order['date'])} {order['depart']}开\n"
                f"退票费 {yuan_short(fee)}，应退 {yuan_short(order['total_cents'] - fee)}，"
                "1-7个工作日原路退回",
                label="确认退票",
                confirm_id="confirm_refund",
                danger=True,
                cancel_label="暂不退票",
                cancel_id="keep_ticket",
            )
        return Page(
            AppBar("订单详情", on_back=v.back()),
            [
                Card(
                    [
                        Text(status, size=60, bold=True, id="order_status"),
                        Text(f"订单号 {order['id']}", size=32, color=theme.TEXT_SECONDARY),
                    ],
                    fill=PALE_BLUE,
                ),
                *body,
                *actions,
            ],
            body_padding=30,
            spacing=24,
            overlay=dialog,
        )

    @staticmethod
    def _train_order_body(order: Any) -> list[Widget | None]:
        tickets = [
            Row(
                [
                    Text(p["name"], size=40),
                    Text(seat, size=40, align="center"),
                    Text(yuan_short(order["price_cents"]), size=40, align="right"),
                ]
            )
            for p, seat in zip(order["passengers"], order["seats"], strict=True)
        ]
        refund = None
        if order["status"] == "refunded":
            refund = Text(
                f"已退票：退票费 {yuan_short(order['refund_fee_cents'])}，应退 "
                f"{yuan_short(order['refund_cents'])}",
                color=PRICE_ORANGE,
            )
        return [
            Card(
                [
                    Text(f"{date_label(order['date'])}  {order['train']}次", size=44, bold=True),
                    Text(
                        f"{order['from_station']} {order['depart']} → {order['to_station']} "
                        f"{order['arrive']}",
                        size=40,
                    ),
                    Text(SEAT_BY_KEY[order["seat"]].name, size=36, color=theme.TEXT_SECONDARY),
                    *tickets,
                    Text(
                        f"合计 {yuan_short(order['total_cents'])}",
                        size=44,
                        bold=True,
                        color=PRICE_ORANGE,
                        id="order_total",
                    ),
                    refund,
                ],
                spacing=12,
            )
        ]

    @staticmethod
    def _hotel_order_body(order: Any) -> list[Widget | None]:
        return [
            Card(
                [
                    Text(order["hotel"], size=44, bold=True),
                    Text(f"{order['room']} · 入住人 {order['guest']}", size=38),
                    Text(
                        f"{date_label(order['checkin'])} — {date_label(order['checkout'])} · "
                        f"共{order['nights']}晚",
                        size=38,
                    ),
                    Text(
                        f"合计 {yuan_short(order['total_cents'])}",
                        size=44,
                        bold=True,
                        color=PRICE_ORANGE,
                        id="order_total",
                    ),
                ],
                spacing=12,
            )
        ]
