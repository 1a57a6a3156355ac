"""Task templates of 生活缴费 (category mini_program): pay a bill, prepay a custom amount, a
conditional payment, sums of bills and of the payment history, a household number carried in
from an SMS and one sent to a WeChat friend."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messages.tasks import add_incoming, address_book, open_thread
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import find
from phonebuddy.phoneworld.apps.messenger.miniprograms.utilities import KINDS
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSAGES,
    MESSENGER,
    PAY_CONFIRM,
    MessengerTemplate,
    content,
    mini,
    open_mini,
    open_private_chat,
)
from phonebuddy.phoneworld.apps.messenger.timeline import DAY
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, digit_code
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import friend_with_chat, sent_to_friend
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

WALLET = "com.pw.wallet"
SMS = "com.pw.messages"
PAYING = (MESSENGER, WALLET)
PAYMENTS = mini("utilities", "payments")
KIND_EN = {"electric": "electricity", "water": "water", "gas": "gas"}
LABEL_EN = {"我家": "my home", "父母家": "my parents' home", "出租屋": "the rented flat"}


def _utilities(world: World) -> Any:
    return content(world)["mini"]["utilities"]


def _account_params(world: World, account: Any) -> Params:
    household = find(_utilities(world)["households"], account["household"])
    return {
        "household": str(household["id"]),
        "number": str(household["number"]),
        "kind": str(household["kind"]),
        "kind_name": KINDS[household["kind"]][0],
        "kind_en": KIND_EN[household["kind"]],
        "label": str(account["label"]),
        "label_en": LABEL_EN[account["label"]],
        "bill_cents": int(household["bill_cents"]),
    }


def _account(world: World, rng: random.Random) -> Params:
    return _account_params(world, rng.choice(list(_utilities(world)["seed"]["accounts"])))


def check_payment(diff: StateDiff, params: Params, amount: int, mode: str) -> list[str]:
    """One new payment of the household, of `amount` cents and this mode, paid in the wallet."""
    payment, problems = one_added(diff, PAYMENTS, "utility payment")
    if payment is None:
        return problems
    if payment["household"] != params["household"]:
        problems.append(f"paid household {payment['household']}, expected {params['household']}")
    if payment["mode"] != mode:
        problems.append(f"paid as {payment['mode']}, expected {mode}")
    if payment["status"] != "paid":
        return [*problems, f"the payment is {payment['status']}, not paid"]
    if payment["amount_cents"] != amount:
        problems.append(f"paid {payment['amount_cents']} cents, expected {amount}")
    return problems + wallet_payment_problems(
        diff, amount_cents=amount, reference=f"utilities:{payment['id']}"
    )


def open_account(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from open_mini(ui, "utilities")
    if params["kind"] != "electric":
        yield ui.tap(f"tab_{params['kind']}")
    yield from ui.scroll_to(f"account_{params['number']}")
    yield ui.tap(f"account_{params['number']}")


def prepay(ui: OracleUI, amount_cents: int) -> Iterator[Action]:
    yield from ui.scroll_to("amount")
    yield from ui.type_into("amount", f"{amount_cents / 100:.2f}")
    yield from ui.scroll_to("pay_custom")
    yield ui.tap("pay_custom")
    yield ui.tap(PAY_CONFIRM)


class UtilitiesPayBill(MessengerTemplate):
    id = "messenger.mini_utilities.pay_bill"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        return _account(world, rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        kind, number, label, en = p["kind_name"], p["number"], p["label"], p["kind_en"]
        return phrased(
            zh=[f"用微信「生活缴费」小程序把{label}户号{number}的{kind}账单交了",
                f"在微信「生活缴费」里缴纳户号{number}（{label}）本期的{kind}，全额支付",
                f"帮我交一下{label}的{kind}，户号{number}，用微信「生活缴费」小程序付清"],
            en=[f"Pay the {en} bill of household {number} ({p['label_en']}) in the 生活缴费 "
                "mini-program in WeChat",
                f"In WeChat's 生活缴费, pay the current {en} bill for household number {number} "
                "in full",
                f"Settle the {en} bill of {p['label_en']}, household {number}, with the 生活缴费 "
                "mini-program in WeChat"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_payment(diff, params, params["bill_cents"], "bill")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_account(ui, params)
        yield ui.tap("pay_bill")
        yield ui.tap(PAY_CONFIRM)


class UtilitiesPrepay(MessengerTemplate):
    id = "messenger.mini_utilities.prepay"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        amount = rng.randrange(20, 400) * 100 + rng.choice((0, 0, 50, 80))
        return {**_account(world, rng), "amount_cents": amount}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        kind, number, amount, en = (
            p["kind_name"],
            p["number"],
            yuan(p["amount_cents"]),
            p["kind_en"],
        )
        return phrased(
            zh=[f"用微信「生活缴费」小程序给户号{number}预存{kind}{amount}（自定义金额）",
                f"在微信「生活缴费」里给{kind}户号{number}充{amount}，用自定义金额缴费",
                f"帮我往{kind}户号{number}里预存{amount}，用微信「生活缴费」小程序的自定义金额"],
            en=[f"Prepay {amount} (a custom amount) of {en} for household {number} in the 生活缴费 "
                "mini-program in WeChat",
                f"In WeChat's 生活缴费, top up the {en} account {number} with a custom amount of "
                f"{amount}",
                f"Put {amount} into the {en} account of household {number}, using the custom "
                "amount in WeChat's 生活缴费 mini-program"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_payment(diff, params, params["amount_cents"], "custom")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_account(ui, params)
        yield from prepay(ui, params["amount_cents"])


class UtilitiesGasConditional(MessengerTemplate):
    """Conditional: pay the gas bill in full when it is over a threshold, else prepay."""

    id = "messenger.mini_utilities.gas_conditional"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 13

    def sample(self, world: World, rng: random.Random) -> Params:
        account = next(a for a in _utilities(world)["seed"]["accounts"] if a["kind"] == "gas")
        params = _account_params(world, account)
        bill_yuan = params["bill_cents"] // 100
        threshold = bill_yuan + rng.choice((-1, 1)) * rng.randrange(3, 20)
        return {**params, "threshold": max(5, threshold), "prepay_cents": 10000}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, number = params["threshold"], params["number"]
        return phrased(
            zh=[f"看看微信「生活缴费」里燃气费户号{number}的账单：超过{t}元就全额缴清，否则只预存¥100.00",
                f"用微信「生活缴费」查燃气户号{number}本期账单，如果高于{t}元就把账单付了，不然就自定义预存"
                "¥100.00",
                f"燃气费（户号{number}）账单要是超过{t}元，用微信「生活缴费」全额缴纳；没超过的话预存"
                "¥100.00就行"],
            en=[f"Check the gas bill of household {number} in WeChat's 生活缴费: if it is over "
                f"{t} yuan pay it in full, otherwise just prepay ¥100.00",
                f"In the 生活缴费 mini-program in WeChat, look at gas household {number}: above "
                f"{t} yuan, pay the bill; if not, prepay a custom ¥100.00",
                f"If the gas bill (household {number}) is more than {t} yuan, pay all of it in "
                "WeChat's 生活缴费; otherwise prepay ¥100.00"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["bill_cents"] > params["threshold"] * 100:
            return check_payment(diff, params, params["bill_cents"], "bill")
        return check_payment(diff, params, params["prepay_cents"], "custom")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_account(ui, params)
        owed = ui.text_of("bill_amount").removeprefix("¥")
        if float(owed) > params["threshold"]:
            yield ui.tap("pay_bill")
            yield ui.tap(PAY_CONFIRM)
        else:
            yield from prepay(ui, params["prepay_cents"])


class UtilitiesTwoBills(MessengerTemplate):
    """QA with aggregation: what is still owed on two bills of home, added up (this task's
    own part of each already paid earlier in the period)."""

    id = "messenger.mini_utilities.two_bills"
    category = Category.MINI_PROGRAM
    difficulty = 14
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        accounts = _utilities(world)["seed"]["accounts"]
        kinds = rng.choice((("electric", "water"), ("electric", "gas"), ("water", "gas")))
        chosen = [
            _account_params(world, next(a for a in accounts if a["kind"] == k)) for k in kinds
        ]
        prepaid = []
        for i, account in enumerate(chosen):
            amount = 100 * rng.randrange(1, max(2, account["bill_cents"] // 100))
            prepaid.append({"id": f"up-pre-{i + 1}", "household": account["household"],
                            "kind": account["kind"], "amount_cents": amount, "status": "paid",
                            "mode": "custom", "days_ago": rng.randint(1, 9)})  # fmt: skip
        owed = [a["bill_cents"] - p["amount_cents"] for a, p in zip(chosen, prepaid, strict=True)]
        return {
            "first": chosen[0],
            "second": chosen[1],
            "prepaid": prepaid,
            "owed_cents": owed,
            "total_cents": sum(owed),
        }

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.for_app(MESSENGER).data["mini"]["utilities"]
        for paid in params["prepaid"]:
            data["payments"].insert(0, {**paid, "time": it.clock - paid["days_ago"] * DAY})

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"], params["second"]
        one, two = a["kind_name"], b["kind_name"]
        return phrased(
            zh=[f"微信「生活缴费」小程序里，我家本期的{one}和{two}加起来还要交多少钱？",
                f"用微信「生活缴费」查一下我家这期{one}账单和{two}账单还应缴的合计金额",
                f"我家这个月{one}加{two}总共还欠多少？去微信「生活缴费」看看两张账单的应缴金额"],
            en=[f"In the 生活缴费 mini-program in WeChat, how much is still due on my home's "
                f"current {a['kind_en']} and {b['kind_en']} bills together?",
                f"Use WeChat's 生活缴费 to find the total still due on my home's "
                f"{a['kind_en']} bill and {b['kind_en']} bill this period",
                f"What do my home's {a['kind_en']} plus {b['kind_en']} bills still come to? "
                "Check the amount due on both in 生活缴费 in WeChat"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        payments = diff.value_before(PAYMENTS)
        owed = 0
        for account in (params["first"], params["second"]):
            paid = sum(p["amount_cents"] for p in payments
                       if p["household"] == account["household"] and p["status"] == "paid"
                       and p["time"] is not None)  # fmt: skip
            owed += max(0, account["bill_cents"] - paid)
        return Money(owed / 100)

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["first"]["bill_cents"] + params["second"]["bill_cents"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "utilities")
        total = 0.0
        for account in (params["first"], params["second"]):
            yield ui.tap(f"tab_{account['kind']}")
            yield ui.tap(f"account_{account['number']}")
            total += float(ui.text_of("bill_amount").removeprefix("¥"))
            yield ui.back()
        yield Answer(text=f"一共¥{total:.2f}")


class UtilitiesHistoryTotal(MessengerTemplate):
    """QA with scrolling and a sum: every electricity payment in the history."""

    id = "messenger.mini_utilities.history_total"
    category = Category.MINI_PROGRAM
    difficulty = 10
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        seed = _utilities(world)["seed"]
        payments, accounts = seed["payments"], seed["accounts"]
        kind = rng.choice(sorted({p["kind"] for p in payments}))
        # this task's own older payments after the usual ones: one or two of the kind asked
        # about, up to four of any
        mine = [a for a in accounts if a["kind"] == kind]
        paid = [rng.choice(mine) for _ in range(rng.randint(1, 2))]
        paid += [rng.choice(accounts) for _ in range(rng.randrange(5))]
        last = max(int(p["days_ago"]) for p in payments)
        older = []
        for i, account in enumerate(paid):
            low, high = KINDS[account["kind"]][3]
            older.append({"id": f"up-{len(payments) + i + 1}", "household": account["household"],
                          "kind": account["kind"], "amount_cents": rng.randrange(low, high),
                          "status": "paid", "mode": "bill", "time": None,
                          "days_ago": last + 9 * (i + 1) + rng.randrange(9)})  # fmt: skip
        every = [*payments, *older]
        return {
            "kind": kind,
            "kind_name": KINDS[kind][0],
            "kind_en": KIND_EN[kind],
            "older": older,
            "count": len(every),
            "total_cents": sum(p["amount_cents"] for p in every if p["kind"] == kind),
        }

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.for_app(MESSENGER).data["mini"]["utilities"]
        data["payments"] += [dict(p) for p in params["older"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        kind, en = params["kind_name"], params["kind_en"]
        return phrased(
            zh=[f"微信「生活缴费」的缴费记录里，{kind}一共缴过多少钱？",
                f"用微信「生活缴费」看看缴费记录，把所有{kind}的缴费金额加起来是多少",
                f"我在微信「生活缴费」里交过的{kind}总共多少钱？查一下缴费记录"],
            en=[f"In the payment history of WeChat's 生活缴费, how much has been paid for {en} "
                "in total?",
                f"Use the 生活缴费 mini-program in WeChat: add up every {en} payment in the "
                "payment history",
                f"How much have I paid for {en} altogether in WeChat's 生活缴费? Check the "
                "payment records"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        paid = [p for p in diff.value_before(PAYMENTS) if p["kind"] == params["kind"]]
        return Money(sum(p["amount_cents"] for p in paid) / 100)

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["total_cents"] + 1000)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "utilities")
        yield from ui.scroll_to("history")
        yield ui.tap("history")
        total = 0.0
        for i in range(1, params["count"] + 1):
            row = f"payment_up-{i}"
            yield from ui.scroll_to(row)
            texts = ui.texts_in(row)
            if any(t.startswith(f"{params['kind_name']} ") for t in texts):
                total += float(next(t for t in texts if t.startswith("¥"))[1:])
        yield Answer(text=f"¥{total:.2f}")


class UtilitiesNumberFromSms(MessengerTemplate):
    """Messages → messenger: a household number a relative texted, bound in 生活缴费."""

    id = "messenger.mini_utilities.number_from_sms"
    category = Category.MINI_PROGRAM
    apps = (SMS, MESSENGER)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        bound = {a["household"] for a in _utilities(world)["seed"]["accounts"]}
        household = rng.choice([h for h in _utilities(world)["households"] if h["id"] not in bound])
        person = rng.choice(address_book(world))
        return {
            "household": str(household["id"]),
            "number": str(household["number"]),
            "kind": str(household["kind"]),
            "kind_name": KINDS[household["kind"]][0],
            "kind_en": KIND_EN[household["kind"]],
            "sender": str(person["name"]),
            "sender_phone": str(person["phone"]),
        }

    def setup(self, it: Interaction, params: Params) -> None:
        kind, number = params["kind_name"], params["number"]
        text = f"新房子的{kind}户号是{number}，你在微信生活缴费里绑定一下，以后帮忙交"
        add_incoming(it, (params["sender_phone"], params["sender"]), text, ago=1800, key="util")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender, kind, en = params["sender"], params["kind_name"], params["kind_en"]
        return phrased(
            zh=[f"{sender}发短信告诉了我一个{kind}户号，把它绑定到微信「生活缴费」小程序里",
                f"把{sender}短信里的{kind}户号添加到微信「生活缴费」",
                f"去短信里找{sender}发来的{kind}户号，在微信「生活缴费」小程序添加这个户号"],
            en=[f"{sender} texted me a {en} household number; bind it in the 生活缴费 "
                "mini-program in WeChat",
                f"Add the {en} household number from {sender}'s SMS to WeChat's 生活缴费",
                f"Find the {en} household number {sender} sent by SMS and add it in the 生活缴费 "
                "mini-program in WeChat"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        account, problems = one_added(diff, mini("utilities", "accounts"), "household")
        if account is not None and (account["household"], account["kind"]) != (
            params["household"], params["kind"]):  # fmt: skip
            problems.append(f"bound {account['kind']} {account['household']}, expected "
                            f"{params['kind']} {params['household']}")  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["sender"])
        said = next((n.text for n in ui.find_all() if "户号是" in n.text), "")
        number = re.search(r"户号是(\d+)", said)
        if number is None:
            raise OracleError(f"no household number from {params['sender']}")
        yield from open_mini(ui, "utilities")
        yield from ui.scroll_to("add_account")
        yield ui.tap("add_account")
        yield ui.tap(f"kind_{params['kind']}")
        yield from ui.type_into("number", number[1])
        yield ui.tap("save_account")


class UtilitiesNumberToFriend(MessengerTemplate, WritesValue):
    """生活缴费 → a WeChat chat: a household number sent to a friend."""

    id = "messenger.mini_utilities.number_to_friend"
    category = Category.MINI_PROGRAM
    difficulty = 20
    written = f"{MESSAGES}[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**_account(world, rng), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        kind, label, friend, en = p["kind_name"], p["label"], p["friend"], p["kind_en"]
        return phrased(
            zh=[f"在微信「生活缴费」里查一下{label}的{kind}户号，用微信发给{friend}",
                f"{friend}要帮我交{label}的{kind}，把「生活缴费」小程序里的户号微信发给他",
                f"把微信「生活缴费」中{label}{kind}的户号告诉{friend}（微信发消息）"],
            en=[f"Look up the {en} household number of {p['label_en']} in WeChat's 生活缴费 and "
                f"send it to {friend} on WeChat",
                f"{friend} will pay {p['label_en']}'s {en} bill for me: send them the household "
                "number from the 生活缴费 mini-program on WeChat",
                f"Tell {friend} on WeChat the {en} household number of {p['label_en']}, as shown "
                "in the 生活缴费 mini-program"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return digit_code(params["number"])

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        texts, problems = sent_to_friend(diff, params)
        if texts:
            problems += self.writing_problems(diff, params, "\n".join(texts), what="the message")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_account(ui, params)
        number = ui.text_of("account_number").removeprefix("户号").strip()
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from ui.type_into("input", f"{params['kind_name']}户号：{number}")
        yield ui.tap("send")


TEMPLATES: tuple[TaskTemplate, ...] = (
    UtilitiesPayBill(),
    UtilitiesPrepay(),
    UtilitiesGasConditional(),
    UtilitiesTwoBills(),
    UtilitiesHistoryTotal(),
    UtilitiesNumberFromSms(),
    UtilitiesNumberToFriend(),
)
