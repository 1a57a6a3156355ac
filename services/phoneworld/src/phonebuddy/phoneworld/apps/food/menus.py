"""Food's restaurant page: the menu by category, dish specs, and the cart bar and sheet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.food.base import (
    AMBER,
    CART_BAR,
    PRICE_RED,
    FoodBase,
    cart_key,
    category_tab,
    default_choices,
    distance_text,
    is_open,
    items_cents,
    link_text,
    money,
    order_item,
    spec_of,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    AppBar,
    BottomSheet,
    Button,
    Card,
    Chip,
    Column,
    Divider,
    IconButton,
    Image,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    Widget,
    Wrap,
)


class MenuScreens(FoodBase):
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
                                Text(distance_text(r["distance_m"]), size=36, align="right"),
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
                            v.do(self.add_item, i["dish_id"], default_choices(i)),
                            id=f"cart_plus_{i['id']}",
                            size=96,
                            color=AMBER,
                        ),
                    ],
                    weights=(2.4, 1.1, 0, 0.5, 0),
                )
                for i in cart
            ]
            rows.append(link_text("清空购物车", v.do(self.clear_cart, r["id"]), "clear_cart"))
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
