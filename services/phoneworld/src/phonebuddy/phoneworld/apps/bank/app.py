"""The Bank app (银行): a 招商银行-like mobile bank. The owner's debit card (balance behind an eye
toggle) and credit card, the transactions of both (filtered by month and by in/out, searched),
a transaction's page, transfers to a payee confirmed with an SMS code that the bank texts to
the phone (it arrives in 信息, from 95555), saved payees (add, delete behind a confirmation),
and the credit card's bill with a full or minimum repayment from the debit card.

The transactions before the episode are seeded content shared by all devices; what the phone
does (transfers, repayments) is added to `records`. A requested SMS code lives in the confirm
screen's UI state, never in app data, so asking for one changes only the Messages thread.
"""

from __future__ import annotations

import random
import re
from decimal import Decimal, InvalidOperation
from typing import Any, NoReturn

from phonebuddy.phoneworld.app import Label
from phonebuddy.phoneworld.apps.bank.content import (
    BANK,
    BANK_NAME,
    DEBIT,
    EXPENSE,
    SAVED_PAYEES,
    SMS_SENDER,
    build,
    issuer,
    luhn_ok,
    minimum,
    spaced,
    tail,
)
from phonebuddy.phoneworld.apps.bank.screens import BankScreens
from phonebuddy.phoneworld.apps.contacts.app import MESSAGES
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction
from phonebuddy.phoneworld.ui.theme import AppTheme

RED = (200, 22, 30)
AMOUNT = re.compile(r"\d+(?:\.\d{1,2})?")
OWN_PHONE_TAIL = "8866"


def parse_amount(text: str) -> int | None:
    """'500', '1,200.5', '¥88.88' -> cents; None for anything else or for zero."""
    cleaned = text.strip().lstrip("¥￥").replace(",", "").removesuffix("元").strip()
    if not AMOUNT.fullmatch(cleaned):
        return None
    try:
        cents = int(Decimal(cleaned) * 100)
    except InvalidOperation:
        return None
    return cents or None


def card_digits(text: str) -> str:
    return re.sub(r"[\s-]", "", text)


def code_sms(code: str, name: str, card: str, cents: int) -> str:
    return (f"【{BANK_NAME}】验证码：{code}，您正向{name}（尾号{tail(card)}）转账"
            f"{cents / 100:.2f}元，5分钟内有效，切勿告知他人。")  # fmt: skip


class Bank(BankScreens):
    package = BANK
    label = Label(zh="银行", en="Bank")
    domain = "finance"
    theme = AppTheme(primary=RED)
    icon_text = "招"
    friction = Friction(splash="因您而变 招商银行")

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        payees = [
            {"id": f"payee-{i + 1}", "name": p["name"], "card": p["card"],
             "bank": issuer(p["card"])}
            for i, p in enumerate(content["people"][:SAVED_PAYEES])
        ]  # fmt: skip
        bill = content["bill_cents"]
        return {
            "balance_cents": content["balance_cents"],
            "bill": {"bill_cents": bill, "min_cents": minimum(bill), "repaid_cents": 0},
            "payees": payees,
            "records": [],
        }

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def refuse(it: Interaction, message: str) -> NoReturn:
        """Show `message` on the screen and change nothing."""
        it.set_ui("error", message)
        it.toast(message)
        it.no_op(message)

    def transfer_next(self, it: Interaction) -> None:
        """下一步 on the transfer form: check it, then the confirmation screen."""
        name = it.field("name").strip()
        card = card_digits(it.field("card"))
        cents = parse_amount(it.field("amount"))
        if not name:
            self.refuse(it, "请输入收款人姓名")
        if not card:
            self.refuse(it, "请输入收款卡号")
        if not card.isdigit() or not 16 <= len(card) <= 19:
            self.refuse(it, "卡号应为16-19位数字")
        if not luhn_ok(card):
            self.refuse(it, "卡号有误，请核对后重新输入")
        if cents is None:
            self.refuse(it, "请输入正确的转账金额")
        if cents > it.data["balance_cents"]:
            self.refuse(it, "余额不足")
        it.set_ui("error", None)
        it.unfocus()
        it.push("confirm", fields={"code": ""}, name=name, card=card, amount_cents=cents,
                note=it.field("note").strip())  # fmt: skip

    def send_code(self, it: Interaction) -> None:
        """获取验证码: the bank texts a fresh code to the phone (in 信息, from 95555)."""
        p = it.entry["params"]
        sms_id = it.new_id("sms")
        code = f"{random.Random(f'bank-code:{it.device.world.seed}:{sms_id}').randrange(10**6):06d}"
        messages = it.app_data(MESSAGES)
        address, sender = SMS_SENDER
        thread = next((t for t in messages["threads"] if t["address"] == address), None)
        if thread is None:
            thread = {"id": "th-bank", "address": address, "sender": sender, "messages": []}
            messages["threads"].append(thread)
        text = code_sms(code, p["name"], p["card"], p["amount_cents"])
        thread["messages"].append({"id": sms_id, "incoming": True, "time": it.clock, "text": text})
        messages["unread"][thread["id"]] = messages["unread"].get(thread["id"], 0) + 1
        it.set_ui("code", code)
        it.set_ui("error", None)
        it.toast(f"验证码已发送至尾号{OWN_PHONE_TAIL}的手机")

    def confirm_transfer(self, it: Interaction) -> None:
        p = it.entry["params"]
        typed = it.field("code").strip()
        if it.ui("code") is None:
            self.refuse(it, "请先获取短信验证码")
        if not typed:
            self.refuse(it, "请输入短信验证码")
        if typed != it.ui("code"):
            self.refuse(it, "验证码错误，请重新输入")
        if p["amount_cents"] > it.data["balance_cents"]:
            self.refuse(it, "余额不足")
        record_id = self.book(
            it, p["amount_cents"], category="转账", merchant=f"转账给 {p['name']}",
            payee=p["name"], payee_card=p["card"], note=p["note"],
        )  # fmt: skip
        it.unfocus()
        it.reset_to("home")
        it.push("done", record_id=record_id)
        it.toast("转账成功")

    @staticmethod
    def book(it: Interaction, cents: int, **fields: Any) -> str:
        """Take `cents` from the debit card, with a new transaction; returns its id."""
        it.data["balance_cents"] -= cents
        record_id = it.new_id("t")
        serial = f"{random.Random(f'bank-serial:{record_id}').randrange(10**11, 10**12)}"
        it.data["records"].insert(0, {"id": record_id, "serial": serial, "kind": EXPENSE,
                                      "amount_cents": cents, "card": DEBIT, "time": it.clock,
                                      **fields})  # fmt: skip
        return record_id

    def save_payee(self, it: Interaction) -> None:
        name = it.field("name").strip()
        card = card_digits(it.field("card"))
        if not name:
            self.refuse(it, "请输入收款人姓名")
        if not card.isdigit() or not 16 <= len(card) <= 19:
            self.refuse(it, "卡号应为16-19位数字")
        if not luhn_ok(card):
            self.refuse(it, "卡号有误，请核对后重新输入")
        if any(p["card"] == card for p in it.data["payees"]):
            self.refuse(it, "该收款人已存在")
        it.data["payees"].append(
            {"id": it.new_id("payee"), "name": name, "card": card, "bank": issuer(card)}
        )
        it.unfocus()
        it.pop()
        it.toast("已添加收款人")

    def delete_payee(self, it: Interaction, payee_id: str) -> None:
        if not any(p["id"] == payee_id for p in it.data["payees"]):
            it.no_op(f"no payee {payee_id}")
        it.data["payees"] = [p for p in it.data["payees"] if p["id"] != payee_id]
        it.reset_to("home")
        it.push("payees")
        it.toast("已删除收款人")

    @staticmethod
    def pick_payee(it: Interaction, payee_id: str) -> None:
        payee = next((p for p in it.data["payees"] if p["id"] == payee_id), None)
        if payee is None:
            it.no_op(f"no payee {payee_id}")
        it.set_field("name", payee["name"])
        it.set_field("card", spaced(payee["card"]))

    @staticmethod
    def due(data: dict[str, Any], kind: str) -> int:
        """What is left to repay: the whole bill ("full") or the minimum ("min")."""
        bill = data["bill"]
        owed = bill["min_cents"] if kind == "min" else bill["bill_cents"]
        return max(0, owed - bill["repaid_cents"])

    def repay(self, it: Interaction, kind: str) -> None:
        cents = self.due(it.data, kind)
        it.set_ui("dialog", None)
        if cents == 0:
            self.refuse(it, "本期账单已还清")
        if cents > it.data["balance_cents"]:
            self.refuse(it, "一卡通余额不足")
        it.data["bill"]["repaid_cents"] += cents
        self.book(it, cents, category="信用卡还款", merchant="信用卡还款",
                  note="全额还款" if kind == "full" else "最低还款")  # fmt: skip
        it.toast("还款成功")
