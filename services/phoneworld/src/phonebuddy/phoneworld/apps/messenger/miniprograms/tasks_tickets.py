"""Task templates of 景点门票 (category mini_program): buy tickets for a date, buy what a friend
proposed by SMS, refund, send an entry code by SMS, and questions that compare, rank and add
up prices."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import find
from phonebuddy.phoneworld.apps.messenger.miniprograms.hospital import WEEK, day_of_week
from phonebuddy.phoneworld.apps.messenger.miniprograms.tickets import (
    CITIES,
    TYPES,
    order_total,
    sold_out,
)
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSENGER,
    PAY_CONFIRM,
    MessengerTemplate,
    content,
    mini,
    open_mini,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    Expectation,
    Money,
    Number,
    Text,
    Together,
    digit_code,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import mobile_number
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

WALLET = "com.pw.wallet"
SMS = "com.pw.messages"
PAYING = (MESSENGER, WALLET)
ORDERS = mini("tickets", "orders")
VISITORS = ("李思远", "王雨桐", "张浩然", "陈静怡", "刘子轩", "杨梦琪", "赵一鸣", "周晓彤")
WEEK_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _spots(world: World) -> list[Any]:
    return list(content(world)["mini"]["tickets"]["attractions"])


def _names(world: World) -> list[str]:
    return [s["name"] for s in _spots(world)]


def _purchase(world: World, rng: random.Random) -> Params:
    """An attraction, a weekday whose adult (and child) tickets are on sale, and a visitor."""
    spot = rng.choice(_spots(world))
    children = rng.choice((0, 1, 2))
    days = [w for w in range(7) if not sold_out(spot, w, "adult")
            and not (children and sold_out(spot, w, "child"))]  # fmt: skip
    qty = {"adult": rng.choice((1, 2, 3)), "student": 0, "child": children}
    return {
        "spot": str(spot["id"]),
        "spot_name": str(spot["name"]),
        "weekday": rng.choice(days),
        "qty": qty,
        "total_cents": order_total(spot, qty),
        "visitor": rng.choice(VISITORS),
        "phone": mobile_number(rng),
    }


def check_order(diff: StateDiff, params: Params) -> list[str]:
    order, problems = one_added(diff, ORDERS, "ticket order")
    if order is None:
        return problems
    if order["attraction"] != params["spot"]:
        problems.append(f"bought {order['attraction']}, expected {params['spot']}")
    date = day_of_week(diff.before["os"]["clock"], params["weekday"])["iso"]
    if order["date"] != date:
        problems.append(f"tickets for {order['date']}, expected {date}")
    if order["qty"] != params["qty"]:
        problems.append(f"bought {order['qty']}, expected {params['qty']}")
    if (order["visitor"], order["phone"]) != (params["visitor"], params["phone"]):
        problems.append(f"visitor {order['visitor']} {order['phone']}, expected "
                        f"{params['visitor']} {params['phone']}")  # fmt: skip
    if order["status"] != "paid":
        return [*problems, f"the order is {order['status']}, not paid"]
    if order["total_cents"] != params["total_cents"]:
        problems.append(f"paid {order['total_cents']} cents, expected {params['total_cents']}")
    return problems + wallet_payment_problems(
        diff, amount_cents=params["total_cents"], reference=f"tickets:{order['id']}"
    )


def open_spot(ui: OracleUI, spot: str) -> Iterator[Action]:
    yield from open_mini(ui, "tickets")
    yield from ui.scroll_to(f"spot_{spot}")
    yield ui.tap(f"spot_{spot}")


def buy(ui: OracleUI, params: Params) -> Iterator[Action]:
    """On the attraction's page: date, quantities, visitor, submit and pay."""
    yield ui.tap("book_spot")
    yield ui.tap(f"day_{params['weekday']}")
    for kind in TYPES:
        for _ in range(params["qty"][kind]):
            yield from ui.scroll_to(f"plus_{kind}")
            yield ui.tap(f"plus_{kind}")
    yield from ui.scroll_to("visitor")
    yield from ui.type_into("visitor", params["visitor"])
    yield from ui.scroll_to("visitor_phone")
    yield from ui.type_into("visitor_phone", params["phone"])
    yield ui.tap("submit_order")
    yield ui.tap(PAY_CONFIRM)


def _tickets_zh(qty: dict[str, int]) -> str:
    return "、".join(f"{TYPES[k].removesuffix('票')}票{n}张" for k, n in qty.items() if n)


def _tickets_en(qty: dict[str, int]) -> str:
    names = {"adult": "adult", "student": "student", "child": "child"}
    return ", ".join(f"{n} {names[k]}" for k, n in qty.items() if n)


class TicketsBuy(MessengerTemplate):
    id = "messenger.mini_tickets.buy"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 20

    def sample(self, world: World, rng: random.Random) -> Params:
        return _purchase(world, rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        spot, day, tickets, who, phone = (p["spot_name"], WEEK[p["weekday"]], _tickets_zh(p["qty"]),
                                          p["visitor"], p["phone"])  # fmt: skip
        day_en, tickets_en = WEEK_EN[p["weekday"]], _tickets_en(p["qty"])
        return phrased(
            zh=[f"用微信「景点门票」小程序买{spot}接下来{day}的门票：{tickets}，游客{who}，手机{phone}，并完成支付",
                f"帮我在微信「景点门票」订{day}去{spot}的票，{tickets}，游客信息填{who}、{phone}，付好款",
                f"这个{day}要去{spot}，在微信「景点门票」里买{tickets}，游客{who}（{phone}），记得支付"],
            en=[f"In the 景点门票 mini-program in WeChat, buy tickets for {spot} for the coming "
                f"{day_en} ({day}): {tickets_en}; visitor {who}, phone {phone}; pay for them",
                f"Book {spot} for this {day_en} ({day}) in WeChat's 景点门票: {tickets_en}, "
                f"visitor {who}, {phone}, and pay",
                f"I'm going to {spot} on {day_en} ({day}): buy {tickets_en} ticket(s) in the "
                f"景点门票 mini-program in WeChat for visitor {who} ({phone}) and pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_order(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_spot(ui, params["spot"])
        yield from buy(ui, params)


class TicketsFromSms(MessengerTemplate):
    """Messages → 景点门票: the day, the place and how many, as a friend proposed by SMS."""

    id = "messenger.mini_tickets.from_sms"
    category = Category.MINI_PROGRAM
    apps = (SMS, MESSENGER, WALLET)
    difficulty = 24

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _purchase(world, rng)
        qty = {"adult": max(2, params["qty"]["adult"]), "student": 0, "child": 0}
        spot = find(_spots(world), params["spot"])
        person = rng.choice(address_book(world))
        return {**params, "qty": qty, "total_cents": order_total(spot, qty),
                "sender": str(person["name"]), "sender_phone": str(person["phone"])}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        text = (f"{WEEK[params['weekday']]}一起去{params['spot_name']}玩吧！你帮忙买"
                f"{params['qty']['adult']}张成人票，钱回头转你")  # fmt: skip
        add_incoming(it, (params["sender_phone"], params["sender"]), text, ago=2400, key="trip")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender, who, phone = params["sender"], params["visitor"], params["phone"]
        return phrased(
            zh=[f"{sender}发短信约我出去玩。按短信里说的日子、景点和张数，用微信「景点门票」买成人票并支付，"
                f"游客填{who}，手机{phone}",
                f"看看{sender}短信里约的哪天去哪儿、要几张票，在微信「景点门票」小程序买好成人票（游客{who}，"
                f"{phone}）并付款",
                f"照{sender}短信说的，在微信「景点门票」订那天那个景点的成人票，张数也按短信，游客信息{who}、"
                f"{phone}，付好钱"],
            en=[f"{sender} texted me about a trip. Buy the adult tickets they asked for (day, "
                f"attraction and number as in the SMS) in WeChat's 景点门票 and pay; visitor "
                f"{who}, phone {phone}",
                f"Check which day, where and how many tickets {sender} asked for by SMS, then buy "
                f"those adult tickets in the 景点门票 mini-program in WeChat (visitor {who}, "
                f"{phone}) and pay",
                f"Do what {sender}'s SMS says: book adult tickets for that attraction on that day, "
                f"as many as they asked, in WeChat's 景点门票; visitor {who}, {phone}; pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_order(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["sender"])
        said = next((n.text for n in ui.find_all() if "一起去" in n.text), "")
        asked = re.search(r"(周.)一起去(.+?)玩吧.*买(\d+)张成人票", said)
        if asked is None:
            raise OracleError(f"no trip proposed by {params['sender']}")
        wanted = {**params, "weekday": WEEK.index(asked[1]),
                  "qty": {"adult": int(asked[3]), "student": 0, "child": 0}}  # fmt: skip
        yield from open_mini(ui, "tickets")
        yield from ui.type_into("query", asked[2])
        rows = [n for n in ui.find_all() if n.resource_id.rpartition(":id/")[2].startswith("spot_")]
        if not rows:
            raise OracleError(f"{asked[2]} is not listed")
        yield ui.tap(rows[0].resource_id.rpartition(":id/")[2])
        yield from buy(ui, wanted)


class TicketsRefund(MessengerTemplate):
    id = "messenger.mini_tickets.refund"
    category = Category.MINI_PROGRAM
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        order = rng.choice(list(content(world)["mini"]["tickets"]["seed"]))
        spot = find(_spots(world), order["attraction"])
        return {"order": str(order["id"]), "spot_name": str(spot["name"]),
                "code": str(order["code"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        spot = params["spot_name"]
        return phrased(
            zh=[f"在微信「景点门票」小程序把{spot}的门票订单退掉",
                f"{spot}去不了了，帮我在微信「景点门票」申请退款",
                f"用微信「景点门票」给我买的{spot}门票申请退款"],
            en=[f"Refund my {spot} ticket order in the 景点门票 mini-program in WeChat",
                f"I can't go to {spot} any more: request a refund in WeChat's 景点门票",
                f"Use WeChat's 景点门票 mini-program to get the {spot} tickets refunded"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_changes(diff, ORDERS, {f"{ORDERS}[{params['order']}]/status": "refunded"})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_order(ui, params["order"])
        yield ui.tap("refund")
        yield ui.tap("confirm_refund")


def open_order(ui: OracleUI, order: str) -> Iterator[Action]:
    yield from open_mini(ui, "tickets")
    yield ui.tap("my_orders")
    yield ui.tap(f"order_{order}")


class TicketsCodeToSms(MessengerTemplate, WritesValue):
    """景点门票 → Messages: an order's entry code texted to a contact."""

    id = "messenger.mini_tickets.code_to_sms"
    category = Category.MINI_PROGRAM
    apps = (MESSENGER, SMS)
    difficulty = 16
    written = f"apps/{SMS}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        person = rng.choice(address_book(world))
        return {**TicketsRefund().sample(world, rng), "to": str(person["name"]),
                "to_phone": str(person["phone"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        spot, to = params["spot_name"], params["to"]
        return phrased(
            zh=[f"把微信「景点门票」里{spot}订单的入园码发短信给{to}",
                f"{to}要先去{spot}，把我在微信「景点门票」买的票的入园码用短信发给他",
                f"查一下微信「景点门票」中{spot}门票的入园码，短信告诉{to}"],
            en=[f"Text {to} the entry code of my {spot} order in the 景点门票 mini-program in "
                "WeChat",
                f"{to} is going to {spot} first: send them by SMS the entry code of the tickets I "
                "bought in WeChat's 景点门票",
                f"Find the entry code of the {spot} tickets in WeChat's 景点门票 and SMS it to "
                f"{to}"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return digit_code(params["code"])

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_order(ui, params["order"])
        code = ui.text_of("order_code")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from ui.type_into("body", f"{params['spot_name']}入园码：{code}")
        yield ui.tap("send")


def _family_total(spot: Any) -> int:
    return order_total(spot, {"adult": 2, "child": 1})


class TicketsCompare(MessengerTemplate):
    """QA: which of two attractions is cheaper for 2 adults and 1 child, and by how much."""

    id = "messenger.mini_tickets.compare"
    category = Category.MINI_PROGRAM
    difficulty = 20
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        while True:
            a, b = rng.sample(_spots(world), 2)
            if _family_total(a) != _family_total(b):
                break
        cheap, dear = sorted((a, b), key=_family_total)
        return {
            "first": str(a["id"]), "first_name": str(a["name"]),
            "second": str(b["id"]), "second_name": str(b["name"]),
            "cheaper": str(cheap["name"]), "dearer": str(dear["name"]),
            "difference_cents": _family_total(dear) - _family_total(cheap),
            "others": [n for n in _names(world) if n not in (a["name"], b["name"])],
        }  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first_name"], params["second_name"]
        return phrased(
            zh=[f"在微信「景点门票」小程序比一比：2个大人带1个小孩，去{a}和去{b}哪个门票更便宜？便宜多少钱？",
                f"用微信「景点门票」算一下，2张成人票加1张儿童票，{a}和{b}哪家总价低，差多少",
                f"我们家2大1小，想在{a}和{b}里选个门票便宜的。查微信「景点门票」，告诉我选哪个、能省多少钱"],
            en=[f"Compare in the 景点门票 mini-program in WeChat: for 2 adults and 1 child, which "
                f"is cheaper, {a} or {b}, and by how much?",
                f"Use WeChat's 景点门票 to work out whether {a} or {b} costs less for 2 adult "
                "tickets plus 1 child ticket, and the difference",
                f"We're 2 adults and 1 child choosing between {a} and {b}. Check 景点门票 in "
                "WeChat: which one has cheaper tickets and how much do we save?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Together(
            Text([params["cheaper"]], others=params["others"], also=[params["dearer"]],
                 what="attraction"),
            Money(params["difference_cents"] / 100),
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return f"{params['dearer']}，便宜{yuan(params['difference_cents'])}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        totals = {}
        for key in ("first", "second"):
            yield from open_spot(ui, params[key])
            prices = {k: float(ui.text_of(f"price_{k}").split("¥")[1]) for k in ("adult", "child")}
            totals[params[f"{key}_name"]] = 2 * prices["adult"] + prices["child"]
        cheap = min(totals, key=lambda n: totals[n])
        gap = max(totals.values()) - min(totals.values())
        yield Answer(text=f"{cheap}更便宜，便宜¥{gap:.2f}")


class TicketsBestRated(MessengerTemplate):
    """QA over a filtered list: the best-rated attraction of a city, and its rating (this
    task's own latest ratings of the city's attractions)."""

    id = "messenger.mini_tickets.best_rated"
    category = Category.MINI_PROGRAM
    difficulty = 9
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        cities = [c for c in CITIES[1:] if sum(s["city"] == c for s in _spots(world)) > 1]
        city = rng.choice(cities)
        spots = [s for s in _spots(world) if s["city"] == city]
        drawn = rng.sample(range(30, 50), len(spots))
        ratings = {str(s["id"]): r / 10 for s, r in zip(spots, drawn, strict=True)}
        best = max(spots, key=lambda s: ratings[str(s["id"])])
        return {"city": city, "best": str(best["name"]), "ratings": ratings,
                "names": {str(s["id"]): str(s["name"]) for s in spots},
                "others": [n for n in _names(world) if n != best["name"]]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.for_app(MESSENGER).data["mini"]["tickets"]
        data.setdefault("ratings", {}).update(params["ratings"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        city = params["city"]
        return phrased(
            zh=[f"微信「景点门票」小程序里，{city}评分最高的景点是哪个？评分多少？",
                f"用微信「景点门票」看看{city}的景点里哪个评分最高，是几分",
                f"想去{city}玩，在微信「景点门票」里找评分最高的景点告诉我，连同它的评分"],
            en=[f"In the 景点门票 mini-program in WeChat, which attraction in {city} has the "
                "highest rating, and what is it?",
                f"Check WeChat's 景点门票: which of the {city} attractions is rated best, and "
                "with what score?",
                f"I want to visit {city}: find the top-rated attraction there in 景点门票 in "
                "WeChat and tell me its rating"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        ratings = diff.value_before(mini("tickets", "ratings"))
        best = max(params["names"], key=lambda i: ratings[i])
        name = params["names"][best]
        others = [n for n in [*params["others"], params["best"]] if n != name]
        return Together(Text([name], others=others, what="attraction"),
                        Number(ratings[best], unit="分"))  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return f"{params['others'][0]}，{max(params['ratings'].values())}分"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "tickets")
        yield ui.tap(f"city_{CITIES.index(params['city'])}")
        best, rating = "", -1.0
        for node in ui.find_all():
            rid = node.resource_id.rpartition(":id/")[2]
            if not rid.startswith("spot_"):
                continue
            texts = ui.texts_in(rid)
            subtitle = next(t for t in texts if "分 ·" in t)
            score = float(subtitle.split(" · ")[1].removesuffix("分"))
            if score > rating:
                best = next(t for t in texts if len(t) > 1 and "·" not in t and "¥" not in t)
                rating = score
        yield Answer(text=f"{best}，{rating}分")


class TicketsPrice(MessengerTemplate):
    """QA: the price of a mix of adult and student tickets."""

    id = "messenger.mini_tickets.price"
    category = Category.MINI_PROGRAM
    difficulty = 10
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        spot = rng.choice(_spots(world))
        qty = {"adult": rng.randrange(1, 4), "student": rng.randrange(1, 4), "child": 0}
        return {"spot": str(spot["id"]), "spot_name": str(spot["name"]), "qty": qty,
                "total_cents": order_total(spot, qty)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        spot, a, s = params["spot_name"], params["qty"]["adult"], params["qty"]["student"]
        return phrased(
            zh=[f"微信「景点门票」小程序里，{spot}买{a}张成人票和{s}张学生票一共多少钱？",
                f"用微信「景点门票」算一下去{spot}：成人票{a}张、学生票{s}张，总价多少",
                f"{spot}的门票，{a}个成人加{s}个学生，在微信「景点门票」里一共要花多少钱？"],
            en=[f"In the 景点门票 mini-program in WeChat, how much are {a} adult and {s} student "
                f"tickets for {spot} in total?",
                f"Use WeChat's 景点门票 to work out the total for {spot}: {a} adult ticket(s) and "
                f"{s} student ticket(s)",
                f"What do {a} adults and {s} students pay altogether for {spot} tickets in "
                "WeChat's 景点门票?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["total_cents"] / 100)

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["total_cents"] + 500)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_spot(ui, params["spot"])
        total = sum(
            float(ui.text_of(f"price_{k}").split("¥")[1]) * params["qty"][k]
            for k in ("adult", "student")
        )
        yield Answer(text=f"一共¥{total:.2f}")


TEMPLATES: tuple[TaskTemplate, ...] = (
    TicketsBuy(),
    TicketsFromSms(),
    TicketsRefund(),
    TicketsCodeToSms(),
    TicketsCompare(),
    TicketsBestRated(),
    TicketsPrice(),
)
