"""Food's orders: the orders tab, an order's page with its delivery progress, cancelling
and ordering again.
"""

from __future__ import annotations

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.food.base import (
    FoodBase,
    clock_text,
    date_text,
    default_choices,
    fee_row,
    is_open,
    link_text,
    money,
    order_status,
    tableware_text,
    tracking_steps,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    AppBar,
    Button,
    Card,
    Dialog,
    ListItem,
    Page,
    Spacer,
    Text,
    Widget,
)


class OrderScreens(FoodBase):
    def cancel_order(self, it: Interaction, order_id: str) -> None:
        order = self.find_order(it, order_id)
        if order["status"] != "unpaid":
            it.no_op("only unpaid orders can be cancelled")
        order["status"] = "cancelled"
        it.set_ui("dialog", None)
        it.toast("订单已取消")

    def reorder(self, it: Interaction, order_id: str) -> None:
        order = self.find_order(it, order_id)
        restaurant = self.restaurant(it, order["restaurant_id"])
        if not is_open(restaurant, it.clock):
            it.no_op(f"{restaurant['name']} is closed")
        it.data["cart"] = [i for i in it.data["cart"] if i["restaurant_id"] != restaurant["id"]]
        for item in order["items"]:
            self.add_item(it, item["dish_id"], default_choices(item), int(item["quantity"]))
        it.push("restaurant", restaurant_id=restaurant["id"])

    def _orders_tab(self, v: View) -> list[Widget | None]:
        orders = sorted(v.data["orders"], key=lambda o: -o["placed_at"])
        now = int(v.os["clock"])
        items: list[Widget | None] = [Spacer(12)]
        for order in orders:
            status, _ = order_status(order, self.restaurant(v, order["restaurant_id"]), now)
            summary = "、".join(f"{i['name']}x{i['quantity']}" for i in order["items"])
            items.append(
                ListItem(
                    order["restaurant"],
                    subtitle=f"{date_text(order['placed_at'])}  {summary}",
                    trailing=f"{status} {money(order['total_cents'])}",
                    leading=order["restaurant"],
                    leading_color=tuple(self.restaurant(v, order["restaurant_id"])["color"]),
                    on_tap=v.go("order", order_id=order["id"]),
                    id=f"order_{order['id']}",
                )
            )
        if not orders:
            items.append(Text("暂无订单", color=theme.TEXT_SECONDARY, align="center", padding=60))
        items.append(Spacer(40))
        return items

    # -- screens: order -----------------------------------------------------------------------
    @screen("order")
    def order_page(self, v: View) -> Page:
        order = next((o for o in v.data["orders"] if o["id"] == v.params["order_id"]), None)
        if order is None:
            return Page(AppBar("订单详情", on_back=v.back()), [Text("订单不存在", padding=40)])
        r = self.restaurant(v, order["restaurant_id"])
        now = int(v.os["clock"])
        status, done = order_status(order, r, now)
        headline: list[Widget | None] = [Text(status, size=64, bold=True, id="order_status")]
        if order["status"] == "paid" and done < 4:
            eta = int(order["paid_at"]) + int(r["delivery_minutes"]) * 60
            headline.append(Text(f"预计 {clock_text(eta)} 送达", color=theme.TEXT_SECONDARY))
            headline.append(tracking_steps(done))
        actions: list[Widget | None]
        if order["status"] == "unpaid":
            actions = [
                Button("去支付", v.do(self.pay_order, order["id"]), id="pay_order"),
                link_text("取消订单", v.set_ui("dialog", "cancel"), "cancel_order"),
            ]
        else:
            actions = [Button("再来一单", v.do(self.reorder, order["id"]), id="reorder")]
        dialog = None
        if v.ui("dialog") == "cancel":
            dialog = Dialog(
                "确定取消订单吗？",
                message="取消后红包将退回账户",
                buttons=[
                    Button("再想想", v.set_ui("dialog", None), id="keep_order"),
                    Button(
                        "取消订单",
                        v.do(self.cancel_order, order["id"]),
                        id="confirm_cancel",
                        style="danger",
                    ),
                ],
            )
        items = [
            fee_row(
                f"{i['name']}" + (f"({i['spec']})" if i["spec"] else "") + f" x{i['quantity']}",
                money(i["unit_cents"] * i["quantity"]),
            )
            for i in order["items"]
        ]
        address = order["address"]
        return Page(
            AppBar("订单详情", on_back=v.back()),
            [
                Card(headline, fill=self.theme.primary),
                Card(
                    [
                        Text(order["restaurant"], size=44, bold=True),
                        *items,
                        fee_row("打包费", money(order["packing_cents"])),
                        fee_row("配送费", money(order["delivery_cents"])),
                        fee_row("红包", f"-{money(order['discount_cents'])}")
                        if order["discount_cents"]
                        else None,
                        fee_row("实付", money(order["total_cents"]), bold=True),
                    ],
                    spacing=12,
                ),
                Card(
                    [
                        Text("配送信息", size=40, bold=True),
                        Text(f"{address['text']}", id="order_address"),
                        Text(f"{address['name']} {address['phone']}", color=theme.TEXT_SECONDARY),
                        Text(
                            f"餐具：{tableware_text(order['tableware'])}"
                            f"   备注：{order['remark'] or '无'}",
                            color=theme.TEXT_SECONDARY,
                        ),
                        Text(
                            f"订单号：{order['id']}   下单时间：{date_text(order['placed_at'])}",
                            size=32,
                            color=theme.TEXT_SECONDARY,
                        ),
                    ],
                    spacing=10,
                ),
                *actions,
            ],
            body_padding=30,
            spacing=24,
            overlay=dialog,
        )
