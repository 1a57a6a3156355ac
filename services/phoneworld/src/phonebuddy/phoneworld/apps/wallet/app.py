"""The Wallet app (Alipay-like): balance, transfers to payees, bills, the payment code, bank
cards, and the payment confirmation other apps use.

Payment contract (other apps and their oracles rely on it): `Interaction.request_payment(...)`
opens the `pay` screen here, which has buttons `pay_confirm` and `pay_cancel`; an insufficient
balance shows a dialog with `insufficient_ok`. Confirming deducts the balance, records a bill of
kind "payment" and hands control back to the asking app through `Device.complete_payment`.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.apps.wallet import content as seeds
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, yuan
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Column,
    Dialog,
    Image,
    ListItem,
    Page,
    Row,
    Spacer,
    Text,
    TextField,
    Widget,
)

BLUE: Color = (22, 119, 255)
INCOME_GOLD: Color = (233, 120, 0)  # Alipay shows money in with an orange-gold plus sign
RECENT_BILLS = 5
OUTGOING = ("payment", "transfer")
BANK_COLOURS: dict[str, Color] = {
    "招商银行": (200, 40, 40),
    "中国工商银行": (190, 30, 45),
    "中国建设银行": (0, 82, 155),
    "中国银行": (170, 20, 30),
    "交通银行": (20, 60, 130),
}
Bill = Mapping[str, Any]


def parse_amount(text: str) -> int | None:
    """'120', '120.5', '¥ 88.00' -> cents; None for anything that is not a positive amount."""
    cleaned = text.strip().replace("¥", "").replace("元", "").replace(",", "").strip()
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    if value <= 0 or value != value.quantize(Decimal("0.01")):
        return None
    return int(value * 100)


def bill_time(timestamp: int) -> str:
    return dt.datetime.fromtimestamp(timestamp, BEIJING).strftime("%m-%d %H:%M")


def bill_title(bill: Bill) -> str:
    if bill["kind"] == "transfer":
        return f"转账-{bill['merchant']}"
    return str(bill["merchant"])


def signed_amount(bill: Bill) -> str:
    sign = "-" if bill["kind"] in OUTGOING else "+"
    return f"{sign}{yuan(int(bill['amount_cents']))}"


def trade_number(bill: Bill) -> str:
    """The number a bill shows: the paying app's reference, else one made from time and id."""
    if bill["reference"]:
        return str(bill["reference"])
    digits = "".join(ch for ch in bill["id"] if ch.isdigit())
    return f"2026{bill['time']:010d}{digits:0>6}"


def month_of(bill: Bill) -> str:
    return dt.datetime.fromtimestamp(bill["time"], BEIJING).strftime("%Y年%-m月")


class Wallet(App):
    package = "com.pw.wallet"
    label = Label(zh="钱包", en="Wallet")
    domain = "finance"
    theme = AppTheme(primary=BLUE)
    icon_text = "付"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return seeds.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "balance_cents": rng.randrange(800, 3000) * 100,
            "bills": clone(content["history"]),
            "bank_cards": clone(content["bank_cards"]),
        }

    # -- lookups -------------------------------------------------------------------------------
    @staticmethod
    def payee(content: Mapping[str, Any], payee_id: str) -> Mapping[str, Any] | None:
        return next((p for p in content["payees"] if p["id"] == payee_id), None)

    @staticmethod
    def find_payees(content: Mapping[str, Any], who: str) -> list[Mapping[str, Any]]:
        """Payees whose id, name or phone is `who`, or whose phone ends with it."""
        who = who.strip()
        return [
            p
            for p in content["payees"]
            if who and (who in (p["id"], p["name"], p["phone"]) or p["phone"].endswith(who))
        ]

    # -- handlers: payments requested by other apps -----------------------------------------------
    def confirm_payment(self, it: Interaction) -> None:
        request = it.entry["params"]
        amount = int(request["amount_cents"])
        if it.data["balance_cents"] < amount:
            it.set_ui("dialog", "insufficient")
            return
        it.data["balance_cents"] -= amount
        it.data["bills"].append(
            {
                "id": it.new_id("bill"),
                "kind": "payment",
                "merchant": request["merchant"],
                "amount_cents": amount,
                "reference": request["reference"],
                "description": request["description"],
                "time": it.clock,
            }
        )
        it.device.complete_payment(request["from"], request["reference"], paid=True)

    def cancel_payment(self, it: Interaction) -> None:
        request = it.entry["params"]
        it.device.complete_payment(request["from"], request["reference"], paid=False)

    # -- handlers: transfers -----------------------------------------------------------------------
    def transfer(self, it: Interaction, payee_id: str, amount_cents: int, note: str) -> str:
        """Move money to a payee; the GUI and the `transfer` tool both end here."""
        payee = self.payee(it.content, payee_id)
        if payee is None:
            it.no_op(f"no payee {payee_id}")
            raise AssertionError  # no_op raises
        if amount_cents <= 0:
            it.no_op("the amount must be positive")
        if it.data["balance_cents"] < amount_cents:
            it.no_op("余额不足")
        it.data["balance_cents"] -= amount_cents
        bill_id = it.new_id("bill")
        note = note.strip()
        it.data["bills"].append(
            {
                "id": bill_id,
                "kind": "transfer",
                "merchant": payee["name"],
                "amount_cents": amount_cents,
                "reference": "",
                "description": note or "转账",
                "time": it.clock,
                "payee_id": payee["id"],
                "note": note,
            }
        )
        return bill_id

    @staticmethod
    def submit_transfer(it: Interaction) -> None:
        """The 确认转账 button: check the amount, then ask for confirmation."""
        amount = parse_amount(it.field("amount"))
        if amount is None:
            it.no_op("请输入正确的金额")
            return
        enough = it.data["balance_cents"] >= amount
        it.unfocus()
        it.set_ui("dialog", "confirm" if enough else "insufficient")

    def confirm_transfer(self, it: Interaction) -> None:
        amount = parse_amount(it.field("amount"))
        if amount is None:
            it.no_op("请输入正确的金额")
            return
        payee_id = it.entry["params"]["payee_id"]
        bill_id = self.transfer(it, payee_id, amount, it.field("note"))
        it.replace("transfer_result", bill_id=bill_id)

    @staticmethod
    def finish_transfer(it: Interaction) -> None:
        it.reset_to("home")

    # -- screens: home -----------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        entries = (
            ("paycode", "码", "收付款"),
            ("transfer", "转", "转账"),
            ("bills", "账", "账单"),
            ("cards", "卡", "银行卡"),
        )
        header = Column(
            [
                Text("钱包", size=56, bold=True, color=theme.WHITE),
                Row(
                    [
                        Card(
                            [
                                Text(glyph, size=64, bold=True, color=theme.WHITE, align="center"),
                                Text(label, size=36, color=theme.WHITE, align="center"),
                            ],
                            on_tap=v.go(target),
                            id=f"entry_{target}",
                            fill=BLUE,
                            padding=16,
                            spacing=4,
                        )
                        for target, glyph, label in entries
                    ],
                    spacing=16,
                ),
            ],
            spacing=24,
            padding=36,
            fill=BLUE,
        )
        bills = list(reversed(v.data["bills"]))[:RECENT_BILLS]
        return Page(
            None,
            [
                Card(
                    [
                        Text("账户余额（元）", color=theme.TEXT_SECONDARY),
                        Text(yuan(v.data["balance_cents"]), size=72, bold=True, id="balance"),
                    ]
                ),
                Row(
                    [
                        Text("最近账单", size=44, bold=True),
                        Text(
                            "全部账单 >",
                            size=36,
                            color=theme.TEXT_SECONDARY,
                            align="right",
                            on_tap=v.go("bills"),
                            id="all_bills",
                        ),
                    ]
                ),
                *(self.bill_item(v, b) for b in bills),
                None if bills else Text("暂无账单", color=theme.TEXT_SECONDARY, padding=40),
            ],
            header=header,
            body_padding=24,
            spacing=20,
        )

    @staticmethod
    def bill_item(v: View, bill: Bill) -> ListItem:
        return ListItem(
            bill_title(bill),
            subtitle=f"{bill['description']} · {bill_time(bill['time'])}",
            trailing=signed_amount(bill),
            leading=bill_title(bill)[:1],
            leading_color=BLUE if bill["kind"] in OUTGOING else INCOME_GOLD,
            on_tap=v.go("bill", bill_id=bill["id"]),
            id=f"bill_{bill['id']}",
        )

    # -- screens: payment code, cards -------------------------------------------------------------
    @screen("paycode")
    def paycode(self, v: View) -> Page:
        return Page(
            "收付款",
            [
                Card(
                    [
                        Text("向商家付款", size=44, bold=True),
                        Image("|| ||| | |||| || |||", height=200, color=(60, 60, 60), id="barcode"),
                        Image("付款码", height=560, color=(40, 40, 40), id="qrcode"),
                        Text(
                            "每分钟自动更新，请勿截图或发送给他人",
                            size=32,
                            color=theme.TEXT_SECONDARY,
                            align="center",
                        ),
                        Text(f"优先使用：余额（{yuan(v.data['balance_cents'])}）", size=36),
                    ],
                    spacing=24,
                ),
                Card(
                    [
                        Text("二维码收款", size=44, bold=True),
                        Text("扫一扫，向我付钱", size=34, color=theme.TEXT_SECONDARY),
                    ]
                ),
            ],
            on_back=v.back(),
            background=BLUE,
            body_padding=36,
            spacing=30,
        )

    @screen("cards")
    def cards(self, v: View) -> Page:
        cards: list[Widget | None] = [
            Card(
                [
                    Text(card["bank"], size=48, bold=True, color=theme.WHITE),
                    Text(card["type"], size=34, color=theme.WHITE),
                    Text(f"**** **** **** {card['last4']}", size=52, bold=True, color=theme.WHITE),
                ],
                fill=BANK_COLOURS.get(card["bank"], BLUE),
                id=f"card_{card['id']}",
                padding=48,
                spacing=16,
            )
            for card in v.data["bank_cards"]
        ]
        return Page("银行卡", cards, on_back=v.back(), body_padding=36, spacing=30)

    # -- screens: transfer -------------------------------------------------------------------------
    @screen("transfer")
    def transfer_payees(self, v: View) -> Page:
        query = v.field("payee_search").strip()
        payees = [
            p for p in v.content["payees"] if not query or query in p["name"] or query in p["phone"]
        ]
        items: list[Widget | None] = [
            ListItem(
                p["name"],
                subtitle=p["phone"],
                leading=p["name"][:1],
                on_tap=v.go("transfer_form", payee_id=p["id"]),
                id=f"payee_{p['id']}",
            )
            for p in payees
        ]
        return Page(
            "转账",
            [
                Column(
                    [
                        TextField(
                            "payee_search",
                            v.field("payee_search"),
                            "搜索姓名/手机号",
                            on_focus=v.focus("payee_search"),
                        )
                    ],
                    padding=24,
                ),
                Text("最近联系人", size=38, color=theme.TEXT_SECONDARY, padding=24),
                *(items or [Text("没有找到联系人", color=theme.TEXT_SECONDARY, padding=40)]),
                Spacer(40),
            ],
            on_back=v.back(),
        )

    @screen("transfer_form")
    def transfer_form(self, v: View) -> Page:
        payee = self.payee(v.content, v.params["payee_id"])
        if payee is None:
            return Page("转账", [Text("联系人不存在", padding=40)], on_back=v.back())
        return Page(
            "转账",
            [
                ListItem(
                    payee["name"], subtitle=payee["phone"], leading=payee["name"][:1], id="payee"
                ),
                Card(
                    [
                        Text("转账金额", size=38, color=theme.TEXT_SECONDARY),
                        TextField(
                            "amount",
                            v.field("amount"),
                            "¥ 0.00",
                            on_focus=v.focus("amount"),
                            size=56,
                        ),
                        Text(
                            f"可用余额 {yuan(v.data['balance_cents'])}",
                            size=32,
                            color=theme.TEXT_SECONDARY,
                        ),
                        TextField(
                            "note",
                            v.field("note"),
                            "添加转账说明（选填）",
                            on_focus=v.focus("note"),
                        ),
                    ],
                    spacing=20,
                ),
                Button("确认转账", v.do(self.submit_transfer), id="transfer_submit"),
            ],
            on_back=v.back(),
            body_padding=36,
            spacing=30,
            overlay=self.transfer_dialog(v, payee),
        )

    def transfer_dialog(self, v: View, payee: Mapping[str, Any]) -> Dialog | None:
        dialog = v.ui("dialog")
        if dialog == "insufficient":
            return Dialog(
                "余额不足",
                message=f"当前余额 {yuan(v.data['balance_cents'])}",
                buttons=[Button("知道了", v.set_ui("dialog", None), id="insufficient_ok")],
            )
        if dialog != "confirm":
            return None
        amount = parse_amount(v.field("amount")) or 0
        note = v.field("note").strip()
        return Dialog(
            "确认转账",
            message=f"向 {payee['name']}（{payee['phone']}）转账 {yuan(amount)}"
            + (f"\n转账说明：{note}" if note else ""),
            buttons=[
                Button("取消", v.set_ui("dialog", None), id="transfer_cancel", style="secondary"),
                Button("确认转账", v.do(self.confirm_transfer), id="transfer_confirm"),
            ],
            id="transfer_dialog",
        )

    @screen("transfer_result")
    def transfer_result(self, v: View) -> Page:
        bill = next((b for b in v.data["bills"] if b["id"] == v.params["bill_id"]), None)
        lines: Sequence[Widget | None] = ()
        if bill is not None:
            lines = (
                Text(
                    yuan(int(bill["amount_cents"])),
                    size=80,
                    bold=True,
                    align="center",
                    id="transfer_amount",
                ),
                Text(f"已转给 {bill['merchant']}", size=40, align="center"),
            )
        return Page(
            "转账成功",
            [
                Card(
                    [Text("✓ 转账成功", size=60, bold=True, color=BLUE, align="center"), *lines],
                    spacing=24,
                    padding=60,
                ),
                Button("完成", v.do(self.finish_transfer), id="transfer_done"),
            ],
            on_back=v.do(self.finish_transfer),
            body_padding=40,
            spacing=30,
        )

    # -- screens: bills ----------------------------------------------------------------------------
    @screen("bills")
    def bills(self, v: View) -> Page:
        query = v.field("bill_search").strip()
        bills = [
            b
            for b in reversed(v.data["bills"])
            if not query or query in bill_title(b) or query in b["description"]
        ]
        body: list[Widget | None] = [
            Column(
                [
                    TextField(
                        "bill_search",
                        v.field("bill_search"),
                        "搜索交易对方、商品说明",
                        on_focus=v.focus("bill_search"),
                    )
                ],
                padding=24,
            ),
        ]
        if query:
            spent = sum(b["amount_cents"] for b in bills if b["kind"] in OUTGOING)
            body.append(
                Text(
                    f"共 {len(bills)} 笔，支出 {yuan(spent)}",
                    size=38,
                    padding=24,
                    id="bill_summary",
                )
            )
        month = None
        for bill in bills:
            if month_of(bill) != month:
                month = month_of(bill)
                body.append(self.month_header(v, month))
            body.append(self.bill_item(v, bill))
        if not bills:
            body.append(Text("没有找到相关账单", color=theme.TEXT_SECONDARY, padding=40))
        return Page("账单", [*body, Spacer(40)], on_back=v.back())

    @staticmethod
    def month_header(v: View, month: str) -> Text:
        bills = [b for b in v.data["bills"] if month_of(b) == month]
        spent = sum(b["amount_cents"] for b in bills if b["kind"] in OUTGOING)
        earned = sum(b["amount_cents"] for b in bills if b["kind"] not in OUTGOING)
        return Text(
            f"{month}  支出 {yuan(spent)}  收入 {yuan(earned)}",
            size=36,
            color=theme.TEXT_SECONDARY,
            padding=24,
        )

    @screen("bill")
    def bill(self, v: View) -> Page:
        bill = next((b for b in v.data["bills"] if b["id"] == v.params["bill_id"]), None)
        if bill is None:
            return Page("账单详情", [Text("账单不存在", padding=40)], on_back=v.back())
        kinds = {"payment": "付款", "transfer": "转账", "income": "收入"}
        rows = [
            ("交易类型", kinds.get(bill["kind"], bill["kind"])),
            ("商品说明", bill["description"]),
            (
                "创建时间",
                dt.datetime.fromtimestamp(bill["time"], BEIJING).strftime("%Y-%m-%d %H:%M:%S"),
            ),
            ("支付方式", "余额"),
            ("订单号", trade_number(bill)),
        ]
        return Page(
            "账单详情",
            [
                Card(
                    [
                        Text(bill_title(bill), size=42, align="center", id="bill_title"),
                        Text(
                            signed_amount(bill),
                            size=84,
                            bold=True,
                            align="center",
                            id="bill_amount",
                        ),
                        Text("交易成功", size=34, color=theme.TEXT_SECONDARY, align="center"),
                    ],
                    spacing=16,
                    padding=48,
                ),
                Card(
                    [
                        Row(
                            [
                                Text(name, size=36, color=theme.TEXT_SECONDARY),
                                Text(str(value), size=36, align="right"),
                            ],
                            weights=[1, 2.5],
                        )
                        for name, value in rows
                    ],
                    spacing=24,
                ),
            ],
            on_back=v.back(),
            body_padding=24,
            spacing=24,
        )

    # -- screens: payment requested by another app -----------------------------------------------
    @screen("pay")
    def pay(self, v: View) -> Page:
        request = v.params
        dialog = None
        if v.ui("dialog") == "insufficient":
            dialog = Dialog(
                "余额不足",
                message=f"当前余额 {yuan(v.data['balance_cents'])}",
                buttons=[Button("知道了", v.set_ui("dialog", None), id="insufficient_ok")],
            )
        return Page(
            "确认付款",
            [
                Card(
                    [
                        Text(
                            request["merchant"], size=44, color=theme.TEXT_SECONDARY, align="center"
                        ),
                        Text(
                            yuan(int(request["amount_cents"])),
                            size=96,
                            bold=True,
                            align="center",
                            id="pay_amount",
                        ),
                        Text(request["description"], color=theme.TEXT_SECONDARY, align="center"),
                    ]
                ),
                Text(f"付款方式：余额（{yuan(v.data['balance_cents'])}）", padding=30),
                Button("确认付款", v.do(self.confirm_payment), id="pay_confirm"),
                Button("取消", v.do(self.cancel_payment), id="pay_cancel", style="secondary"),
            ],
            on_back=v.do(self.cancel_payment),
            body_padding=40,
            spacing=30,
            overlay=dialog,
        )

    # -- direct tools ------------------------------------------------------------------------------
    @tool(
        "transfer",
        "Transfer money from the balance to a payee (name, phone or its last digits).",
        {"to": str, "amount_cents": int, "note": str},
    )
    def transfer_tool(self, it: Interaction, to: str, amount_cents: int, note: str) -> str:
        found = self.find_payees(it.content, to)
        if len(found) != 1:
            names = "、".join(p["name"] for p in found)
            it.no_op(f"{len(found)} payees match {to!r}" + (f": {names}" if names else ""))
        payee = found[0]
        self.transfer(it, str(payee["id"]), amount_cents, note)
        return f"已向 {payee['name']}（{payee['phone']}）转账 {yuan(amount_cents)}"
