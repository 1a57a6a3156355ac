"""The Wallet app through the action interface: transfers (GUI and tool share one handler, the
confirmation and the insufficient-balance dialog), bills and their search, and the payment
contract other apps rely on."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.wallet.app import parse_amount
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool, Key, Type

WALLET = "com.pw.wallet"
NOTES = "com.pw.notes"


class Driver(testing.Driver):
    """Acts like a user, one step at a time, and insists that every step has an effect."""

    def fill_transfer(self, payee: dict[str, Any], amount: str, note: str) -> None:
        self.open("钱包")
        self.tap("entry_transfer")
        self.scroll_to(f"payee_{payee['id']}")
        self.tap(f"payee_{payee['id']}")
        if note:
            self.type_into("note", note)
        self.type_into("amount", amount)


def wallet(device: Device) -> dict[str, Any]:
    return device.state["apps"][WALLET]


def payee(world: World, index: int = 1) -> dict[str, Any]:
    return dict(world.content(WALLET)["payees"][index])


def test_amounts_parse_like_people_write_them() -> None:
    assert parse_amount("120") == 12000
    assert parse_amount("¥ 66.5") == 6650
    assert parse_amount("1,000.00元") == 100000
    for wrong in ("", "abc", "0", "-5", "1.234"):
        assert parse_amount(wrong) is None


def test_a_transfer_asks_for_confirmation_then_records_a_bill(device: Device) -> None:
    user = Driver(device)
    balance = wallet(device)["balance_cents"]
    to = payee(device.world)
    user.fill_transfer(to, "88.5", "饭钱")
    user.tap("transfer_submit")
    assert to["name"] in user.ui.find("transfer_dialog").children[1].text
    assert wallet(device)["balance_cents"] == balance  # nothing moves before confirming
    user.tap("transfer_confirm")
    bill = wallet(device)["bills"][-1]
    assert bill["kind"] == "transfer"
    assert (bill["payee_id"], bill["amount_cents"], bill["note"]) == (to["id"], 8850, "饭钱")
    assert wallet(device)["balance_cents"] == balance - 8850
    assert user.text("transfer_amount") == "¥88.50"
    user.tap("transfer_done")
    assert user.text("balance") == f"¥{(balance - 8850) / 100:.2f}"


def test_the_transfer_tool_writes_what_the_gui_writes(world: World) -> None:
    to = payee(world, 3)
    by_gui, by_tool = Device(world), Device(world)
    user = Driver(by_gui)
    user.fill_transfer(to, "120", "房租")
    user.tap("transfer_submit")
    user.tap("transfer_confirm")
    tool_user = Driver(by_tool)
    tool_user.act(tool_user.ui.open("钱包"))
    note = tool_user.act(
        CallTool(
            name="transfer", arguments={"to": to["name"], "amount_cents": 12000, "note": "房租"}
        )
    )
    assert to["name"] in note
    gui_bill, tool_bill = wallet(by_gui)["bills"][-1], wallet(by_tool)["bills"][-1]
    assert {**gui_bill, "time": 0} == {**tool_bill, "time": 0}
    assert wallet(by_gui)["balance_cents"] == wallet(by_tool)["balance_cents"]


def test_the_transfer_tool_refuses_unknown_payees_and_bad_amounts(device: Device) -> None:
    Driver(device).act(OracleUI(device).open("钱包"))
    before = device.snapshot()["apps"]
    for arguments in (
        {"to": "不存在的人", "amount_cents": 100, "note": ""},
        {"to": payee(device.world)["name"], "amount_cents": 0, "note": ""},
        {"to": payee(device.world)["name"], "amount_cents": 10**9, "note": ""},
    ):
        assert device.act(CallTool(name="transfer", arguments=arguments)).effect == "no_op"
    assert device.snapshot()["apps"] == before


def test_invalid_amounts_and_a_short_balance_change_nothing(device: Device) -> None:
    user = Driver(device)
    user.fill_transfer(payee(device.world), "abc", "")
    before = device.snapshot()["apps"]
    assert device.act(user.ui.tap("transfer_submit")).effect == "no_op"
    for _ in "abc":
        user.act(Key(text="KEYCODE_DEL"))
    user.act(Type(text="999999"))
    user.tap("transfer_submit")
    assert "insufficient_ok" in user.ids()
    user.tap("insufficient_ok")
    assert device.snapshot()["apps"] == before


def test_bill_search_sums_what_was_spent(device: Device) -> None:
    user = Driver(device)
    user.act(user.ui.open("钱包"))
    user.tap("entry_bills")
    user.type_into("bill_search", "星巴克")
    spent = sum(
        b["amount_cents"]
        for b in wallet(device)["bills"]
        if b["merchant"] == "星巴克" and b["kind"] == "payment"
    )
    assert user.text("bill_summary").endswith(f"支出 ¥{spent / 100:.2f}")
    user.act(user.ui.back())
    user.tap(next(i for i in sorted(user.ids()) if i.startswith("bill_bill-")))
    assert user.text("bill_title") == "星巴克"
    assert user.text("bill_amount").startswith("-¥")


def test_the_payment_contract_other_apps_rely_on(device: Device) -> None:
    """`request_payment` opens `pay`; confirming records a payment bill and returns."""
    balance = wallet(device)["balance_cents"]
    user = Driver(device)
    user.act(user.ui.open("备忘录"))
    Interaction(device, NOTES).request_payment(
        amount_cents=balance + 1, merchant="测试商户", reference="ref-1", description="测试"
    )
    assert device.foreground == WALLET
    assert {"pay_confirm", "pay_cancel", "pay_amount"} <= user.ids()
    user.tap("pay_confirm")
    assert "insufficient_ok" in user.ids()
    user.tap("insufficient_ok")
    user.tap("pay_cancel")
    assert device.foreground == NOTES
    Interaction(device, NOTES).request_payment(
        amount_cents=1234, merchant="测试商户", reference="ref-2", description="测试"
    )
    user.tap("pay_confirm")
    assert device.foreground == NOTES
    bill = wallet(device)["bills"][-1]
    assert (bill["kind"], bill["reference"], bill["amount_cents"]) == ("payment", "ref-2", 1234)
    assert wallet(device)["balance_cents"] == balance - 1234
