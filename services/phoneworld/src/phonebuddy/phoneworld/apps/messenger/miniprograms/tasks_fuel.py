"""Task templates of 加油助手 (category mini_program): fill up at a pump and pay, a conditional
fill by the 95# price, the cheapest 95# station and the price gap, a pump number and amount
carried in from an SMS."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messages.tasks import add_incoming, address_book, open_thread
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import find
from phonebuddy.phoneworld.apps.messenger.miniprograms.fuel import BASE_CENTS, fill
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
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import copy_text, paste_into_new_note
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

WALLET = "com.pw.wallet"
SMS = "com.pw.messages"
PAYING = (MESSENGER, WALLET)
RECEIPTS = mini("fuel", "receipts")
PRICES = mini("fuel", "prices")


def _fuel(world: World) -> Any:
    return content(world)["mini"]["fuel"]


def _fill_params(world: World, rng: random.Random) -> Params:
    station = rng.choice(list(_fuel(world)["stations"]))
    return {
        "station": str(station["id"]),
        "station_name": str(station["name"]),
        "fuel": rng.choice(("92", "95", "98", "0")),
        "pump": rng.randrange(1, int(station["pumps"]) + 1),
        "amount_cents": rng.randrange(10, 40) * 1000,
    }


def check_fill(diff: StateDiff, params: Params, coupon: str | None = None) -> list[str]:
    """One new receipt at the station, of this fuel, pump and amount, paid in the wallet."""
    receipt, problems = one_added(diff, RECEIPTS, "fuel receipt")
    if receipt is None:
        return problems
    got = (receipt["station"], receipt["fuel"], receipt["pump"], receipt["mode"])
    want = (params["station"], params["fuel"], params["pump"], "yuan")
    if got != want:
        problems.append(f"filled {got}, expected {want}")
    if receipt["gross_cents"] != params["amount_cents"]:
        problems.append(f"filled {receipt['gross_cents']} cents, expected {params['amount_cents']}")
    if receipt["coupon"] != coupon:
        problems.append(f"used coupon {receipt['coupon']}, expected {coupon}")
    if receipt["status"] != "paid":
        return [*problems, f"the receipt is {receipt['status']}, not paid"]
    return problems + wallet_payment_problems(
        diff, amount_cents=receipt["paid_cents"], reference=f"fuel:{receipt['id']}"
    )


def fill_up(ui: OracleUI, params: Params, coupon: str | None = None) -> Iterator[Action]:
    yield from open_mini(ui, "fuel")
    yield from ui.scroll_to(f"station_{params['station']}")
    yield ui.tap(f"station_{params['station']}")
    yield from ui.scroll_to(f"fuel_{params['fuel']}")
    yield ui.tap(f"fuel_{params['fuel']}")
    yield from ui.type_into("pump", str(params["pump"]))
    yield from ui.type_into("amount", f"{params['amount_cents'] // 100}")
    if coupon:
        yield from ui.scroll_to(f"coupon_{coupon}")
        yield ui.tap(f"coupon_{coupon}")
    yield from ui.scroll_to("pay_fuel")
    yield ui.tap("pay_fuel")
    yield ui.tap(PAY_CONFIRM)


class FuelFill(MessengerTemplate):
    id = "messenger.mini_fuel.fill"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 16

    def sample(self, world: World, rng: random.Random) -> Params:
        return _fill_params(world, rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, f, n, a = (
            params["station_name"],
            params["fuel"],
            params["pump"],
            yuan(params["amount_cents"]),
        )
        return phrased(
            zh=[f"用微信「加油助手」在{s}的{n}号油枪加{a}的{f}#油，不用优惠券",
                f"我在{s}{n}号枪，帮我在微信「加油助手」里付{a}的{f}#汽油（按金额，不用券）",
                f"微信「加油助手」：{s}，{f}#，{n}号枪，加{a}，不使用优惠券，直接支付"],
            en=[f"In WeChat's 加油助手, buy {a} of {f}# at pump {n} of {s}, without a coupon",
                f"I'm at pump {n} of {s}: pay {a} of {f}# fuel in the 加油助手 mini-program in "
                "WeChat (by amount, no coupon)",
                f"WeChat 加油助手: {s}, {f}#, pump {n}, {a}, no coupon, pay it"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_fill(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from fill_up(ui, params)


class FuelPriceConditional(MessengerTemplate):
    """Conditional: 95# with the 满300减30 coupon when the station's 95# is cheap, else ¥200
    of 92# without a coupon."""

    id = "messenger.mini_fuel.price_conditional"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 26

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _fill_params(world, rng)
        station = find(_fuel(world)["stations"], params["station"])
        price = int(station["prices"]["95"])
        limit = price + rng.choice((-1, 1)) * rng.randrange(3, 15)
        cheap = price < limit
        return {**params, "limit_cents": limit, "cheap": cheap, "fuel": "95" if cheap else "92",
                "amount_cents": 30000 if cheap else 20000}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, n, lim = params["station_name"], params["pump"], yuan(params["limit_cents"])
        return phrased(
            zh=[f"看看微信「加油助手」里{s}的95#油价：低于{lim}/升就在{n}号枪加¥300.00的95#并用“满300减30”券，"
                f"否则在{n}号枪加¥200.00的92#、不用券",
                f"如果{s}的95#每升不到{lim}，用微信「加油助手」在{n}号枪加¥300.00的95#"
                f"（用“满300减30”券）；不然就{n}号枪加¥200.00的92#，不用券",
                f"用微信「加油助手」：{s}95#低于{lim}/升的话，{n}号枪加¥300.00的95#"
                f"并使用“满300减30”；否则{n}号枪加¥200.00的92#不用券"],
            en=[f"Check the 95# price at {s} in WeChat's 加油助手: below {lim}/L, buy ¥300.00 of "
                f"95# at pump {n} with the '满300减30' coupon; otherwise ¥200.00 of 92# at pump "
                f"{n} without a coupon",
                f"If 95# at {s} costs less than {lim} a litre, fill ¥300.00 of 95# at pump {n} in "
                f"WeChat's 加油助手 using '满300减30'; if not, ¥200.00 of 92# at pump {n}, "
                "no coupon",
                f"WeChat 加油助手: when {s}'s 95# is under {lim}/L, pump {n}, ¥300.00 of 95# with "
                f"the '满300减30' coupon; else pump {n}, ¥200.00 of 92#, no coupon"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_fill(diff, params, "cp2" if params["cheap"] else None)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "fuel")
        yield from ui.scroll_to(f"station_{params['station']}")
        yield ui.tap(f"station_{params['station']}")
        price = float(ui.text_of("price_95").split("¥")[1].removesuffix("/升"))
        cheap = round(price * 100) < params["limit_cents"]
        yield ui.back()
        chosen = {
            **params,
            "fuel": "95" if cheap else "92",
            "amount_cents": 30000 if cheap else 20000,
        }
        yield from fill_up(ui, chosen, "cp2" if cheap else None)


class FuelCheapest95(MessengerTemplate):
    """QA with aggregation: the cheapest 95# station and how much less than the dearest."""

    id = "messenger.mini_fuel.cheapest_95"
    category = Category.MINI_PROGRAM
    difficulty = 12
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's day of 95# prices: each station's differs, around the usual price
        stations = _fuel(world)["stations"]
        offsets = rng.sample(range(-30, 31), len(stations))
        prices = {str(s["id"]): BASE_CENTS["95"] + off
                  for s, off in zip(stations, offsets, strict=True)}  # fmt: skip
        ranked = sorted(stations, key=lambda s: prices[s["id"]])
        return {"prices": prices, "names": {str(s["id"]): str(s["name"]) for s in stations},
                "cheapest": str(ranked[0]["name"]), "dearest": str(ranked[-1]["name"]),
                "gap_cents": prices[ranked[-1]["id"]] - prices[ranked[0]["id"]]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.for_app(MESSENGER).data["mini"]["fuel"]
        data["prices"] = {sid: {"95": cents} for sid, cents in params["prices"].items()}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["微信「加油助手」里附近哪个加油站的95#最便宜？比最贵的那家每升便宜多少钱？",
                "用微信「加油助手」查一下：95#油价最低的是哪个加油站，和最高的差多少钱一升",
                "帮我在微信「加油助手」对比附近加油站的95#价格，告诉我最便宜的站名和最贵最便宜的差价"],
            en=["In WeChat's 加油助手, which nearby station has the cheapest 95#, and how much "
                "less per litre is it than the dearest one?",
                "Use the 加油助手 mini-program in WeChat: which station has the lowest 95# price, "
                "and what is the gap per litre to the highest?",
                "Compare the 95# prices of nearby stations in WeChat's 加油助手: name the cheapest "
                "and give the difference between the dearest and the cheapest"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        today = {sid: p["95"] for sid, p in diff.value_before(PRICES).items()}
        cheapest = min(today, key=lambda sid: today[sid])
        names = params["names"]
        others = [n for sid, n in names.items() if sid != cheapest]
        name = Text([names[cheapest]], others=others, what="station")
        return Together(name, Money((max(today.values()) - today[cheapest]) / 100))

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return f"{params['dearest']}，便宜{yuan(params['gap_cents'] + 10)}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "fuel")
        yield ui.tap("show_95")
        prices: dict[str, float] = {}
        for i in range(1, 20):
            row = f"station_fs{i}"
            try:
                yield from ui.scroll_to(row)
            except OracleError:
                break
            node = ui.find(row)
            texts = [c.text for c in node.children if c.text] if node else []
            price = next((t for t in texts if t.startswith("95# ")), None)
            if price is None:
                raise OracleError(f"no 95# price in {row}")
            prices[next(t for t in texts if t.endswith("加油站"))] = float(
                price.split("¥")[1].removesuffix("/L")
            )
        best = min(prices, key=lambda k: prices[k])
        yield Answer(text=f"{best}，每升便宜¥{max(prices.values()) - prices[best]:.2f}")


class FuelPumpFromSms(MessengerTemplate):
    """Messages → 加油助手: a pump number and amount a relative texted, paid in the mini-program."""

    id = "messenger.mini_fuel.pump_from_sms"
    category = Category.MINI_PROGRAM
    apps = (SMS, MESSENGER, WALLET)
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        person = rng.choice(address_book(world))
        return {**_fill_params(world, rng), "fuel": "92", "sender": str(person["name"]),
                "sender_phone": str(person["phone"])}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        text = (f"我开你的车到{params['station_name']}了，停在{params['pump']}号枪，"
                f"帮我用微信加油助手付{params['amount_cents'] // 100}元的92#")  # fmt: skip
        add_incoming(it, (params["sender_phone"], params["sender"]), text, ago=600, key="fuel")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        who = params["sender"]
        return phrased(
            zh=[f"{who}发短信让我帮他加油，按短信里的加油站、油枪号和金额在微信「加油助手」付款（不用券）",
                f"看{who}的短信，用微信「加油助手」替他付油钱：站点、枪号、金额都照短信来，不用优惠券",
                f"{who}在加油站等我付款，短信里有油枪号和金额，用微信「加油助手」帮他付了，不用券"],
            en=[f"{who} texted asking me to pay for fuel: pay in WeChat's 加油助手 with the "
                "station, pump number and amount from the SMS (no coupon)",
                f"Read {who}'s SMS and pay their fuel in the 加油助手 mini-program in WeChat: "
                "station, pump and amount as texted, no coupon",
                f"{who} is waiting at the station; the SMS has the pump number and amount. Pay it "
                "with WeChat's 加油助手, no coupon"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_fill(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["sender"])
        said = next((n.text for n in ui.find_all() if "号枪" in n.text), "")
        found = re.search(r"停在(\d+)号枪.*付(\d+)元", said)
        if found is None:
            raise OracleError("no pump in the SMS")
        chosen = {**params, "pump": int(found[1]), "amount_cents": int(found[2]) * 100}
        yield from fill_up(ui, chosen)


class FuelLitres(MessengerTemplate):
    """Fill by litres: the price is the litres times the station's unit price, paid exactly."""

    id = "messenger.mini_fuel.litres"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 15

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _fill_params(world, rng)
        station = find(_fuel(world)["stations"], params["station"])
        litres = rng.randrange(15, 50)
        sums = fill(int(station["prices"][params["fuel"]]), "litre", litres * 100, None)
        return {**params, "litres": litres, "paid_cents": sums["paid_cents"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, f, n, litres = params["station_name"], params["fuel"], params["pump"], params["litres"]
        return phrased(
            zh=[f"用微信「加油助手」在{s}的{n}号枪按升数加{litres}升{f}#，不用优惠券并支付",
                f"在微信「加油助手」里选{s}，{n}号枪，{f}#，按升加{litres}升，不用券，付款",
                f"帮我用微信「加油助手」付{s}{n}号枪{litres}升{f}#的油钱（按升数，不用优惠券）"],
            en=[f"In WeChat's 加油助手, fill {litres} litres of {f}# by volume at pump {n} of {s}, "
                "no coupon, and pay",
                f"Choose {s} in WeChat's 加油助手: pump {n}, {f}#, {litres} litres by volume, no "
                "coupon, pay",
                f"Pay for {litres} litres of {f}# at pump {n} of {s} with WeChat's 加油助手 (by "
                "litres, no coupon)"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        receipt, problems = one_added(diff, RECEIPTS, "fuel receipt")
        if receipt is None:
            return problems
        got = (
            receipt["station"],
            receipt["fuel"],
            receipt["pump"],
            receipt["mode"],
            receipt["centilitres"],
            receipt["coupon"],
            receipt["status"],
        )
        want = (params["station"], params["fuel"], params["pump"], "litre",
                params["litres"] * 100, None, "paid")  # fmt: skip
        if got != want:
            return [*problems, f"filled {got}, expected {want}"]
        return problems + wallet_payment_problems(
            diff, amount_cents=params["paid_cents"], reference=f"fuel:{receipt['id']}"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "fuel")
        yield from ui.scroll_to(f"station_{params['station']}")
        yield ui.tap(f"station_{params['station']}")
        yield from ui.scroll_to(f"fuel_{params['fuel']}")
        yield ui.tap(f"fuel_{params['fuel']}")
        yield from ui.type_into("pump", str(params["pump"]))
        yield from ui.scroll_to("mode_litre")
        yield ui.tap("mode_litre")
        yield from ui.type_into("amount", str(params["litres"]))
        yield from ui.scroll_to("pay_fuel")
        yield ui.tap("pay_fuel")
        yield ui.tap(PAY_CONFIRM)


class FuelAddressToNote(WritesValue, MessengerTemplate):
    """加油助手 → Notes: a station's address copied into a new note."""

    id = "messenger.mini_fuel.address_to_note"
    category = Category.MINI_PROGRAM
    apps = (MESSENGER, NOTES)
    difficulty = 14
    written = f"apps/{NOTES}/notes[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        stations = list(_fuel(world)["stations"])
        station = rng.choice(stations)
        return {"station": str(station["id"]), "name": str(station["name"]),
                "address": str(station["address"]), "title": "加油站地址",
                "addresses": [str(s["address"]) for s in stations]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, t = params["name"], params["title"]
        return phrased(
            zh=[f"把微信「加油助手」里{n}的地址存到备忘录，标题写“{t}”",
                f"在微信「加油助手」查{n}的地址，新建一条备忘录记下，标题“{t}”",
                f"新建标题为“{t}”的备忘录，内容是微信「加油助手」中{n}的地址"],
            en=[f"Save the address of {n} from WeChat's 加油助手 in a note titled '{t}'",
                f"Look up {n}'s address in the 加油助手 mini-program in WeChat and note it under "
                f"the title '{t}'",
                f"Create a note titled '{t}' with the address of {n} shown in WeChat's 加油助手"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Text([params["address"]], others=params["addresses"], what="address")

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "fuel")
        yield from ui.scroll_to(f"station_{params['station']}")
        yield ui.tap(f"station_{params['station']}")
        yield from copy_text(ui, "station_address")
        yield from paste_into_new_note(ui, params["title"])


TEMPLATES: tuple[TaskTemplate, ...] = (
    FuelFill(),
    FuelPriceConditional(),
    FuelCheapest95(),
    FuelPumpFromSms(),
    FuelLitres(),
    FuelAddressToNote(),
)
