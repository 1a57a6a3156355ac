"""The Bank app's screens (they only read; the handlers live on `Bank` in app.py)."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import App, View, screen
from phonebuddy.phoneworld.apps.bank.content import (
    CREDIT,
    DEBIT,
    EXPENSE,
    INCOME,
    issuer,
    masked,
    money,
    month_of,
    spaced,
    tail,
)
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import full_time, local_time
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
)

RED = (200, 22, 30)
PALE_RED = (253, 236, 236)
GREEN = (46, 125, 50)
KIND_TABS = (("all", "全部"), ("out", "支出"), ("in", "收入"))
CARD_LABELS = {DEBIT: "一卡通", CREDIT: "信用卡"}
DUE_DATE = "4月25日"


def signed(row: dict[str, Any]) -> str:
    return ("+" if row["kind"] == INCOME else "-") + money(row["amount_cents"])


def short_time(epoch: int) -> str:
    t = local_time(epoch)
    return f"{t.month}月{t.day}日 {t:%H:%M}"


def all_transactions(v: View) -> list[dict[str, Any]]:
    """What the phone did and the seeded history, newest first (the phone's records come after
    the history, but a task may start with a few of its own among it)."""
    return sorted([*v.data["records"], *v.content["transactions"]], key=lambda t: -t["time"])


def error_text(v: View) -> Text | None:
    error = v.ui("error")
    return Text(error, size=36, color=theme.DANGER, id="error") if error else None


class BankScreens(App):
    """Screens of 银行; `Bank` adds the handlers they call."""

    # -- 首页 -------------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        debit, credit = v.content["debit"], v.content["credit"]
        shown = bool(v.ui("shown", False))
        balance = f"¥{money(v.data['balance_cents'])}" if shown else "¥ ******"
        bill = v.data["bill"]
        left = max(0, bill["bill_cents"] - bill["repaid_cents"])
        return Page(
            "招商银行",
            [
                Card(
                    [
                        Text(debit["name"], size=40, bold=True, color=theme.WHITE),
                        Text(masked(debit["number"]), size=36, color=theme.WHITE,
                             id="debit_number"),
                        Text("可用余额", size=34, color=theme.WHITE),
                        Row([Text(balance, size=60, bold=True, color=theme.WHITE, id="balance"),
                             IconButton("👁" if shown else "◎", "显示/隐藏余额",
                                        v.set_ui("shown", not shown), id="toggle_balance",
                                        color=theme.WHITE)]),
                    ],
                    fill=RED,
                ),
                Row([Button("转账", v.go("transfer", fields={}), id="transfer"),
                     Button("收支明细", v.go("transactions"), id="transactions",
                            style="secondary")]),
                Row([Button("收款人", v.go("payees"), id="payees", style="secondary"),
                     Button("信用卡", v.go("credit"), id="credit", style="secondary")]),
                Card(
                    [
                        Text(credit["name"], size=40, bold=True),
                        Text(masked(credit["number"]), size=36, color=theme.TEXT_SECONDARY),
                        Text(f"本期剩余应还 ¥{money(left)}" if left else "本期账单已还清",
                             size=40, id="home_bill"),
                        Text(f"到期还款日 {DUE_DATE}", size=34, color=theme.TEXT_SECONDARY),
                    ],
                    on_tap=v.go("credit"),
                    id="credit_card",
                ),
                Spacer(60),
            ],
            body_padding=30,
            spacing=24,
        )  # fmt: skip

    # -- 收支明细 ---------------------------------------------------------------------------------
    @screen("transactions")
    def transactions(self, v: View) -> Page:
        kind = v.ui("kind", "all")
        month = v.ui("month", "all")
        query = v.field("search").strip()
        everything = all_transactions(v)
        months = sorted({month_of(t["time"]) for t in everything}, reverse=True)
        chips: list[Widget | None] = [
            Chip("全部月份", v.set_ui("month", "all"), selected=month == "all", id="month_all")
        ]
        chips += [
            Chip(f"{m}月", v.set_ui("month", str(m)), selected=month == str(m), id=f"month_{m}")
            for m in months
        ]
        in_month = [t for t in everything if month == "all" or str(month_of(t["time"])) == month]
        summary = None
        if month != "all":
            out = sum(t["amount_cents"] for t in in_month if t["kind"] == EXPENSE)
            got = sum(t["amount_cents"] for t in in_month if t["kind"] == INCOME)
            summary = Text(f"{month}月 支出 ¥{money(out)}　收入 ¥{money(got)}", size=38,
                           bold=True, padding=20, id="month_summary")  # fmt: skip
        rows: list[Widget | None] = []
        for t in in_month:
            if (kind == "out" and t["kind"] != EXPENSE) or (kind == "in" and t["kind"] != INCOME):
                continue
            haystack = " ".join((t["merchant"], t["category"], t.get("note", "")))
            if query and query.lower() not in haystack.lower():
                continue
            rows.append(
                ListItem(
                    t["merchant"],
                    subtitle=f"{t['category']}｜{short_time(t['time'])}｜{CARD_LABELS[t['card']]}",
                    trailing=signed(t),
                    on_tap=v.go("tx", tx_id=t["id"]),
                    id=f"tx_{t['id']}",
                )
            )
        if not rows:
            empty = f"没有找到“{query}”相关的交易" if query else "没有符合条件的交易"
            rows.append(Text(empty, color=theme.TEXT_SECONDARY, padding=40, align="center",
                             id="empty"))  # fmt: skip
        search = TextField("search", v.field("search"), "搜索商户/类别/附言",
                           on_focus=v.focus("search"))  # fmt: skip
        return Page(
            "收支明细",
            [search, Row(chips, spacing=16), summary, *rows, Spacer(60)],
            header=Tabs(KIND_TABS, kind, v.on_select("kind")),
            on_back=v.back(),
        )

    @screen("tx")
    def tx(self, v: View) -> Page:
        t = next((t for t in all_transactions(v) if t["id"] == v.params["tx_id"]), None)
        if t is None:
            return Page("交易详情", [Text("该交易不存在", padding=40)], on_back=v.back())
        card = v.content[t["card"]]
        lines = [
            ("交易类型", "收入" if t["kind"] == INCOME else "支出", "tx_kind"),
            ("交易类别", t["category"], "tx_category"),
            ("交易时间", full_time(t["time"]), "tx_time"),
            ("交易卡号", f"{CARD_LABELS[t['card']]} 尾号{tail(card['number'])}", "tx_card"),
            ("收款卡号", spaced(t["payee_card"]) if t.get("payee_card") else "", "tx_payee_card"),
            ("附言", t.get("note", ""), "tx_note"),
            ("交易流水号", t["serial"], "tx_serial"),
        ]
        return Page(
            "交易详情",
            [
                Card([
                    Text(t["merchant"], size=42, id="tx_merchant"),
                    Text(signed(t), size=72, bold=True,
                         color=GREEN if t["kind"] == INCOME else theme.TEXT, id="tx_amount"),
                ]),
                Card([
                    Row([Text(label, size=36, color=theme.TEXT_SECONDARY),
                         Text(value, size=36, id=widget_id)], weights=(1, 2))
                    for label, value, widget_id in lines if value
                ]),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=24,
        )  # fmt: skip

    # -- 收款人 -----------------------------------------------------------------------------------
    @screen("payees")
    def payees(self, v: View) -> Page:
        rows: list[Widget | None] = [
            ListItem(
                p["name"],
                subtitle=f"{p['bank']}｜{masked(p['card'])}",
                leading=p["name"],
                leading_color=RED,
                on_tap=v.go("payee", payee_id=p["id"]),
                id=f"payee_{p['id']}",
            )
            for p in v.data["payees"]
        ]
        if not rows:
            rows.append(Text("还没有收款人，点右上角添加", color=theme.TEXT_SECONDARY,
                             padding=40, align="center", id="empty"))  # fmt: skip
        add = IconButton("plus", "添加收款人", v.go("payee_add", fields={"name": "", "card": ""}),
                         id="add_payee")  # fmt: skip
        return Page("收款人", [*rows, Spacer(60)], on_back=v.back(), actions=[add])

    @screen("payee")
    def payee(self, v: View) -> Page:
        p = next((p for p in v.data["payees"] if p["id"] == v.params["payee_id"]), None)
        if p is None:
            return Page("收款人", [Text("该收款人已被删除", padding=40)], on_back=v.back())
        dialog = None
        if v.ui("dialog") == "delete":
            dialog = v.confirm(
                f"删除收款人“{p['name']}”？",
                v.do(self.delete_payee, p["id"]),  # type: ignore[attr-defined]
                message="删除后转账时需重新输入卡号。",
                label="删除",
                confirm_id="confirm_delete",
                danger=True,
            )
        return Page(
            "收款人",
            [
                Card([
                    Text(p["name"], size=56, bold=True, id="payee_name"),
                    Text(p["bank"], size=38, color=theme.TEXT_SECONDARY, id="payee_bank"),
                    Text(spaced(p["card"]), size=44, id="payee_card"),
                ]),
                Button("转账", v.go("transfer", fields={"name": p["name"],
                                                       "card": spaced(p["card"])}),
                       id="payee_transfer"),
                Button("删除收款人", v.set_ui("dialog", "delete"), id="delete_payee",
                       style="secondary"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=24,
            overlay=dialog,
        )  # fmt: skip

    @screen("payee_add")
    def payee_add(self, v: View) -> Page:
        number = v.field("card").replace(" ", "")
        bank = issuer(number) if len(number) >= 4 and number[:4].isdigit() else ""
        return Page(
            "添加收款人",
            [
                TextField("name", v.field("name"), "收款人姓名", on_focus=v.focus("name")),
                TextField("card", v.field("card"), "收款卡号（16-19位）",
                          on_focus=v.focus("card")),
                Text(f"开户行：{bank}", size=36, color=theme.TEXT_SECONDARY) if bank else None,
                error_text(v),
                Button("保存", v.do(self.save_payee), id="save_payee"),  # type: ignore[attr-defined]
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )  # fmt: skip

    # -- 转账 -------------------------------------------------------------------------------------
    @screen("transfer")
    def transfer(self, v: View) -> Page:
        debit = v.content["debit"]
        picks = [
            Chip(p["name"], v.do(self.pick_payee, p["id"]), id=f"pick_{p['id']}")  # type: ignore[attr-defined]
            for p in v.data["payees"]
        ]
        return Page(
            "转账",
            [
                Text(f"付款账户：一卡通 尾号{tail(debit['number'])}", size=36,
                     color=theme.TEXT_SECONDARY),
                Text(f"可用余额 ¥{money(v.data['balance_cents'])}", size=36,
                     color=theme.TEXT_SECONDARY, id="available"),
                Text("常用收款人", size=34, color=theme.TEXT_SECONDARY) if picks else None,
                *[Row(picks[i : i + 4], spacing=16) for i in range(0, len(picks), 4)],
                TextField("name", v.field("name"), "收款人姓名", on_focus=v.focus("name")),
                TextField("card", v.field("card"), "收款卡号", on_focus=v.focus("card")),
                TextField("amount", v.field("amount"), "转账金额（元）",
                          on_focus=v.focus("amount")),
                TextField("note", v.field("note"), "附言（选填）", on_focus=v.focus("note")),
                error_text(v),
                Button("下一步", v.do(self.transfer_next), id="next"),  # type: ignore[attr-defined]
                Spacer(60),
            ],
            on_back=v.back(),
            body_padding=36,
            spacing=24,
        )  # fmt: skip

    @screen("confirm")
    def confirm(self, v: View) -> Page:
        p = v.params
        sent = v.ui("code") is not None
        lines = [
            ("收款人", p["name"], "confirm_name"),
            ("收款卡号", spaced(p["card"]), "confirm_card"),
            ("收款银行", issuer(p["card"]), "confirm_bank"),
            ("附言", p["note"], "confirm_note"),
        ]
        return Page(
            "确认转账",
            [
                Card([
                    Text("转账金额", size=36, color=theme.TEXT_SECONDARY),
                    Text(f"¥{money(p['amount_cents'])}", size=72, bold=True, id="confirm_amount"),
                    *[Row([Text(label, size=36, color=theme.TEXT_SECONDARY),
                           Text(value, size=36, id=widget_id)], weights=(1, 2))
                      for label, value, widget_id in lines if value],
                ]),
                Text("验证码已发送至尾号8866的手机，请查看短信" if sent
                     else "为了您的资金安全，请获取短信验证码", size=36,
                     color=theme.TEXT_SECONDARY, id="code_hint"),
                Row([TextField("code", v.field("code"), "短信验证码", on_focus=v.focus("code")),
                     Button("重新获取" if sent else "获取验证码", v.do(self.send_code),  # type: ignore[attr-defined]
                            id="send_code", style="secondary", size=36)], weights=(3, 2)),
                error_text(v),
                Button("确认转账", v.do(self.confirm_transfer), id="confirm_transfer"),  # type: ignore[attr-defined]
            ],
            on_back=v.back(),
            body_padding=36,
            spacing=28,
        )  # fmt: skip

    @screen("done")
    def done(self, v: View) -> Page:
        t = next(t for t in v.data["records"] if t["id"] == v.params["record_id"])
        return Page(
            "转账结果",
            [
                Text("转账成功", size=60, bold=True, color=GREEN, align="center", id="done_status"),
                Text(f"¥{money(t['amount_cents'])}", size=72, bold=True, align="center",
                     id="done_amount"),
                Text(f"收款人：{t['payee']}（尾号{tail(t['payee_card'])}）", size=38,
                     align="center", id="done_payee"),
                Button("完成", v.back(), id="finish"),
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )  # fmt: skip

    # -- 信用卡 -----------------------------------------------------------------------------------
    @screen("credit")
    def credit(self, v: View) -> Page:
        credit, bill = v.content["credit"], v.data["bill"]
        due_full = self.due(v.data, "full")  # type: ignore[attr-defined]
        due_min = self.due(v.data, "min")  # type: ignore[attr-defined]
        dialog = None
        kind = v.ui("dialog")
        if kind in ("full", "min"):
            cents = due_full if kind == "full" else due_min
            dialog = v.confirm(
                "确认还款",
                v.do(self.repay, kind),  # type: ignore[attr-defined]
                message=f"从一卡通（尾号{tail(v.content['debit']['number'])}）还款 ¥{money(cents)}",
                label="确认还款",
                confirm_id="repay_ok",
            )
        return Page(
            "信用卡账单",
            [
                Card([
                    Text(f"{credit['name']} 尾号{tail(credit['number'])}", size=38),
                    Text("2月账单金额", size=34, color=theme.TEXT_SECONDARY),
                    Text(f"¥{money(bill['bill_cents'])}", size=72, bold=True, id="bill_amount"),
                    Text(f"最低还款额 ¥{money(bill['min_cents'])}", size=38, id="bill_min"),
                    Text(f"已还款 ¥{money(bill['repaid_cents'])}", size=38, id="bill_repaid"),
                    Text(f"到期还款日 {DUE_DATE}", size=34, color=theme.TEXT_SECONDARY),
                    Text(f"信用额度 ¥{money(credit['limit_cents'])}", size=34,
                         color=theme.TEXT_SECONDARY),
                ], fill=PALE_RED),
                Text("本期账单已还清" if due_full == 0 else f"剩余应还 ¥{money(due_full)}",
                     size=40, bold=True, id="bill_left"),
                error_text(v),
                Button(f"全额还款 ¥{money(due_full)}", v.set_ui("dialog", "full"),
                       id="repay_full", enabled=due_full > 0),
                Button(f"最低还款 ¥{money(due_min)}", v.set_ui("dialog", "min"), id="repay_min",
                       style="secondary", enabled=due_min > 0),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=24,
            overlay=dialog,
        )  # fmt: skip
