"""The Wallet app. Other apps pay through it: `Interaction.request_payment(...)` opens the
`pay` screen here; confirming deducts the balance, records a bill and hands control back to the
asking app through `Device.complete_payment`.

Payment contract (oracles rely on these ids): the `pay` screen has buttons `pay_confirm` and
`pay_cancel`; an insufficient balance shows a dialog with `insufficient_ok`.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import Button, Card, Dialog, ListItem, Page, Text


def yuan(cents: int) -> str:
    return f"¥{cents / 100:.2f}"


class Wallet(App):
    package = "com.pw.wallet"
    label = Label(zh="钱包", en="Wallet")
    domain = "finance"
    theme = AppTheme(primary=(22, 119, 255))
    icon_text = "付"

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"balance_cents": rng.randrange(800, 3000) * 100, "bills": []}

    # -- handlers ----------------------------------------------------------------------------
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

    # -- screens -----------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        bills = [
            ListItem(
                b["merchant"],
                subtitle=b["description"],
                trailing=f"-{yuan(b['amount_cents'])}",
                id=f"bill_{b['id']}",
            )
            for b in reversed(v.data["bills"])
        ] or [Text("暂无账单", color=theme.TEXT_SECONDARY, padding=40)]
        return Page(
            "钱包",
            [
                Card(
                    [
                        Text("余额", color=theme.TEXT_SECONDARY),
                        Text(yuan(v.data["balance_cents"]), size=72, bold=True, id="balance"),
                    ]
                ),
                Text("账单", size=44, bold=True, padding=30),
                *bills,
            ],
        )

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
