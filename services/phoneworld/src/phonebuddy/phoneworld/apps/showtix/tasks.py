"""Task templates of 演出票: the single-app and question ones here, the cross-app ones in
`cross` and `cross_buy`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.showtix.base import SHOWTIX
from phonebuddy.phoneworld.apps.showtix.common import (
    ORDERS,
    VIEWERS,
    ShowTixTemplate,
    earliest,
    new_person,
    open_show,
    seeded_orders,
    seeded_viewers,
    show_by_id,
    show_params,
    shows,
    waitlist_problems,
    want_problems,
    yuan,
)
from phonebuddy.phoneworld.apps.showtix.cross import (
    CalendarForOrder,
    CodeToSms,
    OrderNoToWechat,
    RefundOrCode,
    ShareToWechat,
    SmsCalendarChain,
)
from phonebuddy.phoneworld.apps.showtix.cross_buy import BuyTickets, ConditionalBuy, FriendSmsBuy
from phonebuddy.phoneworld.apps.showtix.questions import (
    CheapestAvailable,
    SessionsWithTier,
    TopTierTotal,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction


def _not_wanted(world: World) -> list[Any]:
    wanted = set(world.content(SHOWTIX)["want"])
    return [s for s in shows(world) if s["id"] not in wanted]


class WantShow(ShowTixTemplate):
    id = "showtix.want"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return show_params(pick(rng, _not_wanted(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"在演出票里把《{t}》标记为想看", f"帮我把《{t}》加到想看列表",
                f"《{t}》我挺感兴趣的，在演出票上点个想看"],
            en=[f"In ShowTix, mark '{t}' as want-to-see",
                f"Please add '{t}' to my want-to-see list",
                f"I'm interested in '{t}': tap want-to-see on it in ShowTix"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return want_problems(diff, [params["show_id"]])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        yield ui.tap("want")


class WantFour(ShowTixTemplate):
    """Long horizon: four shows searched for one after another and marked 想看."""

    id = "showtix.want_four"
    difficulty = 23

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, _not_wanted(world), 4)
        return {"ids": [s["id"] for s in chosen], "titles": [s["title"] for s in chosen]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh = "、".join(f"《{t}》" for t in params["titles"])
        en = ", ".join(f"'{t}'" for t in params["titles"])
        return phrased(
            zh=[f"在演出票里把这四场演出都加入想看：{zh}", f"帮我把{zh}全部标记为想看",
                f"这几场演出我都想看：{zh}，在演出票上都点一下想看"],
            en=[f"In ShowTix, add these four shows to want-to-see: {en}",
                f"Please mark {en} all as want-to-see",
                f"I want to see all of these: {en}; tap want-to-see on each in ShowTix"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return want_problems(diff, params["ids"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("演出票")
        for i, (show_id, title) in enumerate(zip(params["ids"], params["titles"], strict=True)):
            if i:
                yield ui.back()
                yield ui.tap("clear_search")
            yield from ui.type_into("search", title)
            yield ui.tap(f"show_{show_id}")
            yield ui.tap("want")


class AddViewer(ShowTixTemplate):
    id = "showtix.add_viewer"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return new_person(rng, {p["name"] for p in seeded_viewers(world)})

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, i = params["name"], params["idno"]
        return phrased(
            zh=[f"在演出票里添加常用观演人：姓名“{n}”，身份证号 {i}",
                f"帮我加一位观演人“{n}”，身份证号码是{i}",
                f"把“{n}”（身份证 {i}）添加为演出票的观演人"],
            en=[f"In ShowTix, add a ticket holder named '{n}' with ID number {i}",
                f"Please add '{n}' as a ticket holder, ID {i}",
                f"Save '{n}' (ID number {i}) as a ticket holder in ShowTix"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        person, problems = one_added(diff, VIEWERS, "观演人")
        if person is not None and (person["name"], person["idno"]) != (params["name"],
                                                                      params["idno"]):  # fmt: skip
            problems.append(f"added {person['name']} {person['idno']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("演出票")
        yield ui.tap("tab_me")
        yield ui.tap("my_viewers")
        yield from ui.scroll_to("add_viewer")
        yield ui.tap("add_viewer")
        yield from ui.type_into("name", params["name"])
        yield from ui.type_into("idno", params["idno"])
        yield ui.tap("save_viewer")


class WaitlistSoldOut(ShowTixTemplate):
    """Scan the sessions: the one where a tier is sold out gets a 缺货登记."""

    id = "showtix.waitlist"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        pairs = []
        for show in shows(world):
            for price in show["tiers"]:
                where = [s["id"] for s in show["sessions"] if price in s["sold_out"]]
                if len(where) == 1 and len(show["sessions"]) > 1:
                    pairs.append({**show_params(show), "price": price, "session_id": where[0]})
        return pick(rng, pairs)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, p = params["title"], yuan(params["price"])
        return phrased(
            zh=[f"《{t}》有一场的{p}元票卖光了，帮我给那一场的这个票档做缺货登记",
                f"找到《{t}》{p}元票档缺货的那一场，登记缺货",
                f"在演出票查一下《{t}》哪一场{p}元的票售罄了，给它做个缺货登记"],
            en=[f"One session of '{t}' has sold out its {p} yuan tier: register interest in that "
                "session's tickets of that tier",
                f"Find the session of '{t}' whose {p} yuan tier is sold out and join its waitlist",
                f"In ShowTix, check which session of '{t}' has no {p} yuan tickets left and "
                "register for them"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return waitlist_problems(diff, params["session_id"], params["price"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        yield from ui.scroll_to(f"session_{params['session_id']}")
        yield ui.tap(f"session_{params['session_id']}")
        yield from ui.scroll_to(f"tier_{yuan(params['price'])}")
        yield ui.tap(f"tier_{yuan(params['price'])}")
        yield from ui.scroll_to("waitlist")
        yield ui.tap("waitlist")


class RefundOrder(ShowTixTemplate):
    """The order more than 48 hours away refunded, behind the confirmation (a 20 % fee)."""

    id = "showtix.refund"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        order = seeded_orders(world)[0]
        show = show_by_id(world, order["show"])
        return {**show_params(show), "order_id": order["id"], "total": order["total"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"我去不了《{t}》了，帮我把这个订单退票", f"在演出票里给《{t}》的订单申请退票",
                f"把已购买的《{t}》门票退掉"],
            en=[f"I can't make it to '{t}': refund that order",
                f"In ShowTix, request a refund for my '{t}' order",
                f"Return the tickets I bought for '{t}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{ORDERS}[{params['order_id']}]"
        refund = params["total"] * 80 // 100
        return expect_changes(diff, path, {f"{path}/status": "已退款", f"{path}/refund": refund})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("演出票")
        yield ui.tap("tab_me")
        yield ui.tap("my_orders")
        yield ui.tap(f"order_{params['order_id']}")
        yield from ui.scroll_to("refund")
        yield ui.tap("refund")
        yield ui.tap("confirm_refund")


class WaitOrWant(ShowTixTemplate):
    """Conditional: a sold-out tier in the earliest session gets a 缺货登记, else 想看."""

    id = "showtix.wait_or_want"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        sold = rng.random() < 0.5
        pool = [(s, p) for s in _not_wanted(world) for p in s["tiers"]
                if (p in earliest(s)["sold_out"]) == sold]  # fmt: skip
        show, price = pick(rng, pool)
        return {**show_params(show), "price": price, "session_id": earliest(show)["id"],
                "sold_out": sold}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, p = params["title"], yuan(params["price"])
        return phrased(
            zh=[f"看看《{t}》最近一场的{p}元票：如果缺货就做缺货登记，否则把这个演出加入想看",
                f"《{t}》最早那场的{p}元档要是售罄了，帮我登记缺货；没售罄的话就点想看",
                f"如果《{t}》最近一场{p}元的票卖完了就登记缺货，还有票就先加到想看"],
            en=[f"Check the {p} yuan tier of the earliest session of '{t}': if it is sold out, "
                "register interest; otherwise add the show to want-to-see",
                f"If the earliest '{t}' session has sold out its {p} yuan tickets, join the "
                "waitlist for them; if not, mark the show want-to-see",
                f"Register interest in the {p} yuan tickets of the first session of '{t}' if "
                "they are sold out, else put the show on my want-to-see list"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["sold_out"]:
            return waitlist_problems(diff, params["session_id"], params["price"])
        return want_problems(diff, [params["show_id"]])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        yield from ui.scroll_to(f"session_{params['session_id']}")
        yield ui.tap(f"session_{params['session_id']}")
        yield from ui.scroll_to(f"tier_{yuan(params['price'])}")
        yield ui.tap(f"tier_{yuan(params['price'])}")
        if ui.find("waitlist") is not None:
            yield ui.tap("waitlist")
        else:
            yield from ui.scroll_to("want")
            yield ui.tap("want")


TEMPLATES: tuple[TaskTemplate, ...] = (
    WantShow(),
    WantFour(),
    AddViewer(),
    WaitlistSoldOut(),
    RefundOrder(),
    WaitOrWant(),
    CheapestAvailable(),
    TopTierTotal(),
    SessionsWithTier(),
    BuyTickets(),
    FriendSmsBuy(),
    ConditionalBuy(),
    CodeToSms(),
    OrderNoToWechat(),
    CalendarForOrder(),
    ShareToWechat(),
    SmsCalendarChain(),
    RefundOrCode(),
)
