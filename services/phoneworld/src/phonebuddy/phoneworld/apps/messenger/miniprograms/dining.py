"""扫码点餐: a few restaurants with their menus by category, dishes with specs (辣度, 大/小份)
and prices, sold-out dishes, a cart with quantities, the table number and 人数 (a place-setting
fee per person), remarks, coupons above their threshold, paying through the wallet, the order
with its 取餐号 and 上菜 status, 加菜 to an open order, and the order history."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.dining_rules import (
    MAX_PEOPLE,
    SIZES,
    SPICE,
    STATUS,
    line_key,
    parse_key,
    pickup_number,
    seed,
    spec_label,
    totals,
    unit_cents,
    used_coupons,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import (
    MiniPage,
    MiniProgram,
    MiniView,
    find,
    page,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    ListItem,
    Tabs,
    Text,
    TextField,
    Wrap,
)

BRAND = (250, 140, 22)


class Dining(MiniProgram):
    name = "restaurant"
    title = "扫码点餐"
    description = "到店扫码，桌边点餐"
    keywords = ("扫码点餐", "点餐", "餐厅", "restaurant", "dining")
    glyph = "餐"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return seed(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"carts": {}, "orders": [dict(o) for o in content["orders"]]}

    # -- handlers ------------------------------------------------------------------------------
    def _refuse(self, it: Interaction, error: str) -> None:
        it.set_ui("error", error)
        it.toast(error)
        it.no_op(error)

    def add(self, it: Interaction, dish_id: str, cart: str) -> None:
        dish = find(self.content(it)["dishes"], dish_id)
        spice, size = it.ui("spice", -1), it.ui("size", "")
        if dish["sold_out"]:
            self._refuse(it, "该菜品已售罄")
        if dish["spicy"] and spice < 0:
            self._refuse(it, "请选择辣度")
        if dish["large_extra_cents"] and not size:
            self._refuse(it, "请选择份量")
        lines = self.data(it)["carts"].setdefault(cart, {})
        key = line_key(dish_id, spice, size)
        lines[key] = int(lines.get(key, 0)) + 1
        it.toast("已加入购物车")
        it.pop()

    def step(self, it: Interaction, cart: str, key: str, delta: int) -> None:
        lines = self.data(it)["carts"].get(cart, {})
        have = int(lines.get(key, 0))
        if have == 0 or have + delta > 99:
            it.no_op("nothing to change")
        if have + delta == 0:
            del lines[key]
        else:
            lines[key] = have + delta
        if not lines:
            del self.data(it)["carts"][cart]

    def _cart_lines(self, it: Interaction, cart: str) -> list[list[Any]]:
        dishes = self.content(it)["dishes"]
        keys = sorted(
            self.data(it)["carts"].get(cart, {}).items(),
            key=lambda kv: (int(kv[0].split("_")[0][1:]), kv[0]),
        )
        out = []
        for key, qty in keys:
            dish_id, spice, size = parse_key(key)
            out.append([dish_id, spice, size, qty, unit_cents(find(dishes, dish_id), size)])
        return out

    def place(self, it: Interaction, restaurant_id: str) -> None:
        rest = find(self.content(it)["restaurants"], restaurant_id)
        lines = self._cart_lines(it, restaurant_id)
        table = it.field("table").strip()
        people = it.ui("people", 0)
        coupon = find(self.content(it)["coupons"], it.ui("coupon") or "")
        if not lines:
            self._refuse(it, "购物车是空的")
        if not table.isdigit() or not 1 <= int(table) <= rest["tables"]:
            self._refuse(it, f"请输入正确的桌号（1-{rest['tables']}）")
        if not people:
            self._refuse(it, "请选择用餐人数")
        if coupon is not None and coupon["id"] in used_coupons(self.data(it)):
            self._refuse(it, "该优惠券已使用")
        food = sum(line[3] * line[4] for line in lines)
        sums = totals(food, people, rest["fee_cents"], coupon)
        if coupon is not None and not sums["discount_cents"]:
            self._refuse(it, f"菜品未满{yuan(coupon['threshold_cents'])}，不能使用该优惠券")
        order_id = it.new_id("dn")
        self.data(it)["orders"].insert(
            0,
            {
                "id": order_id,
                "restaurant": restaurant_id,
                "table": int(table),
                "people": people,
                "lines": lines,
                "remark": it.field("remark").strip(),
                "coupon": coupon["id"] if coupon else None,
                **sums,
                "status": "unpaid",
                "number": None,
                "days_ago": 0,
                "pending": None,
                "additions": 0,
            },
        )
        self.replace(it, "order", order=order_id)
        self.pay(
            it,
            amount_cents=sums["total_cents"],
            reference=order_id,
            description=f"{rest['name']} {table}号桌 {people}人",
        )

    def add_more(self, it: Interaction, order_id: str) -> None:
        """加菜: the cart of an open order, paid on its own and added to that order."""
        order = find(self.data(it)["orders"], order_id)
        lines = self._cart_lines(it, order_id)
        if order is None or order["status"] != "cooking":
            self._refuse(it, "该订单不能加菜")
        if not lines:
            self._refuse(it, "购物车是空的")
        order["pending"] = lines
        order["additions"] += 1
        self.pay(
            it,
            amount_cents=sum(line[3] * line[4] for line in lines),
            reference=f"{order_id}+{order['additions']}",
            description=f"加菜 {order['table']}号桌",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order_id, _, addition = reference.partition("+")
        data = self.data(it)
        order = find(data["orders"], order_id)
        if order is None:
            return
        if addition:
            if paid:
                extra = sum(line[3] * line[4] for line in order["pending"])
                order["lines"] = order["lines"] + order["pending"]
                order["food_cents"] += extra
                order["total_cents"] += extra
                data["carts"].pop(order_id, None)
            order["pending"] = None
            it.toast("加菜成功，马上为您制作" if paid else "已取消支付")
            return
        order["status"] = "cooking" if paid else "cancelled"
        if paid:
            order["number"] = pickup_number(order_id)
            data["carts"].pop(order["restaurant"], None)
        it.toast("下单成功，请留意上菜" if paid else "已取消支付")

    # -- pages ---------------------------------------------------------------------------------
    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        body: list[Any] = [
            Card(
                [
                    Text("扫码点餐", size=48, bold=True, color=theme.WHITE),
                    Text("选择餐厅，输入桌号即可点餐", size=34, color=(255, 236, 210)),
                ],
                fill=BRAND,
            ),
        ]
        for r in v.content["restaurants"]:
            count = sum(1 for d in v.content["dishes"] if d["restaurant"] == r["id"])
            body.append(
                ListItem(
                    r["name"],
                    subtitle=f"{count}道菜 · 餐位费{yuan(r['fee_cents'])}/人 · {r['tables']}张桌",
                    leading="餐",
                    leading_color=BRAND,
                    on_tap=v.go("menu", restaurant=r["id"], cart=r["id"]),
                    id=f"restaurant_{r['id']}",
                )
            )
        body.append(Text("我的优惠券（菜品金额满额可用，餐位费不参与）", size=38, bold=True))
        used = used_coupons(v.data)
        body += [
            Text(
                f"{c['name']} · " + ("已使用" if c["id"] in used else "可用"),
                id=f"coupon_info_{c['id']}",
            )
            for c in v.content["coupons"]
        ]
        body.append(Button("我的订单", v.go("orders"), id="my_orders", style="text"))
        return MiniPage(body, padding=24, spacing=14)

    @page("menu")
    def menu(self, v: MiniView) -> MiniPage:
        rest = find(v.content["restaurants"], v.params["restaurant"])
        cart = v.params["cart"]
        tab = v.ui("tab", "k0")
        count = sum(v.data["carts"].get(cart, {}).values())
        body: list[Any] = [
            Text(rest["name"], size=44, bold=True, id="restaurant_name"),
            Text("加菜中" if cart != rest["id"] else f"餐位费 {yuan(rest['fee_cents'])}/人"),
            Tabs([(f"k{i}", c) for i, c in enumerate(rest["categories"])], tab, v.on_select("tab")),
        ]
        for d in v.content["dishes"]:
            if d["restaurant"] != rest["id"] or d["category"] != tab:
                continue
            specs = ("可选辣度 " if d["spicy"] else "") + (
                f"大份+{yuan(d['large_extra_cents'])}" if d["large_extra_cents"] else ""
            )
            body.append(
                ListItem(
                    d["name"],
                    subtitle="已售罄" if d["sold_out"] else specs.strip() or "招牌推荐",
                    trailing=yuan(d["price_cents"]),
                    on_tap=v.go("dish", dish=d["id"], cart=cart),
                    id=f"dish_{d['id']}",
                )
            )
        body.append(
            Button(
                f"购物车（{count}）",
                v.go("cart", restaurant=rest["id"], cart=cart),
                id="open_cart",
            )
        )
        return MiniPage(body, title="点餐", padding=24, spacing=14)

    @page("dish")
    def dish(self, v: MiniView) -> MiniPage:
        d = find(v.content["dishes"], v.params["dish"])
        spice, size = v.ui("spice", -1), v.ui("size", "")
        body: list[Any] = [
            Text(d["name"], size=46, bold=True, id="dish_name"),
            Text(yuan(unit_cents(d, size or "s")), size=40, id="dish_price"),
            Text("已售罄" if d["sold_out"] else "现做现卖", id="dish_state"),
        ]
        if d["spicy"]:
            body += [
                Text("辣度", size=38, bold=True),
                Wrap(
                    [
                        Chip(s, v.set_ui("spice", i), selected=spice == i, id=f"spice_{i}")
                        for i, s in enumerate(SPICE)
                    ]
                ),
            ]
        if d["large_extra_cents"]:
            body += [
                Text("份量", size=38, bold=True),
                Wrap(
                    [
                        Chip(
                            f"{label}"
                            + (f"（+{yuan(d['large_extra_cents'])}）" if k == "l" else ""),
                            v.set_ui("size", k),
                            selected=size == k,
                            id=f"size_{k}",
                        )
                        for k, label in SIZES.items()
                    ]
                ),
            ]
        if v.ui("error"):
            body.append(Text(v.ui("error"), color=theme.DANGER, id="dish_error"))
        body.append(
            Button("加入购物车", v.do(self.add, d["id"], v.params["cart"]), id="add_to_cart")
        )
        return MiniPage(body, title="菜品详情", padding=30, spacing=18)

    @page("cart")
    def cart(self, v: MiniView) -> MiniPage:
        rest = find(v.content["restaurants"], v.params["restaurant"])
        cart = v.params["cart"]
        adding = cart != rest["id"]
        dishes = {d["id"]: d for d in v.content["dishes"]}
        lines = v.data["carts"].get(cart, {})
        food = 0
        body: list[Any] = []
        for key, qty in lines.items():
            dish_id, spice, size = parse_key(key)
            unit = unit_cents(dishes[dish_id], size)
            food += unit * qty
            body += [
                ListItem(
                    dishes[dish_id]["name"],
                    subtitle=f"{spec_label(spice, size) or '标准'} · {yuan(unit)} × {qty}",
                    trailing=yuan(unit * qty),
                    id=f"line_{key}",
                ),
                Wrap(
                    [
                        Chip("＋1", v.do(self.step, cart, key, 1), id=f"more_{key}"),
                        Chip("－1", v.do(self.step, cart, key, -1), id=f"less_{key}"),
                    ]
                ),
            ]
        if not body:
            body.append(Text("购物车是空的", color=theme.TEXT_SECONDARY, id="cart_empty"))
        error = v.ui("error")
        if adding:
            body += [
                Text(f"加菜合计 {yuan(food)}", size=44, bold=True, id="sum_total"),
                Text(error or "", color=theme.DANGER, id="cart_error") if error else None,
                Button("确认加菜并支付", v.do(self.add_more, cart), id="place_order"),
            ]
            return MiniPage(body, title="加菜", padding=30, spacing=16)
        people, chosen = v.ui("people", 0), v.ui("coupon")
        coupon = find(v.content["coupons"], chosen or "")
        sums = totals(food, people, rest["fee_cents"], coupon)
        used = used_coupons(v.data)
        body += [
            TextField(
                "table", v.field("table"), f"桌号（1-{rest['tables']}）", on_focus=v.focus("table")
            ),
            Text("用餐人数", size=38, bold=True),
            Wrap(
                [
                    Chip(f"{n}人", v.set_ui("people", n), selected=people == n, id=f"people_{n}")
                    for n in range(1, MAX_PEOPLE + 1)
                ]
            ),
            TextField(
                "remark", v.field("remark"), "备注（如：少放盐）", on_focus=v.focus("remark")
            ),
            Text("优惠券", size=38, bold=True),
            Wrap(
                [
                    Chip(
                        c["name"],
                        v.set_ui("coupon", None if chosen == c["id"] else c["id"]),
                        selected=chosen == c["id"],
                        id=f"coupon_{c['id']}",
                    )
                    for c in v.content["coupons"]
                    if c["id"] not in used
                ]
            ),
            Text(f"菜品 {yuan(sums['food_cents'])}", id="sum_food"),
            Text(f"餐位费 {yuan(sums['seat_cents'])}", id="sum_seat"),
            Text(f"优惠 -{yuan(sums['discount_cents'])}", id="sum_discount"),
            Text(f"合计 {yuan(sums['total_cents'])}", size=44, bold=True, id="sum_total"),
            Text(error or "", color=theme.DANGER, id="cart_error") if error else None,
            Button("提交订单并支付", v.do(self.place, rest["id"]), id="place_order"),
        ]
        return MiniPage(body, title="购物车", padding=30, spacing=16)

    @page("orders")
    def orders(self, v: MiniView) -> MiniPage:
        names = {r["id"]: r["name"] for r in v.content["restaurants"]}
        rows = [
            ListItem(
                names[o["restaurant"]],
                subtitle=f"{o['table']}号桌 · {o['people']}人 · "
                + ("今天" if not o["days_ago"] else f"{o['days_ago']}天前")
                + f" · {STATUS[o['status']]}",
                trailing=yuan(o["total_cents"]),
                on_tap=v.go("order", order=o["id"]),
                id=f"order_{o['id']}",
            )
            for o in v.data["orders"]
        ]
        return MiniPage(rows, title="我的订单", padding=24, spacing=10)

    @page("order")
    def order(self, v: MiniView) -> MiniPage:
        o = find(v.data["orders"], v.params["order"])
        rest = find(v.content["restaurants"], o["restaurant"])
        dishes = {d["id"]: d for d in v.content["dishes"]}
        serving = o["status"] == "cooking"
        body: list[Any] = [
            Text(STATUS[o["status"]], size=44, bold=True, id="order_status"),
            Text(f"取餐号 {o['number']}", size=56, bold=True, id="pickup_number")
            if o["number"] and o["status"] != "cancelled"
            else None,
            Text(f"{rest['name']} · {o['table']}号桌 · {o['people']}人", id="order_place"),
            *(
                ListItem(
                    dishes[d]["name"],
                    subtitle=f"{spec_label(spice, size) or '标准'} · {yuan(unit)} × {qty}",
                    trailing=yuan(unit * qty),
                    id=f"oline_{i}",
                )
                for i, (d, spice, size, qty, unit) in enumerate(o["lines"])
            ),
            Text(f"备注：{o['remark']}", id="order_remark") if o["remark"] else None,
            Text(f"餐位费 {yuan(o['seat_cents'])} · 优惠 -{yuan(o['discount_cents'])}"),
            Text(f"实付 {yuan(o['total_cents'])}", size=44, bold=True, id="order_total"),
        ]
        if serving:
            body.append(
                Button(
                    "加菜",
                    v.go("menu", restaurant=rest["id"], cart=o["id"]),
                    id="add_dishes",
                    style="secondary",
                )
            )
        return MiniPage(body, title="订单详情", padding=30, spacing=16)
