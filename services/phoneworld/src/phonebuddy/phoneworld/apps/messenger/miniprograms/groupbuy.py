"""社区团购: today's group-buy items (fruit, vegetables, daily goods) with stock limits and a
cut-off time, a cart with quantities, ordering and paying through the wallet, a pick-up code
for the chosen pick-up point, cancelling an order before the cut-off, and the orders list."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import (
    MiniPage,
    MiniProgram,
    MiniView,
    find,
    page,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time, yuan
from phonebuddy.phoneworld.ui.widgets import Button, Card, Chip, IconButton, ListItem, Tabs, Text

BRAND = (255, 90, 60)
CUTOFF_HOUR = 23
KINDS = {"fruit": "水果", "veg": "蔬菜", "daily": "日用"}
GOODS = {
    "fruit": (
        ("麒麟西瓜", "1个约4斤", 1590),
        ("阳光玫瑰葡萄", "500g", 1990),
        ("海南香蕉", "1kg", 690),
        ("红富士苹果", "2.5kg", 2380),
        ("丹东草莓", "500g", 2990),
        ("赣南脐橙", "2.5kg", 1980),
    ),
    "veg": (
        ("本地小青菜", "500g", 290),
        ("西红柿", "1kg", 580),
        ("土鸡蛋", "30枚", 2680),
        ("五花肉", "500g", 1690),
        ("山东大葱", "1kg", 390),
        ("铁棍山药", "1kg", 1290),
    ),
    "daily": (
        ("维达抽纸", "3包", 1290),
        ("蓝月亮洗衣液", "2kg", 2990),
        ("农夫山泉", "12瓶", 1980),
        ("舒肤佳香皂", "3块", 1190),
    ),
}
POINTS = ("幸福里小区东门便利店", "阳光花园3幢1楼快递柜", "文苑社区服务中心", "翠苑菜场北门")


def cutoff(clock: int) -> int:
    """Today's cut-off (23:00) on the phone's clock."""
    now = local_time(clock)
    return clock - (now.hour * 3600 + now.minute * 60 + now.second) + CUTOFF_HOUR * 3600


def pickup_code(order_id: str) -> str:
    serial = int(order_id.rpartition("-")[2])
    return f"{(serial * 48271 + 271828) % 10**6:06d}"


class Groupbuy(MiniProgram):
    name = "groupbuy"
    title = "社区团购"
    description = "今日下单，明日自提"
    keywords = ("社区团购", "团购", "买菜", "groupbuy")
    glyph = "团"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        items = []
        for kind, goods in GOODS.items():
            for name, unit, price in goods:
                stock = rng.choice((0, 3, 5, 8, 20, 50)) if items else 0
                items.append(
                    {
                        "id": f"g{len(items) + 1}",
                        "kind": kind,
                        "name": name,
                        "unit": unit,
                        "price_cents": price + rng.choice((0, 10, -10)),
                        "stock": stock,
                    }
                )
        orders = []
        for i in range(3):
            lines = [[it["id"], rng.randrange(1, 3)] for it in rng.sample(items[1:], 3)]
            price = {it["id"]: it["price_cents"] for it in items}
            orders.append(
                {
                    "id": f"gb-{101 + i}",
                    "lines": lines,
                    "total_cents": sum(price[g] * n for g, n in lines),
                    "point": rng.choice(POINTS),
                    "status": "picked" if i else "paid",
                    "days_ago": 2 * i + 1,
                    "code": pickup_code(f"gb-{101 + i}"),
                }
            )
        return {"items": items, "orders": orders}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "stock": {g["id"]: g["stock"] for g in content["items"]},
            "cart": {},
            "point": POINTS[0],
            "orders": [dict(o) for o in content["orders"]],
        }

    # -- handlers ------------------------------------------------------------------------------
    def _refuse(self, it: Interaction, error: str) -> None:
        it.set_ui("error", error)
        it.toast(error)
        it.no_op(error)

    def add(self, it: Interaction, item_id: str, step: int = 1) -> None:
        data = self.data(it)
        have = int(data["cart"].get(item_id, 0))
        stock = int(data["stock"][item_id])
        if stock == 0:
            self._refuse(it, "该商品已抢光")
        if step > 0 and have + step > stock:
            self._refuse(it, f"库存不足，最多可买{stock}件")
        if step < 0 and have == 0:
            it.no_op("not in the cart")
        if have + step == 0:
            del data["cart"][item_id]
        else:
            data["cart"][item_id] = have + step
        it.set_ui("error", None)

    def set_point(self, it: Interaction, point: str) -> None:
        if self.data(it)["point"] == point:
            it.no_op("already chosen")
        self.data(it)["point"] = point

    def place(self, it: Interaction) -> None:
        data = self.data(it)
        if not data["cart"]:
            self._refuse(it, "购物车是空的")
        if it.clock >= cutoff(it.clock):
            self._refuse(it, "今日团购已截单")
        price = {g["id"]: g["price_cents"] for g in self.content(it)["items"]}
        lines = [[g, n] for g, n in sorted(data["cart"].items(), key=lambda kv: int(kv[0][1:]))]
        order = {
            "id": it.new_id("gb"),
            "lines": lines,
            "total_cents": sum(price[g] * n for g, n in lines),
            "point": data["point"],
            "status": "unpaid",
            "days_ago": 0,
            "code": None,
        }
        data["orders"].insert(0, order)
        self.pay(
            it,
            amount_cents=order["total_cents"],
            reference=order["id"],
            description=f"社区团购 {len(lines)}种商品",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        data = self.data(it)
        order = find(data["orders"], reference)
        if order is None or not paid:
            it.toast("支付未完成，订单待支付")
            return
        order["status"] = "paid"
        order["code"] = pickup_code(order["id"])
        for g, n in order["lines"]:
            data["stock"][g] -= n
        data["cart"] = {}
        it.toast("下单成功，明日凭提货码自提")

    def cancel(self, it: Interaction, order_id: str) -> None:
        order = find(self.data(it)["orders"], order_id)
        it.set_ui("dialog", None)
        if (
            order is None
            or order["status"] != "paid"
            or order["days_ago"]
            or (it.clock >= cutoff(it.clock))
        ):
            it.no_op("cannot cancel")
        order["status"] = "cancelled"
        for g, n in order["lines"]:
            self.data(it)["stock"][g] += n
        it.toast("订单已取消，款项将原路退回")

    # -- pages ---------------------------------------------------------------------------------
    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        kind = v.ui("tab", "fruit")
        count = sum(v.data["cart"].values())
        body: list[Any] = [
            Card(
                [
                    Text("社区团购", size=48, bold=True, color=theme.WHITE),
                    Text(
                        f"今日{CUTOFF_HOUR}:00截单 · 明日自提",
                        size=34,
                        color=(255, 225, 215),
                        id="cutoff",
                    ),
                ],
                fill=BRAND,
            ),
            Tabs([(k, n) for k, n in KINDS.items()], kind, v.on_select("tab")),
        ]
        for g in v.content["items"]:
            if g["kind"] != kind:
                continue
            stock = v.data["stock"][g["id"]]
            body.append(
                ListItem(
                    g["name"],
                    subtitle=f"{g['unit']} · " + (f"剩余{stock}件" if stock else "已抢光"),
                    trailing=yuan(g["price_cents"]),
                    action=IconButton(
                        "plus", "加入购物车", v.do(self.add, g["id"]), id=f"add_{g['id']}"
                    ),
                    id=f"item_{g['id']}",
                )
            )
        if v.ui("error"):
            body.append(Text(v.ui("error"), color=theme.DANGER, id="shop_error"))
        body += [
            Button(f"购物车（{count}）", v.go("cart"), id="open_cart"),
            Button("我的订单", v.go("orders"), id="my_orders", style="text"),
        ]
        return MiniPage(body, padding=24, spacing=14)

    @page("cart")
    def cart(self, v: MiniView) -> MiniPage:
        price = {g["id"]: g for g in v.content["items"]}
        total = sum(price[g]["price_cents"] * n for g, n in v.data["cart"].items())
        body: list[Any] = [
            ListItem(
                price[g]["name"],
                subtitle=f"{yuan(price[g]['price_cents'])} × {n}",
                trailing=yuan(price[g]["price_cents"] * n),
                action=IconButton("minus", "减少", v.do(self.add, g, -1), id=f"less_{g}"),
                id=f"line_{g}",
            )
            for g, n in v.data["cart"].items()
        ] or [Text("购物车是空的", color=theme.TEXT_SECONDARY, padding=30, id="cart_empty")]
        body += [
            Text("自提点", size=38, bold=True),
            *(
                Chip(p, v.do(self.set_point, p), selected=p == v.data["point"], id=f"point_{i}")
                for i, p in enumerate(POINTS)
            ),
            Text(f"合计 {yuan(total)}", size=44, bold=True, id="cart_total"),
            Text(v.ui("error") or "", color=theme.DANGER, id="cart_error")
            if v.ui("error")
            else None,
            Button("提交订单并支付", v.do(self.place), id="place_order"),
        ]
        return MiniPage(body, title="购物车", padding=30, spacing=16)

    @page("orders")
    def orders(self, v: MiniView) -> MiniPage:
        status = {"unpaid": "待支付", "paid": "待自提", "picked": "已提货", "cancelled": "已取消"}
        rows = [
            ListItem(
                f"订单 {o['id']}",
                subtitle=f"{o['point']} · {status[o['status']]}",
                trailing=yuan(o["total_cents"]),
                on_tap=v.go("order", order=o["id"]),
                id=f"order_{o['id']}",
            )
            for o in v.data["orders"]
        ]
        return MiniPage(
            rows or [Text("暂无订单", color=theme.TEXT_SECONDARY, padding=40)], title="我的订单"
        )

    @page("order")
    def order(self, v: MiniView) -> MiniPage:
        o = find(v.data["orders"], v.params["order"])
        names = {g["id"]: g for g in v.content["items"]}
        status = {"unpaid": "待支付", "paid": "待自提", "picked": "已提货", "cancelled": "已取消"}
        body: list[Any] = [
            Text(status[o["status"]], size=44, bold=True, id="order_status"),
            Text(
                f"提货码 {o['code']}" if o["code"] and o["status"] == "paid" else "",
                size=56,
                bold=True,
                id="pickup_code",
            )
            if o["status"] == "paid"
            else None,
            Text(f"自提点 {o['point']}", id="order_point"),
            *(
                ListItem(
                    names[g]["name"],
                    subtitle=f"{yuan(names[g]['price_cents'])} × {n}",
                    trailing=yuan(names[g]["price_cents"] * n),
                    id=f"oline_{g}",
                )
                for g, n in o["lines"]
            ),
            Text(f"实付 {yuan(o['total_cents'])}", size=44, bold=True, id="order_total"),
        ]
        if o["status"] == "paid" and not o["days_ago"] and v.clock < cutoff(v.clock):
            body.append(
                Button("取消订单", v.set_ui("dialog", "cancel"), id="cancel_order", style="danger")
            )
        overlay = None
        if v.ui("dialog") == "cancel":
            overlay = v.confirm(
                "确定取消订单？",
                v.do(self.cancel, o["id"]),
                message=f"将退还 {yuan(o['total_cents'])}",
                label="确定取消",
                confirm_id="confirm_cancel",
                danger=True,
            )
        return MiniPage(body, overlay=overlay, title="订单详情", padding=30, spacing=16)
