"""Task templates of the Calculator app, and ones that carry a total to Notes or Messages."""

from __future__ import annotations

import random
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction

from phonebuddy.phoneworld.apps.calculator.app import (
    CALCULATOR,
    KEY_IDS,
    SEED_EXPRESSIONS,
    convert,
    format_number,
    normalize,
    result_of,
    units_of,
)
from phonebuddy.phoneworld.apps.messages.tasks import address_book, sent_messages
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Number, check_written
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import paste_into_new_note
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

HISTORY = f"apps/{CALCULATOR}/history"
NOTES = "com.pw.notes"
MESSAGES = "com.pw.messages"
APP_NAME = "计算器"
# Units as the English wordings name them.
UNIT_EN = {"CNY": "Chinese yuan", "USD": "US dollars", "EUR": "euros", "GBP": "British pounds",
           "JPY": "Japanese yen", "HKD": "Hong Kong dollars", "KRW": "Korean won",
           "km": "kilometres", "m": "metres", "cm": "centimetres", "mi": "miles", "ft": "feet",
           "in": "inches", "kg": "kilograms", "g": "grams", "jin": "jin", "lb": "pounds",
           "oz": "ounces"}  # fmt: skip
# Expense notes: (title, [(item, yuan)]) — amounts are the sampled ones.
EXPENSE_ITEMS = ("打车", "午餐", "文具", "咖啡", "停车费", "快递", "打印", "水果", "地铁",
                 "晚饭", "电影票", "药")  # fmt: skip
EXPENSE_TITLES = (("报销明细", "报销合计"), ("本周开销", "本周合计"), ("出差花费", "出差合计"),
                  ("聚会支出", "聚会合计"))  # fmt: skip
NOTE_TITLE = "购物合计"
SHOPPING_ITEMS = {"台灯": "desk lamp", "耳机": "headphones", "背包": "backpack",
                  "保温杯": "thermos", "雨伞": "umbrella", "运动鞋": "sneakers", "键盘": "keyboard",
                  "充电宝": "power bank"}  # fmt: skip


def _expression(rng: random.Random) -> str:
    """An expression of a kind people type, whose result ends within two decimals."""
    kind = rng.randrange(5)
    if kind == 0:
        return f"{rng.randrange(12, 99)}×{rng.randrange(12, 99)}"
    if kind == 1:
        return f"{rng.randrange(100, 999)}+{rng.randrange(11, 99)}×{rng.randrange(3, 9)}"
    if kind == 2:
        divisor = rng.choice((2, 4, 5, 20, 25))
        return f"{rng.randrange(101, 999)}÷{divisor}"
    if kind == 3:
        return f"{rng.randrange(10, 99)}.{rng.randrange(1, 9)}×{rng.randrange(3, 12)}"
    return f"{rng.randrange(120, 990)}×{rng.choice((5, 15, 25, 35, 85))}%"


def type_on_keypad(ui: OracleUI, expr: str) -> Iterator[Action]:
    """Tap the expression in key by key, then =."""
    for key in expr:
        yield ui.tap(KEY_IDS[key])
    yield ui.tap(KEY_IDS["="])


def shown_result(ui: OracleUI) -> str:
    """The result the keypad shows after =."""
    return ui.text_of("result").removeprefix("= ")


def calculate(ui: OracleUI, expr: str) -> Iterator[Action]:
    yield ui.open(APP_NAME)
    yield from type_on_keypad(ui, expr)


def history_problems(diff: StateDiff, expr: str) -> list[str]:
    """Exactly one calculation was added to the history: `expr` with its right result."""
    entry, problems = one_added(diff, HISTORY, "calculation")
    if entry is None:
        return problems
    if normalize(entry["expr"]) != normalize(expr):
        problems.append(f"the history holds {entry['expr']!r}, expected {expr!r}")
    if entry["result"] != result_of(expr):
        problems.append(f"its result is {entry['result']!r}, expected {result_of(expr)!r}")
    return problems


def value(text: str) -> float:
    return float(Fraction(Decimal(text.replace("−", "-"))))


class CalculatorTemplate(TaskTemplate):
    """A template of the Calculator app alone."""

    category = Category.SINGLE_APP
    apps = (CALCULATOR,)


class Compute(CalculatorTemplate):
    id = "calculator.compute"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        expr = _expression(rng)
        return {"expr": expr, "result": result_of(expr)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        expr = params["expr"]
        return phrased(
            zh=[f"用计算器算一下 {expr}", f"帮我在计算器里算 {expr}，让它留在历史记录里",
                f"打开计算器，计算 {expr}"],
            en=[f"Use the calculator to work out {expr}",
                f"Please calculate {expr} in the calculator so it stays in the history",
                f"Open the calculator and compute {expr}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return history_problems(diff, params["expr"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from calculate(ui, params["expr"])


class FreshStart(CalculatorTemplate):
    id = "calculator.fresh_start"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        expr = _expression(rng)
        return {"expr": expr, "result": result_of(expr)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        expr = params["expr"]
        return phrased(
            zh=[f"清空计算器的历史记录，然后算一下 {expr}，让历史里只剩这一条",
                f"把计算器历史全部清掉，再计算 {expr}",
                f"我想让计算器的历史记录里只有 {expr} 这一条：先清空历史，再算它"],
            en=[f"Clear the calculator's history, then work out {expr} so it is the only entry",
                f"Wipe the calculator history and then calculate {expr}",
                f"I want {expr} to be the only calculation in the calculator's history: clear "
                "the history first, then compute it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        before = diff.value_before(HISTORY)
        removed = {e["id"] for e in diff.removed(HISTORY)}
        problems = history_problems(diff, params["expr"])
        kept = [e["expr"] for e in before if e["id"] not in removed]
        if kept:
            problems.append(f"the history still holds {kept}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_NAME)
        yield ui.tap("open_history")
        yield ui.tap("clear_history")
        yield ui.tap("confirm_clear")
        yield ui.back()
        yield from type_on_keypad(ui, params["expr"])


class _WithEntries(TaskTemplate):
    """Templates whose setup puts known calculations at the top of the history."""

    entries: tuple[str, ...] = ("expr",)

    def setup(self, it: Interaction, params: Params) -> None:
        history = it.app_data(CALCULATOR)["history"]
        for i, key in enumerate(self.entries):
            expr = params[key]
            entry = {"id": f"calc-task-{i}", "expr": expr, "result": result_of(expr),
                     "time": it.clock - 600 * (i + 1)}  # fmt: skip
            history.insert(i, entry)

    @staticmethod
    def _task_pair(rng: random.Random) -> tuple[str, str]:
        """Two expressions of different results, neither in the seeded history."""
        while True:
            first, second = _expression(rng), _expression(rng)
            if (result_of(first) != result_of(second)
                    and not {first, second} & set(SEED_EXPRESSIONS)):  # fmt: skip
                return first, second


class DeleteEntry(_WithEntries):
    id = "calculator.delete_entry"
    category = Category.SINGLE_APP
    apps = (CALCULATOR,)
    difficulty = 4
    entries = ("newer", "expr")

    def sample(self, world: World, rng: random.Random) -> Params:
        newer, expr = self._task_pair(rng)
        return {"expr": expr, "result": result_of(expr), "newer": newer}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shown = f"{params['expr']} = {params['result']}"
        return phrased(
            zh=[f"删除计算器历史里的“{shown}”这一条", f"帮我把计算记录“{shown}”删掉",
                f"计算器历史中“{shown}”那条不要了，删了吧"],
            en=[f"Delete the entry '{shown}' from the calculator history",
                f"Please remove the calculation '{shown}' from the history",
                f"I don't need '{shown}' in the calculator history anymore; delete it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [e["expr"] for e in diff.removed(HISTORY)]
        return [] if removed == [params["expr"]] else [f"deleted {removed}, expected only "
                                                      f"{params['expr']!r}"]  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_NAME)
        yield ui.tap("open_history")
        node = next((n for n in ui.find_all(text=params["expr"])
                     if ":id/expr_" in n.resource_id), None)  # fmt: skip
        if node is None:
            raise OracleError(f"{params['expr']!r} is not in the history")
        delete = "delete_" + node.resource_id.rpartition(":id/expr_")[2]
        yield from ui.scroll_to(delete)
        yield ui.tap(delete)


class LastResult(_WithEntries):
    id = "calculator.last_result"
    category = Category.SINGLE_APP
    apps = (CALCULATOR,)
    difficulty = 3
    answers = True
    entries = ("expr", "older")

    def sample(self, world: World, rng: random.Random) -> Params:
        expr, older = self._task_pair(rng)
        return {"expr": expr, "older": older}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["计算器里最近一次计算的结果是多少？", "看看计算器历史记录里最新那条算出来是多少",
                "我刚才用计算器算的最后一个结果是什么？"],
            en=["What was the result of the last calculation in the calculator?",
                "Check the calculator history: what did the newest entry come to?",
                "What was the last result I got on the calculator?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(value(diff.value_before(HISTORY)[0]["result"]))

    def wrong_answer(self, params: Params) -> str:
        return result_of(params["older"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_NAME)
        yield ui.tap("open_history")
        results = [n for n in ui.find_all() if ":id/result_" in n.resource_id]
        if not results:
            raise OracleError("the history is empty")
        yield Answer(text=results[0].text.removeprefix("= "))


class Convert(CalculatorTemplate):
    id = "calculator.convert"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        content = world.content(CALCULATOR)
        category = rng.choice(("currency", "currency", "length", "weight"))
        units = units_of(content, category)
        while True:
            src, dst = rng.sample(list(units), 2)
            amount = str(rng.choice((rng.randrange(2, 100), rng.randrange(100, 2000))))
            result = convert(amount, src["size"], dst["size"])
            if 1 < result < 10000 and result != result.to_integral_value():
                break
        return {"category": category, "from": src["code"], "to": dst["code"], "amount": amount,
                "from_zh": src["name"], "to_zh": dst["name"], "result": format_number(result),
                "back": format_number(convert(amount, dst["size"], src["size"]))}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, src, dst = params["amount"], params["from_zh"], params["to_zh"]
        src_en, dst_en = UNIT_EN[params["from"]], UNIT_EN[params["to"]]
        return phrased(
            zh=[f"用计算器的换算功能算一下，{n} {src}等于多少{dst}？",
                f"{n} {src}换算成{dst}是多少？", f"帮我把 {n} {src}换成{dst}，告诉我结果"],
            en=[f"Use the calculator's converter: how many {dst_en} is {n} {src_en}?",
                f"What is {n} {src_en} in {dst_en}?",
                f"Convert {n} {src_en} to {dst_en} for me and tell me the result"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(value(params["result"]))

    def wrong_answer(self, params: Params) -> str:
        return params["back"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_NAME)
        yield ui.tap("tab_convert")
        if params["category"] != "currency":
            yield ui.tap(f"cat_{params['category']}")
        for side in ("from", "to"):
            chip = f"{side}_{params[side]}"
            node = ui.find(chip)
            if node is None or not node.selected:
                yield ui.tap(chip)
        yield from ui.type_into("amount", params["amount"])
        shown = ui.text_of("convert_result")
        yield Answer(text=shown.partition("=")[2].strip())


def _amounts(rng: random.Random, k: int) -> list[str]:
    """Prices of things: whole yuan or with jiao."""
    return [str(rng.randrange(8, 200)) if rng.random() < 0.5
            else f"{rng.randrange(8, 200)}.{rng.randrange(1, 10)}" for _ in range(k)]  # fmt: skip


def _total(amounts: list[str]) -> str:
    return format_number(sum((Decimal(a) for a in amounts), Decimal(0)))


class NoteTotal(WritesValue):
    id = "calculator.note_total"
    category = Category.CROSS_APP
    apps = (CALCULATOR, NOTES)
    difficulty = 30
    ignorable = (HISTORY,)  # working it out in the calculator is the way, not an effect
    written = f"apps/{NOTES}/notes[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        source, title = rng.choice(EXPENSE_TITLES)
        items = rng.sample(EXPENSE_ITEMS, rng.randrange(3, 5))
        amounts = _amounts(rng, len(items))
        return {"source": source, "title": title, "items": items, "amounts": amounts,
                "total": _total(amounts)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        body = "\n".join(f"{item} {amount}元" for item, amount in
                         zip(params["items"], params["amounts"], strict=True))  # fmt: skip
        it.app_data(NOTES)["notes"].insert(
            0, {"id": "note-expenses", "title": params["source"], "body": body, "pinned": False}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        source, title = params["source"], params["title"]
        return phrased(
            zh=[f"把备忘录“{source}”里的金额加起来，新建一条标题为“{title}”的备忘录写下合计",
                f"帮我算一下备忘录“{source}”里一共花了多少钱，记到新备忘录“{title}”里",
                f"用计算器把“{source}”这条备忘录里的各项金额相加，结果写进新备忘录“{title}”"],
            en=[f"Add up the amounts in the note '{source}' and write the total in a new note "
                f"titled '{title}'",
                f"Work out how much was spent in total in the note '{source}' and put it in a "
                f"new note '{title}'",
                f"Use the calculator to sum the amounts listed in the note '{source}', then save "
                f"the total in a new note '{title}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(value(params["total"]))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["source"])
        yield ui.tap(text=params["source"])
        body = ui.text_of(f"{NOTES}:id/note_body")
        amounts = [line.rpartition(" ")[2].removesuffix("元") for line in body.splitlines()]
        yield ui.back()
        yield from calculate(ui, "+".join(amounts))
        yield ui.tap("copy_result")
        yield from paste_into_new_note(ui, params["title"])


class SplitBill(WritesValue):
    id = "calculator.split_bill"
    category = Category.CROSS_APP
    apps = (CALCULATOR, MESSAGES)
    difficulty = 16
    ignorable = (HISTORY,)
    written = f"apps/{MESSAGES}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        person = rng.choice(list(address_book(world)))
        while True:
            people = rng.randrange(2, 7)
            total = rng.randrange(150, 1200)
            if (total * 100) % people == 0 and total % people:
                break
        share = format_number(Decimal(total) / people)
        return {"name": person["name"], "phone": person["phone"], "total": total,
                "people": people, "share": share}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, total, people = params["name"], params["total"], params["people"]
        return phrased(
            zh=[f"这顿饭一共 {total} 元，{people} 个人平摊。用计算器算出每人多少钱，"
                f"并发短信告诉{name}",
                f"帮我算一下 {total} 元 {people} 个人 AA 每人付多少，然后短信发给{name}",
                f"短信告诉{name}每人应付多少：总共 {total} 元，{people} 人平分"],
            en=[f"Dinner came to {total} yuan, split evenly among {people} people. Work out each "
                f"person's share on the calculator and text it to {name}",
                f"Figure out how much each of {people} people pays when splitting {total} yuan, "
                f"then send it to {name} by SMS",
                f"Text {name} how much each person owes: {total} yuan in total, split {people} "
                "ways"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        sent = sent_messages(diff)
        if len(sent) != 1:
            return [f"expected one SMS to {params['phone']}, found {len(sent)}"]
        address, text = sent[0]
        problems = [] if address == params["phone"] else [f"the SMS went to {address}"]
        return problems + self.writing_problems(diff, params, text, what="the SMS")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(value(params["share"]))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from calculate(ui, f"{params['total']}÷{params['people']}")
        share = shown_result(ui)
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["name"])
        yield from ui.type_into("body", f"每人 {share} 元")
        yield ui.tap("send")


class BudgetCheck(TaskTemplate):
    id = "calculator.budget_check"
    category = Category.CROSS_APP
    apps = (CALCULATOR, MESSAGES, NOTES)
    difficulty = 20
    ignorable = (HISTORY,)

    def sample(self, world: World, rng: random.Random) -> Params:
        person = rng.choice(list(address_book(world)))
        items = rng.sample(sorted(SHOPPING_ITEMS), 3)
        amounts = _amounts(rng, 3)
        total = Decimal(_total(amounts))
        over = rng.random() < 0.5 and total >= 100
        step = 50 if total < 300 else 100
        budget = int(total // step) * step if over else (int(total // step) + 1) * step
        if over and budget == total:
            budget -= step
        return {"name": person["name"], "phone": person["phone"], "items": items,
                "amounts": amounts, "total": format_number(total), "budget": budget,
                "over": total > budget}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        (a, b, c), (x, y, z) = params["items"], params["amounts"]
        a_en, b_en, c_en = (SHOPPING_ITEMS[item] for item in params["items"])
        name, budget = params["name"], params["budget"]
        zh_title = en_title = NOTE_TITLE
        return phrased(
            zh=[f"{a} {x} 元、{b} {y} 元、{c} {z} 元，用计算器算出总价。如果超过预算 {budget} 元，"
                f"就发短信把总价告诉{name}；否则新建一条标题为“{zh_title}”的备忘录写下总价",
                f"帮我算算{a}（{x} 元）、{b}（{y} 元）和{c}（{z} 元）一共多少钱：超过 {budget} 元"
                f"的话短信告诉{name}总价，没超过就把总价记在新备忘录“{zh_title}”里",
                f"预算 {budget} 元。{a} {x} 元，{b} {y} 元，{c} {z} 元——总价超预算就短信发给"
                f"{name}，不超就写进新建的备忘录“{zh_title}”"],
            en=[f"The {a_en} is {x} yuan, the {b_en} {y} yuan and the {c_en} {z} yuan; add "
                f"them up on the calculator. If the total is over the budget of {budget} yuan, "
                f"text the total to {name}; otherwise write it in a new note titled '{en_title}'",
                f"How much do the {a_en} ({x} yuan), the {b_en} ({y} yuan) and the {c_en} "
                f"({z} yuan) cost together? Over {budget} yuan: text {name} the total; not over: "
                f"note the total in a new note '{en_title}'",
                f"My budget is {budget} yuan: the {a_en} costs {x} yuan, the {b_en} {y} yuan, "
                f"the {c_en} {z} yuan. If the total goes over, send it to {name} by SMS, else put "
                f"it in a new note '{en_title}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        total = Money(value(params["total"]))
        context = self.question_texts(params)
        sent = sent_messages(diff)
        notes = diff.added(f"apps/{NOTES}/notes")
        if params["over"]:
            if notes or len(sent) != 1:
                return [f"expected one SMS and no note, found {len(sent)} SMS and {len(notes)} "
                        "notes"]  # fmt: skip
            address, text = sent[0]
            problems = [] if address == params["phone"] else [f"the SMS went to {address}"]
            return problems + check_written(text, total, what="the SMS", context=context)
        if sent or len(notes) != 1:
            return [f"expected one note and no SMS, found {len(notes)} notes and {len(sent)} SMS"]
        note = notes[0]
        problems = [] if note["title"].strip() == NOTE_TITLE else [f"the note is {note['title']!r}"]
        return problems + check_written(note["body"], total, what="the note", context=context)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from calculate(ui, "+".join(params["amounts"]))
        total = shown_result(ui)
        if value(total) > params["budget"]:
            yield ui.open("信息")
            yield ui.tap("compose")
            yield from ui.type_into("to", params["name"])
            yield from ui.type_into("body", f"总价 {total} 元，超预算了")
            yield ui.tap("send")
        else:
            yield ui.open("备忘录")
            yield ui.tap("new_note")
            yield from ui.type_into("title", NOTE_TITLE)
            yield from ui.type_into("body", f"总价 {total} 元")
            yield ui.tap("save")


TEMPLATES: tuple[TaskTemplate, ...] = (
    Compute(),
    FreshStart(),
    DeleteEntry(),
    LastResult(),
    Convert(),
    NoteTotal(),
    SplitBill(),
    BudgetCheck(),
)
