"""Question templates of 闲置: the cheapest listing of a condition with 包邮 (search, filter,
scroll), two listings' totals with shipping compared, the sum of one's own listings."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.secondhand.common import (
    LISTINGS,
    SecondhandTemplate,
    listing_params,
    on_sale,
    open_listing,
    open_mine,
    own,
    parse_price,
    plain_title,
    read_rows,
    shipping_cents,
    whole_yuan,
)
from phonebuddy.phoneworld.apps.secondhand.content import CATEGORIES, CONDITIONS, ME
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction


class CheapestFreeShipping(SecondhandTemplate):
    """Filter and scan: the lowest price among listings of a category and condition that ship
    free (their prices this task's own)."""

    id = "secondhand.cheapest_free_shipping"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        combos = []
        for category in CATEGORIES:
            for condition in CONDITIONS:
                found = [x for x in on_sale(world) if x["category"] == category
                         and x["condition"] == condition and x["shipping"] == 0]  # fmt: skip
                if len(found) >= 2:
                    combos.append((category, condition, found))
        category, condition, found = pick(rng, combos)
        low = min(x["price"] for x in found) // 200  # half the lowest, in yuan
        high = max(max(x["price"] for x in found) * 3 // 200, low + 4 * len(found))
        drawn = rng.sample(range(max(low, 1), high), len(found))
        prices = {x["id"]: 100 * yuan for x, yuan in zip(found, drawn, strict=True)}
        ranked = sorted(prices.values())
        return {"category": category, "condition": condition, "prices": prices,
                "cheapest": ranked[0], "second": ranked[1]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        for listing in it.data["listings"]:
            if listing["id"] in params["prices"]:
                listing["price"] = params["prices"][listing["id"]]
                # the price new stays above the second-hand one
                listing["original"] = max(listing["original"], 2 * listing["price"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        c, q = params["category"], params["condition"]
        return phrased(
            zh=[f"闲置上在售的{q}、包邮的{c}里，最便宜的多少钱？",
                f"帮我查一下闲置里包邮的{q}{c}最低卖多少钱",
                f"在闲置找包邮、成色{q}的{c}，最低价是多少？"],
            en=[f"On Secondhand, what does the cheapest {q} {c} on sale with free shipping cost?",
                f"Look up the lowest price of a {q} {c} with free shipping on Secondhand",
                f"Among Secondhand's {c} listings that are {q} and ship free, what is the lowest "
                "price?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        before = diff.value_before(LISTINGS)
        found = [x["price"] for x in before if x["category"] == params["category"]
                 and x["condition"] == params["condition"] and x["shipping"] == 0
                 and not x["sold"] and x["seller"] != ME]  # fmt: skip
        return Money(min(found) / 100)

    def wrong_answer(self, params: Params) -> str:
        return f"{whole_yuan(params['second'])}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("闲置")
        yield ui.tap("search_open")
        yield from ui.type_into("query", params["category"])
        yield ui.tap("filter_free_ship")
        yield ui.tap("sort_price_asc")
        rows: dict[str, list[str]] = {}
        for step in read_rows(ui, "result"):
            if isinstance(step, dict):
                rows = step
            else:
                yield step
        prices = [parse_price(next(t for t in texts if t.startswith("¥")))
                  for texts in rows.values()
                  if any(f"｜{params['condition']}｜" in t for t in texts)]  # fmt: skip
        yield Answer(text=f"{whole_yuan(min(prices))}元")


class CompareTotals(SecondhandTemplate):
    """Compare: which of two listings costs less with shipping, and by how much."""

    id = "secondhand.compare_totals"
    difficulty = 10
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = [x for x in on_sale(world) if plain_title(x)]
        while True:
            a, b = pick(rng, pool, 2)
            if a["price"] + a["shipping"] != b["price"] + b["shipping"] and (
                a["shipping"] or b["shipping"]
            ):
                break
        return {"first": listing_params(a), "second": listing_params(b)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"]["title"], params["second"]["title"]
        return phrased(
            zh=[f"闲置上的“{a}”和“{b}”，算上运费哪个更便宜？便宜多少元？",
                f"比较一下“{a}”和“{b}”含运费的总价：哪个便宜，差多少钱",
                f"“{a}”与“{b}”，加上运费后哪件更划算，总价相差几元？"],
            en=[f"On Secondhand, which is cheaper once shipping is added, '{a}' or '{b}', and by "
                "how many yuan?",
                f"Compare the totals with shipping of '{a}' and '{b}': which costs less, and by "
                "how much",
                f"Between '{a}' and '{b}', which is the better deal including shipping, and what "
                "is the difference in total?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        totals = []
        for key in ("first", "second"):
            listing = diff.value_before(f"{LISTINGS}[{params[key]['listing_id']}]")
            totals.append((listing["price"] + listing["shipping"], params[key]["title"]))
        (low, cheaper), (high, dearer) = sorted(totals)
        return Together(Text((cheaper,), others=(dearer,), what="listing"),
                        Money((high - low) / 100))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        return f"“{params['first']['title']}”和“{params['second']['title']}”一样贵"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        totals = []
        for i, key in enumerate(("first", "second")):
            listing = params[key]
            if i:
                yield ui.back()
                yield ui.back()
            yield from open_listing(ui, listing["title"], listing["listing_id"], launch=not i)
            total = parse_price(ui.text_of("price")) + shipping_cents(ui.text_of("shipping"))
            totals.append((total, listing["title"]))
        (low, cheaper), (high, _) = sorted(totals)
        yield Answer(text=f"“{cheaper}”更便宜，便宜{whole_yuan(high - low)}元")


class OwnTotal(SecondhandTemplate):
    """Aggregation: the asking prices of one's own listings on sale, summed."""

    id = "secondhand.own_total"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's own asking prices (repriced around the usual ones, in 5 yuan steps) and a
        # seeded one or two of the listings already sold
        mine = own(world)
        prices = {str(x["id"]): rng.randrange(x["price"] // 200, x["price"] * 3 // 200 + 1, 5)
                  * 100 for x in mine}  # fmt: skip
        sold = sorted(str(x["id"]) for x in rng.sample(mine, rng.randrange(3)))
        total = sum(cents for listing, cents in prices.items() if listing not in sold)
        return {"prices": prices, "sold": sold, "total": total}

    def setup(self, it: Interaction, params: Params) -> None:
        for listing in it.data["listings"]:
            if listing["id"] in params["prices"]:
                listing["price"] = params["prices"][listing["id"]]
                # the price new stays above the second-hand one
                listing["original"] = max(listing["original"], 2 * listing["price"])
                listing["sold"] = listing["id"] in params["sold"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["我在闲置上在售的宝贝，标价加起来一共多少钱？",
                "算一下闲置我发布的列表里在售宝贝的总价",
                "如果我发布的闲置全按标价卖出，一共能卖多少元？"],
            en=["What do the asking prices of my listings on sale on Secondhand add up to?",
                "Add up the prices of the items on sale in Secondhand's 我发布的",
                "If all my Secondhand listings sold at their asking prices, how much would I get "
                "in total?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        mine = [x for x in diff.value_before(LISTINGS) if x["seller"] == "me" and not x["sold"]]
        return Money(sum(x["price"] for x in mine) / 100)

    def wrong_answer(self, params: Params) -> str:
        return f"{whole_yuan(params['total'] + 1000)}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mine(ui)
        rows: dict[str, list[str]] = {}
        for step in read_rows(ui, "mine"):
            if isinstance(step, dict):
                rows = step
            else:
                yield step
        total = sum(parse_price(next(t for t in texts if t.startswith("¥")))
                    for texts in rows.values()
                    if not any("已卖出" in t for t in texts))  # fmt: skip
        yield Answer(text=f"{whole_yuan(total)}元")


QUESTIONS: tuple[TaskTemplate, ...] = (CheapestFreeShipping(), CompareTotals(), OwnTotal())
