"""Food's checkout: the order form (address, tableware, remark), placing the order and paying
it through the wallet, and the delivery addresses (choose, add, edit, delete).
"""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.food.base import (
    AMBER,
    MAX_TABLEWARE,
    PRICE_RED,
    FoodBase,
    best_coupon,
    choose_tableware,
    fee_row,
    is_open,
    items_cents,
    money,
    new_order,
    order_total,
    tableware_text,
)
from phonebuddy.phoneworld.apps.food.content import TAGS
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    AppBar,
    BottomSheet,
    Button,
    Card,
    Chip,
    Column,
    Dialog,
    IconButton,
    ListItem,
    Page,
    Row,
    Text,
    TextField,
    Widget,
    Wrap,
)


class CheckoutScreens(FoodBase):
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
            fee_row("打包费", money(r["packing_fee_cents"])),
            fee_row("配送费", money(r["delivery_fee_cents"])),
            fee_row(coupon["title"], f"-{money(coupon['amount_cents'])}") if coupon else None,
            fee_row("小计", money(total), bold=True),
        ]
        sheet = None
        if v.ui("dialog") == "tableware":
            chips = [
                Chip(
                    "无需餐具",
                    v.do(choose_tableware, 0),
                    selected=tableware == 0,
                    id="tableware_0",
                )
            ]
            chips += [
                Chip(
                    f"{n}份",
                    v.do(choose_tableware, n),
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
