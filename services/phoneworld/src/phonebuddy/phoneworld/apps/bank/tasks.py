"""Task templates of the Bank app (银行): transfers confirmed with the SMS code read in 信息 (to a
saved payee, to a card number a friend texted or kept in a note), payees, the credit card's bill,
and questions that need the transaction list scrolled and summed."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.bank.content import (
    BANK,
    CATEGORIES,
    MERCHANTS,
    SAVED_PAYEES,
    month_of,
)
from phonebuddy.phoneworld.apps.bank.steps import (
    BILL,
    PAYEES,
    RECORDS,
    TRANSFER_NOTES,
    Seen,
    add_records,
    an_amount,
    balance_drop,
    content,
    fill,
    history,
    in_month,
    note_problems,
    open_bank,
    payee_params,
    records_before,
    seeded_records,
    total,
    transfer_problems,
    transfer_to_saved,
    yuan_text,
)
from phonebuddy.phoneworld.apps.bank.transfers import (
    AddPayeeFromSms,
    PayTwoAndAdd,
    TransferFromNote,
    TransferFromSms,
)
from phonebuddy.phoneworld.apps.contacts.app import MESSAGES
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Text, Together, numbers_in
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.expect import NOTES_LIST, WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.ui.format import local_time
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

NOTES = "com.pw.notes"
MONTH_EN = {1: "January", 2: "February", 3: "March"}
ALL_MERCHANTS = tuple(m for names in MERCHANTS.values() for m in names)


def money_text(cents: float) -> str:
    return f"{cents / 100:.2f}元"


class TransferToPayee(TaskTemplate):
    """Bank → Messages → Bank: a transfer to a saved payee, confirmed with the SMS code."""

    id = "bank.transfer_payee"
    category = Category.CROSS_APP
    apps = (BANK, MESSAGES)
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**payee_params(world, rng.randrange(SAVED_PAYEES)), "cents": an_amount(rng),
                "note": rng.choice(TRANSFER_NOTES)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, amount, note = params["name"], yuan_text(params["cents"]), params["note"]
        return phrased(
            zh=[f"用银行App给收款人“{name}”转账{amount}元，附言写“{note}”",
                f"给“{name}”转{amount}元，就用银行里保存的收款人，附言“{note}”",
                f"帮我在银行里向“{name}”转{amount}元，附言填“{note}”，验证码在短信里"],
            en=[f"Use the Bank app to transfer {amount} yuan to the payee '{name}' with the note "
                f"'{note}'",
                f"Send {amount} yuan to '{name}', the saved payee in Bank, noting '{note}'",
                f"In Bank, transfer {amount} yuan to '{name}' with the note '{note}'; the "
                "verification code comes by SMS"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = transfer_problems(diff, [(params["name"], params["card"], params["cents"])])
        return problems or note_problems(diff, params["note"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_bank(ui)
        yield from transfer_to_saved(ui, params["name"], yuan_text(params["cents"]),
                                     params["note"])  # fmt: skip


class _MonthQuestion(TaskTemplate):
    category = Category.SINGLE_APP
    apps = (BANK,)
    answers = True

    def open_month(self, ui: OracleUI, month: int, tab: str = "all") -> Iterator[Action]:
        yield from open_bank(ui)
        yield ui.tap("transactions")
        if tab != "all":
            yield ui.tap(f"tab_{tab}")
        yield ui.tap(f"month_{month}")


class _WithRecords(_MonthQuestion):
    """A month question whose task starts with a few of its own expenses among the history
    (params' `records`, from `seeded_records`)."""

    def setup(self, it: Interaction, params: Params) -> None:
        add_records(it, params["records"])

    @staticmethod
    def month_total(diff: StateDiff, params: Params, month: int, kind: str = "expense") -> int:
        """The month's total of `kind` at the start: the history's (params' `totals`) and the
        phone's records."""
        return params["totals"][kind][str(month)] + total(records_before(diff, month, kind))


def history_totals(world: World) -> dict[str, dict[str, int]]:
    """The history's own totals by kind and month."""
    return {kind: {str(m): total(in_month(world, m, kind)) for m in (1, 2)}
            for kind in ("expense", "income")}  # fmt: skip


def with_records(totals: dict[str, dict[str, int]], records: list[Any], month: int,
                 kind: str = "expense") -> int:  # fmt: skip
    """A month's total with the task's own records (what `month_total` reads from state)."""
    own = [r for r in records if month_of(r["time"]) == month and r["kind"] == kind]
    return totals[kind][str(month)] + total(own)


class CategorySpend(_MonthQuestion):
    """Aggregation: the sum of one category's expenses in a month (scroll and add up)."""

    id = "bank.category_spend"
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        month = rng.choice((1, 2))
        rows = in_month(world, month)
        categories = [c for c in CATEGORIES if sum(t["category"] == c for t in rows) >= 2]
        category = rng.choice(categories)
        mine = [t for t in rows if t["category"] == category]
        return {"month": month, "category": category, "cents": total(mine),
                "smallest": min(t["amount_cents"] for t in mine)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        m, c = params["month"], params["category"]
        en = MONTH_EN[m]
        return phrased(
            zh=[f"我{m}月在“{c}”上一共花了多少钱？", f"算一下银行卡{m}月份“{c}”类的支出总额",
                f"查查{m}月我“{c}”方面总共消费了多少"],
            en=[f"How much did I spend on '{c}' in {en} in total?",
                f"Add up my '{c}' expenses in {en} from the Bank app",
                f"What was my total '{c}' spending in {en}?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["cents"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return money_text(params["cents"] - params["smallest"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self.open_month(ui, params["month"], "out")
        yield from ui.type_into("search", params["category"])
        seen = Seen()
        yield from seen.scan(ui)
        cents = sum(round(v * 100) for _, sub, v in seen.rows.values()
                    if sub.startswith(params["category"] + "｜"))  # fmt: skip
        yield Answer(text=money_text(cents))


class LargestExpense(_WithRecords):
    """Aggregation: a month's largest single expense in a category, its merchant and its
    amount (the month's list searched by the category, scrolled)."""

    id = "bank.largest_expense"
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        month, category = rng.choice((1, 2, 3)), rng.choice(CATEGORIES)
        history = [t for t in in_month(world, month) if t["category"] == category]
        own = max(1, 2 - len(history)) + rng.randrange(2)  # at least two expenses in all
        records = seeded_records(rng, (1, 2, 3), 2, also=((month, category),) * own)
        rows = in_month(world, month) + [r for r in records if month_of(r["time"]) == month]
        mine = sorted((t for t in rows if t["category"] == category),
                      key=lambda t: -t["amount_cents"])  # fmt: skip
        top = mine[0]
        second = next((t for t in mine if t["merchant"] != top["merchant"]), mine[1])
        return {"month": month, "category": category, "records": records,
                "history": [[t["merchant"], t["amount_cents"]] for t in history],
                "merchant": top["merchant"], "cents": top["amount_cents"],
                "second": second["merchant"], "second_cents": second["amount_cents"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        m, c, en = params["month"], params["category"], MONTH_EN[params["month"]]
        return phrased(
            zh=[f"{m}月我在“{c}”上单笔金额最大的那笔支出是在哪家商户花的？花了多少钱？",
                f"找出{m}月份“{c}”类里金额最大的一笔支出，告诉我商户和金额",
                f"我{m}月“{c}”方面最大的一笔消费付给了谁，付了多少？"],
            en=[f"At which merchant did I make my single biggest '{c}' expense in {en}, and how "
                "much was it?",
                f"Find the largest '{c}' expense in {en} and tell me its merchant and amount",
                f"Who got my biggest single '{c}' payment in {en}, and how much did I pay?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        own = [[r["merchant"], r["amount_cents"]]
               for r in records_before(diff, params["month"])
               if r["category"] == params["category"]]  # fmt: skip
        merchant, cents = max([*params["history"], *own], key=lambda row: row[1])
        others = [m for m in ALL_MERCHANTS if m != merchant]
        return Together(Money(cents / 100), Text([merchant], others=others, what="merchant"))

    def wrong_answer(self, params: Params) -> str:
        return f"{params['second']}，{params['second_cents'] / 100:.2f}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self.open_month(ui, params["month"], "out")
        yield from ui.type_into("search", params["category"])
        seen = Seen()
        yield from seen.scan(ui)
        rows = [row for row in seen.rows.values() if row[1].startswith(params["category"] + "｜")]
        if not rows:
            raise OracleError(f"no {params['category']} expense in month {params['month']}")
        merchant, _, amount = max(rows, key=lambda row: row[2])
        yield Answer(text=f"{merchant}，{amount:.2f}元")


class SpendChange(_WithRecords):
    """Comparison: how far one month's spending is from the other's."""

    id = "bank.spend_change"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        totals, records = history_totals(world), seeded_records(rng)
        return {"totals": totals, "records": records, "first": rng.choice((1, 2)),
                "february": with_records(totals, records, 2)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = (1, 2) if params["first"] == 1 else (2, 1)
        en_a, en_b = MONTH_EN[a], MONTH_EN[b]
        return phrased(
            zh=[f"我{a}月和{b}月的总支出相差多少钱？",
                f"比较一下{a}月、{b}月两个月的支出，差额是多少",
                f"{a}月跟{b}月比，花的钱差了多少？"],
            en=[f"How far apart are my total expenses of {en_a} and {en_b}?",
                f"Compare my spending in {en_a} and {en_b}: what is the difference?",
                f"By how much does my {en_a} spending differ from my {en_b} spending?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        january, february = (self.month_total(diff, params, m) for m in (1, 2))
        return Money(abs(february - january) / 100)

    def wrong_answer(self, params: Params) -> str:
        return money_text(params["february"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self.open_month(ui, 1)
        january = numbers_in(ui.text_of("month_summary").replace(",", ""))[1]
        yield ui.tap("month_2")
        february = numbers_in(ui.text_of("month_summary").replace(",", ""))[1]
        yield Answer(text=money_text(abs(round(february * 100) - round(january * 100))))


class MonthNet(_WithRecords):
    """Income against spending: what a month left over (income minus expenses)."""

    id = "bank.month_net"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        totals, records = history_totals(world), seeded_records(rng)
        nets = {m: with_records(totals, records, m, "income") - with_records(totals, records, m)
                for m in (1, 2)}  # fmt: skip
        month = rng.choice([m for m, net in nets.items() if net > 0] or [1, 2])
        return {"month": month, "totals": totals, "records": records,
                "income": with_records(totals, records, month, "income")}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        m, en = params["month"], MONTH_EN[params["month"]]
        return phrased(
            zh=[f"{m}月我的收入比支出多多少钱？", f"算算{m}月份收入减去支出还剩多少",
                f"我{m}月的结余（总收入减总支出）是多少？"],
            en=[f"How much more did I earn than spend in {en}?",
                f"Work out my income minus my spending for {en}",
                f"What was left over in {en} (total income minus total spending)?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        month = params["month"]
        income = self.month_total(diff, params, month, "income")
        return Money((income - self.month_total(diff, params, month)) / 100)

    def wrong_answer(self, params: Params) -> str:
        return money_text(params["income"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self.open_month(ui, params["month"])
        spent, income = numbers_in(ui.text_of("month_summary").replace(",", ""))[1:3]
        yield Answer(text=money_text(round(income * 100) - round(spent * 100)))


class FindTransaction(_MonthQuestion):
    """Search: what one purchase at a merchant on a day cost."""

    id = "bank.find_transaction"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        def key(t: Any) -> tuple[str, int, int]:
            moment = local_time(t["time"])
            return t["merchant"], moment.month, moment.day

        rows = [t for t in history(world) if t["kind"] == "expense"]
        unique = [t for t in rows if sum(key(t) == key(u) for u in rows) == 1]
        t = rng.choice(unique)
        _, month, day = key(t)
        same = [u["amount_cents"] for u in rows if u["merchant"] == t["merchant"] and u is not t]
        wrong = same[0] if same else t["amount_cents"] + 1000
        return {"merchant": t["merchant"], "month": month, "day": day,
                "cents": t["amount_cents"], "wrong": wrong}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        merchant, m, d = params["merchant"], params["month"], params["day"]
        en = ("January", "February", "March")[m - 1]
        return phrased(
            zh=[f"我{m}月{d}日在“{merchant}”那笔消费花了多少钱？",
                f"查一下{m}月{d}日“{merchant}”的交易金额",
                f"银行明细里{m}月{d}日付给“{merchant}”的钱是多少？"],
            en=[f"How much did I pay at '{merchant}' on {en} {d}?",
                f"Look up the amount of my '{merchant}' transaction on {en} {d}",
                f"In my bank transactions, what did I spend at '{merchant}' on {en} {d}?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["cents"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return money_text(params["wrong"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_bank(ui)
        yield ui.tap("transactions")
        yield from ui.type_into("search", params["merchant"])
        seen = Seen()
        yield from seen.scan(ui)
        day = f"｜{params['month']}月{params['day']}日 "
        [value] = [v for m, sub, v in seen.rows.values() if m == params["merchant"] and day in sub]
        yield Answer(text=f"{value:.2f}元")


class Balance(_MonthQuestion):
    """The debit card's balance, hidden behind the eye toggle."""

    id = "bank.balance"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        cents = rng.randrange(500, 80000) * 100 + rng.choice((0, 0, rng.randrange(1, 100)))
        return {"cents": cents, "hint": rng.choice(("一卡通", "储蓄卡"))}

    def setup(self, it: Interaction, params: Params) -> None:
        it.data["balance_cents"] = params["cents"]  # this task's balance

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        card = params["hint"]
        return phrased(
            zh=[f"我{card}里还有多少钱？", f"查一下银行App里{card}的可用余额",
                f"看看我的{card}余额是多少"],
            en=[f"How much money is left on my debit card ({card})?",
                f"Check the available balance of my {card} debit card in Bank",
                f"What's the balance of my debit card ({card})?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(diff.before["apps"][BANK]["balance_cents"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return money_text(params["cents"] + 10000)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_bank(ui)
        yield ui.tap("toggle_balance")
        yield Answer(text=ui.text_of("balance"))


class RepayBill(TaskTemplate):
    """Conditional: repay the credit card's bill in full if it is over a threshold, else the
    minimum."""

    id = "bank.repay_conditional"
    category = Category.SINGLE_APP
    apps = (BANK,)
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        bill = content(world)["bill_cents"]
        factor = rng.choice((0.5, 0.8, 1.25, 1.6))
        return {"threshold": max(100, round(bill * factor / 100, -2))}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        x = int(params["threshold"])
        return phrased(
            zh=[f"看看信用卡本期账单：超过{x}元就全额还款，否则只还最低还款额",
                f"如果信用卡账单金额大于{x}元，帮我全部还清；不超过的话还最低还款",
                f"信用卡账单要是高于{x}元就全额还，不然就先还最低额度"],
            en=[f"Check the credit card bill: if it is over {x} yuan, repay it in full; "
                "otherwise repay only the minimum",
                f"If my credit card bill is more than {x} yuan, pay it all off; if not, pay "
                "the minimum",
                f"Repay the whole credit card bill if it exceeds {x} yuan, else just the "
                "minimum payment"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        bill = diff.value_before(BILL)
        full = bill["bill_cents"] > params["threshold"] * 100
        cents = (bill["bill_cents"] if full else bill["min_cents"]) - bill["repaid_cents"]
        problems = expect_changes(
            diff, BILL, {f"{BILL}/repaid_cents": bill["repaid_cents"] + cents}
        )
        record, more = one_added(diff, RECORDS, "repayment")
        problems += more
        if record is not None and (record["category"], record["amount_cents"]) != (
            "信用卡还款",
            cents,
        ):
            problems.append(f"the debit was {record['category']} {record['amount_cents']}")
        drop = balance_drop(diff)
        if drop != cents:
            problems.append(f"the balance went down by {drop} cents, expected {cents}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_bank(ui)
        yield ui.tap("credit")
        bill = numbers_in(ui.text_of("bill_amount").replace(",", ""))[0]
        yield ui.tap("repay_full" if bill > params["threshold"] else "repay_min")
        yield ui.tap("repay_ok")


class SpendToNote(WritesValue):
    """Bank → Notes: a month's spending total written into a new note."""

    id = "bank.spend_to_note"
    category = Category.CROSS_APP
    apps = (BANK, NOTES)
    difficulty = 10
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        month = rng.choice((1, 2))
        return {"month": month, "cents": total(in_month(world, month)),
                "title": f"{month}月支出"}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        m, title, en = params["month"], params["title"], MONTH_EN[params["month"]]
        return phrased(
            zh=[f"把我{m}月的总支出记到备忘录里，标题写“{title}”",
                f"查一下银行{m}月份一共支出了多少，新建备忘录“{title}”记下来",
                f"新建一条标题为“{title}”的备忘录，内容是{m}月的支出总额"],
            en=[f"Write my total spending for {en} into a new note titled '{title}'",
                f"Check how much I spent in {en} in Bank and save it in a note called '{title}'",
                f"Create a note '{title}' with the total of my {en} expenses"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["cents"] / 100)

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_bank(ui)
        yield ui.tap("transactions")
        yield ui.tap(f"month_{params['month']}")
        spent = numbers_in(ui.text_of("month_summary").replace(",", ""))[1]
        yield ui.open("备忘录")
        yield ui.tap("new_note")
        yield from fill(ui, title=params["title"], body=f"¥{spent:.2f}")
        yield ui.tap("save")


class DeletePayee(TaskTemplate):
    id = "bank.delete_payee"
    category = Category.SINGLE_APP
    apps = (BANK,)
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return payee_params(world, rng.randrange(SAVED_PAYEES))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"在银行App里删除收款人“{name}”", f"把“{name}”从我的收款人列表里删掉",
                f"以后不给“{name}”转账了，删除这个收款人"],
            en=[f"Delete the payee '{name}' in the Bank app",
                f"Remove '{name}' from my saved payees",
                f"I won't send money to '{name}' anymore: delete that payee"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [p["id"] for p in diff.removed(PAYEES)]
        if removed != [params["payee_id"]]:
            return [f"deleted {removed}, expected only {params['payee_id']}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_bank(ui)
        yield ui.tap("payees")
        yield from ui.scroll_to(text=params["name"])
        yield ui.tap(text=params["name"])
        yield ui.tap("delete_payee")
        yield ui.tap("confirm_delete")


TEMPLATES: tuple[TaskTemplate, ...] = (
    TransferToPayee(),
    TransferFromSms(),
    TransferFromNote(),
    AddPayeeFromSms(),
    PayTwoAndAdd(),
    SpendToNote(),
    CategorySpend(),
    LargestExpense(),
    SpendChange(),
    MonthNet(),
    FindTransaction(),
    Balance(),
    RepayBill(),
    DeletePayee(),
)
