"""Question templates of 演出票: answers found by scanning a show's sessions and comparing or
counting their price tiers, or by a little arithmetic on a tier."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.showtix.common import (
    ShowTixTemplate,
    open_show,
    show_params,
    shows,
    yuan,
)
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Number
from phonebuddy.phoneworld.tasks.base import Params, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
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
    """Compare across sessions: the lowest price still on sale in any session."""

    id = "showtix.cheapest_available"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = [s for s in shows(world) if len(s["sessions"]) > 1
                and any(min(s["tiers"]) in x["sold_out"] for x in s["sessions"])]  # fmt: skip
        show = pick(rng, pool)
        return {**_with_sessions(show), "cheapest": available(show)[0]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"《{t}》所有场次里，还能买到的最便宜的票是多少钱？",
                f"查一下《{t}》各场次中仍有票的最低票价",
                f"帮我比较《{t}》的所有场次，没售罄的票里最低多少钱一张？"],
            en=[f"Across all sessions of '{t}', what is the cheapest ticket still available?",
                f"Look up the lowest price of '{t}' that is not sold out in some session",
                f"Compare every session of '{t}': what does the cheapest ticket still on sale "
                "cost?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(yuan(params["cheapest"]))

    def wrong_answer(self, params: Params) -> str:
        return f"{yuan(params['cheapest']) + 100}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        prices = []
        for session_id in params["session_ids"]:
            yield from ui.scroll_to(f"session_{session_id}")
            prices += [p for p, sold in session_tiers(ui, session_id) if not sold]
        yield Answer(text=f"{min(prices)}元")


class TopTierTotal(ShowTixTemplate):
    """Arithmetic on a looked-up tier: N tickets of the show's dearest tier."""

    id = "showtix.top_tier_total"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        show = pick(rng, shows(world))
        qty = rng.randrange(2, show["limit"] + 1)
        return {**_with_sessions(show), "qty": qty, "total": max(show["tiers"]) * qty}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n = params["title"], params["qty"]
        return phrased(
            zh=[f"买{n}张《{t}》最贵票档的票一共要多少钱？",
                f"《{t}》最高一档的票买{n}张，总价是多少？",
                f"算一下：{n}张《{t}》最贵的那档票合计多少钱"],
            en=[f"How much do {n} tickets of the dearest tier of '{t}' cost in total?",
                f"What is the total for {n} tickets in the top price tier of '{t}'?",
                f"Work out the cost of {n} tickets of the most expensive tier of '{t}'"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(yuan(params["total"]))

    def wrong_answer(self, params: Params) -> str:
        return f"{yuan(params['total'] // params['qty'] * (params['qty'] + 1))}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        first = params["session_ids"][0]
        yield from ui.scroll_to(f"session_{first}")
        top = max(p for p, _ in session_tiers(ui, first))
        yield Answer(text=f"{top * params['qty']}元")


class SessionsWithTier(ShowTixTemplate):
    """Count over the sessions: how many still sell a given tier."""

    id = "showtix.sessions_with_tier"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = [(s, p) for s in shows(world) for p in s["tiers"] if len(s["sessions"]) > 2
                and any(p in x["sold_out"] for x in s["sessions"])]  # fmt: skip
        show, price = pick(rng, pool)
        count = sum(price not in x["sold_out"] for x in show["sessions"])
        return {**_with_sessions(show), "price": price, "count": count}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, p = params["title"], yuan(params["price"])
        return phrased(
            zh=[f"《{t}》还有几场能买到{p}元的票？", f"数一数《{t}》有多少个场次的{p}元档还没售罄",
                f"《{t}》的{p}元票，目前还有票的场次一共几场？"],
            en=[f"In how many sessions of '{t}' can I still buy {p} yuan tickets?",
                f"Count the sessions of '{t}' whose {p} yuan tier is not sold out",
                f"How many sessions of '{t}' still have {p} yuan tickets?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(params["count"])

    def wrong_answer(self, params: Params) -> str:
        return f"{params['count'] + 1}场"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_show(ui, params["title"], params["show_id"])
        count = 0
        for session_id in params["session_ids"]:
            yield from ui.scroll_to(f"session_{session_id}")
            price = yuan(params["price"])
            count += any(p == price and not sold for p, sold in session_tiers(ui, session_id))
        yield Answer(text=f"{count}场")
