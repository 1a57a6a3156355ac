"""The Calculator app: a keypad calculator that evaluates exactly (fractions, never `eval`), a
history of finished calculations (delete one, clear all, reuse a result, copy it) and a
converter for currencies, lengths and weights at rates fixed per world.

The expression being typed is UI state (the `expr` field); only finished calculations are
data, newest first in `history`.
"""

from __future__ import annotations

import random
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Chip,
    Column,
    Divider,
    IconButton,
    Page,
    Row,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

CALCULATOR = "com.pw.calculator"
OPERATORS = {"+": "add", "−": "sub", "×": "mul", "÷": "div"}
# keypad rows: (shown key, widget id suffix)
KEYPAD = (
    (("C", "clear"), ("←", "back"), ("%", "percent"), ("÷", "div")),
    (("7", "7"), ("8", "8"), ("9", "9"), ("×", "mul")),
    (("4", "4"), ("5", "5"), ("6", "6"), ("−", "sub")),
    (("1", "1"), ("2", "2"), ("3", "3"), ("+", "add")),
    (("0", "0"), (".", "dot"), ("=", "equals")),
)
KEY_IDS = {key: f"key_{suffix}" for row in KEYPAD for key, suffix in row}
# Typed spellings of the operators, as the keypad writes them.
_SPELLINGS = str.maketrans({"*": "×", "x": "×", "X": "×", "/": "÷", "-": "−", "－": "−",
                            "＋": "+", "％": "%"})  # fmt: skip
_TOKEN = re.compile(r"\s*(?:(\d+(?:\.\d*)?|\.\d+)|([+−×÷%]))")

# Seeded history: expressions people type (results are computed, never written by hand).
SEED_EXPRESSIONS = (
    "128+256", "45×12", "1000÷8", "99.5−23.75", "3.5×4+2", "2400÷3", "365×24", "1200×0.85",
    "88+66+45", "500−128.5", "7.8×6", "64×64", "1500÷12", "19.9×3", "250+380−99",
)  # fmt: skip
HISTORY_ON_NEW_DEVICE = 8

# Converter: category -> units (code, name, size in the category's base unit). Currencies are
# CNY per unit, nudged per world (`build_content`); lengths and weights are exact.
CURRENCIES = (("CNY", "人民币", "1"), ("USD", "美元", "7.18"), ("EUR", "欧元", "7.81"),
              ("GBP", "英镑", "9.10"), ("JPY", "日元", "0.0482"), ("HKD", "港币", "0.92"),
              ("KRW", "韩元", "0.0052"))  # fmt: skip
LENGTHS = (("km", "千米", "1000"), ("m", "米", "1"), ("cm", "厘米", "0.01"),
           ("mi", "英里", "1609.344"), ("ft", "英尺", "0.3048"),
           ("in", "英寸", "0.0254"))  # fmt: skip
WEIGHTS = (("kg", "千克", "1"), ("g", "克", "0.001"), ("jin", "斤", "0.5"),
           ("lb", "磅", "0.45359237"), ("oz", "盎司", "0.028349523125"))  # fmt: skip
CATEGORY_NAMES = {"currency": "货币", "length": "长度", "weight": "重量"}


class CalcError(ValueError):
    """The expression cannot be evaluated; the message is shown to the user."""


def normalize(text: str) -> str:
    """Typed text as the keypad would have written it ('12*3' -> '12×3'), without blanks."""
    return re.sub(r"\s", "", text.translate(_SPELLINGS))


def evaluate(text: str) -> Fraction:
    """The exact value of an expression of numbers, + − × ÷ and postfix % (a hundredth).

    × and ÷ bind tighter than + and −; a leading − negates the first number."""
    expr = normalize(text)
    if not expr:
        raise CalcError("请输入算式")
    tokens: list[Fraction | str] = []
    pos = 0
    while pos < len(expr):
        match = _TOKEN.match(expr, pos)
        if match is None:
            raise CalcError("算式有误")
        number, operator = match.groups()
        tokens.append(Fraction(Decimal(number)) if number is not None else operator)
        pos = match.end()
    # postfix percent
    values: list[Fraction | str] = []
    for token in tokens:
        if token == "%":  # noqa: S105 (an operator, not a password)
            if not values or not isinstance(values[-1], Fraction):
                raise CalcError("算式有误")
            values[-1] = values[-1] / 100
        else:
            values.append(token)
    if values and values[0] == "−":
        values = [Fraction(0), *values]
    if len(values) % 2 == 0:
        raise CalcError("算式不完整")
    for i, token in enumerate(values):
        if isinstance(token, Fraction) != (i % 2 == 0):
            raise CalcError("算式有误")
    # × and ÷ first, then + and −, left to right
    terms: list[Fraction] = [values[0]]  # type: ignore[list-item]
    signs: list[str] = []
    for operator, operand in zip(values[1::2], values[2::2], strict=True):
        assert isinstance(operand, Fraction)
        if operator in ("×", "÷"):
            if operator == "÷" and operand == 0:
                raise CalcError("不能除以0")
            terms[-1] = terms[-1] * operand if operator == "×" else terms[-1] / operand
        else:
            signs.append(str(operator))
            terms.append(operand)
    total = terms[0]
    for sign, term in zip(signs, terms[1:], strict=True):
        total = total + term if sign == "+" else total - term
    return total


def format_number(value: Fraction | Decimal) -> str:
    """A value as the display shows it: exact when it ends within 10 decimals, else rounded
    to 10; no trailing zeros."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    shown = value.quantize(Decimal("1e-10"), rounding=ROUND_HALF_UP)
    text = f"{shown:f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text.replace("-", "−")


def result_of(expr: str) -> str:
    """The shown result of an expression (for seeds and templates)."""
    return format_number(evaluate(expr))


def convert(amount: str, size_from: str, size_to: str) -> Decimal:
    """`amount` of a unit of `size_from` in a unit of `size_to`, rounded to cents."""
    value = Decimal(amount) * Decimal(size_from) / Decimal(size_to)
    if not value.is_finite():
        raise ArithmeticError(f"not a number: {amount!r}")
    return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def units_of(content: Any, category: str) -> tuple[Any, ...]:
    return tuple(next(c for c in content["categories"] if c["id"] == category)["units"])


def unit(content: Any, category: str, code: str) -> Any:
    return next(u for u in units_of(content, category) if u["code"] == code)


class Calculator(App):
    package = CALCULATOR
    label = Label(zh="计算器", en="Calculator")
    domain = "utilities"
    theme = AppTheme(primary=(255, 149, 0), on_primary=(255, 255, 255))
    icon_text = "算"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        currencies = []
        for code, name, rate in CURRENCIES:
            if code != "CNY":  # today's rates: within 2% of the usual
                nudged = Decimal(rate) * Decimal(1000 + rng.randrange(-20, 21)) / 1000
                rate = str(nudged.quantize(Decimal("0.0001"), rounding=ROUND_HALF_UP))
            currencies.append({"code": code, "name": name, "size": rate})
        categories = [("currency", currencies)]
        for cat, table in (("length", LENGTHS), ("weight", WEIGHTS)):
            categories.append((cat, [{"code": c, "name": n, "size": s} for c, n, s in table]))
        return {"categories": [{"id": cat, "name": CATEGORY_NAMES[cat], "units": units}
                               for cat, units in categories]}  # fmt: skip

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        chosen = rng.sample(SEED_EXPRESSIONS, k=HISTORY_ON_NEW_DEVICE)
        return {
            "history": [
                {"id": f"calc-{i}", "expr": expr, "result": result_of(expr),
                 "time": EPOCH_START - 86400 * (i + 1) + rng.randrange(3600, 36000)}
                for i, expr in enumerate(chosen)
            ]
        }  # fmt: skip

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def record(it: Interaction, expr: str) -> dict[str, Any]:
        """Evaluate `expr` and add it to the history (newest first)."""
        try:
            result = format_number(evaluate(expr))
        except CalcError as error:
            it.toast(str(error))
            it.no_op(f"cannot evaluate {expr!r}: {error}")
        entry = {"id": it.new_id("calc"), "expr": normalize(expr), "result": result,
                 "time": it.clock}  # fmt: skip
        it.data["history"].insert(0, entry)
        return entry

    @staticmethod
    def press_key(it: Interaction, key: str) -> None:
        it.set_field("expr", it.field("expr") + key)

    @staticmethod
    def backspace(it: Interaction) -> None:
        typed = it.field("expr")
        if not typed:
            it.no_op("the expression is already empty")
        it.set_field("expr", typed[:-1])

    @staticmethod
    def clear(it: Interaction) -> None:
        if not it.field("expr") and it.ui("result") is None:
            it.no_op("nothing to clear")
        it.set_field("expr", "")
        it.set_ui("result", None)

    def equals(self, it: Interaction) -> None:
        entry = self.record(it, it.field("expr"))
        it.set_field("expr", entry["result"])
        it.set_ui("result", entry["result"])

    @staticmethod
    def copy_result(it: Interaction, result: str | None) -> None:
        if not result:
            it.no_op("no result to copy")
        it.copy(result)
        it.toast(f"已复制 {result}")

    @staticmethod
    def find(it: Interaction, entry_id: str) -> dict[str, Any]:
        entry = next((e for e in it.data["history"] if e["id"] == entry_id), None)
        if entry is None:
            it.no_op(f"no history entry {entry_id}")
        return entry  # type: ignore[return-value]  # no_op raised otherwise

    def delete_entry(self, it: Interaction, entry_id: str) -> None:
        self.find(it, entry_id)
        it.data["history"] = [e for e in it.data["history"] if e["id"] != entry_id]
        it.toast("已删除")

    @staticmethod
    def clear_history(it: Interaction) -> None:
        if not it.data["history"]:
            it.set_ui("dialog", None)
            it.no_op("the history is already empty")
        it.data["history"] = []
        it.set_ui("dialog", None)
        it.toast("已清空历史记录")

    def reuse(self, it: Interaction, entry_id: str) -> None:
        """Back on the keypad with this result as the expression to go on from."""
        entry = self.find(it, entry_id)
        it.reset_to("home")
        it.set_field("expr", entry["result"])

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "calc")
        body = self._converter(v) if tab == "convert" else self._keypad(v)
        return Page(
            "计算器",
            body,
            header=Tabs((("calc", "计算"), ("convert", "换算")), tab, v.on_select("tab")),
            actions=[IconButton("历", "历史记录", v.go("history"), id="open_history")],
            background=theme.SURFACE,
        )

    def _keypad(self, v: View) -> list[Widget]:
        result = v.ui("result")
        display: list[Widget | None] = [
            TextField(
                "expr",
                v.field("expr"),
                "输入算式",
                on_focus=v.focus("expr"),
                on_submit=v.do(self.equals),
                size=60,
            ),
            Row(
                [
                    Text(
                        f"= {result}" if result is not None else "",
                        size=64,
                        bold=True,
                        align="right",
                        id="result",
                        on_long_press=v.do(self.copy_result, result),
                    ),
                    IconButton("复", "复制结果", v.do(self.copy_result, result), id="copy_result"),
                ],
                weights=(1, 0),
            )
            if result is not None
            else None,
        ]
        rows = [
            Row(
                [
                    Button(
                        key,
                        self._key_handler(v, key),
                        id=KEY_IDS[key],
                        style="primary" if key in OPERATORS or key == "=" else "secondary",
                        height=150,
                        size=56,
                    )
                    for key, _ in row
                ],
                weights=(2, 1, 1) if len(row) == 3 else None,
                spacing=30,
            )
            for row in KEYPAD
        ]
        return [Column([*display, *rows], spacing=30, padding=40)]

    def _key_handler(self, v: View, key: str) -> Any:
        if key == "=":
            return v.do(self.equals)
        if key == "C":
            return v.do(self.clear)
        if key == "←":
            return v.do(self.backspace)
        return v.do(self.press_key, key)

    def _converter(self, v: View) -> list[Widget]:
        content = v.content
        category = v.ui("category", "currency")
        units = units_of(content, category)
        codes = [u["code"] for u in units]
        source = v.ui("from") if v.ui("from") in codes else codes[1]
        target = v.ui("to") if v.ui("to") in codes else codes[0]
        src, dst = unit(content, category, source), unit(content, category, target)
        amount = v.field("amount").strip()
        try:
            value = format_number(convert(amount, src["size"], dst["size"]))
            shown = f"{amount} {src['name']} = {value} {dst['name']}"
        except ArithmeticError:
            shown = "请输入有效数字" if amount else "输入数量后显示换算结果"
        base = units[0]
        categories = [Chip(name, v.set_ui("category", cat), cat == category, id=f"cat_{cat}")
                      for cat, name in CATEGORY_NAMES.items()]  # fmt: skip
        sources = [Chip(u["name"], v.set_ui("from", u["code"]), u["code"] == source,
                        id=f"from_{u['code']}") for u in units]  # fmt: skip
        targets = [Chip(u["name"], v.set_ui("to", u["code"]), u["code"] == target,
                        id=f"to_{u['code']}") for u in units]  # fmt: skip
        rates = [
            Text(f"1 {u['name']} = {format_number(Decimal(u['size']))} {base['name']}",
                 size=34, color=theme.TEXT_SECONDARY, id=f"rate_{u['code']}")
            for u in units[1:]
        ]  # fmt: skip
        return [
            Column(
                [
                    Wrap(categories),
                    Text("从", size=36, color=theme.TEXT_SECONDARY),
                    Wrap(sources, id="from_units"),
                    Text("换算为", size=36, color=theme.TEXT_SECONDARY),
                    Wrap(targets, id="to_units"),
                    TextField("amount", v.field("amount"), "数量", on_focus=v.focus("amount")),
                    Text(shown, size=48, bold=True, id="convert_result"),
                    Divider(),
                    Text("汇率 / 换算表" if category == "currency" else "换算表", size=36),
                    *rates,
                ],
                spacing=24,
                padding=40,
            )
        ]

    @screen("history")
    def history(self, v: View) -> Page:
        rows: list[Widget] = []
        for entry in v.data["history"]:
            rows += [
                Row(
                    [
                        Column(
                            [
                                Text(entry["expr"], size=38, color=theme.TEXT_SECONDARY,
                                     id=f"expr_{entry['id']}"),
                                Text(f"= {entry['result']}", size=52, bold=True,
                                     id=f"result_{entry['id']}",
                                     on_long_press=v.do(self.copy_result, entry["result"])),
                            ],
                            spacing=6,
                            on_tap=v.do(self.reuse, entry["id"]),
                            id=f"entry_{entry['id']}",
                        ),
                        IconButton("close", "删除", v.do(self.delete_entry, entry["id"]),
                                   id=f"delete_{entry['id']}", color=theme.TEXT_SECONDARY),
                    ],
                    weights=(1, 0),
                ),
                Divider(),
            ]  # fmt: skip
        if not rows:
            rows = [Text("暂无历史记录", color=theme.TEXT_SECONDARY, padding=40, id="empty")]
        dialog = None
        if v.ui("dialog") == "clear":
            dialog = v.confirm(
                "清空全部历史记录？",
                v.do(self.clear_history),
                label="清空",
                confirm_id="confirm_clear",
                danger=True,
            )
        return Page(
            "历史记录",
            [Column(rows, padding=40)],
            on_back=v.back(),
            actions=[IconButton("delete", "清空", v.set_ui("dialog", "clear"), id="clear_history")],
            overlay=dialog,
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "calculate",
        "Evaluate an arithmetic expression (numbers, + - * / and %) exactly and add it to the "
        "calculator's history.",
        {"expression": str},
    )
    def calculate_tool(self, it: Interaction, expression: str) -> str:
        entry = self.record(it, expression)
        return f"{entry['expr']} = {entry['result']}"
