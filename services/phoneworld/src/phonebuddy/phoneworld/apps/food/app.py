"""外卖 (Food): a Meituan-like delivery app. Restaurants with menus and options, a cart per
restaurant, checkout to a saved address with tableware and a remark, payment through the
wallet, order tracking derived from the simulated clock, order history with re-order.

Data: `addresses`, `cart` (items keyed `<dish id>-<choice indices>`), `orders`, `coupons`, and
`promo_seen` (the new-user red packet pop-up shown on first open).

The screens live in `menus` (restaurants and the cart), `checkout` (addresses, placing and
paying an order) and `orders`, whose classes this one combines; what they share is in `base`.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import Label, View, screen, tool
from phonebuddy.phoneworld.apps.food.base import (
    AMBER,
    FOOD_PACKAGE,
    PRICE_RED,
    SORTS,
    WELCOME_COUPON,
    distance_text,
    is_open,
    link_text,
    money,
    new_order,
    order_item,
    restaurant_matches,
    restaurant_sort_key,
)
from phonebuddy.phoneworld.apps.food.checkout import CheckoutScreens
from phonebuddy.phoneworld.apps.food.content import (
    ADDRESSES,
    PEOPLE,
    build_restaurants,
    phone_number,
)
from phonebuddy.phoneworld.apps.food.menus import MenuScreens
from phonebuddy.phoneworld.apps.food.orders import OrderScreens
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Column,
    Dialog,
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


class Food(MenuScreens, CheckoutScreens, OrderScreens):
    package = FOOD_PACKAGE
    label = Label(zh="外卖", en="Food")
    domain = "food"
    theme = AppTheme(primary=(255, 209, 0), on_primary=(33, 33, 33), accent=(230, 120, 0))
    friction = Friction(
        splash="美食外卖，准时送达", login_screens=("checkout",), loading_screens=("restaurant",)
    )
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

    # -- handlers: promo and cart -------------------------------------------------------------
    @staticmethod
    def close_promo(it: Interaction, accept: bool) -> None:
        it.data["promo_seen"] = True
        if accept and not any(c["id"] == WELCOME_COUPON["id"] for c in it.data["coupons"]):
            it.data["coupons"].append(dict(WELCOME_COUPON))
            it.toast("红包已放入账户")

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
                    link_text("暂不领取", v.do(self.close_promo, False), "promo_close"),
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
        shops = [r for r in v.content["restaurants"] if restaurant_matches(r, query, cuisine)]
        now = int(v.os["clock"])
        shops.sort(
            key=lambda r: (
                query not in r["name"],
                not is_open(r, now),
                restaurant_sort_key(r, sort),
            )
        )
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
            f"{r['delivery_minutes']}分钟 {distance_text(r['distance_m'])}"
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
