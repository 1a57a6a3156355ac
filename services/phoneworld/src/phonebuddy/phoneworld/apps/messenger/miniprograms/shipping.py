"""快递寄件: send a parcel from Hangzhou. Sender and recipient address books (name, an 11-digit
mobile number, province and address), a new-recipient form, the item type, the weight priced
by each courier's 首重/续重 for the destination province, pick-up time slots (some full), an
insured value with its 保价 fee, paying through the wallet, the waybill number, and cancelling
before pick-up."""

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
from phonebuddy.phoneworld.apps.messenger.miniprograms.shipping_rules import (
    COURIERS,
    ITEMS,
    MAX_INSURED_CENTS,
    MAX_TENTHS,
    MOBILE,
    PROVINCES,
    SENDERS,
    STATUS,
    freight,
    insure_fee,
    parse_weight,
    rate_for,
    seed,
    waybill,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.widgets import Button, Card, Chip, ListItem, Text, TextField, Wrap


class Shipping(MiniProgram):
    name = "shipping"
    title = "快递寄件"
    description = "上门取件，寄遍全国"
    keywords = ("快递寄件", "寄快递", "寄件", "shipping")
    glyph = "寄"
    color = (30, 110, 220)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return seed(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "recipients": [dict(r) for r in content["recipients"]],
            "orders": [dict(o) for o in content["orders"]],
        }

    # -- handlers ------------------------------------------------------------------------------
    def _refuse(self, it: Interaction, error: str) -> None:
        it.set_ui("error", error)
        it.toast(error)
        it.no_op(error)

    def pick_slot(self, it: Interaction, slot_id: str) -> None:
        slot = find(self.content(it)["slots"], slot_id)
        if slot["full"]:
            self._refuse(it, "该时段已约满，请选择其他时段")
        it.set_ui("slot", slot_id)

    def save_recipient(self, it: Interaction) -> None:
        name, phone = it.field("name").strip(), it.field("phone").strip().replace(" ", "")
        address, province = it.field("address").strip(), it.ui("province")
        if not name or len(name) > 12:
            self._refuse(it, "请填写收件人姓名")
        if not MOBILE.match(phone):
            self._refuse(it, "请输入11位手机号码")
        if province not in PROVINCES:
            self._refuse(it, "请选择省份")
        if len(address) < 5:
            self._refuse(it, "请填写详细地址")
        recipients = self.data(it)["recipients"]
        if any(r["name"] == name and r["phone"] == phone for r in recipients):
            self._refuse(it, "地址簿中已有该收件人")
        recipients.append(
            {
                "id": it.new_id("rc"),
                "name": name,
                "phone": phone,
                "province": province,
                "address": address,
            }
        )
        it.toast("已保存收件人")
        it.pop()

    def submit(self, it: Interaction) -> None:
        data = self.data(it)
        recipient = find(data["recipients"], it.ui("recipient") or "")
        sender, item, courier = it.ui("sender", "home"), it.ui("item"), it.ui("courier")
        tenths = parse_weight(it.field("weight"))
        insured_text = it.field("insured").strip().removeprefix("¥").removesuffix("元")
        slot = find(self.content(it)["slots"], it.ui("slot") or "")
        if recipient is None:
            self._refuse(it, "请选择收件人")
        if item not in ITEMS:
            self._refuse(it, "请选择物品类型")
        if tenths is None or not 1 <= tenths <= MAX_TENTHS:
            self._refuse(it, "请输入正确的重量（0.1-50公斤）")
        if courier not in COURIERS:
            self._refuse(it, "请选择快递公司")
        if slot is None:
            self._refuse(it, "请选择上门取件时间")
        if insured_text and not insured_text.isdigit():
            self._refuse(it, "保价金额请输入整数（元）")
        insured = int(insured_text or 0) * 100
        if insured > MAX_INSURED_CENTS:
            self._refuse(it, "保价金额不能超过¥30000.00")
        assert recipient is not None
        assert tenths is not None
        assert slot is not None
        cost = freight(rate_for(self.content(it), courier, recipient["province"]), tenths)
        fee = insure_fee(insured)
        order_id = it.new_id("sh")
        data["orders"].insert(
            0,
            {
                "id": order_id,
                "sender": sender,
                "recipient": {k: recipient[k] for k in ("name", "phone", "province", "address")},
                "item": item,
                "tenths": tenths,
                "courier": courier,
                "slot": slot["id"],
                "insured_cents": insured,
                "freight_cents": cost,
                "insure_fee_cents": fee,
                "total_cents": cost + fee,
                "status": "unpaid",
                "waybill": None,
            },
        )
        self.replace(it, "order", order=order_id)
        self.pay(
            it,
            amount_cents=cost + fee,
            reference=order_id,
            description=f"{COURIERS[courier][0]} 寄往{recipient['province']}",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order = find(self.data(it)["orders"], reference)
        if order is None:
            return
        order["status"] = "waiting" if paid else "cancelled"
        if paid:
            order["waybill"] = waybill(order["courier"], order["id"])
        it.toast("下单成功，快递员将按时上门取件" if paid else "已取消支付")

    def cancel(self, it: Interaction, order_id: str) -> None:
        order = find(self.data(it)["orders"], order_id)
        it.set_ui("dialog", None)
        if order is None or order["status"] != "waiting":
            it.no_op("cannot cancel")
        order["status"] = "cancelled"
        it.toast("已取消寄件，运费将原路退回")

    # -- pages ---------------------------------------------------------------------------------
    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        body: list[Any] = [
            Card(
                [
                    Text("快递寄件", size=48, bold=True, color=theme.WHITE),
                    Text("上门取件 · 全国可寄 · 支持保价", size=34, color=(215, 230, 255)),
                ],
                fill=self.color,
            ),
            Button("寄快递", v.go("send"), id="new_shipment"),
            Button("运费查询", v.go("prices"), id="price_table", style="secondary"),
            Button("地址簿", v.go("book"), id="address_book", style="secondary"),
            Button("我的寄件", v.go("orders"), id="my_shipments", style="text"),
        ]
        return MiniPage(body, padding=24, spacing=16)

    @page("send")
    def send(self, v: MiniView) -> MiniPage:
        sender, chosen = v.ui("sender", "home"), v.ui("recipient")
        item, courier, slot = v.ui("item"), v.ui("courier"), v.ui("slot")
        recipient = find(v.data["recipients"], chosen or "")
        tenths = parse_weight(v.field("weight"))
        insured = v.field("insured").strip()
        fee = insure_fee(int(insured) * 100) if insured.isdigit() else 0
        error = v.ui("error")
        couriers = []
        for c, (label, _, _) in COURIERS.items():
            if recipient is not None and tenths:
                cost = freight(rate_for(v.content, c, recipient["province"]), tenths)
                label = f"{label} {yuan(cost)}"
            couriers.append(
                Chip(label, v.set_ui("courier", c), selected=courier == c, id=f"courier_{c}")
            )
        cost = 0
        if recipient is not None and tenths and courier:
            cost = freight(rate_for(v.content, courier, recipient["province"]), tenths)
        body: list[Any] = [
            Text("寄件人", size=38, bold=True),
            Wrap(
                [
                    Chip(
                        s["label"],
                        v.set_ui("sender", s["id"]),
                        selected=sender == s["id"],
                        id=f"sender_{s['id']}",
                    )
                    for s in SENDERS
                ]
            ),
            Text(find(SENDERS, sender)["address"], id="sender_address"),
            Text("收件人", size=38, bold=True),
            Wrap(
                [
                    Chip(
                        r["name"],
                        v.set_ui("recipient", r["id"]),
                        selected=chosen == r["id"],
                        id=f"rcpt_{r['id']}",
                    )
                    for r in v.data["recipients"]
                ]
            ),
            Text(
                f"{recipient['phone']} · {recipient['province']} {recipient['address']}"
                if recipient
                else "请选择收件人",
                id="recipient_detail",
            ),
            Button("新增收件人", v.go("new_recipient"), id="add_recipient", style="text"),
            Text("物品类型", size=38, bold=True),
            Wrap(
                [
                    Chip(label, v.set_ui("item", k), selected=item == k, id=f"item_{k}")
                    for k, label in ITEMS.items()
                ]
            ),
            TextField(
                "weight", v.field("weight"), "重量（公斤，如 2.5）", on_focus=v.focus("weight")
            ),
            Text("快递公司", size=38, bold=True),
            Wrap(couriers),
            Text("上门取件时间", size=38, bold=True),
            Wrap(
                [
                    Chip(
                        s["label"] + ("（已约满）" if s["full"] else ""),
                        v.do(self.pick_slot, s["id"]),
                        selected=slot == s["id"],
                        id=f"slot_{s['id']}",
                    )
                    for s in v.content["slots"]
                ]
            ),
            TextField(
                "insured",
                v.field("insured"),
                "保价金额（元，选填，费率1%）",
                on_focus=v.focus("insured"),
            ),
            Text(f"运费 {yuan(cost)} · 保价费 {yuan(fee)}", id="fee_detail"),
            Text(f"合计 {yuan(cost + fee)}", size=44, bold=True, id="send_total"),
            Text(error, color=theme.DANGER, id="send_error") if error else None,
            Button("下单并支付", v.do(self.submit), id="submit_shipment"),
        ]
        return MiniPage(body, title="寄快递", padding=30, spacing=16)

    @page("new_recipient")
    def new_recipient(self, v: MiniView) -> MiniPage:
        province, error = v.ui("province"), v.ui("error")
        body: list[Any] = [
            TextField("name", v.field("name"), "收件人姓名", on_focus=v.focus("name")),
            TextField("phone", v.field("phone"), "手机号码（11位）", on_focus=v.focus("phone")),
            Text("省份", size=38, bold=True),
            Wrap(
                [
                    Chip(p, v.set_ui("province", p), selected=province == p, id=f"prov_{i}")
                    for i, p in enumerate(PROVINCES)
                ]
            ),
            TextField(
                "address",
                v.field("address"),
                "详细地址（市区街道门牌）",
                on_focus=v.focus("address"),
            ),
            Text(error, color=theme.DANGER, id="recipient_error") if error else None,
            Button("保存", v.do(self.save_recipient), id="save_recipient"),
        ]
        return MiniPage(body, title="新增收件人", padding=30, spacing=16)

    @page("book")
    def book(self, v: MiniView) -> MiniPage:
        rows: list[Any] = [Text("寄件地址", size=38, bold=True)]
        rows += [
            ListItem(s["label"], subtitle=s["address"], id=f"book_sender_{s['id']}")
            for s in SENDERS
        ]
        rows.append(Text("收件人", size=38, bold=True))
        rows += [
            ListItem(
                r["name"],
                subtitle=f"{r['phone']} · {r['province']} {r['address']}",
                id=f"book_{r['id']}",
            )
            for r in v.data["recipients"]
        ]
        rows.append(Button("新增收件人", v.go("new_recipient"), id="book_add", style="secondary"))
        return MiniPage(rows, title="地址簿", padding=24, spacing=10)

    @page("prices")
    def prices(self, v: MiniView) -> MiniPage:
        province = v.ui("province", "浙江")
        body: list[Any] = [
            Text("寄往省份（从杭州寄出）", size=38, bold=True),
            Wrap(
                [
                    Chip(p, v.set_ui("province", p), selected=province == p, id=f"prov_{i}")
                    for i, p in enumerate(PROVINCES)
                ]
            ),
        ]
        for c, (label, _, _) in COURIERS.items():
            rate = rate_for(v.content, c, province)
            body.append(
                ListItem(
                    label,
                    subtitle=f"首重1kg {yuan(rate['first_cents'])} · "
                    f"续重 {yuan(rate['extra_cents'])}/kg",
                    id=f"rate_{c}",
                )
            )
        body.append(
            Text("不足1公斤按1公斤计，超出部分按整公斤向上取整", color=theme.TEXT_SECONDARY)
        )
        return MiniPage(body, title="运费查询", padding=24, spacing=14)

    @page("orders")
    def orders(self, v: MiniView) -> MiniPage:
        rows = [
            ListItem(
                f"寄给 {o['recipient']['name']}",
                subtitle=f"{COURIERS[o['courier']][0]} · {o['recipient']['province']} · "
                f"{STATUS[o['status']]}",
                trailing=yuan(o["total_cents"]),
                on_tap=v.go("order", order=o["id"]),
                id=f"shipment_{o['id']}",
            )
            for o in v.data["orders"]
        ]
        return MiniPage(rows, title="我的寄件", padding=24, spacing=10)

    @page("order")
    def order(self, v: MiniView) -> MiniPage:
        o = find(v.data["orders"], v.params["order"])
        r = o["recipient"]
        slot = find(v.content["slots"], o["slot"])
        body: list[Any] = [
            Text(STATUS[o["status"]], size=44, bold=True, id="shipment_status"),
            Text(f"运单号 {o['waybill']}", size=44, bold=True, id="waybill")
            if o["waybill"]
            else None,
            Text(f"{COURIERS[o['courier']][0]} · {ITEMS[o['item']]} · {o['tenths'] / 10:.1f}kg"),
            Text(f"收件人 {r['name']} {r['phone']}", id="shipment_to"),
            Text(f"{r['province']} {r['address']}", id="shipment_address"),
            Text(f"取件时间 {slot['label']}", id="shipment_slot"),
            Text(
                f"运费 {yuan(o['freight_cents'])} · 保价费 {yuan(o['insure_fee_cents'])}"
                f"（声明价值 {yuan(o['insured_cents'])}）"
            ),
            Text(f"实付 {yuan(o['total_cents'])}", size=44, bold=True, id="shipment_total"),
        ]
        if o["status"] == "waiting":
            body.append(
                Button(
                    "取消寄件", v.set_ui("dialog", "cancel"), id="cancel_shipment", style="danger"
                )
            )
        overlay = None
        if v.ui("dialog") == "cancel":
            overlay = v.confirm(
                "确定取消寄件？",
                v.do(self.cancel, o["id"]),
                message="快递员将不再上门，运费原路退回",
                label="确定取消",
                confirm_id="confirm_cancel",
                danger=True,
            )
        return MiniPage(body, overlay=overlay, title="寄件详情", padding=30, spacing=16)
