"""幸运咖啡: a Luckin-style coffee mini-program. Pick a pick-up store, choose a drink with its
size, temperature and sugar, collect the cart, submit the order and pay in the wallet; a paid
order gets a pick-up code. First-time visitors are offered a new-customer coupon."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import (
    ChatCard,
    MiniPage,
    MiniProgram,
    MiniView,
    find,
    page,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import Doc
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Column,
    Dialog,
    Divider,
    IconButton,
    Image,
    ListItem,
    Row,
    Text,
    Wrap,
)

BRAND = (19, 53, 138)
# (name, category, base price in cents for a 中杯, description, temperatures offered)
DRINKS = (
    ("拿铁", "经典咖啡", 2400, "浓缩咖啡与鲜牛奶的经典搭配", ("热", "冰")),
    ("美式", "经典咖啡", 2000, "醇厚浓缩兑水，清爽无负担", ("热", "冰")),
    ("卡布奇诺", "经典咖啡", 2400, "绵密奶泡，浓郁咖啡香", ("热", "冰")),
    ("摩卡", "经典咖啡", 2700, "巧克力遇上浓缩咖啡", ("热", "冰")),
    ("澳瑞白", "经典咖啡", 2600, "双份浓缩，丝滑奶感", ("热", "冰")),
    ("焦糖玛奇朵", "经典咖啡", 2800, "香甜焦糖与奶泡层层叠加", ("热", "冰")),
    ("生椰拿铁", "人气新品", 2900, "生椰乳搭配浓缩，爆款回归", ("热", "冰")),
    ("厚乳拿铁", "人气新品", 2800, "厚牛乳带来更浓郁的奶香", ("热", "冰")),
    ("丝绒拿铁", "人气新品", 2900, "丝绒般顺滑的口感", ("热", "冰")),
    ("茉莉花香拿铁", "人气新品", 2900, "茉莉花香与咖啡的清新相遇", ("热", "冰")),
    ("香草拿铁", "风味拿铁", 2700, "马达加斯加香草风味", ("热", "冰")),
    ("燕麦拿铁", "风味拿铁", 2800, "植物燕麦奶，轻盈健康", ("热", "冰")),
    ("抹茶拿铁", "风味拿铁", 2700, "宇治抹茶与鲜奶", ("热", "冰")),
    ("陨石拿铁", "风味拿铁", 2900, "黑糖波波与鲜奶咖啡", ("热", "冰")),
    ("冷萃", "冰饮", 2600, "低温慢萃12小时", ("冰",)),
    ("橙C美式", "冰饮", 2600, "鲜橙汁遇上美式", ("冰",)),
)
SIZES = (("中杯", 0), ("大杯", 300), ("超大杯", 500))
TEMPERATURES = ("热", "冰")
SUGARS = ("标准糖", "少糖", "半糖", "不另外加糖")
# Chip ids of the options, so oracles and agents can address them.
OPTION_IDS = {
    "中杯": "size_medium",
    "大杯": "size_large",
    "超大杯": "size_xlarge",
    "热": "temp_hot",
    "冰": "temp_iced",
    "标准糖": "sugar_standard",
    "少糖": "sugar_less",
    "半糖": "sugar_half",
    "不另外加糖": "sugar_none",
}
STORES = (
    "文三路店",
    "西溪银泰店",
    "黄龙体育中心店",
    "武林广场店",
    "滨江星光大道店",
    "杭州东站店",
    "湖滨银泰店",
    "浙大紫金港店",
    "华星时代广场店",
    "钱江新城来福士店",
)
WELCOME_COUPON = {
    "id": "cp-welcome",
    "title": "新人专享券",
    "off_cents": 500,
    "min_cents": 2000,
    "used": False,
}


def unit_price(drink: Any, size: str) -> int:
    return int(drink["price_cents"]) + dict(SIZES)[size]


def describe(item: Any) -> str:
    return f"{item['size']}/{item['temp']}/{item['sugar']}"


class Coffee(MiniProgram):
    name = "coffee"
    title = "幸运咖啡"
    description = "在线点单，到店自取"
    keywords = ("咖啡", "coffee", "点咖啡", "拿铁")
    glyph = "咖"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        drinks = [
            {
                "id": f"d{i + 1:02d}",
                "name": name,
                "category": category,
                "price_cents": price,
                "description": text,
                "temperatures": list(temps),
                "sold_out": False,
            }
            for i, (name, category, price, text, temps) in enumerate(DRINKS)
        ]
        rng.choice(drinks)["sold_out"] = True
        distances = sorted(rng.sample(range(200, 9000, 50), k=len(STORES)))
        stores = [
            {"id": f"s{i + 1:02d}", "name": name, "distance_m": distance}
            for i, (name, distance) in enumerate(
                zip(rng.sample(STORES, len(STORES)), distances, strict=True)
            )
        ]
        return {"drinks": drinks, "stores": stores}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        drink = rng.choice([d for d in content["drinks"] if not d["sold_out"]])
        past = {
            "id": "co-past",
            "store": content["stores"][1]["id"],
            "status": "completed",
            "items": [
                {
                    "drink": drink["id"],
                    "name": drink["name"],
                    "size": "中杯",
                    "temp": drink["temperatures"][0],
                    "sugar": "标准糖",
                    "qty": 1,
                    "unit_cents": unit_price(drink, "中杯"),
                }
            ],
            "subtotal_cents": unit_price(drink, "中杯"),
            "discount_cents": 0,
            "coupon": None,
            "total_cents": unit_price(drink, "中杯"),
            "pickup_code": "A107",
        }
        return {
            "store": content["stores"][0]["id"],
            "cart": [],
            "orders": [past],
            "coupons": [],
            "welcome_shown": rng.random() < 0.4,
        }

    def cards(self, content: dict[str, Any], rng: random.Random) -> list[ChatCard]:
        drink = rng.choice([d for d in content["drinks"] if d["category"] == "人气新品"])
        card = self.card(
            f"幸运咖啡 | {drink['name']}", drink["description"], "item", drink=drink["id"]
        )
        return [(card, f"这款{drink['name']}超好喝，推荐")]

    # -- handlers ------------------------------------------------------------------------------
    def close_welcome(self, it: Interaction, claim: bool) -> None:
        data = self.data(it)
        data["welcome_shown"] = True
        if claim:
            data["coupons"].append(dict(WELCOME_COUPON))
            it.toast("已领取新人专享券")

    def choose_store(self, it: Interaction, store_id: str) -> None:
        self.data(it)["store"] = store_id
        it.pop()

    def choose_option(self, it: Interaction, key: str, value: str) -> None:
        it.set_ui(key, value)

    def change_quantity(self, it: Interaction, delta: int) -> None:
        quantity = int(it.ui("qty", 1)) + delta
        if not 1 <= quantity <= 9:
            it.no_op("quantity stays between 1 and 9")
        it.set_ui("qty", quantity)

    def add_to_cart(self, it: Interaction, drink_id: str) -> None:
        drink = find(self.content(it)["drinks"], drink_id)
        if drink is None or drink["sold_out"]:
            it.no_op("this drink is sold out")
        size = it.ui("size", "中杯")
        temp = it.ui("temp", drink["temperatures"][0])
        sugar = it.ui("sugar", "标准糖")
        cart = self.data(it)["cart"]
        same = next(
            (
                c
                for c in cart
                if (c["drink"], c["size"], c["temp"], c["sugar"]) == (drink_id, size, temp, sugar)
            ),
            None,
        )
        if same is not None:
            same["qty"] += int(it.ui("qty", 1))
        else:
            cart.append(
                {
                    "id": it.new_id("ci"),
                    "drink": drink_id,
                    "name": drink["name"],
                    "size": size,
                    "temp": temp,
                    "sugar": sugar,
                    "qty": int(it.ui("qty", 1)),
                    "unit_cents": unit_price(drink, size),
                }
            )
        it.pop()
        it.toast("已加入购物车")

    def change_cart_item(self, it: Interaction, item_id: str, delta: int) -> None:
        data = self.data(it)
        item = find(data["cart"], item_id)
        if item is None:
            it.no_op("no such cart item")
        item["qty"] += delta
        if item["qty"] <= 0:
            data["cart"] = [c for c in data["cart"] if c["id"] != item_id]

    def clear_cart(self, it: Interaction) -> None:
        if not self.data(it)["cart"]:
            it.no_op("the cart is already empty")
        self.data(it)["cart"] = []

    def _best_coupon(self, data: Doc, subtotal: int) -> Doc | None:
        usable = [c for c in data["coupons"] if not c["used"] and subtotal >= c["min_cents"]]
        return max(usable, key=lambda c: c["off_cents"], default=None)

    def submit_order(self, it: Interaction) -> None:
        data = self.data(it)
        if not data["cart"]:
            it.no_op("the cart is empty")
        items = [dict(c) for c in data["cart"]]
        for item in items:
            del item["id"]
        subtotal = sum(i["unit_cents"] * i["qty"] for i in items)
        coupon = self._best_coupon(data, subtotal)
        discount = coupon["off_cents"] if coupon else 0
        if coupon:
            coupon["used"] = True
        order_id = it.new_id("co")
        data["orders"].insert(
            0,
            {
                "id": order_id,
                "store": data["store"],
                "status": "unpaid",
                "items": items,
                "subtotal_cents": subtotal,
                "discount_cents": discount,
                "coupon": coupon["id"] if coupon else None,
                "total_cents": subtotal - discount,
                "pickup_code": None,
                "time": it.clock,
            },
        )
        data["cart"] = []
        self.replace(it, "order", order=order_id)
        self.pay_order(it, order_id)

    def pay_order(self, it: Interaction, order_id: str) -> None:
        order = find(self.data(it)["orders"], order_id)
        if order is None or order["status"] != "unpaid":
            it.no_op("this order does not need paying")
        store = find(self.content(it)["stores"], order["store"])
        names = "、".join(f"{i['name']}×{i['qty']}" for i in order["items"])
        self.pay(
            it,
            amount_cents=order["total_cents"],
            reference=order_id,
            description=f"{store['name']} {names}",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order = find(self.data(it)["orders"], reference)
        if order is None:
            return
        if paid:
            order["status"] = "paid"
            order["pickup_code"] = f"{'ABCDEFGH'[int(reference[-1]) % 8]}{reference[-3:]}"
            it.toast("支付成功")
        else:
            it.toast("支付未完成，订单待支付")

    # -- pages ---------------------------------------------------------------------------------
    def _store(self, v: MiniView) -> Any:
        return find(v.content["stores"], v.data["store"])

    def _welcome(self, v: MiniView) -> Dialog:
        return Dialog(
            "新人专享礼",
            message="满20减5元券已为你备好，下单自动抵扣",
            buttons=[
                Button(
                    "不用了", v.do(self.close_welcome, False), id="coupon_close", style="secondary"
                ),
                Button("立即领取", v.do(self.close_welcome, True), id="coupon_claim"),
            ],
            id="welcome_dialog",
        )

    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        store = self._store(v)
        header = Card(
            [
                Text("到店自取 · 取餐门店", size=34, color=(200, 210, 235)),
                Text(
                    f"{store['name']}  {store['distance_m']}m  ›",
                    size=46,
                    bold=True,
                    color=theme.WHITE,
                ),
            ],
            on_tap=v.go("stores"),
            id="store_picker",
            fill=BRAND,
        )
        rows: list[Any] = [
            header,
            Row(
                [
                    Button(
                        "我的订单",
                        v.go("orders"),
                        id="my_orders",
                        style="secondary",
                        height=100,
                        size=36,
                    ),
                    Button(
                        "购物车",
                        v.go("cart"),
                        id="open_cart",
                        style="secondary",
                        height=100,
                        size=36,
                    ),
                ]
            ),
        ]
        category = None
        for drink in v.content["drinks"]:
            if drink["category"] != category:
                category = drink["category"]
                rows.append(Text(category, size=40, bold=True, padding=16))
            rows.append(
                ListItem(
                    drink["name"],
                    subtitle=drink["description"],
                    trailing="已售罄" if drink["sold_out"] else f"{yuan(drink['price_cents'])}起",
                    leading=drink["name"],
                    leading_color=theme.DISABLED if drink["sold_out"] else BRAND,
                    on_tap=v.go("item", drink=drink["id"]),
                    id=f"drink_{drink['id']}",
                )
            )
        return MiniPage(
            rows,
            bottom=self._cart_bar(v),
            overlay=None if v.data["welcome_shown"] else self._welcome(v),
            padding=24,
            spacing=16,
        )

    def _cart_bar(self, v: MiniView) -> Column | None:
        cart = v.data["cart"]
        if not cart:
            return None
        count = sum(c["qty"] for c in cart)
        total = sum(c["unit_cents"] * c["qty"] for c in cart)
        return Column(
            [
                Row(
                    [
                        Text(
                            f"购物车 {count} 件  合计 {yuan(total)}",
                            size=42,
                            bold=True,
                            padding=30,
                            id="cart_total",
                        ),
                        Button("去结算", v.go("checkout"), id="go_checkout"),
                    ],
                    weights=(2, 1),
                )
            ],
            padding=20,
            fill=theme.SURFACE,
        )

    @page("stores")
    def stores(self, v: MiniView) -> MiniPage:
        rows = [
            ListItem(
                store["name"],
                subtitle=f"距你 {store['distance_m']}m · 营业中 07:30-20:00",
                trailing="当前" if store["id"] == v.data["store"] else "",
                on_tap=v.do(self.choose_store, store["id"]),
                id=f"store_{store['id']}",
            )
            for store in v.content["stores"]
        ]
        return MiniPage(
            [Text("选择取餐门店", size=40, bold=True, padding=30), *rows], title="选择门店"
        )

    def _chips(self, v: MiniView, key: str, values: Any, chosen: str) -> Wrap:
        return Wrap(
            [
                Chip(
                    value,
                    v.do(self.choose_option, key, value),
                    selected=value == chosen,
                    id=OPTION_IDS[value],
                )
                for value in values
            ]
        )

    @page("item")
    def item(self, v: MiniView) -> MiniPage:
        drink = find(v.content["drinks"], v.params["drink"])
        size = v.ui("size", "中杯")
        temp = v.ui("temp", drink["temperatures"][0])
        sugar = v.ui("sugar", "标准糖")
        qty = int(v.ui("qty", 1))
        price = unit_price(drink, size) * qty
        body = [
            Image(drink["name"], height=460, color=BRAND),
            Text(drink["name"], size=56, bold=True, id="drink_name"),
            Text(drink["description"], color=theme.TEXT_SECONDARY),
            Text("杯型", size=40, bold=True),
            self._chips(v, "size", [s for s, _ in SIZES], size),
            Text("温度", size=40, bold=True),
            self._chips(v, "temp", drink["temperatures"], temp),
            Text("糖度", size=40, bold=True),
            self._chips(v, "sugar", SUGARS, sugar),
            Row(
                [
                    Text("数量", size=40, bold=True),
                    IconButton("minus", "减少", v.do(self.change_quantity, -1), id="qty_minus"),
                    Text(str(qty), size=44, align="center", id="qty"),
                    IconButton("plus", "增加", v.do(self.change_quantity, 1), id="qty_plus"),
                ],
                weights=(3, 0, 1, 0),
            ),
        ]
        bottom = Column(
            [
                Row(
                    [
                        Text(
                            f"{yuan(price)}  {size}/{temp}/{sugar}",
                            size=40,
                            bold=True,
                            padding=30,
                            id="item_price",
                        ),
                        Button(
                            "已售罄" if drink["sold_out"] else "加入购物车",
                            v.do(self.add_to_cart, drink["id"]),
                            id="add_to_cart",
                            enabled=not drink["sold_out"],
                        ),
                    ],
                    weights=(3, 2),
                )
            ],
            padding=20,
            fill=theme.SURFACE,
        )
        return MiniPage(body, bottom=bottom, padding=36, spacing=20, title=drink["name"])

    @page("cart")
    def cart(self, v: MiniView) -> MiniPage:
        rows: list[Any] = [
            Row(
                [
                    Text(f"{c['name']}  {describe(c)}", size=40, id=f"cart_item_{c['id']}"),
                    IconButton(
                        "minus",
                        "减少",
                        v.do(self.change_cart_item, c["id"], -1),
                        id=f"cart_minus_{c['id']}",
                    ),
                    Text(str(c["qty"]), align="center"),
                    IconButton(
                        "plus",
                        "增加",
                        v.do(self.change_cart_item, c["id"], 1),
                        id=f"cart_plus_{c['id']}",
                    ),
                ],
                weights=(5, 0, 1, 0),
            )
            for c in v.data["cart"]
        ]
        if not rows:
            rows = [Text("购物车是空的，去挑一杯吧", color=theme.TEXT_SECONDARY, padding=40)]
        else:
            rows.append(Button("清空购物车", v.do(self.clear_cart), id="clear_cart", style="text"))
        return MiniPage(rows, bottom=self._cart_bar(v), title="购物车", padding=36, spacing=20)

    @page("checkout")
    def checkout(self, v: MiniView) -> MiniPage:
        data = v.data
        store = self._store(v)
        subtotal = sum(c["unit_cents"] * c["qty"] for c in data["cart"])
        coupon = self._best_coupon(data, subtotal)
        discount = coupon["off_cents"] if coupon else 0
        lines = [
            Text(
                f"{c['name']} ×{c['qty']}  {describe(c)}  {yuan(c['unit_cents'] * c['qty'])}",
                id=f"line_{c['id']}",
            )
            for c in data["cart"]
        ]
        body = [
            Card(
                [
                    Text("取餐门店", color=theme.TEXT_SECONDARY),
                    Text(store["name"], size=46, bold=True, id="checkout_store"),
                    Text("到店自取 · 预计10分钟后可取", color=theme.TEXT_SECONDARY),
                ]
            ),
            Card(
                [
                    *lines,
                    Divider(),
                    Text(f"商品金额 {yuan(subtotal)}"),
                    Text(
                        f"优惠券 -{yuan(discount)}" if coupon else "优惠券 暂无可用",
                        color=theme.DANGER if coupon else theme.TEXT_SECONDARY,
                    ),
                    Text(
                        f"实付 {yuan(subtotal - discount)}", size=48, bold=True, id="checkout_total"
                    ),
                ]
            ),
        ]
        bottom = Column(
            [
                Button(
                    "提交订单",
                    v.do(self.submit_order),
                    id="submit_order",
                    enabled=bool(data["cart"]),
                )
            ],
            padding=20,
            fill=theme.SURFACE,
        )
        return MiniPage(body, bottom=bottom, title="确认订单", padding=36, spacing=24)

    @page("order")
    def order(self, v: MiniView) -> MiniPage:
        order = find(v.data["orders"], v.params["order"])
        store = find(v.content["stores"], order["store"])
        status = {"unpaid": "待支付", "paid": "制作中", "completed": "已完成"}[order["status"]]
        body: list[Any] = [Text(status, size=60, bold=True, align="center", id="order_status")]
        if order["pickup_code"]:
            body += [
                Text("取餐码", align="center", color=theme.TEXT_SECONDARY),
                Text(order["pickup_code"], size=96, bold=True, align="center", id="pickup_code"),
            ]
        body += [
            Card(
                [
                    Text(store["name"], size=44, bold=True),
                    *[Text(f"{i['name']} ×{i['qty']}  {describe(i)}") for i in order["items"]],
                    Text(f"实付 {yuan(order['total_cents'])}", bold=True),
                ]
            ),
        ]
        if order["status"] == "unpaid":
            body.append(Button("去支付", v.do(self.pay_order, order["id"]), id="pay_order"))
        return MiniPage(body, title="订单详情", padding=36, spacing=24)

    @page("orders")
    def orders(self, v: MiniView) -> MiniPage:
        rows = [
            ListItem(
                "、".join(i["name"] for i in o["items"]),
                subtitle=find(v.content["stores"], o["store"])["name"],
                trailing=yuan(o["total_cents"]),
                on_tap=v.go("order", order=o["id"]),
                id=f"order_{o['id']}",
            )
            for o in v.data["orders"]
        ]
        return MiniPage(rows, title="我的订单")
