"""演出票's buying and after-sale screens: the checkout (观演人 for 实名制 shows, then the
wallet), an order's detail (entry code, refund behind a confirmation), the order list, the
观演人 list with its add form, and the 缺货登记 list."""

from __future__ import annotations

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.showtix.base import PINK, ShowTixBase
from phonebuddy.phoneworld.apps.showtix.content import (
    REFUND_FEE_PERCENT,
    REFUND_HOURS,
    price_label,
)
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    ListItem,
    Page,
    Text,
    TextField,
    Widget,
)

ERROR_RED = (220, 50, 50)


def masked(idno: str) -> str:
    return f"{idno[:4]}**********{idno[-4:]}"


class OrderScreens(ShowTixBase):
    @screen("checkout")
    def checkout(self, v: View) -> Page:
        p = v.params
        show, session = self.show(v, p["show_id"]), self.session(v, p["session_id"])
        picked = v.ui("picked", [])
        rows: list[Widget | None] = [
            Card([
                Text(show["title"], size=48, bold=True, id="co_title"),
                Text(f"{self.when(v, session)}｜{show['city']}·{show['venue']}", size=36,
                     id="co_session"),
                Text(f"{price_label(p['price'])} × {p['qty']}张", size=38, id="co_tier"),
                Text(f"应付 {price_label(p['price'] * p['qty'])}", size=44, bold=True, color=PINK,
                     id="co_total"),
            ]),
        ]  # fmt: skip
        if show["real_name"]:
            rows.append(Text(f"实名制演出：请选择{p['qty']}位观演人（已选{len(picked)}位）",
                             size=38, bold=True, padding=12, id="viewer_hint"))  # fmt: skip
            rows += [
                ListItem(person["name"], subtitle=f"身份证 {masked(person['idno'])}",
                         trailing="✓ 已选" if person["id"] in picked else "选择",
                         selected=person["id"] in picked,
                         on_tap=v.do(self.toggle_viewer, person["id"]),
                         id=f"viewer_{person['id']}")
                for person in v.data["viewers"]
            ]  # fmt: skip
            rows.append(Button("添加观演人", v.go("viewer_new"), id="add_viewer",
                               style="secondary"))  # fmt: skip
        rows.append(Button(f"提交订单并支付 {price_label(p['price'] * p['qty'])}",
                           v.do(self.submit), id="submit"))  # fmt: skip
        return Page("确认订单", rows, on_back=v.back(), body_padding=30, spacing=16)

    @screen("order")
    def order_page(self, v: View) -> Page:
        order = self.order(v.data, v.params["order_id"])
        if order is None:
            return Page("订单详情", [Text("订单不存在", padding=40)], on_back=v.back())
        show, session = self.show(v, order["show"]), self.session(v, order["session"])
        names = [p["name"] for i in order["viewers"] if (p := self.viewer(v.data, i))]
        paid = order["status"] == "已付款"
        rows: list[Widget | None] = [
            Text(order["status"], size=50, bold=True, color=PINK, id="status"),
            Card([
                Text(show["title"], size=48, bold=True, id="order_title"),
                Text(self.when(v, session), size=38, id="order_time"),
                Text(f"{show['city']}·{show['venue']}", size=36, id="order_venue"),
                Text(f"{price_label(order['tier'])} × {order['qty']}张，"
                     f"实付 {price_label(order['total'])}", size=38, id="order_amount"),
                Text(f"观演人：{'、'.join(names)}", size=36, id="order_viewers") if names else None,
            ]),
        ]  # fmt: skip
        if order["order_no"]:
            rows.append(Text(f"订单号：{order['order_no']}", size=36, id="order_no"))
        if paid:
            rows.append(Text("入场码", size=40, bold=True, padding=12))
            rows.append(Text(order["code"], size=64, bold=True, align="center", id="entry_code"))
            rule = (
                f"开演前{REFUND_HOURS}小时以上可退票，收取{REFUND_FEE_PERCENT}%手续费"
                if self.refundable(v, order)
                else f"距开演已不足{REFUND_HOURS}小时，不支持退票"
            )
            rows.append(Text(rule, size=34, color=theme.TEXT_SECONDARY, id="refund_rule"))
            rows.append(Button("申请退票", v.do(self.ask_refund, order["id"]), id="refund",
                               style="secondary"))  # fmt: skip
        elif order["status"] == "已退款":
            rows.append(Text(f"已退款 {price_label(order['refund'])}", size=38, id="refunded"))
        else:
            rows.append(Button(f"去支付 {price_label(order['total'])}",
                               v.do(self.pay, order["id"]), id="pay_order"))  # fmt: skip
        dialog = None
        if v.ui("dialog") == "refund" and paid:
            fee = order["total"] * REFUND_FEE_PERCENT // 100
            dialog = v.confirm(
                "确认退票？",
                v.do(self.refund, order["id"]),
                message=f"将收取手续费{price_label(fee)}，退回{price_label(order['total'] - fee)}。"
                "退票后入场码失效。",
                label="确认退票",
                confirm_id="confirm_refund",
                danger=True,
            )
        return Page("订单详情", rows, on_back=v.back(), body_padding=30, spacing=16,
                    overlay=dialog)  # fmt: skip

    @screen("orders")
    def orders_page(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for order in v.data["orders"]:
            show = self.show(v, order["show"])
            session = self.session(v, order["session"])
            rows.append(ListItem(show["title"],
                                 subtitle=f"{self.when(v, session)}｜{order['qty']}张",
                                 trailing=order["status"], leading=show["title"][:1],
                                 leading_color=PINK, on_tap=v.go("order", order_id=order["id"]),
                                 id=f"order_{order['id']}"))  # fmt: skip
        if not rows:
            rows.append(Text("暂无订单", color=theme.TEXT_SECONDARY, padding=40, align="center"))
        return Page("我的订单", rows, on_back=v.back())

    @screen("viewers")
    def viewers_page(self, v: View) -> Page:
        rows: list[Widget | None] = [
            ListItem(p["name"], subtitle=f"身份证 {masked(p['idno'])}", id=f"person_{p['id']}")
            for p in v.data["viewers"]
        ]
        rows.append(Button("添加观演人", v.go("viewer_new"), id="add_viewer"))
        return Page("常用观演人", rows, on_back=v.back(), spacing=12)

    @screen("viewer_new")
    def viewer_new(self, v: View) -> Page:
        error = v.ui("error")
        return Page(
            "添加观演人",
            [
                TextField("name", v.field("name"), "姓名", on_focus=v.focus("name")),
                TextField("idno", v.field("idno"), "身份证号（18位）", on_focus=v.focus("idno")),
                Text(error, color=ERROR_RED, id="viewer_error") if error else None,
                Text("请填写观演人真实姓名与身份证号，入场时需核验", size=34,
                     color=theme.TEXT_SECONDARY),
                Button("保存", v.do(self.save_viewer), id="save_viewer"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
        )  # fmt: skip

    @screen("waitlist")
    def waitlist_page(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for entry in v.data["waitlist"]:
            show = self.show(v, entry["show"])
            session = self.session(v, entry["session"])
            rows.append(ListItem(show["title"], subtitle=self.when(v, session),
                                 trailing=f"{price_label(entry['tier'])} 登记中",
                                 id=f"wait_{entry['id']}"))  # fmt: skip
        if not rows:
            rows.append(
                Text("暂无缺货登记", color=theme.TEXT_SECONDARY, padding=40, align="center")
            )
        return Page("缺货登记", rows, on_back=v.back())
