"""Cross-app templates of 演出票 that buy tickets and pay in the wallet: a plain purchase, a
friend's SMS asking for two tickets (the friend's ID in a note, added as a 观演人; a long one),
and "if the tier is sold out buy the other one"."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messages.tasks import add_incoming, address_book, open_thread
from phonebuddy.phoneworld.apps.showtix.base import SHOWTIX
from phonebuddy.phoneworld.apps.showtix.common import (
    BUDGET,
    VIEWERS,
    choose,
    date_zh,
    earliest,
    episode_day,
    new_person,
    open_show,
    paid_order_problems,
    pick_viewers,
    seeded_viewers,
    show_params,
    shows,
    submit_and_pay,
    yuan,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import WALLET
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"


def _holders(world: World, show: Any, qty: int) -> list[str]:
    """The seeded 观演人 named for a 实名制 show (none for the others)."""
    return [p["name"] for p in seeded_viewers(world)[:qty]] if show["real_name"] else []


def _holders_zh(names: list[str]) -> str:
    return f"，观演人选{'和'.join(names)}" if names else ""


def _holders_en(names: list[str]) -> str:
    return f", ticket holders {' and '.join(names)}" if names else ""


class BuyTickets(TaskTemplate):
    """演出票 → the wallet: N tickets of a tier in the earliest session."""

    id = "showtix.buy"
    category = Category.CROSS_APP
    apps = (SHOWTIX, WALLET)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        options = [(s, p, n) for s in shows(world) for p in s["tiers"] for n in (1, 2, 3)
                   if p not in earliest(s)["sold_out"] and p * n <= BUDGET
                   and n <= s["limit"]]  # fmt: skip
        show, price, qty = pick(rng, options)
        return {**show_params(show), "session_id": earliest(show)["id"], "price": price,
                "qty": qty, "holders": _holders(world, show, qty)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, p, n, h = params["title"], yuan(params["price"]), params["qty"], params["holders"]
        return phrased(
            zh=[f"在演出票买{n}张《{t}》最近一场的{p}元票{_holders_zh(h)}，用钱包付款",
                f"帮我订《{t}》最早那一场，{p}元档{n}张{_holders_zh(h)}，并完成支付",
                f"《{t}》最近的一场给我来{n}张{p}元的票{_holders_zh(h)}，钱包付款"],
            en=[f"In ShowTix, buy {n} tickets at {p} yuan for the earliest session of '{t}'"
                f"{_holders_en(h)}, and pay with the wallet",
                f"Book the first session of '{t}': {n} tickets in the {p} yuan tier"
                f"{_holders_en(h)}, and complete the payment",
                f"Get me {n} tickets at {p} yuan for the soonest '{t}' session{_holders_en(h)}; "
                "pay in the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        holders = params["holders"] or None
        return paid_order_problems(diff, params["session_id"], params["price"], params["qty"],
                                   holders)  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        yield from choose(ui, params["session_id"], params["price"], params["qty"])
        yield from pick_viewers(ui, params["holders"])
        yield from submit_and_pay(ui)


def ask_sms(title: str, day: str, time: str, price: int) -> str:
    return (f"帮我抢两张{day}{time}那场《{title}》的{price}元票吧，咱俩一起去！"
            "我的身份证号之前发你了，应该存在你备忘录里。")  # fmt: skip


class FriendSmsBuy(TaskTemplate):
    """Messages → Notes → 演出票 → the wallet (long): a friend asks by SMS for two tickets of a
    session; the friend's ID number is in a note; the friend is added as a 观演人 and the two
    tickets bought for the friend and me."""

    id = "showtix.friend_sms_buy"
    category = Category.CROSS_APP
    apps = (MESSAGES, NOTES, SHOWTIX, WALLET)
    difficulty = 22

    def sample(self, world: World, rng: random.Random) -> Params:
        options = [(s, x, p) for s in shows(world) if s["real_name"] and s["limit"] >= 2
                   for x in s["sessions"] for p in s["tiers"]
                   if p not in x["sold_out"] and 2 * p <= BUDGET]  # fmt: skip
        show, session, price = pick(rng, options)
        me = seeded_viewers(world)[0]["name"]
        holders = {p["name"] for p in seeded_viewers(world)}
        friend = pick(rng, [f for f in address_book(world) if f["name"] not in holders])
        person = new_person(rng)
        return {**show_params(show), "session_id": session["id"], "day": session["day"],
                "time": session["time"], "price": price, "me": me, "friend": friend["name"],
                "phone": friend["phone"], "idno": person["idno"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        day = date_zh(episode_day(it.clock, params["day"]))
        sms = ask_sms(params["title"], day, params["time"], yuan(params["price"]))
        add_incoming(it, (params["phone"], params["friend"]), sms, ago=900, key="tickets")
        it.app_data(NOTES)["notes"].insert(0, {
            "id": "note-task-showtix", "title": f"{params['friend']}的身份证",
            "body": f"{params['friend']} 身份证号：{params['idno']}", "pinned": False,
        })  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f, me = params["friend"], params["me"]
        return phrased(
            zh=[f"{f}发短信让我帮忙买票：按短信里的演出、场次和票价在演出票买2张，观演人是我（{me}）和{f}；"
                f"{f}的身份证号在备忘录里，先把他添加为观演人，再用钱包付款",
                f"看看{f}的短信要哪场演出的票，帮他买2张（观演人：{me}、{f}）。{f}还不是观演人，"
                "身份证号去备忘录里找，付款用钱包",
                f"帮{f}抢票：短信里写了演出、日期时间和票价，买2张，观演人选{me}和{f}"
                f"（{f}的身份证号存在备忘录，需新增观演人），钱包支付"],
            en=[f"{f} asked me by SMS to buy tickets: buy 2 for the show, session and price in the "
                f"SMS in ShowTix, ticket holders me ({me}) and {f}; {f}'s ID number is in Notes, "
                "so add them as a ticket holder first, then pay with the wallet",
                f"Check which show {f} wants tickets for in their SMS and buy 2 (holders: {me}, "
                f"{f}). {f} is not a ticket holder yet: their ID number is in Notes. Pay in the "
                "wallet",
                f"Get tickets for {f}: the SMS gives the show, date, time and price; buy 2 with "
                f"{me} and {f} as ticket holders (add {f}, whose ID number is saved in Notes) and "
                "pay with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        person, problems = one_added(diff, VIEWERS, "观演人")
        if person is not None and (person["name"], person["idno"]) != (params["friend"],
                                                                      params["idno"]):  # fmt: skip
            problems.append(f"added {person['name']} {person['idno']}")
        return problems + paid_order_problems(diff, params["session_id"], params["price"], 2,
                                              [params["me"], params["friend"]])  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["friend"])
        if ui.find(contains="那场《") is None:
            raise OracleError("the request is not in the thread")
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=f"{params['friend']}的身份证")
        yield ui.tap(text=f"{params['friend']}的身份证")
        body = next(n.text for n in ui.find_all() if n.text and "身份证号：" in n.text)
        idno = body.split("身份证号：", 1)[1].strip()
        yield from open_show(ui, params["title"], params["show_id"])
        yield from choose(ui, params["session_id"], params["price"], 2)
        yield from ui.scroll_to("add_viewer")
        yield ui.tap("add_viewer")
        yield from ui.type_into("name", params["friend"])
        yield from ui.type_into("idno", idno)
        yield ui.tap("save_viewer")
        yield from pick_viewers(ui, [params["me"], params["friend"]])
        yield from submit_and_pay(ui)


class ConditionalBuy(TaskTemplate):
    """Conditional: the earliest session's tier A if on sale, else one ticket of tier B."""

    id = "showtix.buy_or_other_tier"
    category = Category.CROSS_APP
    apps = (SHOWTIX, WALLET)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        sold = rng.random() < 0.5
        options = [(s, a, b) for s in shows(world) for a in s["tiers"] for b in s["tiers"]
                   if a < b <= BUDGET and (a in earliest(s)["sold_out"]) == sold
                   and b not in earliest(s)["sold_out"]]  # fmt: skip
        show, first, other = pick(rng, options)
        return {**show_params(show), "session_id": earliest(show)["id"], "first": first,
                "other": other, "sold_out": sold, "holders": _holders(world, show, 1)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, a, b, h = (
            params["title"],
            yuan(params["first"]),
            yuan(params["other"]),
            params["holders"],
        )
        return phrased(
            zh=[f"买1张《{t}》最近一场的票{_holders_zh(h)}：{a}元档如果售罄了就买{b}元的，否则买{a}元的，钱包付款",
                f"《{t}》最早那场帮我买1张票{_holders_zh(h)}，{a}元档有票就买{a}元的，缺货的话改买{b}元的，用钱包支付",
                f"帮我订1张《{t}》最近一场{_holders_zh(h)}。优先{a}元档；要是{a}元卖完了，就买{b}元档。钱包付款"],
            en=[f"Buy 1 ticket for the earliest session of '{t}'{_holders_en(h)}: if the {a} yuan "
                f"tier is sold out take {b} yuan, otherwise {a} yuan; pay with the wallet",
                f"For the first session of '{t}', buy 1 ticket at {a} yuan if there are any; if "
                f"{a} yuan is sold out, buy it at {b} yuan instead{_holders_en(h)}; pay in the "
                "wallet",
                f"Book 1 ticket for the soonest '{t}' session{_holders_en(h)}. Prefer the {a} "
                f"yuan tier; if {a} yuan has sold out, get {b} yuan instead. Pay with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        price = params["other"] if params["sold_out"] else params["first"]
        return paid_order_problems(diff, params["session_id"], price, 1,
                                   params["holders"] or None)  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        yield from ui.scroll_to(f"session_{params['session_id']}")
        yield ui.tap(f"session_{params['session_id']}")
        first = f"tier_{yuan(params['first'])}"
        yield from ui.scroll_to(first)
        sold = "缺货" in ui.text_of(first)
        price = params["other"] if sold else params["first"]
        yield from choose(ui, params["session_id"], price, 1, session_picked=True)
        yield from pick_viewers(ui, params["holders"])
        yield from submit_and_pay(ui)
