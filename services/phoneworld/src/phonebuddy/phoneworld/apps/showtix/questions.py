"""Question templates of 演出票: answers found by scanning a show's sessions and comparing or
counting their price tiers, or by a little arithmetic on a tier."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.showtix.base import SHOWTIX
from phonebuddy.phoneworld.apps.showtix.common import (
    ShowTixTemplate,
    open_show,
    show_params,
    shows,
    yuan,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Date, Expectation, Money, Number, Together
from phonebuddy.phoneworld.tasks.base import Params, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction


def available(show: Any) -> list[int]:
    """Every price still on sale in some session."""
    return sorted({p for s in show["sessions"] for p in show["tiers"] if p not in s["sold_out"]})


def read_sessions(ui: OracleUI, show: Params) -> Iterator[Action]:
    """Bring every session row of the show's page into view (the rows list their tiers)."""
    for session_id in show["session_ids"]:
        yield from ui.scroll_to(f"session_{session_id}")


def session_tiers(ui: OracleUI, session_id: str) -> list[tuple[int, bool]]:
    """(price in yuan, sold out) for each tier the session row lists."""
    line = next(t for t in ui.texts_in(f"session_{session_id}") if t.startswith("¥"))
    return [(int(part.lstrip("¥").removesuffix("缺货")), part.endswith("缺货"))
            for part in line.split()]  # fmt: skip


def _with_sessions(show: Any) -> Params:
    return {**show_params(show), "session_ids": [s["id"] for s in show["sessions"]]}


class CheapestAvailable(ShowTixTemplate):
    """Compare across sessions: the lowest price still on sale in any session (this task's
    own sold-out tiers), for N tickets."""

    id = "showtix.cheapest_available"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = [s for s in shows(world) if len(s["sessions"]) > 1
                and any(min(s["tiers"]) in x["sold_out"] for x in s["sessions"])]  # fmt: skip
        show = pick(rng, pool)
        qty = rng.randrange(2, 9)  # a group: more than one order may be needed
        # this task's own sold-out tiers: every tier below a seeded one gone in every session,
        # that one left in some, the dearer ones at random
        tiers = sorted(show["tiers"])
        k = rng.randrange(len(tiers))
        ids = [x["id"] for x in show["sessions"]]
        left = set(rng.sample(ids, rng.randint(1, len(ids))))
        sold = {i: [p for j, p in enumerate(tiers)
                    if j < k or (j == k and i not in left) or (j > k and rng.random() < 0.4)]
                for i in ids}  # fmt: skip
        return {**_with_sessions(show), "tiers": tiers, "sold_out": sold,
                "cheapest": tiers[k], "qty": qty}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.data.setdefault("sold_out", {}).update(
            {i: list(sold) for i, sold in params["sold_out"].items()}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n = params["title"], params["qty"]
        return phrased(
            zh=[f"《{t}》所有场次里，还能买到的最便宜的票买{n}张一共多少钱？",
                f"查一下《{t}》各场次中仍有票的最低票价，买{n}张要花多少",
                f"帮我比较《{t}》的所有场次，没售罄的票里最便宜的那档买{n}张，总共多少钱？"],
            en=[f"Across all sessions of '{t}', what do {n} of the cheapest tickets still "
                "available cost in total?",
                f"Look up the lowest price of '{t}' that is not sold out in some session: how "
                f"much are {n} tickets at it?",
                f"Compare every session of '{t}': what do {n} tickets of the cheapest tier still "
                "on sale cost altogether?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        sold = diff.before["apps"][SHOWTIX]["sold_out"]
        cheapest = min(p for i in params["session_ids"] for p in params["tiers"]
                       if p not in sold[i])  # fmt: skip
        return Money(yuan(cheapest * params["qty"]))

    def wrong_answer(self, params: Params) -> str:
        return f"{yuan(params['cheapest'] * params['qty']) + 100}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        prices = []
        for session_id in params["session_ids"]:
            yield from ui.scroll_to(f"session_{session_id}")
            prices += [p for p, sold in session_tiers(ui, session_id) if not sold]
        yield Answer(text=f"{min(prices) * params['qty']}元")


class TopTierTotal(ShowTixTemplate):
    """Arithmetic on looked-up tiers: N tickets of the show's dearest tier and M of its
    cheapest."""

    id = "showtix.top_tier_total"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        show = pick(rng, shows(world))
        qty = rng.randrange(2, 9)  # a group: more than one order may be needed
        low_qty = rng.randrange(1, 9)
        total = max(show["tiers"]) * qty + min(show["tiers"]) * low_qty
        return {**_with_sessions(show), "qty": qty, "low_qty": low_qty, "total": total,
                "top": max(show["tiers"]), "low": min(show["tiers"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n, m = params["title"], params["qty"], params["low_qty"]
        return phrased(
            zh=[f"买{n}张《{t}》最贵票档的票，再买{m}张最便宜票档的，一共要多少钱？",
                f"《{t}》最高一档的票买{n}张、最低一档的买{m}张，总价是多少？",
                f"算一下：{n}张《{t}》最贵的那档票加上{m}张最便宜的那档票，合计多少钱"],
            en=[f"How much do {n} tickets of the dearest tier of '{t}' plus {m} of its cheapest "
                "tier cost in total?",
                f"What is the total for {n} tickets in the top price tier of '{t}' and {m} in "
                "the lowest tier?",
                f"Work out the cost of {n} tickets of the most expensive tier of '{t}' plus {m} "
                "of the cheapest tier"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(yuan(params["total"]))

    def wrong_answer(self, params: Params) -> str:
        return f"{yuan(params['top'] * (params['qty'] + params['low_qty']))}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        first = params["session_ids"][0]
        yield from ui.scroll_to(f"session_{first}")
        prices = [p for p, _ in session_tiers(ui, first)]
        yield Answer(text=f"{max(prices) * params['qty'] + min(prices) * params['low_qty']}元")


class SessionsWithTier(ShowTixTemplate):
    """Count over the sessions: how many still sell a given tier (this task's own sold-out
    tiers), and the date of the first of them."""

    id = "showtix.sessions_with_tier"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = [(s, p) for s in shows(world) for p in s["tiers"] if len(s["sessions"]) > 2]
        show, price = pick(rng, pool)
        ids = [x["id"] for x in show["sessions"]]
        left = set(rng.sample(ids, rng.randint(1, len(ids))))
        sold = {i: [p for p in show["tiers"]
                    if (p == price and i not in left) or (p != price and rng.random() < 0.3)]
                for i in ids}  # fmt: skip
        return {**_with_sessions(show), "price": price, "sold_out": sold, "count": len(left),
                "days": {x["id"]: x["day"] for x in show["sessions"]}}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.data.setdefault("sold_out", {}).update(
            {i: list(sold) for i, sold in params["sold_out"].items()}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, p = params["title"], yuan(params["price"])
        return phrased(
            zh=[f"《{t}》还有几场能买到{p}元的票？其中最早的一场是几月几日？",
                f"数一数《{t}》有多少个场次的{p}元档还没售罄，最早那场是哪天",
                f"《{t}》的{p}元票，目前还有票的场次一共几场？最早的在几号？"],
            en=[f"In how many sessions of '{t}' can I still buy {p} yuan tickets, and on what "
                "date is the first of them?",
                f"Count the sessions of '{t}' whose {p} yuan tier is not sold out, and give the "
                "date of the earliest",
                f"How many sessions of '{t}' still have {p} yuan tickets, and when is the first "
                "one?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        sold = diff.before["apps"][SHOWTIX]["sold_out"]
        days = [params["days"][i] for i in params["session_ids"]
                if params["price"] not in sold[i]]  # fmt: skip
        first = local_date(diff.before["os"]["clock"]) + dt.timedelta(days=min(days))
        return Together(Date(first.month, first.day), Number(len(days), unit="场"))

    def wrong_answer(self, params: Params) -> str:
        return f"{params['count'] + 1}场"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        price = yuan(params["price"])
        found = []
        for session_id in params["session_ids"]:
            yield from ui.scroll_to(f"session_{session_id}")
            if any(p == price and not sold for p, sold in session_tiers(ui, session_id)):
                found.append(next(t for t in ui.texts_in(f"session_{session_id}") if "月" in t))
        first = min(found, key=lambda t: [int(n) for n in re.findall(r"\d+", t)[:2]])
        yield Answer(text=f"{len(found)}场，最早{first.split()[0]}")
