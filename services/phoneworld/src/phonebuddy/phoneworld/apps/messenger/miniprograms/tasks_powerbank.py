"""Task templates of 街电充电宝 (category mini_program): rent a power bank at one station and
return it at another (paying the fee), a station's address copied into Notes, the sum of the
fees in the order history."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.powerbank import DEPOSIT_CENTS, rental_fee
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSENGER,
    NOTES,
    PAY_CONFIRM,
    MessengerTemplate,
    content,
    mini,
    open_mini,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Number, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import copy_text, paste_into_new_note
from phonebuddy.phoneworld.tasks.diff import Is, StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

WALLET = "com.pw.wallet"
PAYING = (MESSENGER, WALLET)
ORDERS = mini("powerbank", "orders")
BANKS = mini("powerbank", "banks")
RENTAL = mini("powerbank", "rental")


def _powerbank(world: World) -> Any:
    return content(world)["mini"]["powerbank"]


def rental_problems(diff: StateDiff, station: str, mode: str) -> list[str]:
    """A rental started (and still running) at `station` in this mode."""

    def started(rental: object) -> bool:
        return isinstance(rental, dict) and (rental["station"], rental["mode"]) == (station, mode)

    return expect_changes(diff, RENTAL, {RENTAL: Is(f"a {mode} rental at {station}", started)})


def open_station(ui: OracleUI, station: str) -> Iterator[Action]:
    yield from ui.scroll_to(f"station_{station}")
    yield ui.tap(f"station_{station}")


class PowerbankRentReturn(MessengerTemplate):
    id = "messenger.mini_powerbank.rent_return"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        stations = list(_powerbank(world)["stations"])
        start = rng.choice([s for s in stations if s["banks"] > 0])
        end = rng.choice([s for s in stations if s is not start and s["banks"] < s["capacity"]])
        return {"start": str(start["id"]), "start_name": str(start["name"]),
                "start_banks": int(start["banks"]), "end": str(end["id"]),
                "end_name": str(end["name"]), "end_banks": int(end["banks"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["start_name"], params["end_name"]
        return phrased(
            zh=[f"用微信「街电充电宝」在“{a}”免押金借一个充电宝，然后还到“{b}”并付清费用",
                f"在微信「街电充电宝」小程序：“{a}”免押租借充电宝，再归还到“{b}”，支付租金",
                f"帮我在“{a}”用微信「街电充电宝」免押借个充电宝，接着在“{b}”归还并付款"],
            en=[f"In WeChat's 街电充电宝, rent a power bank deposit-free at '{a}', then return it "
                f"at '{b}' and pay the fee",
                f"Use the 街电充电宝 mini-program in WeChat: rent deposit-free at '{a}', return at "
                f"'{b}', pay the rental",
                f"Borrow a power bank at '{a}' with WeChat's 街电充电宝 (no deposit), then give it "
                f"back at '{b}' and pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        order, problems = one_added(diff, ORDERS, "rental order")
        if order is None:
            return problems
        got = (order["station"], order["returned_at"], order["mode"])
        if got != (params["start"], params["end"], "free"):
            problems.append(f"rented {got}, expected {params['start']} -> {params['end']} free")
        problems += expect_changes(diff, BANKS, {
            f"{BANKS}/{params['start']}": params["start_banks"] - 1,
            f"{BANKS}/{params['end']}": params["end_banks"] + 1})  # fmt: skip
        if order["status"] != "paid":
            return [*problems, f"the rental is {order['status']}, not paid"]
        return problems + wallet_payment_problems(
            diff, amount_cents=order["fee_cents"], reference=f"powerbank:{order['id']}"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "powerbank")
        yield from open_station(ui, params["start"])
        yield ui.tap("rent_free")
        yield ui.back()
        yield from open_station(ui, params["end"])
        yield ui.tap("return_here")
        yield ui.tap(PAY_CONFIRM)


class PowerbankAddressToNote(WritesValue, MessengerTemplate):
    """街电充电宝 → Notes: a station's address copied into a new note."""

    id = "messenger.mini_powerbank.address_to_note"
    category = Category.MINI_PROGRAM
    apps = (MESSENGER, NOTES)
    difficulty = 18
    written = f"apps/{NOTES}/notes[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        stations = list(_powerbank(world)["stations"])
        station = rng.choice(stations)
        return {"station": str(station["id"]), "name": str(station["name"]),
                "address": str(station["address"]), "title": "充电宝网点",
                "addresses": [str(s["address"]) for s in stations]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, t = params["name"], params["title"]
        return phrased(
            zh=[f"把微信「街电充电宝」里“{n}”网点的地址存到备忘录，标题写“{t}”",
                f"查一下微信「街电充电宝」中“{n}”的地址，新建备忘录记下来，标题“{t}”",
                f"新建一条标题为“{t}”的备忘录，内容是微信「街电充电宝」里“{n}”网点的地址"],
            en=[f"Save the address of the '{n}' station in WeChat's 街电充电宝 to a note titled "
                f"'{t}'",
                f"Look up the address of '{n}' in the 街电充电宝 mini-program in WeChat and note "
                f"it down under the title '{t}'",
                f"Create a note titled '{t}' containing the address of the '{n}' station from "
                "WeChat's 街电充电宝"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Text([params["address"]], others=params["addresses"], what="address")

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "powerbank")
        yield from open_station(ui, params["station"])
        yield from copy_text(ui, "station_address")
        yield from paste_into_new_note(ui, params["title"])


class PowerbankFeesTotal(MessengerTemplate):
    """QA with scrolling and a sum: the fees of every rental in the order history."""

    id = "messenger.mini_powerbank.fees_total"
    category = Category.MINI_PROGRAM
    difficulty = 12
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's own older rentals after the usual ones (1 to 10 of them)
        history, stations = _powerbank(world)["history"], _powerbank(world)["stations"]
        older, last = [], int(history[-1]["days_ago"])
        for i in range(len(history), len(history) + rng.randint(1, 10)):
            minutes = rng.randrange(20, 300)
            older.append({"id": f"pb-{i + 1}", "station": str(rng.choice(stations)["id"]),
                          "returned_at": str(rng.choice(stations)["id"]), "mode": "free",
                          "start": None, "minutes": minutes,
                          "fee_cents": rental_fee(minutes * 60), "status": "paid",
                          "days_ago": last + 3 * (i + 1 - len(history))})  # fmt: skip
        every = [*history, *older]
        return {"older": older, "count": len(every),
                "total_cents": sum(int(o["fee_cents"]) for o in every)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.for_app(MESSENGER).data["mini"]["powerbank"]
        data["orders"] += [dict(o) for o in params["older"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["微信「街电充电宝」的订单里，我租充电宝一共花了多少钱？",
                "用微信「街电充电宝」看看我的订单，把所有租借费用加起来是多少",
                "我在微信「街电充电宝」上付过的充电宝租金总共多少？查一下订单"],
            en=["In the orders of WeChat's 街电充电宝, how much have I spent on power banks in "
                "total?",
                "Use the 街电充电宝 mini-program in WeChat: add up the fees of all my rental "
                "orders",
                "How much rental have I paid altogether in WeChat's 街电充电宝? Check the orders"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(sum(int(o["fee_cents"]) for o in diff.value_before(ORDERS)) / 100)

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["total_cents"] + 200)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "powerbank")
        yield from ui.scroll_to("my_orders")
        yield ui.tap("my_orders")
        total = 0.0
        for i in range(1, params["count"] + 1):
            row = f"order_pb-{i}"
            yield from ui.scroll_to(row)
            node = ui.find(row)
            texts = [c.text for c in node.children if c.text] if node else []
            total += float(next(t for t in texts if t.startswith("¥"))[1:])
        yield Answer(text=f"一共¥{total:.2f}")


class PowerbankDeposit(MessengerTemplate):
    """Rent with the ¥99 deposit (paid exactly through the wallet) instead of the credit score."""

    id = "messenger.mini_powerbank.deposit"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        start = rng.choice([s for s in _powerbank(world)["stations"] if s["banks"] > 0])
        return {"start": str(start["id"]), "start_name": str(start["name"]),
                "start_banks": int(start["banks"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a = params["start_name"]
        return phrased(
            zh=[f"在微信「街电充电宝」的“{a}”网点交押金¥99.00借一个充电宝（不用免押）",
                f"用微信「街电充电宝」在“{a}”付¥99.00押金租个充电宝",
                f"“{a}”那里用微信「街电充电宝」押金租借充电宝，押金¥99.00，不走免押"],
            en=[f"Rent a power bank at '{a}' in WeChat's 街电充电宝 by paying the ¥99.00 deposit "
                "(not deposit-free)",
                f"Use WeChat's 街电充电宝 to rent a power bank at '{a}' with a ¥99.00 deposit",
                f"At '{a}', rent a power bank in WeChat's 街电充电宝 paying the ¥99.00 deposit, "
                "not the free option"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = rental_problems(diff, params["start"], "deposit")
        problems += expect_changes(
            diff, BANKS, {f"{BANKS}/{params['start']}": params["start_banks"] - 1}
        )
        return problems + wallet_payment_problems(
            diff, amount_cents=DEPOSIT_CENTS, reference=f"powerbank:deposit-{params['start']}"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "powerbank")
        yield from open_station(ui, params["start"])
        yield ui.tap("rent_deposit")
        yield ui.tap(PAY_CONFIRM)


class PowerbankConditional(MessengerTemplate):
    """Conditional: deposit-free at the first station when it has a power bank, else with the
    ¥99 deposit at the next station that has one."""

    id = "messenger.mini_powerbank.conditional"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        stations = list(_powerbank(world)["stations"])
        empty = [s for s in stations if s["banks"] == 0]
        first = rng.choice(empty if empty and rng.random() < 0.5 else stations)
        at = stations.index(first)
        # the second station follows from the first, so other parameters mean another outcome
        second = next(s for s in stations[at + 1 :] + stations[:at] if s["banks"] > 0)
        chosen, mode = (first, "free") if first["banks"] > 0 else (second, "deposit")
        return {"first": str(first["id"]), "first_name": str(first["name"]),
                "second": str(second["id"]), "second_name": str(second["name"]),
                "chosen": str(chosen["id"]), "chosen_banks": int(chosen["banks"]),
                "mode": mode}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first_name"], params["second_name"]
        return phrased(
            zh=[f"看看微信「街电充电宝」里“{a}”还有没有可借的充电宝：有就在那里免押借一个，"
                f"没有就去“{b}”交押金¥99.00借",
                f"用微信「街电充电宝」借充电宝：优先在“{a}”免押借，如果那里没有可借的，就在“{b}”"
                "付¥99.00押金借",
                f"如果“{a}”有充电宝可借，就用微信「街电充电宝」在那里免押租借；否则在“{b}”"
                "交¥99.00押金租借"],
            en=[f"Check in WeChat's 街电充电宝 whether '{a}' has a power bank to lend: if so rent "
                f"one there deposit-free, if not rent one at '{b}' paying the ¥99.00 deposit",
                f"Rent a power bank with WeChat's 街电充电宝: deposit-free at '{a}' first, and if "
                f"it has none available, at '{b}' with the ¥99.00 deposit",
                f"If '{a}' has power banks available, rent one there deposit-free in WeChat's "
                f"街电充电宝; otherwise rent at '{b}' with a ¥99.00 deposit"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        chosen = params["chosen"]
        problems = rental_problems(diff, chosen, params["mode"])
        problems += expect_changes(diff, BANKS, {f"{BANKS}/{chosen}": params["chosen_banks"] - 1})
        if params["mode"] == "deposit":
            problems += wallet_payment_problems(
                diff, amount_cents=DEPOSIT_CENTS, reference=f"powerbank:deposit-{chosen}"
            )
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "powerbank")
        yield from open_station(ui, params["first"])
        if ui.text_of("station_banks") != "可借 0":
            yield ui.tap("rent_free")
            return
        yield ui.back()
        yield from open_station(ui, params["second"])
        yield ui.tap("rent_deposit")
        yield ui.tap(PAY_CONFIRM)


class PowerbankNearestAvailable(MessengerTemplate):
    """QA with a comparison: the nearest station that has a power bank to lend."""

    id = "messenger.mini_powerbank.nearest_available"
    category = Category.MINI_PROGRAM
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's moment: how many power banks each station has; the nearest few are empty
        stations = sorted(_powerbank(world)["stations"], key=lambda s: s["distance_m"])
        empty = rng.randrange(7)
        banks = {str(s["id"]): 0 if i < empty else rng.randint(1, int(s["capacity"]))
                 if i == empty else rng.randint(0, int(s["capacity"]))
                 for i, s in enumerate(stations)}  # fmt: skip
        best = stations[empty]
        return {"banks": banks, "names": {str(s["id"]): str(s["name"]) for s in stations},
                "nearest_first": [str(s["id"]) for s in stations],
                "wrong": str(next(s for s in stations if s is not best)["name"]),
                "best_banks": banks[str(best["id"])]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.for_app(MESSENGER).data["mini"]["powerbank"]["banks"] = dict(params["banks"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["微信「街电充电宝」里离我最近、而且现在有充电宝可借的网点是哪个？那里可借几个？",
                "用微信「街电充电宝」查一下：有可借充电宝的网点中哪个最近？它还有几个可借？",
                "我要借充电宝，微信「街电充电宝」里最近的有货网点叫什么，有几个可借？"],
            en=["In WeChat's 街电充电宝, which station nearest to me has a power bank to lend "
                "right now, and how many does it have?",
                "Use the 街电充电宝 mini-program in WeChat: among stations with power banks "
                "available, which is the closest, and how many can be borrowed there?",
                "I need a power bank: what is the nearest station with one available in WeChat's "
                "街电充电宝, and how many are there?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        banks, names = diff.value_before(BANKS), params["names"]
        best = next(sid for sid in params["nearest_first"] if banks[sid] > 0)
        others = [n for sid, n in names.items() if sid != best]
        name = Text([names[best]], others=others, what="station")
        return Together(name, Number(banks[best]))

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return f"{params['wrong']}，可借{params['best_banks']}个"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "powerbank")
        best: tuple[int, str, int] | None = None
        for i in range(1, 11):
            row = f"station_st{i}"
            yield from ui.scroll_to(row)
            node = ui.find(row)
            texts = [c.text for c in node.children if c.text] if node else []
            info = next(t for t in texts if "可借" in t)
            distance, banks = int(info.split("m")[0]), int(info.split("可借")[1].split()[0])
            name = next(t for t in texts if t != info and t != "电")
            if banks and (best is None or distance < best[0]):
                best = (distance, name, banks)
        yield Answer(text=f"{best[1]}，可借{best[2]}个" if best else "没有")


TEMPLATES: tuple[TaskTemplate, ...] = (
    PowerbankRentReturn(),
    PowerbankAddressToNote(),
    PowerbankFeesTotal(),
    PowerbankDeposit(),
    PowerbankConditional(),
    PowerbankNearestAvailable(),
)
