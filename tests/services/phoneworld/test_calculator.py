"""The Calculator app through the action interface: the keypad evaluates exactly and records
each finished calculation, bad input and empty keys are refused, results copy to the clipboard,
history entries can be deleted, reused and cleared, the converter reads fixed rates, and the
calculate tool records what the keypad would."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.calculator.app import (
    CALCULATOR,
    KEY_IDS,
    CalcError,
    convert,
    evaluate,
    result_of,
    unit,
)
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool, LongPress, Type, from_pixels


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    def open_calculator(self) -> None:
        self.open("计算器")

    def keys(self, expr: str) -> None:
        for key in expr:
            self.tap(KEY_IDS[key])


def history(device: Device) -> list[dict[str, Any]]:
    return device.state["apps"][CALCULATOR]["history"]


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open_calculator()
    return driver


@pytest.mark.parametrize(
    ("expr", "shown"),
    [("0.1+0.2", "0.3"), ("10÷4", "2.5"), ("2+3×4", "14"), ("50×20%", "10"),
     ("1÷3", "0.3333333333"), ("7−9.5", "−2.5"), ("−3×3", "−9"), ("12*3", "36")],
)  # fmt: skip
def test_expressions_evaluate_exactly(expr: str, shown: str) -> None:
    assert result_of(expr) == shown


@pytest.mark.parametrize("expr", ["", "   ", "1+", "×2", "1÷0", "abc", "2++3", "1..2", "%5"])
def test_bad_expressions_are_refused(expr: str) -> None:
    with pytest.raises(CalcError):
        evaluate(expr)


def test_the_keypad_records_the_calculation_and_shows_the_result(user: Driver) -> None:
    before = len(history(user.device))
    user.keys("2+3×4=")
    entries = history(user.device)
    assert len(entries) == before + 1
    assert (entries[0]["expr"], entries[0]["result"]) == ("2+3×4", "14")
    assert user.text("result") == "= 14"
    assert user.text("expr") == "14"  # the result is where the next calculation goes on from
    user.keys("÷8=")
    assert (history(user.device)[0]["expr"], history(user.device)[0]["result"]) == ("14÷8", "1.75")


def test_equals_refuses_empty_and_invalid_input_and_changes_nothing(user: Driver) -> None:
    before = [dict(e) for e in history(user.device)]
    assert "请输入算式" in user.refuse(KEY_IDS["="])
    assert history(user.device) == before
    user.tap("expr")
    user.act(Type(text="12++3"))
    user.refuse(KEY_IDS["="])
    user.tap("expr")
    user.act(Type(text="abc"))
    user.refuse(KEY_IDS["="])
    assert history(user.device) == before


def test_backspace_and_clear_refuse_an_empty_display(user: Driver) -> None:
    user.refuse(KEY_IDS["←"])
    user.refuse(KEY_IDS["C"])
    user.keys("12")
    user.tap(KEY_IDS["←"])
    assert user.text("expr") == "1"
    user.tap(KEY_IDS["C"])
    assert user.text("expr") == ""


def test_typing_with_a_keyboard_works_like_the_keypad(user: Driver) -> None:
    user.type_into("expr", "15*4/3")
    user.act(user.ui.enter())
    assert (history(user.device)[0]["expr"], history(user.device)[0]["result"]) == ("15×4÷3", "20")


def test_the_result_copies_by_button_and_by_long_press(user: Driver) -> None:
    assert not user.visible("copy_result")  # nothing to copy before a result
    user.keys("19.9×3=")
    user.tap("copy_result")
    assert user.device.state["os"]["clipboard"] == "59.7"
    user.device.state["os"]["clipboard"] = ""
    node = user.ui.node("result")
    user.act(LongPress(coordinate=from_pixels(node.bounds.center, user.device.screen)))
    assert user.device.state["os"]["clipboard"] == "59.7"


def test_history_entries_delete_reuse_and_clear(user: Driver) -> None:
    user.tap("open_history")
    first, second = history(user.device)[:2]
    user.tap(f"delete_{first['id']}")
    assert first["id"] not in {e["id"] for e in history(user.device)}
    user.tap(f"entry_{second['id']}")
    assert user.visible(KEY_IDS["="])
    assert user.text("expr") == second["result"]
    user.tap("open_history")
    user.tap("clear_history")
    user.tap("cancel")
    assert history(user.device)
    user.tap("clear_history")
    user.tap("confirm_clear")
    assert history(user.device) == []
    assert user.visible("empty")
    user.tap("clear_history")
    user.refuse("confirm_clear")  # nothing left to clear


def test_the_converter_reads_the_worlds_rates(user: Driver, world: World) -> None:
    content = world.content(CALCULATOR)
    data = [dict(e) for e in history(user.device)]
    usd, cny = unit(content, "currency", "USD"), unit(content, "currency", "CNY")
    user.tap("tab_convert")
    assert user.text("convert_result") == "输入数量后显示换算结果"
    user.type_into("amount", "100")
    expected = convert("100", usd["size"], cny["size"])
    assert user.text("convert_result") == f"100 美元 = {expected.normalize():f} 人民币"
    user.tap("cat_length")
    user.tap("from_km")
    user.tap("to_mi")
    assert user.text("convert_result").endswith("= 62.14 英里")
    user.act(Type(text="x"))  # '100x' is no number
    assert user.text("convert_result") == "请输入有效数字"
    assert history(user.device) == data  # converting changes no data


def test_convert_rounds_to_cents() -> None:
    assert convert("3", "1", "0.3048") == Decimal("9.84")
    with pytest.raises(ArithmeticError):
        convert("NaN", "1", "1")


def test_the_calculate_tool_records_what_the_keypad_would(world: World) -> None:
    by_tool, by_hand = Device(world, seed=3), Device(world, seed=3)
    Driver(by_tool).open_calculator()
    result = by_tool.act(CallTool(name="calculate", arguments={"expression": "128 * 3.5"}))
    assert result.effect == "applied", result.note
    user = Driver(by_hand)
    user.open_calculator()
    user.keys("128×3.5=")
    tool_entry, hand_entry = history(by_tool)[0], history(by_hand)[0]
    assert (tool_entry["expr"], tool_entry["result"]) == (hand_entry["expr"], hand_entry["result"])
    assert tool_entry["result"] == "448"
    bad = by_tool.act(CallTool(name="calculate", arguments={"expression": "8÷0"}))
    assert bad.effect == "no_op"
    assert "不能除以0" in bad.note
