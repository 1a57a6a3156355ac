"""The Shop's cart and checkout: ticking and changing cart lines, the checkout page with
address and coupon choice, the order it submits and the wallet payment of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.shop.base import MAX_QUANTITY, ORANGE, PRICE, ShopBase, best_coupon
from phonebuddy.phoneworld.apps.shop.content import options_text, order_line, sku_price
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Card,
    Column,
    IconButton,
    ListItem,
    Page,
    Row,
    Text,
    Widget,
)


class CheckoutScreens(ShopBase):
    # -- handlers: cart ----------------------------------------------------------------------------
    def toggle_line(self, it: Interaction, line_id: str) -> None:
        self.require_line(it, line_id)
        selected = list(it.ui("selected", []))
        it.set_ui(
            "selected",
            [s for s in selected if s != line_id] if line_id in selected else [*selected, line_id],
        )

    @staticmethod
    def toggle_all(it: Interaction) -> None:
        ids = [line["id"] for line in it.data["cart"]]
        if not ids:
            it.no_op("the cart is empty")
        it.set_ui("selected", [] if set(it.ui("selected", [])) >= set(ids) else ids)

    def step_line_quantity(self, it: Interaction, line_id: str, delta: int) -> None:
        line = self.require_line(it, line_id)
        quantity = line["quantity"] + delta
        if quantity < 1:
            it.no_op("至少要买一件")
        if quantity > MAX_QUANTITY:
            it.no_op("超出了限购数量")
        line["quantity"] = quantity

    def ask_remove(self, it: Interaction, line_id: str) -> None:
        self.require_line(it, line_id)
        it.set_ui("removing", line_id)
        it.set_ui("dialog", "remove")

    def remove_line(self, it: Interaction, line_id: str) -> None:
        self.require_line(it, line_id)
        it.data["cart"] = [line for line in it.data["cart"] if line["id"] != line_id]
        it.set_ui("selected", [s for s in it.ui("selected", []) if s != line_id])
        it.set_ui("dialog", None)
        it.toast("已删除")

    @staticmethod
    def checkout_selected(it: Interaction) -> None:
        cart_ids = {line["id"] for line in it.data["cart"]}
        chosen = [line_id for line_id in it.ui("selected", []) if line_id in cart_ids]
        if not chosen:
            it.no_op("您还没有选择宝贝哦")
        it.push("checkout", cart_line_ids=chosen)

    # -- handlers: checkout and payment ----------------------------------------------------------
    def checkout_items(self, data: Mapping[str, Any], params: Mapping[str, Any]) -> list[dict]:
        """The (product id, options, quantity) of what is being bought."""
        if "items" in params:
            return [dict(item) for item in params["items"]]
        wanted = params.get("cart_line_ids", [])
        return [
            {
                "product_id": line["product_id"],
                "options": line["options"],
                "quantity": line["quantity"],
            }
            for line in data["cart"]
            if line["id"] in wanted
        ]

    def checkout_lines(
        self, content: Mapping[str, Any], data: Mapping[str, Any], params: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        lines = []
        for item in self.checkout_items(data, params):
            product = self.product(content, item["product_id"])
            if product is not None:
                lines.append(order_line(product, item["options"], int(item["quantity"])))
        return lines

    @staticmethod
    def chosen_address(data: Mapping[str, Any], address_id: str | None) -> Mapping[str, Any]:
        addresses = data["addresses"]
        chosen = next((a for a in addresses if a["id"] == address_id), None)
        return chosen or next((a for a in addresses if a["default"]), addresses[0])

    @staticmethod
    def chosen_coupon(
        data: Mapping[str, Any], choice: str, subtotal: int
    ) -> Mapping[str, Any] | None:
        """The coupon used: the best one unless the shopper picked one, or none."""
        if choice == "none":
            return None
        if choice == "auto":
            return best_coupon(data["coupons"], subtotal)
        coupon = next((c for c in data["coupons"] if c["id"] == choice), None)
        usable = coupon is not None and not coupon["used"]
        return coupon if usable and coupon["threshold_cents"] <= subtotal else None

    def choose_address(self, it: Interaction, address_id: str) -> None:
        it.set_ui("address_id", address_id)
        it.set_ui("dialog", None)

    def choose_coupon(self, it: Interaction, choice: str) -> None:
        it.set_ui("coupon", choice)
        it.set_ui("dialog", None)

    def submit_order(self, it: Interaction) -> None:
        params = it.entry["params"]
        lines = self.checkout_lines(it.content, it.data, params)
        if not lines:
            it.no_op("nothing to buy")
        subtotal = sum(line["price_cents"] * line["quantity"] for line in lines)
        coupon = self.chosen_coupon(it.data, it.ui("coupon", "auto"), subtotal)
        discount = int(coupon["discount_cents"]) if coupon else 0
        order_id = it.new_id("order")
        order = {
            "id": order_id,
            "number": f"{it.clock % 10**10:010d}{order_id[-5:]}0",
            "items": lines,
            "address_id": self.chosen_address(it.data, it.ui("address_id"))["id"],
            "coupon_id": coupon["id"] if coupon else None,
            "subtotal_cents": subtotal,
            "discount_cents": discount,
            "total_cents": subtotal - discount,
            "status": "unpaid",
            "created_at": it.clock,
            "paid_at": None,
        }
        it.data["orders"].append(order)
        if coupon is not None:
            next(c for c in it.data["coupons"] if c["id"] == coupon["id"])["used"] = True
        bought = set(params.get("cart_line_ids", []))
        it.data["cart"] = [line for line in it.data["cart"] if line["id"] not in bought]
        # The order exists from now on: leaving the wallet without paying leaves it 待付款.
        it.replace("order", order_id=order_id)
        self.ask_wallet_to_pay(it, order)

    @staticmethod
    def ask_wallet_to_pay(it: Interaction, order: Mapping[str, Any]) -> None:
        shops = sorted({line["shop"] for line in order["items"]})
        first = order["items"][0]["name"]
        it.request_payment(
            amount_cents=int(order["total_cents"]),
            merchant=shops[0] if len(shops) == 1 else f"{len(shops)}家店铺合并付款",
            reference=str(order["id"]),
            description=first if len(order["items"]) == 1 else f"{first}等{len(order['items'])}件",
        )

    def pay_order(self, it: Interaction, order_id: str) -> None:
        order = self.require_order(it, order_id)
        if order["status"] != "unpaid":
            it.no_op("this order is not awaiting payment")
        self.ask_wallet_to_pay(it, order)

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order = next((o for o in it.data["orders"] if o["id"] == reference), None)
        if order is None:
            return
        on_its_page = it.entry["screen"] == "order" and it.entry["params"]["order_id"] == reference
        if not paid:
            it.toast("订单待付款，可在“我的订单”中继续支付")
            return
        if order["status"] == "unpaid":
            order["status"] = "to_ship"
            order["paid_at"] = it.clock
        if on_its_page:
            it.replace("pay_result", order_id=reference)
        else:
            it.toast("支付成功")

    # -- screens: cart -----------------------------------------------------------------------------
    @screen("cart")
    def cart(self, v: View) -> Page:
        return self.cart_page(v, pushed=True)

    def cart_page(self, v: View, *, pushed: bool) -> Page:
        cart = v.data["cart"]
        selected = [line for line in cart if line["id"] in v.ui("selected", [])]
        total = 0
        for line in selected:
            product = self.product(v.content, line["product_id"])
            if product is not None:
                total += sku_price(product, line["options"]) * line["quantity"]
        everything = bool(cart) and len(selected) == len(cart)
        bar = self.bottom_bar(
            [
                IconButton(
                    "check",
                    "全选",
                    v.do(self.toggle_all),
                    id="select_all",
                    size=90,
                    color=ORANGE if everything else theme.DISABLED,
                ),
                Text("全选", size=36),
                Text(
                    f"合计：{yuan(total)}",
                    size=40,
                    bold=True,
                    color=PRICE,
                    align="right",
                    id="cart_total",
                ),
                Button(
                    f"结算({len(selected)})",
                    v.do(self.checkout_selected),
                    id="checkout",
                    height=110,
                    enabled=bool(selected),
                ),
            ],
            weights=[0, 0.8, 2.2, 1.5],
        )
        lines: list[Widget | None] = [self.cart_line(v, line) for line in cart]
        dialog = None
        if v.ui("dialog") == "remove":
            dialog = v.confirm(
                "确定要删除这个宝贝吗？",
                v.do(self.remove_line, v.ui("removing")),
                label="删除",
                confirm_id="remove_confirm",
                danger=True,
                cancel_label="我再想想",
                cancel_id="remove_cancel",
            )
        return Page(
            f"购物车({len(cart)})",
            lines
            or [
                Text(
                    "购物车竟然是空的，再忙也要记得买点什么犒赏自己~",
                    color=theme.TEXT_SECONDARY,
                    padding=40,
                )
            ],
            bottom=bar,
            on_back=v.back() if pushed else None,
            body_padding=24,
            spacing=20,
            overlay=dialog,
        )

    def cart_line(self, v: View, line: Mapping[str, Any]) -> Widget | None:
        product = self.product(v.content, line["product_id"])
        if product is None:
            return None
        line_id = line["id"]
        ticked = line_id in v.ui("selected", [])
        return Card(
            [
                Row(
                    [
                        Text(product["shop"], size=36, bold=True),
                        IconButton(
                            "delete",
                            "删除",
                            v.do(self.ask_remove, line_id),
                            id=f"remove_{line_id}",
                            size=80,
                            color=theme.TEXT_SECONDARY,
                        ),
                    ]
                ),
                Row(
                    [
                        IconButton(
                            "check",
                            "取消选择" if ticked else "选择",
                            v.do(self.toggle_line, line_id),
                            id=f"select_{line_id}",
                            size=90,
                            color=ORANGE if ticked else theme.DISABLED,
                        ),
                        self.picture(v, product, 220),
                        Column(
                            [
                                Text(product["name"], size=38, max_lines=2, id=f"name_{line_id}"),
                                Text(
                                    options_text(line["options"]),
                                    size=32,
                                    color=theme.TEXT_SECONDARY,
                                    id=f"options_{line_id}",
                                ),
                                Row(
                                    [
                                        Text(
                                            yuan(sku_price(product, line["options"])),
                                            size=40,
                                            bold=True,
                                            color=PRICE,
                                        ),
                                        IconButton(
                                            "minus",
                                            "减少",
                                            v.do(self.step_line_quantity, line_id, -1),
                                            id=f"minus_{line_id}",
                                            size=80,
                                        ),
                                        Text(
                                            str(line["quantity"]),
                                            size=40,
                                            align="center",
                                            id=f"qty_{line_id}",
                                        ),
                                        IconButton(
                                            "plus",
                                            "增加",
                                            v.do(self.step_line_quantity, line_id, 1),
                                            id=f"plus_{line_id}",
                                            size=80,
                                        ),
                                    ],
                                    spacing=8,
                                    weights=[2.4, 0, 1, 0],
                                ),
                            ],
                            spacing=8,
                        ),
                    ],
                    spacing=16,
                    weights=[0, 1, 2.3],
                ),
            ],
            id=f"line_{line_id}",
            padding=24,
        )

    # -- screens: checkout -------------------------------------------------------------------------
    @screen("checkout")
    def checkout(self, v: View) -> Page:
        lines = self.checkout_lines(v.content, v.data, v.params)
        subtotal = sum(line["price_cents"] * line["quantity"] for line in lines)
        coupon = self.chosen_coupon(v.data, v.ui("coupon", "auto"), subtotal)
        discount = int(coupon["discount_cents"]) if coupon else 0
        address = self.chosen_address(v.data, v.ui("address_id"))
        coupon_text = f"-{yuan(discount)} {coupon['title']}" if coupon else "不使用"
        items = [
            Column(
                [
                    Text(line["name"], size=38, max_lines=2),
                    Text(options_text(line["options"]), size=32, color=theme.TEXT_SECONDARY),
                    Row(
                        [
                            Text(yuan(line["price_cents"]), size=38, color=PRICE),
                            Text(f"×{line['quantity']}", size=38, align="right"),
                        ]
                    ),
                ],
                spacing=6,
            )
            for line in lines
        ]
        body = [
            Card(
                [
                    Text(
                        f"[{address['tag']}] {address['name']} {address['phone']}",
                        size=40,
                        bold=True,
                        id="address_name",
                    ),
                    Text(
                        f"{address['region']} {address['detail']}",
                        size=34,
                        color=theme.TEXT_SECONDARY,
                    ),
                ],
                on_tap=v.set_ui("dialog", "address"),
                id="address",
            ),
            Card(
                [
                    Text(" / ".join(sorted({line["shop"] for line in lines})), size=38, bold=True),
                    *items,
                ],
                spacing=20,
            ),
            ListItem(
                "优惠券", trailing=coupon_text, on_tap=v.set_ui("dialog", "coupon"), id="coupon"
            ),
            Card(
                [
                    Text(f"商品总价 {yuan(subtotal)}", size=36),
                    Text(f"优惠 -{yuan(discount)}", size=36, color=PRICE),
                ]
            ),
        ]
        bar = self.bottom_bar(
            [
                Text(
                    f"合计：{yuan(subtotal - discount)}",
                    size=44,
                    bold=True,
                    color=PRICE,
                    align="right",
                    id="checkout_total",
                ),
                Button(
                    "提交订单",
                    v.do(self.submit_order),
                    id="submit_order",
                    height=120,
                    enabled=bool(lines),
                ),
            ],
            weights=[1.6, 1],
        )
        return Page(
            "确认订单",
            body,
            bottom=bar,
            on_back=v.back(),
            body_padding=24,
            spacing=20,
            overlay=self.checkout_sheet(v, subtotal, address["id"], coupon),
        )

    def checkout_sheet(
        self, v: View, subtotal: int, address_id: str, coupon: Mapping[str, Any] | None
    ) -> BottomSheet | None:
        dialog = v.ui("dialog")
        if dialog == "address":
            return BottomSheet(
                "选择收货地址",
                [
                    ListItem(
                        f"[{a['tag']}] {a['name']} {a['phone']}",
                        subtitle=f"{a['region']} {a['detail']}",
                        selected=a["id"] == address_id,
                        trailing="✓" if a["id"] == address_id else "",
                        on_tap=v.do(self.choose_address, a["id"]),
                        id=f"address_{a['id']}",
                    )
                    for a in v.data["addresses"]
                ],
                on_dismiss=v.set_ui("dialog", None),
            )
        if dialog == "coupon":
            usable = [
                c for c in v.data["coupons"] if not c["used"] and c["threshold_cents"] <= subtotal
            ]
            chosen = coupon["id"] if coupon else None
            return BottomSheet(
                "选择优惠券",
                [
                    *(
                        ListItem(
                            c["title"],
                            subtitle=f"满{c['threshold_cents'] // 100}减"
                            f"{c['discount_cents'] // 100}",
                            trailing="✓" if c["id"] == chosen else "",
                            on_tap=v.do(self.choose_coupon, c["id"]),
                            id=f"coupon_{c['id']}",
                        )
                        for c in usable
                    ),
                    ListItem(
                        "不使用优惠券",
                        trailing="✓" if chosen is None else "",
                        on_tap=v.do(self.choose_coupon, "none"),
                        id="coupon_none",
                    ),
                ],
                on_dismiss=v.set_ui("dialog", None),
            )
        return None

    @screen("pay_result")
    def pay_result(self, v: View) -> Page:
        order = next((o for o in v.data["orders"] if o["id"] == v.params["order_id"]), None)
        paid = yuan(order["total_cents"]) if order else ""
        return Page(
            "支付成功",
            [
                Card(
                    [
                        Text("✓ 支付成功", size=64, bold=True, color=ORANGE, align="center"),
                        Text(f"实付 {paid}", size=44, align="center", id="paid_amount"),
                        Text(
                            "卖家将尽快为你发货",
                            size=36,
                            color=theme.TEXT_SECONDARY,
                            align="center",
                        ),
                    ],
                    spacing=20,
                    padding=60,
                ),
                Button(
                    "查看订单",
                    v.do(self.view_order, v.params["order_id"]),
                    id="view_order",
                    style="secondary",
                ),
                Button("继续逛逛", v.do(self.back_home), id="back_home"),
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )
