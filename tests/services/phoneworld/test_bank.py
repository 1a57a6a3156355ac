"""The Bank app (银行) through the action interface: the hidden balance, the transactions by
month, in/out and search, a transaction's page, transfers confirmed with the SMS code the bank
sends to 信息, saved payees, the credit card's repayment, and what it refuses."""

from __future__ import annotations

import random
from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.bank.app import parse_amount
from phonebuddy.phoneworld.apps.bank.content import (
    BANK,
    SAVED_PAYEES,
    card_number,
    issuer,
    luhn_ok,
    minimum,
    month_of,
    spaced,
)
from phonebuddy.phoneworld.apps.contacts.app import MESSAGES
from phonebuddy.phoneworld.apps.messages.app import find_code
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    @property
    def bank(self) -> dict[str, Any]:
        return self.app_state(BANK)  # type: ignore[no-any-return]

    def bank_sms(self) -> list[dict[str, Any]]:
        threads = self.app_state(MESSAGES)["threads"]
        thread = next(t for t in threads if t["address"] == "95555")
        return [m for m in thread["messages"] if "验证码" in m["text"]]

    def shown(self, prefix: str) -> set[str]:
        return {i.removeprefix(prefix) for i in self.ids() if i.startswith(prefix)}

    def fill_transfer(self, name: str, card: str, amount: str) -> None:
        for field, text in (("name", name), ("card", card), ("amount", amount)):
            if text:
                self.type_into(field, text)


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("银行")
    return driver


def _a_card(seed: int = 7) -> str:
    return card_number(random.Random(seed), "6222", 19)


def test_card_rules() -> None:
    card = _a_card()
    assert luhn_ok(card)
    assert len(card) == 19
    assert not luhn_ok(card[:-1] + str((int(card[-1]) + 1) % 10))
    assert issuer(card) == "工商银行"
    assert spaced("6222021234567890123") == "6222 0212 3456 7890 123"
    assert (parse_amount("1,200.5"), parse_amount("¥88.88"), parse_amount("0")) == (
        120050,
        8888,
        None,
    )
    assert parse_amount("12.345") is None
    assert parse_amount("abc") is None
    assert minimum(100001) == 10001


def test_the_balance_hides_behind_the_eye(user: Driver) -> None:
    assert "*" in user.text("balance")
    user.tap("toggle_balance")
    assert user.text("balance") == f"¥{user.bank['balance_cents'] / 100:,.2f}"
    user.tap("toggle_balance")
    assert "*" in user.text("balance")


def test_transactions_filter_by_month_and_kind_and_search(user: Driver, world: World) -> None:
    history = world.content(BANK)["transactions"]
    assert len(history) >= 40
    user.tap("transactions")
    user.tap("month_2")
    february = [t for t in history if month_of(t["time"]) == 2]
    out = sum(t["amount_cents"] for t in february if t["kind"] == "expense")
    assert f"支出 ¥{out / 100:,.2f}" in user.text("month_summary")
    user.tap("tab_in")
    assert user.shown("tx_") == {t["id"] for t in february if t["kind"] == "income"}
    user.tap("tab_out")
    expenses = {t["id"] for t in february if t["kind"] == "expense"}
    seen = set(user.shown("tx_"))
    while user.device.scroll_room("content")[1] > 0:
        user.act(user.ui._swipe_within(user.ui.node("content"), up=True))
        seen |= user.shown("tx_")
    assert seen == expenses
    user.scroll_to("search")
    user.type_into("search", "餐饮")
    assert user.shown("tx_") <= {t["id"] for t in february if t["category"] == "餐饮"}
    user.type_into("search", "不存在的商户")
    assert user.shown("tx_") == set()
    assert user.visible("empty")


def test_a_transactions_page(user: Driver, world: World) -> None:
    first = world.content(BANK)["transactions"][0]
    user.tap("transactions")
    user.tap(f"tx_{first['id']}")
    assert user.text("tx_merchant") == first["merchant"]
    assert user.text("tx_amount").endswith(f"{first['amount_cents'] / 100:,.2f}")
    assert user.text("tx_serial") == first["serial"]


def test_the_transfer_form_refuses_bad_input_on_screen(user: Driver) -> None:
    before = dict(user.bank)
    user.tap("transfer")
    card = _a_card()
    cases = [
        ("", card, "100", "请输入收款人姓名"),
        ("王芳", "6222 1234", "100", "卡号应为16-19位数字"),
        ("王芳", card[:-1] + str((int(card[-1]) + 1) % 10), "100", "卡号有误"),
        ("王芳", card, "十块", "请输入正确的转账金额"),
        ("王芳", card, "99999999", "余额不足"),
    ]
    for name, number, amount, error in cases:
        for field in ("name", "card", "amount"):
            user.device.top_entry(BANK)["fields"][field] = ""
        user.fill_transfer(name, number, amount)
        user.refuse("next")
        assert user.text("error").startswith(error)
    assert user.bank == before


def test_a_transfer_needs_the_sms_code(user: Driver) -> None:
    payee = user.bank["payees"][0]
    balance = user.bank["balance_cents"]
    user.tap("transfer")
    user.tap(f"pick_{payee['id']}")
    assert user.text("card") == spaced(payee["card"])
    user.type_into("amount", "88.5")
    user.type_into("note", "饭钱")
    user.tap("next")
    assert user.text("confirm_amount") == "¥88.50"
    user.refuse("confirm_transfer")  # no code asked for yet
    assert "获取" in user.text("error")
    user.tap("send_code")
    first = user.bank_sms()[-1]
    user.tap("send_code")  # a fresh code replaces the first
    latest = user.bank_sms()[-1]
    old, code = find_code(first["text"]), find_code(latest["text"])
    assert code
    assert len(code) == 6
    assert payee["name"] in latest["text"]
    user.refuse("confirm_transfer")  # empty
    if old != code:
        user.type_into("code", old or "")
        user.refuse("confirm_transfer")
        user.device.top_entry(BANK)["fields"]["code"] = ""
    user.type_into("code", "000000" if code != "000000" else "111111")
    user.refuse("confirm_transfer")
    assert user.text("error") == "验证码错误，请重新输入"
    user.device.top_entry(BANK)["fields"]["code"] = ""
    user.type_into("code", code)
    user.tap("confirm_transfer")
    assert user.text("done_status") == "转账成功"
    assert user.bank["balance_cents"] == balance - 8850
    [record] = user.bank["records"]
    assert (record["payee"], record["payee_card"], record["amount_cents"], record["note"]) == (
        payee["name"], payee["card"], 8850, "饭钱")  # fmt: skip
    user.tap("finish")
    user.tap("transactions")
    assert f"tx_{record['id']}" in user.ids()


def test_payees_are_added_checked_and_deleted_after_confirmation(user: Driver) -> None:
    user.tap("payees")
    assert len(user.shown("payee_")) == SAVED_PAYEES
    user.tap("add_payee")
    user.type_into("card", "1234")
    user.refuse("save_payee")
    assert user.text("error") == "请输入收款人姓名"
    existing = user.bank["payees"][0]["card"]
    user.type_into("name", "周杰")
    user.device.top_entry(BANK)["fields"]["card"] = ""
    user.type_into("card", existing)
    user.refuse("save_payee")
    assert user.text("error") == "该收款人已存在"
    user.device.top_entry(BANK)["fields"]["card"] = ""
    card = _a_card(11)
    user.type_into("card", spaced(card))
    user.tap("save_payee")
    added = user.bank["payees"][-1]
    assert (added["name"], added["card"], added["bank"]) == ("周杰", card, issuer(card))
    victim = user.bank["payees"][0]
    user.tap(f"payee_{victim['id']}")
    user.tap("delete_payee")
    user.tap("cancel")
    assert len(user.bank["payees"]) == SAVED_PAYEES + 1
    user.tap("delete_payee")
    user.tap("confirm_delete")
    assert victim["id"] not in {p["id"] for p in user.bank["payees"]}
    assert f"payee_{victim['id']}" not in user.ids()


def test_repaying_the_credit_card(user: Driver) -> None:
    bill = dict(user.bank["bill"])
    balance = user.bank["balance_cents"]
    user.tap("credit")
    user.tap("repay_min")
    user.tap("cancel")
    assert user.bank["bill"] == bill
    user.tap("repay_min")
    user.tap("repay_ok")
    assert user.bank["bill"]["repaid_cents"] == bill["min_cents"]
    assert not user.visible("repay_min") or user.ui.find("repay_min").clickable is False
    user.tap("repay_full")
    user.tap("repay_ok")
    assert user.bank["bill"]["repaid_cents"] == bill["bill_cents"]
    assert user.bank["balance_cents"] == balance - bill["bill_cents"]
    assert user.text("bill_left") == "本期账单已还清"
    assert [r["category"] for r in user.bank["records"]] == ["信用卡还款", "信用卡还款"]


def test_repaying_more_than_the_balance_is_refused(user: Driver) -> None:
    user.bank["balance_cents"] = 100
    user.tap("credit")
    user.tap("repay_full")
    user.refuse("repay_ok")
    assert user.bank["bill"]["repaid_cents"] == 0
    assert user.bank["balance_cents"] == 100
    assert user.text("error") == "一卡通余额不足"
