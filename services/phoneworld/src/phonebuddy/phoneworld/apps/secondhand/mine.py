"""The user's side of 闲置: the order confirmation (address, total, pay in the wallet), 我买到的
(pay, confirm receipt), 我想要的, publishing a listing, and managing one's own listings
(降价, mark as sold, take down)."""

from __future__ import annotations

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.secondhand.base import STATUS, YELLOW, SecondhandBase
from phonebuddy.phoneworld.apps.secondhand.content import (
    CATEGORIES,
    CONDITIONS,
    ME,
    shipping_label,
    yuan,
)
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Card,
    Chip,
    ListItem,
    Page,
    Spacer,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)

RED = (220, 50, 50)


class MineScreens(SecondhandBase):
    @screen("confirm")
    def confirm(self, v: View) -> Page:
        listing = self.listing(v, v.params["listing_id"])
        if listing is None:
            return Page("确认订单", [Text("宝贝已下架", padding=40)], on_back=v.back())
        address = self.chosen_address(v.data, v.ui("address_id"))
        total = listing["price"] + listing["shipping"]
        sheet = None
        if v.ui("dialog") == "address":
            sheet = BottomSheet(
                "选择收货地址",
                [ListItem(f"[{a['tag']}] {a['name']} {a['phone']}",
                          subtitle=f"{a['region']} {a['detail']}",
                          trailing="✓" if a["id"] == address["id"] else "",
                          on_tap=v.do(self.choose_address, a["id"]), id=f"address_{a['id']}")
                 for a in v.data["addresses"]],
                on_dismiss=v.set_ui("dialog", None),
            )  # fmt: skip
        return Page(
            "确认订单",
            [
                ListItem(f"[{address['tag']}] {address['name']} {address['phone']}",
                         subtitle=f"{address['region']} {address['detail']}",
                         trailing="更换", on_tap=v.set_ui("dialog", "address"), id="address"),
                Card([
                    Text(listing["title"], size=44, bold=True, id="confirm_title"),
                    Text(f"宝贝价格 {yuan(listing['price'])}", size=38, id="confirm_price"),
                    Text(f"运费 {yuan(listing['shipping'])}", size=38, id="confirm_shipping"),
                    Text(f"合计 {yuan(total)}", size=46, bold=True, id="confirm_total"),
                ]),
                Button(f"确认购买并支付 {yuan(total)}", v.do(self.submit_order, listing["id"]),
                       id="submit"),
            ],
            on_back=v.back(), body_padding=30, spacing=24, overlay=sheet,
        )  # fmt: skip

    @screen("orders")
    def orders(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for order in v.data["orders"]:
            action = None
            if order["status"] == "unpaid":
                action = Button(
                    "去支付", v.do(self.pay_order, order["id"]), id=f"pay_{order['id']}"
                )
            elif order["status"] == "to_receive":
                action = Button("确认收货", v.set_ui("dialog", order["id"]),
                                id=f"receive_{order['id']}")  # fmt: skip
            rows.append(ListItem(
                order["title"], subtitle=f"实付{yuan(order['total'])}｜{STATUS[order['status']]}",
                leading="单", leading_color=YELLOW, id=f"order_{order['id']}", action=action,
            ))  # fmt: skip
        if not rows:
            rows.append(Text("还没有买到的宝贝", color=theme.TEXT_SECONDARY, padding=40))
        overlay = None
        receiving = self.order(v.data, v.ui("dialog") or "")
        if receiving is not None and receiving["status"] == "to_receive":
            overlay = v.confirm(
                "确认收货？", v.do(self.confirm_receipt, receiving["id"]),
                message=f"确认已收到“{receiving['title']}”，货款将打给卖家。",
                label="确认收货", confirm_id="confirm_receive",
            )  # fmt: skip
        return Page("我买到的", [*rows, Spacer(60)], on_back=v.back(), overlay=overlay)

    @screen("favourites")
    def favourites(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for fav in v.data["favourites"]:
            listing = self.listing(v, fav["id"])
            if listing is not None:
                rows.append(self.row(v, listing, "fav"))  # type: ignore[attr-defined]
        if not rows:
            rows.append(Text("还没有想要的宝贝", color=theme.TEXT_SECONDARY, padding=40))
        return Page("我想要的", [*rows, Spacer(60)], on_back=v.back())

    # -- publishing ----------------------------------------------------------------------------
    @screen("sell")
    def sell(self, v: View) -> Page:
        category, condition = v.ui("category"), v.ui("condition", "九成新")
        free = v.ui("free_ship", True)
        error = v.ui("sell_error")
        return Page(
            "发布闲置",
            [
                TextField("sell_title", v.field("sell_title"), "宝贝标题",
                          on_focus=v.focus("sell_title")),
                TextField("sell_desc", v.field("sell_desc"), "描述一下宝贝的品牌、成色、入手渠道",
                          on_focus=v.focus("sell_desc"), multiline=True),
                TextField("sell_price", v.field("sell_price"), "价格（元）",
                          on_focus=v.focus("sell_price")),
                Text("分类", size=40, bold=True),
                Wrap([Chip(c, v.set_ui("category", c), selected=category == c, id=f"pick_{c}")
                      for c in CATEGORIES]),
                Text("成色", size=40, bold=True),
                Wrap([Chip(c, v.set_ui("condition", c), selected=condition == c,
                           id=f"cond_{i}") for i, c in enumerate(CONDITIONS)]),
                Toggle("包邮", free, v.set_ui("free_ship", not free), id="free_ship"),
                None if free else TextField("sell_shipping", v.field("sell_shipping"),
                                            "运费（元）", on_focus=v.focus("sell_shipping")),
                Text(error, color=RED, id="sell_error") if error else None,
                Button("发布", v.do(self.publish), id="publish"),
                Spacer(60),
            ],
            on_back=v.back(), body_padding=30, spacing=20,
        )  # fmt: skip

    # -- my listings ---------------------------------------------------------------------------
    @screen("mine")
    def mine(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for listing in v.data["listings"]:
            if listing["seller"] != ME:
                continue
            rows.append(ListItem(
                listing["title"],
                subtitle=f"{yuan(listing['price'])}｜{shipping_label(listing['shipping'])}｜"
                f"{'已卖出' if listing['sold'] else '在售'}",
                leading=listing["category"][:1], leading_color=YELLOW,
                on_tap=v.go("manage", listing_id=listing["id"]), id=f"mine_{listing['id']}",
            ))  # fmt: skip
        if not rows:
            rows.append(Text("还没有发布宝贝", color=theme.TEXT_SECONDARY, padding=40))
        return Page("我发布的", [*rows, Button("发布闲置", v.go("sell"), id="sell"), Spacer(60)],
                    on_back=v.back())  # fmt: skip

    @screen("manage")
    def manage(self, v: View) -> Page:
        listing = self.listing(v, v.params["listing_id"])
        if listing is None or listing["seller"] != ME:
            return Page("管理宝贝", [Text("宝贝已下架", padding=40)], on_back=v.back())
        error = v.ui("price_error")
        dialog = v.ui("dialog")
        overlay = None
        if dialog == "take_down":
            overlay = v.confirm("确定下架这件宝贝？", v.do(self.take_down, listing["id"]),
                                message="下架后买家将看不到它。", label="下架",
                                confirm_id="confirm_take_down", danger=True)  # fmt: skip
        elif dialog == "sold" and not listing["sold"]:
            overlay = v.confirm("标记为已卖出？", v.do(self.mark_sold, listing["id"]),
                                message="标记后宝贝将不能再被购买。", label="已卖出",
                                confirm_id="confirm_sold")  # fmt: skip
        state = "已卖出" if listing["sold"] else "在售"
        return Page(
            "管理宝贝",
            [
                Text(listing["title"], size=50, bold=True, id="manage_title"),
                Text(f"当前价格 {yuan(listing['price'])}｜{state}", size=40, id="manage_price"),
                None if listing["sold"] else TextField(
                    "new_price", v.field("new_price"), "新价格（元）",
                    on_focus=v.focus("new_price")),
                Text(error, color=RED, id="price_error") if error else None,
                None if listing["sold"] else Button("降价/改价", v.do(self.reprice, listing["id"]),
                                                    id="save_price"),
                None if listing["sold"] else Button("标记已卖出", v.set_ui("dialog", "sold"),
                                                    id="mark_sold", style="secondary"),
                Button("下架", v.set_ui("dialog", "take_down"), id="take_down", style="danger"),
            ],
            on_back=v.back(), body_padding=30, spacing=20, overlay=overlay,
        )  # fmt: skip
