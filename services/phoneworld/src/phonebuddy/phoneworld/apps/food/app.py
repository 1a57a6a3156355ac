"""外卖 (Food): a Meituan-like delivery app. Restaurants with menus and options, a cart per
restaurant, checkout to a saved address with tableware and a remark, payment through the
wallet, order tracking derived from the simulated clock, order history with re-order.

Data: `addresses`, `cart` (items keyed `<dish id>-<choice indices>`), `orders`, `coupons`, and
`promo_seen` (the new-user red packet pop-up shown on first open).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.apps.food.content import (
    ADDRESSES,
    PEOPLE,
    TAGS,
    build_restaurants,
    phone_number,
)
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, minute_of_day
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    AppBar,
    BottomSheet,
    Button,
    Card,
    Chip,
    Column,
    Dialog,
    Divider,
    Handler,
    IconButton,
    Image,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

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


class Food(App):
    package = FOOD_PACKAGE
    label = Label(zh="外卖", en="Food")
    domain = "food"
    theme = AppTheme(primary=(255, 209, 0), on_primary=(33, 33, 33), accent=(230, 120, 0))
    friction = Friction(splash="美食外卖，准时送达")
    icon_text = "外卖"
    ignorable = ("promo_seen",)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        restaurants = build_restaurants(rng)
        return {
            "restaurants": restaurants,
            "by_id": {r["id"]: r for r in restaurants},
            "dishes": {d["id"]: d for r in restaurants for d in r["dishes"]},
            "cuisines": list(dict.fromkeys(r["cuisine"] for r in restaurants)),
        }

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        owner = rng.choice(PEOPLE)
        phone = phone_number(rng)
        places = rng.sample(ADDRESSES, k=rng.randrange(2, 4))
        addresses = [
            {"id": f"addr-{i + 1}", "name": owner, "phone": phone, "text": text, "tag": tag}
            for i, (text, tag) in enumerate(places)
        ]
        return {
            "promo_seen": rng.random() < 0.3,
            "coupons": [],
            "addresses": addresses,
            "cart": [],
            "orders": self._past_orders(content, addresses, rng),
        }

    @staticmethod
    def _past_orders(content: Any, addresses: list[Any], rng: random.Random) -> list[Any]:
        orders = []
        open_shops = [r for r in content["restaurants"] if r["opens"] < r["closes"]]
        for days_ago, restaurant in zip((2, 5, 9), rng.sample(open_shops, k=3), strict=True):
            dishes = rng.sample(list(restaurant["dishes"]), k=2)
            items = [order_item(d, [0] * len(d["options"]), rng.randrange(1, 3)) for d in dishes]
            placed = EPOCH_START - days_ago * 86400 + rng.randrange(2, 5) * 3600
            orders.append(
                new_order(f"order-h{days_ago}", restaurant, items, addresses[0], placed, None)
                | {"status": "paid", "paid_at": placed + 20, "tableware": 1}
            )
        return orders

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

    # -- handlers: promo and cart -------------------------------------------------------------
    @staticmethod
    def close_promo(it: Interaction, accept: bool) -> None:
        it.data["promo_seen"] = True
        if accept and not any(c["id"] == WELCOME_COUPON["id"] for c in it.data["coupons"]):
            it.data["coupons"].append(dict(WELCOME_COUPON))
            it.toast("红包已放入账户")

    def add_item(
        self, it: Interaction, dish_id: str, choices: Sequence[int], quantity: int = 1
    ) -> dict[str, Any]:
        dish = it.content["dishes"].get(dish_id)
        if dish is None:
            it.no_op(f"no dish {dish_id}")
        restaurant = self.restaurant(it, dish_id.rsplit("-", 1)[0])
        if not is_open(restaurant, it.clock):
            it.no_op(f"{restaurant['name']} is closed")
        if quantity < 1 or len(choices) != len(dish["options"]):
            it.no_op("nothing to add")
        key = cart_key(dish_id, choices)
        item = next((i for i in it.data["cart"] if i["id"] == key), None)
        if item is None:
            item = {"restaurant_id": restaurant["id"], **order_item(dish, choices, 0)}
            it.data["cart"].append(item)
        item["quantity"] += quantity
        return item

    @staticmethod
    def open_spec(it: Interaction, dish_id: str) -> None:
        """Open a dish's option sheet with every option at its first choice."""
        for key in [k for k in it.entry["ui"] if k.startswith("choice_")]:
            del it.entry["ui"][key]
        it.set_ui("dialog", dish_id)

    def add_chosen_spec(self, it: Interaction, dish_id: str) -> None:
        dish = it.content["dishes"][dish_id]
        choices = [int(it.ui(f"choice_{g}", 0)) for g in range(len(dish["options"]))]
        self.add_item(it, dish_id, choices)
        it.set_ui("dialog", None)

    @staticmethod
    def remove_item(it: Interaction, key: str) -> None:
        item = next((i for i in it.data["cart"] if i["id"] == key), None)
        if item is None:
            it.no_op(f"{key} is not in the cart")
            return
        item["quantity"] -= 1
        if item["quantity"] <= 0:
            it.data["cart"].remove(item)
            if not any(i["restaurant_id"] == item["restaurant_id"] for i in it.data["cart"]):
                it.set_ui("dialog", None)

    @staticmethod
    def clear_cart(it: Interaction, restaurant_id: str) -> None:
        it.data["cart"] = [i for i in it.data["cart"] if i["restaurant_id"] != restaurant_id]
        it.set_ui("dialog", None)

    # -- handlers: checkout and orders --------------------------------------------------------
    @staticmethod
    def chosen_address(data: Any, ui_address_id: str | None) -> Any:
        addresses = data["addresses"]
        chosen = next((a for a in addresses if a["id"] == ui_address_id), None)
        return chosen or (addresses[0] if addresses else None)

    def place_order(self, it: Interaction, restaurant_id: str) -> None:
        restaurant = self.restaurant(it, restaurant_id)
        items = self.cart_of(it.data, restaurant_id)
        if not items:
            it.no_op("the cart is empty")
        if not is_open(restaurant, it.clock):
            it.no_op(f"{restaurant['name']} is closed")
        if items_cents(items) < restaurant["min_order_cents"]:
            it.no_op("below the minimum order")
        address = self.chosen_address(it.data, it.ui("address_id"))
        if address is None:
            it.toast("请选择收货地址")
            it.push("addresses", select=True)
            return
        if it.ui("tableware") is None:
            it.toast("请选择餐具数量")
            it.set_ui("dialog", "tableware")
            return
        order = new_order(
            it.new_id("order"),
            restaurant,
            [{k: v for k, v in i.items() if k != "restaurant_id"} for i in items],
            address,
            it.clock,
            best_coupon(it.data["coupons"], items_cents(items)),
        )
        order["tableware"] = int(it.ui("tableware"))
        order["remark"] = it.field("remark").strip()
        it.data["orders"].append(order)
        self.clear_cart(it, restaurant_id)
        self.request_payment(it, order)

    @staticmethod
    def request_payment(it: Interaction, order: Any) -> None:
        it.request_payment(
            amount_cents=order["total_cents"],
            merchant=order["restaurant"],
            reference=order["id"],
            description=f"外卖订单 {order['id']}",
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
            for coupon in it.data["coupons"]:
                if coupon["id"] == order["coupon_id"]:
                    coupon["used"] = True
            it.toast("支付成功")
        it.reset_to("home")
        it.push("order", order_id=order["id"])

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
            self.add_item(it, item["dish_id"], _choices(item), int(item["quantity"]))
        it.push("restaurant", restaurant_id=restaurant["id"])

    # -- handlers: addresses ------------------------------------------------------------------
    @staticmethod
    def select_address(it: Interaction, address_id: str) -> None:
        it.pop()
        it.set_ui("address_id", address_id)

    @staticmethod
    def save_address(it: Interaction) -> None:
        name, phone, text = (it.field(f).strip() for f in ("name", "phone", "text"))
        if not name or not text:
            it.toast("请填写联系人和详细地址")
            it.no_op("name and address are required")
        if len(phone) != 11 or not phone.isdigit():
            it.toast("请输入正确的手机号")
            it.no_op("a phone number has 11 digits")
        tag = it.ui("tag", it.entry["params"].get("tag", ""))
        address_id = it.entry["params"].get("address_id")
        record = {"name": name, "phone": phone, "text": text, "tag": tag}
        if address_id is None:
            it.data["addresses"].append({"id": it.new_id("addr"), **record})
        else:
            address = next(a for a in it.data["addresses"] if a["id"] == address_id)
            address.update(record)
        it.pop()
        it.toast("地址已保存")

    @staticmethod
    def delete_address(it: Interaction, address_id: str) -> None:
        it.data["addresses"] = [a for a in it.data["addresses"] if a["id"] != address_id]
        it.pop()
        it.toast("地址已删除")

    # -- screens: home ------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "home")
        body = {"home": self._home_tab, "orders": self._orders_tab, "mine": self._mine_tab}[tab](v)
        promo = None
        if not v.data["promo_seen"]:
            promo = Dialog(
                "新人专享红包",
                message="¥5 外卖红包已到账 · 满30元可用",
                body=[
                    Image("¥5 外卖红包", height=260, color=PRICE_RED),
                    Button("开心收下", v.do(self.close_promo, True), id="promo_accept"),
                    _link("暂不领取", v.do(self.close_promo, False), "promo_close"),
                ],
                id="promo",
            )
        titles = {"home": "外卖", "orders": "订单", "mine": "我的"}
        return Page(
            titles[tab],
            body,
            bottom=Tabs(
                (("home", "首页"), ("orders", "订单"), ("mine", "我的")),
                tab,
                v.on_select("tab"),
                style="bottom",
            ),
            overlay=promo,
        )

    def _home_tab(self, v: View) -> list[Widget | None]:
        query = v.field("search").strip()
        cuisine = v.ui("cuisine", "")
        sort = v.ui("sort", "default")
        shops = [r for r in v.content["restaurants"] if _matches(r, query, cuisine)]
        now = int(v.os["clock"])
        shops.sort(key=lambda r: (query not in r["name"], not is_open(r, now), _sort_key(r, sort)))
        cuisine_chips = [
            Chip("全部", v.set_ui("cuisine", ""), selected=not cuisine, id="cuisine_all")
        ]
        cuisine_chips += [
            Chip(c, v.set_ui("cuisine", c), selected=c == cuisine, id=f"cuisine_{i}")
            for i, c in enumerate(v.content["cuisines"])
        ]
        sort_chips = [
            Chip(label, v.set_ui("sort", key), selected=key == sort, id=f"sort_{key}")
            for key, label in SORTS
        ]
        cards: list[Widget | None] = [self._shop_card(v, r, now) for r in shops]
        if not cards:
            cards = [
                Text("没有找到相关商家", color=theme.TEXT_SECONDARY, align="center", padding=60)
            ]
        return [
            Column(
                [
                    TextField(
                        "search", v.field("search"), "搜索商家、美食", on_focus=v.focus("search")
                    )
                ],
                padding=30,
                fill=self.theme.primary,
            ),
            Column([Wrap(cuisine_chips, spacing=18, id="cuisines")], padding=30),
            Column([Wrap(sort_chips, spacing=18, id="sorts")], padding=30),
            *cards,
            Spacer(40),
        ]

    def _shop_card(self, v: View, r: Any, now: int) -> Widget:
        open_now = is_open(r, now)
        fee = (
            "免配送费" if r["delivery_fee_cents"] == 0 else f"配送{money(r['delivery_fee_cents'])}"
        )
        status = (
            f"{r['delivery_minutes']}分钟 {_distance(r['distance_m'])}"
            if open_now
            else f"休息中 · {r['opens']}开始营业"
        )
        info = Column(
            [
                Text(
                    r["name"],
                    size=46,
                    bold=True,
                    max_lines=1,
                    color=theme.TEXT if open_now else theme.TEXT_SECONDARY,
                ),
                Text(f"★{r['rating']}  月售{r['monthly_sales']}", size=34, color=AMBER),
                Text(
                    f"起送{money(r['min_order_cents'])}  {fee}", size=34, color=theme.TEXT_SECONDARY
                ),
                Text(f"{r['cuisine']} · {status}", size=34, color=theme.TEXT_SECONDARY),
            ],
            spacing=6,
        )
        color = tuple(r["color"]) if open_now else theme.DISABLED
        return Card(
            [Row([Image(r["name"][:2], height=220, color=color), info], weights=(1, 2.6))],
            on_tap=v.go("restaurant", restaurant_id=r["id"]),
            id=f"shop_{r['id']}",
            padding=30,
        )

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

    def _mine_tab(self, v: View) -> list[Widget | None]:
        addresses = v.data["addresses"]
        owner = addresses[0]["name"] if addresses else "美食家"
        unused = [c for c in v.data["coupons"] if not c["used"]]
        return [
            Card(
                [
                    Text(owner, size=56, bold=True),
                    Text("外卖会员 · 准时宝守护中", color=theme.TEXT_SECONDARY),
                ],
                fill=self.theme.primary,
            ),
            ListItem(
                "收货地址",
                trailing=f"{len(addresses)}个",
                on_tap=v.go("addresses"),
                id="my_addresses",
            ),
            ListItem("红包卡券", trailing=f"{len(unused)}张可用", id="my_coupons"),
            ListItem("客服中心", trailing="9:00-22:00", id="service"),
        ]

    # -- screens: restaurant -----------------------------------------------------------------
    @screen("restaurant")
    def restaurant_page(self, v: View) -> Page:
        r = self.restaurant(v, v.params["restaurant_id"])
        open_now = is_open(r, int(v.os["clock"]))
        category = v.ui("category", category_tab(r, r["categories"][0]))
        cart = self.cart_of(v.data, r["id"])
        fee = (
            "免配送费"
            if r["delivery_fee_cents"] == 0
            else f"配送费{money(r['delivery_fee_cents'])}"
        )
        header = Column(
            [
                Card(
                    [
                        Text(
                            f"★{r['rating']}  月售{r['monthly_sales']}  {r['cuisine']}",
                            size=36,
                            color=AMBER,
                        ),
                        Row(
                            [
                                Text(f"起送{money(r['min_order_cents'])}", size=36, id="min_order"),
                                Text(fee, size=36, id="delivery_fee"),
                                Text(f"约{r['delivery_minutes']}分钟", size=36),
                                Text(_distance(r["distance_m"]), size=36, align="right"),
                            ],
                            weights=(1, 1.3, 1, 0.8),
                            spacing=12,
                        ),
                        Text(
                            f"营业时间 {r['opens']}-{r['closes']}"
                            + ("" if open_now else "  ·  本店休息中"),
                            size=34,
                            color=theme.TEXT_SECONDARY if open_now else PRICE_RED,
                        ),
                    ],
                    padding=30,
                    spacing=8,
                ),
                Tabs(
                    [(category_tab(r, c), c) for c in r["categories"]],
                    category,
                    v.on_select("category"),
                    id="categories",
                ),
            ]
        )
        dishes = [d for d in r["dishes"] if category_tab(r, d["category"]) == category]
        rows: list[Widget | None] = [Spacer(12)]
        rows += [self._dish_row(v, r, d, cart, open_now) for d in dishes]
        rows.append(Spacer(40))
        return Page(
            AppBar(r["name"], on_back=v.back()),
            rows,
            header=header,
            bottom=self._cart_bar(v, r, cart, open_now),
            overlay=self._restaurant_sheet(v, r, cart),
            background=theme.SURFACE,
        )

    def _dish_row(self, v: View, r: Any, dish: Any, cart: list[Any], open_now: bool) -> Widget:
        in_cart = sum(i["quantity"] for i in cart if i["dish_id"] == dish["id"])
        info = Column(
            [
                Text(dish["name"], size=44, bold=True, max_lines=1),
                Text(dish["desc"], size=32, color=theme.TEXT_SECONDARY, max_lines=1),
                Text(
                    f"月售{dish['monthly_sales']}" + (f" · 已选{in_cart}" if in_cart else ""),
                    size=30,
                    color=theme.TEXT_SECONDARY,
                ),
                Text(
                    money(dish["price_cents"]),
                    size=44,
                    bold=True,
                    color=PRICE_RED,
                    id=f"price_{dish['id']}",
                ),
            ],
            spacing=4,
        )
        picture = Image(dish["name"][:2], height=190, color=tuple(r["color"]))
        controls: list[Widget]
        weights: list[float]
        if not open_now:
            controls, weights = [], []
        elif dish["options"]:
            controls = [
                Button(
                    "选规格",
                    v.do(self.open_spec, dish["id"]),
                    id=f"spec_{dish['id']}",
                    height=84,
                    size=34,
                )
            ]
            weights = [1.5]
        elif in_cart:
            key = cart_key(dish["id"], [])
            controls = [
                IconButton(
                    "minus",
                    "减少",
                    v.do(self.remove_item, key),
                    id=f"minus_{dish['id']}",
                    size=96,
                    color=theme.TEXT_SECONDARY,
                ),
                Text(str(in_cart), size=40, align="center", id=f"qty_{dish['id']}"),
                IconButton(
                    "plus",
                    "加入购物车",
                    v.do(self.add_item, dish["id"], []),
                    id=f"add_{dish['id']}",
                    size=96,
                    color=AMBER,
                ),
            ]
            weights = [0, 0.6, 0]
        else:
            controls = [
                IconButton(
                    "plus",
                    "加入购物车",
                    v.do(self.add_item, dish["id"], []),
                    id=f"add_{dish['id']}",
                    size=96,
                    color=AMBER,
                )
            ]
            weights = [0]
        return Column(
            [Row([picture, info, *controls], weights=(1.1, 2.6, *weights), spacing=20), Divider()],
            padding=24,
            id=f"dish_{dish['id']}",
        )

    def _cart_bar(self, v: View, r: Any, cart: list[Any], open_now: bool) -> Widget:
        total = items_cents(cart)
        count = sum(i["quantity"] for i in cart)
        short = r["min_order_cents"] - total
        if not open_now:
            label, enabled = "休息中", False
        elif short > 0:
            label = f"{money(r['min_order_cents'])}起送" if not cart else f"差{money(short)}起送"
            enabled = False
        else:
            label, enabled = "去结算", True
        summary = (
            f"{money(total)}  另需配送费{money(r['delivery_fee_cents'])}"
            if cart
            else "购物车是空的"
        )
        return Column(
            [
                Row(
                    [
                        Text(
                            f"已选{count}件 {summary}" if cart else summary,
                            size=38,
                            color=theme.WHITE,
                            bold=bool(cart),
                            padding=24,
                            on_tap=v.set_ui("dialog", "cart") if cart else None,
                            id="cart_summary",
                        ),
                        Button(
                            label,
                            v.go("checkout", restaurant_id=r["id"]),
                            id="checkout",
                            enabled=enabled,
                            height=110,
                        ),
                    ],
                    weights=(2.2, 1),
                )
            ],
            padding=20,
            fill=CART_BAR,
        )

    def _restaurant_sheet(self, v: View, r: Any, cart: list[Any]) -> BottomSheet | None:
        sheet = v.ui("dialog")
        if sheet == "cart" and cart:
            rows: list[Widget | None] = [
                Row(
                    [
                        Column(
                            [
                                Text(i["name"], size=42, max_lines=1),
                                Text(i["spec"], size=32, color=theme.TEXT_SECONDARY),
                            ]
                        ),
                        Text(money(i["unit_cents"] * i["quantity"]), size=40, color=PRICE_RED),
                        IconButton(
                            "minus",
                            "减少",
                            v.do(self.remove_item, i["id"]),
                            id=f"cart_minus_{i['id']}",
                            size=96,
                        ),
                        Text(str(i["quantity"]), size=40, align="center", id=f"cart_qty_{i['id']}"),
                        IconButton(
                            "plus",
                            "增加",
                            v.do(self.add_item, i["dish_id"], _choices(i)),
                            id=f"cart_plus_{i['id']}",
                            size=96,
                            color=AMBER,
                        ),
                    ],
                    weights=(2.4, 1.1, 0, 0.5, 0),
                )
                for i in cart
            ]
            rows.append(_link("清空购物车", v.do(self.clear_cart, r["id"]), "clear_cart"))
            return BottomSheet("已选商品", rows, on_dismiss=v.set_ui("dialog", None), id="cart")
        dish = next((d for d in r["dishes"] if d["id"] == sheet), None)
        if dish is None:
            return None
        chosen = [int(v.ui(f"choice_{g}", 0)) for g in range(len(dish["options"]))]
        spec, unit = spec_of(dish, chosen)
        body: list[Widget | None] = []
        for g, group in enumerate(dish["options"]):
            body.append(Text(group["name"], size=38, color=theme.TEXT_SECONDARY))
            body.append(
                Wrap(
                    [
                        Chip(
                            choice,
                            v.set_ui(f"choice_{g}", c),
                            selected=c == chosen[g],
                            id=f"option_{g}_{c}",
                        )
                        for c, choice in enumerate(group["choices"])
                    ]
                )
            )
        body += [
            Text(f"已选：{spec}   {money(unit)}", size=42, bold=True, color=PRICE_RED),
            Button("加入购物车", v.do(self.add_chosen_spec, dish["id"]), id="spec_add"),
        ]
        return BottomSheet(dish["name"], body, on_dismiss=v.set_ui("dialog", None), id="spec")

    # -- screens: checkout and addresses ------------------------------------------------------
    @screen("checkout")
    def checkout(self, v: View) -> Page:
        r = self.restaurant(v, v.params["restaurant_id"])
        items = self.cart_of(v.data, r["id"])
        address = self.chosen_address(v.data, v.ui("address_id"))
        subtotal = items_cents(items)
        coupon = best_coupon(v.data["coupons"], subtotal)
        total = order_total(r, subtotal, coupon)
        tableware = v.ui("tableware")
        address_card = Card(
            [
                Text(address["text"], size=46, bold=True)
                if address
                else Text("请添加收货地址", size=46, bold=True, color=PRICE_RED),
                Text(
                    f"{address['name']} {address['phone']}" if address else "点击选择或新增地址",
                    color=theme.TEXT_SECONDARY,
                ),
            ],
            on_tap=v.go("addresses", select=True),
            id="address_card",
        )
        lines: list[Widget | None] = [Text(r["name"], size=44, bold=True)]
        lines += [
            Row(
                [
                    Text(f"{i['name']}" + (f"({i['spec']})" if i["spec"] else ""), max_lines=1),
                    Text(f"x{i['quantity']}", align="right"),
                    Text(money(i["unit_cents"] * i["quantity"]), align="right"),
                ],
                weights=(3, 1, 1.2),
            )
            for i in items
        ]
        lines += [
            _fee_row("打包费", money(r["packing_fee_cents"])),
            _fee_row("配送费", money(r["delivery_fee_cents"])),
            _fee_row(coupon["title"], f"-{money(coupon['amount_cents'])}") if coupon else None,
            _fee_row("小计", money(total), bold=True),
        ]
        sheet = None
        if v.ui("dialog") == "tableware":
            chips = [
                Chip(
                    "无需餐具",
                    v.do(_choose_tableware, 0),
                    selected=tableware == 0,
                    id="tableware_0",
                )
            ]
            chips += [
                Chip(
                    f"{n}份",
                    v.do(_choose_tableware, n),
                    selected=tableware == n,
                    id=f"tableware_{n}",
                )
                for n in range(1, MAX_TABLEWARE + 1)
            ]
            sheet = BottomSheet(
                "餐具数量",
                [Text("按需选择，为环保助力", color=theme.TEXT_SECONDARY), Wrap(chips)],
                on_dismiss=v.set_ui("dialog", None),
                id="tableware_sheet",
            )
        return Page(
            AppBar("提交订单", on_back=v.back()),
            [
                address_card,
                Card(lines, spacing=14),
                ListItem(
                    "餐具数量",
                    trailing=tableware_text(tableware),
                    on_tap=v.set_ui("dialog", "tableware"),
                    id="tableware",
                ),
                TextField(
                    "remark",
                    v.field("remark"),
                    "备注：口味、偏好等要求",
                    on_focus=v.focus("remark"),
                ),
            ],
            bottom=Column(
                [
                    Row(
                        [
                            Text(
                                f"合计 {money(total)}",
                                size=48,
                                bold=True,
                                color=PRICE_RED,
                                padding=20,
                                id="total",
                            ),
                            Button(
                                "提交订单",
                                v.do(self.place_order, r["id"]),
                                id="submit_order",
                                enabled=bool(items),
                                height=120,
                            ),
                        ],
                        weights=(1.4, 1),
                    )
                ],
                padding=20,
                fill=theme.SURFACE,
            ),
            body_padding=30,
            spacing=24,
            overlay=sheet,
        )

    @screen("addresses")
    def addresses(self, v: View) -> Page:
        selecting = bool(v.params.get("select"))
        items: list[Widget | None] = [
            ListItem(
                a["text"],
                subtitle=f"{a['name']}  {a['phone']}",
                leading=a["tag"] or "址",
                leading_color=AMBER,
                on_tap=(
                    v.do(self.select_address, a["id"])
                    if selecting
                    else v.go(
                        "address_edit",
                        address_id=a["id"],
                        tag=a["tag"],
                        fields={k: a[k] for k in ("name", "phone", "text")},
                    )
                ),
                id=f"address_{a['id']}",
            )
            for a in v.data["addresses"]
        ]
        if not items:
            items = [Text("还没有收货地址", color=theme.TEXT_SECONDARY, align="center", padding=60)]
        return Page(
            AppBar("选择收货地址" if selecting else "我的收货地址", on_back=v.back()),
            items,
            bottom=Column(
                [Button("新增收货地址", v.go("address_edit", tag=""), id="add_address")],
                padding=30,
                fill=theme.SURFACE,
            ),
        )

    @screen("address_edit")
    def address_edit(self, v: View) -> Page:
        address_id = v.params.get("address_id")
        tag = v.ui("tag", v.params.get("tag", ""))
        dialog = None
        if v.ui("dialog") == "delete" and address_id is not None:
            dialog = Dialog(
                "确定删除该地址吗？",
                buttons=[
                    Button("取消", v.set_ui("dialog", None), id="cancel"),
                    Button(
                        "删除",
                        v.do(self.delete_address, address_id),
                        id="confirm_delete",
                        style="danger",
                    ),
                ],
            )
        delete = IconButton("delete", "删除地址", v.set_ui("dialog", "delete"), id="delete_address")
        return Page(
            AppBar(
                "新增收货地址" if address_id is None else "编辑收货地址",
                on_back=v.back(),
                actions=[delete] if address_id is not None else [],
            ),
            [
                TextField("name", v.field("name"), "联系人姓名", on_focus=v.focus("name")),
                TextField("phone", v.field("phone"), "手机号码", on_focus=v.focus("phone")),
                TextField(
                    "text",
                    v.field("text"),
                    "详细地址：街道、楼牌号等",
                    multiline=True,
                    on_focus=v.focus("text"),
                ),
                Text("标签", color=theme.TEXT_SECONDARY),
                Wrap(
                    [
                        Chip(t, v.set_ui("tag", t), selected=t == tag, id=f"tag_{i}")
                        for i, t in enumerate(TAGS)
                    ]
                ),
                Button("保存地址", v.do(self.save_address), id="save_address"),
            ],
            body_padding=40,
            spacing=30,
            overlay=dialog,
        )

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
            headline.append(_tracking_steps(done))
        actions: list[Widget | None]
        if order["status"] == "unpaid":
            actions = [
                Button("去支付", v.do(self.pay_order, order["id"]), id="pay_order"),
                _link("取消订单", v.set_ui("dialog", "cancel"), "cancel_order"),
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
            _fee_row(
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
                        _fee_row("打包费", money(order["packing_cents"])),
                        _fee_row("配送费", money(order["delivery_cents"])),
                        _fee_row("红包", f"-{money(order['discount_cents'])}")
                        if order["discount_cents"]
                        else None,
                        _fee_row("实付", money(order["total_cents"]), bold=True),
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

    # -- direct tools -------------------------------------------------------------------------
    @tool(
        "add_to_cart",
        "Add a dish to the cart. restaurant_id and dish_id may be ids or exact names; dishes "
        "with options get their default options.",
        {"restaurant_id": str, "dish_id": str, "quantity": int},
    )
    def add_to_cart_tool(
        self, it: Interaction, restaurant_id: str, dish_id: str, quantity: int
    ) -> str:
        restaurant = it.content["by_id"].get(restaurant_id) or next(
            (r for r in it.content["restaurants"] if r["name"] == restaurant_id), None
        )
        if restaurant is None:
            it.no_op(f"no restaurant {restaurant_id!r}")
        dish = next((d for d in restaurant["dishes"] if dish_id in (d["id"], d["name"])), None)
        if dish is None:
            it.no_op(f"{restaurant['name']} has no dish {dish_id!r}")
        if not 1 <= quantity <= 99:
            it.no_op("quantity must be between 1 and 99")
        item = self.add_item(it, dish["id"], [0] * len(dish["options"]), quantity)
        spec = f"({item['spec']})" if item["spec"] else ""
        return f"购物车：{item['name']}{spec} x{item['quantity']}"


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


def _choices(item: Any) -> list[int]:
    return [int(c) for c in item["id"].split("-")[2:]]


def _choose_tableware(it: Interaction, count: int) -> None:
    it.set_ui("tableware", count)
    it.set_ui("dialog", None)


def _matches(restaurant: Any, query: str, cuisine: str) -> bool:
    if cuisine and restaurant["cuisine"] != cuisine:
        return False
    if not query:
        return True
    names = [restaurant["name"], restaurant["cuisine"], *(d["name"] for d in restaurant["dishes"])]
    return any(query in name for name in names)


def _sort_key(restaurant: Any, sort: str) -> float:
    return {
        "distance": restaurant["distance_m"],
        "rating": -restaurant["rating"],
        "fee": restaurant["delivery_fee_cents"],
    }.get(sort, 0)


def _distance(meters: int) -> str:
    return f"{meters}m" if meters < 1000 else f"{meters / 1000:.1f}km"


def _link(text: str, on_tap: Handler, widget_id: str) -> Widget:
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


def _fee_row(label: str, value: str, *, bold: bool = False) -> Widget:
    return Row(
        [Text(label, bold=bold, max_lines=1), Text(value, align="right", bold=bold)], weights=(3, 1)
    )


def _tracking_steps(done: int) -> Widget:
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
