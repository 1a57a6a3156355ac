"""Task templates of 点评 (Reviews): booking, a filtered comparison, questions over ratings and
人均, a review, a conditional booking, cancelling, and a long compare-favourite-book task. The
cross-app ones live in `cross_tasks.py`; `TEMPLATES` lists them all."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.reviews.content import BOOKED, CANCELLED, DISTRICTS, REVIEWS
from phonebuddy.phoneworld.apps.reviews.cross_tasks import (
    AddressToSms,
    BookFromSms,
    BookThenCalendar,
    BuyVoucher,
    SmsBookNote,
)
from phonebuddy.phoneworld.apps.reviews.screens import SORTS, shown_shops
from phonebuddy.phoneworld.apps.reviews.steps import (
    BOOKINGS,
    DAY_EN,
    DAY_ZH,
    FAVORITES,
    MY_REVIEWS,
    book_here,
    booked,
    finish_booking,
    listed_shops,
    open_category,
    open_shop,
    other_names,
    pick_day,
    price_shown,
    rating_shown,
    row_values,
    shop_params,
    shops,
    slot_full,
    tap_shop,
    visit,
    when_en,
    when_zh,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI, texts
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

REVIEW_TEXTS = ("环境很好，服务员很热情，菜品也很新鲜", "排队半小时才进去，不过味道确实不错",
                "性价比一般，分量有点少，下次不会再来了",
                "和朋友聚餐的好地方，包间安静又干净")  # fmt: skip


class ReviewsTemplate(TaskTemplate):
    category = Category.SINGLE_APP
    apps = (REVIEWS,)


class BookTable(ReviewsTemplate):
    id = "reviews.book_table"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        shop = pick(rng, shops(world))
        return {**shop_params(shop), **visit(rng, shop)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, n, zh, en = params["shop"], params["people"], when_zh(params), when_en(params)
        return phrased(
            zh=[f"在点评上帮我订“{shop}”{zh}的位子，{n}个人",
                f"{zh}，我们{n}个人去“{shop}”，帮我订个座",
                f"用点评预订“{shop}”，时间{zh}，{n}位"],
            en=[f"Book a table at '{shop}' for {n} people {en} in Reviews",
                f"{n} of us are going to '{shop}' {en}: reserve a table",
                f"Use Reviews to book '{shop}' for {n}, {en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return booked(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui, params["shop"], params["category"])
        yield from book_here(ui, params["day"], params["time"], params["people"])


class BestHotpot(ReviewsTemplate):
    """Filter and compare: the best-rated 火锅 of a district within a budget, booked."""

    id = "reviews.best_hotpot"
    difficulty = 15

    def sample(self, world: World, rng: random.Random) -> Params:
        pots = [s for s in shops(world) if s["category"] == "火锅"]
        district = rng.choice([d for d in DISTRICTS
                               if sum(s["district"] == d for s in pots) >= 2])  # fmt: skip
        here = [s for s in pots if s["district"] == district]
        budget = rng.choice(sorted({-(-s["price"] // 10) * 10 for s in here}))
        best = max((s for s in here if s["price"] <= budget), key=lambda s: s["rating"])
        return {"district": district, "budget": budget, "shop_id": best["id"],
                **visit(rng, best)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        d, b, n = params["district"], params["budget"], params["people"]
        zh, en = when_zh(params), when_en(params)
        return phrased(
            zh=[f"在点评上找{d}人均不超过{b}元、评分最高的火锅店，订{zh}的位子，{n}个人",
                f"帮我挑一家{d}的火锅，人均{b}元以内，要评分最高的，订{zh}，{n}位",
                f"{zh}，{n}个人想吃火锅：在{d}找人均≤{b}元里评分最高的那家订座"],
            en=[f"In Reviews, find the highest-rated hotpot place in {d} costing at most ¥{b} "
                f"per person, and book it for {n} people {en}",
                f"Pick the best-rated hotpot in {d} with ¥{b} or less per person and reserve a "
                f"table for {n}, {en}",
                f"{n} of us want hotpot {en}: book the top-rated hotpot in {d} whose price per "
                f"person is ¥{b} or less"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return booked(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_category(ui, "火锅")
        yield ui.tap("filter_district")
        yield ui.tap(f"district_{DISTRICTS.index(params['district']) + 1}")
        yield ui.tap("filter_sort")
        yield ui.tap("sort_1")
        rows = [row_values(shown) for _, shown in listed_shops(ui)]
        name = next((n for n, _, price in rows if price <= params["budget"]), None)
        if name is None:
            raise OracleError("no hotpot place within the budget")
        yield from tap_shop(ui, name)
        yield from book_here(ui, params["day"], params["time"], params["people"])


def two_shops(world: World, rng: random.Random, key: str) -> tuple[Any, Any]:
    category = rng.choice(("美食", "火锅", "咖啡", "休闲娱乐"))
    first, second = pick(rng, [s for s in shops(world) if s["category"] == category], 2)
    while first[key] == second[key]:
        first, second = pick(rng, [s for s in shops(world) if s["category"] == category], 2)
    return first, second


class RatingGap(ReviewsTemplate):
    """QA over two shops: which rates higher, and by how much."""

    id = "reviews.rating_gap"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        a, b = two_shops(world, rng, "rating")
        high, low = (a, b) if a["rating"] > b["rating"] else (b, a)
        return {"a": a["name"], "b": b["name"], "category": a["category"], "high": high["name"],
                "low": low["name"], "gap": round(high["rating"] - low["rating"], 1)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["a"], params["b"]
        return phrased(
            zh=[f"“{a}”和“{b}”在点评上哪家评分更高？高多少分？",
                f"比较一下“{a}”与“{b}”的点评评分：哪家高，差几分？",
                f"点评里“{a}”和“{b}”谁的分数高，高出多少？"],
            en=[f"Which rates higher in Reviews, '{a}' or '{b}', and by how much?",
                f"Compare the ratings of '{a}' and '{b}': which is higher and what's the gap?",
                f"In Reviews, which of '{a}' and '{b}' has the better score, and by how many "
                "points?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        high, low = params["high"], params["low"]
        return Together(Text((high, high.partition("(")[0]), others=(low, low.partition("(")[0]),
                             what="shop"), Number(params["gap"], signed=False))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        return f"“{params['low']}”更高，高{params['gap']}分"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui, params["a"], params["category"])
        a = rating_shown(ui)
        yield ui.back()
        yield from tap_shop(ui, params["b"])
        b = rating_shown(ui)
        high = params["a"] if a > b else params["b"]
        yield Answer(text=f"“{high}”更高，高{abs(a - b):.1f}分")


class AveragePrice(ReviewsTemplate):
    """QA over two shops: their average 人均."""

    id = "reviews.average_price"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        a, b = two_shops(world, rng, "price")
        return {"a": a["name"], "b": b["name"], "category": a["category"],
                "average": (a["price"] + b["price"]) / 2, "a_price": a["price"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["a"], params["b"]
        return phrased(
            zh=[f"“{a}”和“{b}”的人均消费平均下来是多少元？",
                f"算一下“{a}”与“{b}”两家店人均价格的平均值",
                f"点评上“{a}”和“{b}”的人均，取个平均是多少？"],
            en=[f"What is the average of the per-person prices of '{a}' and '{b}'?",
                f"Work out the mean per-person price of '{a}' and '{b}' in Reviews",
                f"Average the per-person prices Reviews lists for '{a}' and '{b}': what do you "
                "get?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(params["average"], unit="元")

    def wrong_answer(self, params: Params) -> str:
        return f"{params['a_price']}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui, params["a"], params["category"])
        a = price_shown(ui)
        yield ui.back()
        yield from tap_shop(ui, params["b"])
        b = price_shown(ui)
        yield Answer(text=f"平均{(a + b) / 2:g}元")


class NthByRating(ReviewsTemplate):
    """QA needing a scroll: the shop at a given place of the whole list sorted by rating."""

    id = "reviews.nth_by_rating"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        n = rng.randrange(6, 12)
        order = shown_shops(shops(world), category="全部", district="全城", sort="rating",
                            price="all", query="")  # fmt: skip
        shop, other = order[n - 1], order[n]
        return {"n": n, "shop": shop["name"], "rating": shop["rating"], "other": other["name"],
                "others": other_names(world, shop)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["n"]
        return phrased(
            zh=[f"点评的发现页按评分最高排序后，第{n}家是哪家店？评分多少？",
                f"把点评里所有商户按评分从高到低排，排第{n}的是谁，几分？",
                f"点评按评分最高排序，告诉我第{n}个商户的名字和评分"],
            en=[f"In Reviews, sort all shops by highest rating: which shop is number {n}, and "
                "what is its rating?",
                f"Rank every shop in Reviews by rating, best first: name the {n}th and its score",
                f"Sort Reviews' list by top rating and tell me the name and rating of shop "
                f"number {n}"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        shop = params["shop"]
        return Together(Text((shop, shop.partition("(")[0]), others=params["others"],
                             what="shop"), Number(params["rating"]))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        return f"{params['other']}，{params['rating']}分"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("点评")
        yield ui.tap("filter_sort")
        yield ui.tap(f"sort_{[k for k, _ in SORTS].index('rating')}")
        seen: dict[str, list[str]] = {}
        while True:
            for widget_id, shown in listed_shops(ui):
                seen.setdefault(widget_id, shown)
            if len(seen) > params["n"] or ui.device.scroll_room("content")[1] == 0:
                break
            yield ui.page_down()
        name, rating, _ = row_values(list(seen.values())[params["n"] - 1])
        yield Answer(text=f"{name}，{rating}分")


class WriteReview(ReviewsTemplate):
    id = "reviews.write_review"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**shop_params(pick(rng, shops(world))), "stars": rng.randrange(1, 6),
                "text": rng.choice(REVIEW_TEXTS)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, stars, text = params["shop"], params["stars"], params["text"]
        return phrased(
            zh=[f"给“{shop}”写条点评：{stars}星，内容“{text}”",
                f"在点评上评价“{shop}”，打{stars}星，写上“{text}”",
                f"帮我给“{shop}”发个{stars}星的点评，评价内容是“{text}”"],
            en=[f"Write a review of '{shop}': {stars} stars, saying '{text}'",
                f"Rate '{shop}' {stars} stars in Reviews with the text '{text}'",
                f"Post a {stars}-star review for '{shop}' that reads '{text}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        review, problems = one_added(diff, MY_REVIEWS, "review")
        if review is None:
            return problems
        expected = {"shop_id": params["shop_id"], "stars": params["stars"], "text": params["text"]}
        return [f"the review's {k} is {review.get(k)!r}, expected {v!r}"
                for k, v in expected.items() if review.get(k) != v]  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui, params["shop"], params["category"])
        yield from ui.scroll_to("write_review")
        yield ui.tap("write_review")
        yield ui.tap(f"star_{params['stars']}")
        yield from ui.type_into("review_text", params["text"])
        yield ui.tap("submit_review")


class BookIfFree(ReviewsTemplate):
    """Conditional: 18:00 if that slot is free, else 19:00 (always free)."""

    id = "reviews.book_if_free"
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        want_full = rng.random() < 0.5
        options = [
            (s, d)
            for s in shops(world)
            for d in (1, 2)
            if f"{d}|19:00" not in s["full"] and (f"{d}|18:00" in s["full"]) == want_full
        ]
        shop, day = rng.choice(options)  # fmt: skip
        return {**shop_params(shop), "day": day, "people": rng.randrange(2, 9),
                "full": want_full}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop, n = params["shop"], params["people"]
        dz, de = DAY_ZH[params["day"]], DAY_EN[params["day"]]
        return phrased(
            zh=[f"在点评订“{shop}”{dz}的位子，{n}个人：18:00有位就订18:00，订满了就订19:00",
                f"帮我订“{shop}”{dz}晚上，{n}位，优先18:00，如果18:00满了改订19:00",
                f"{dz}，{n}个人去“{shop}”：18:00还能订就订18:00，否则订19:00"],
            en=[f"Book '{shop}' for {n} people {de}: at 18:00 if that slot is free, otherwise "
                "at 19:00",
                f"Reserve a table for {n} at '{shop}' {de}: 18:00 if free, and if not, 19:00",
                f"{n} of us go to '{shop}' {de}: book 18:00 if it's still open, else 19:00"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        time = "19:00" if params["full"] else "18:00"
        return booked(diff, {**params, "time": time})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui, params["shop"], params["category"])
        yield from pick_day(ui, params["day"])
        yield from ui.scroll_to("slot_1800")
        time = "19:00" if slot_full(ui, "18:00") else "18:00"
        yield from finish_booking(ui, time, params["people"])


class CancelBooking(ReviewsTemplate):
    id = "reviews.cancel_booking"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        mine, other = pick(rng, shops(world), 2)
        return {"shop": mine["name"], "other": other["name"], "shop_id": mine["id"],
                "other_id": other["id"], "time": rng.choice(("18:00", "18:30", "19:00")),
                "people": rng.randrange(2, 7)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:

        day = (local_date(it.clock) + dt.timedelta(days=1)).isoformat()
        for key, shop, shop_id in (("b", params["other"], params["other_id"]),
                                   ("a", params["shop"], params["shop_id"])):  # fmt: skip
            it.app_data(REVIEWS)["bookings"].append(
                {"id": f"bk-task-{key}", "shop_id": shop_id, "shop": shop, "date": day,
                 "time": params["time"], "people": params["people"], "phone": "13812345678",
                 "status": BOOKED, "booked_at": it.clock - 3600}
            )  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop = params["shop"]
        return phrased(
            zh=[f"取消我在点评上订的“{shop}”的位子", f"“{shop}”那个订座不去了，帮我取消",
                f"把我的订座里“{shop}”那一单取消掉"],
            en=[f"Cancel my table booking at '{shop}' in Reviews",
                f"I won't go to '{shop}' after all: cancel that booking",
                f"In my bookings, cancel the one at '{shop}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{BOOKINGS}[bk-task-a]"
        return expect_changes(diff, BOOKINGS, {f"{path}/status": CANCELLED})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("点评")
        yield ui.tap("tab_bookings")
        row = next((w for w, shown in listed_bookings(ui) if params["shop"] in shown), None)
        if row is None:
            raise OracleError("the booking is not listed")
        yield ui.tap(row)
        yield ui.tap("cancel_booking")
        yield ui.tap("confirm_cancel")


def listed_bookings(ui: OracleUI) -> list[tuple[str, list[str]]]:
    prefix = f"{REVIEWS}:id/booking_"
    return [(n.resource_id.rpartition(":id/")[2], texts(n)) for n in ui.device.ui_tree().walk()
            if n.resource_id.startswith(prefix)]  # fmt: skip


class CompareAndBook(ReviewsTemplate):
    """Long: compare three shops, favourite the best two, book the best."""

    id = "reviews.compare_and_book"
    difficulty = 21

    def sample(self, world: World, rng: random.Random) -> Params:
        category = rng.choice(("美食", "火锅"))
        trio = pick(rng, [s for s in shops(world) if s["category"] == category], 3)
        ranked = sorted(trio, key=lambda s: -s["rating"])
        return {"names": [s["name"] for s in trio], "category": category,
                "best": [s["id"] for s in ranked[:2]], "shop_id": ranked[0]["id"],
                **visit(rng, ranked[0])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b, c = params["names"]
        n, zh, en = params["people"], when_zh(params), when_en(params)
        return phrased(
            zh=[f"比较“{a}”“{b}”“{c}”三家店的评分，把评分最高的两家加收藏，再订评分最高那家{zh}的位子，{n}人",
                f"在点评看看“{a}”、“{b}”和“{c}”哪家分高：前两名收藏起来，第一名订{zh}，{n}位",
                f"“{a}”“{b}”“{c}”里挑评分最高的两家收藏，并给最高分的那家订{zh}的座，{n}个人"],
            en=[f"Compare the ratings of '{a}', '{b}' and '{c}': favourite the two best-rated "
                f"and book the best one for {n} people {en}",
                f"In Reviews, see which of '{a}', '{b}' and '{c}' rate highest; save the top "
                f"two to favourites and reserve the top one for {n}, {en}",
                f"Of '{a}', '{b}' and '{c}', add the two highest-rated to favourites and book "
                f"a table for {n} {en} at the highest-rated"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = booked(diff, params)
        diff.touched(FAVORITES)
        after = diff.value_after(FAVORITES) or []
        if sorted(after) != sorted(params["best"]) or len(after) != len(set(after)):
            problems.append(f"the favourites are {after}, expected {sorted(params['best'])}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_category(ui, params["category"])
        ratings = {}
        for name in params["names"]:
            yield from tap_shop(ui, name)
            ratings[name] = rating_shown(ui)
            yield ui.back()
        ranked = sorted(params["names"], key=lambda n: -ratings[n])
        for name in reversed(ranked[:2]):
            yield from tap_shop(ui, name)
            yield from ui.scroll_to("favorite")
            yield ui.tap("favorite")
            if name != ranked[0]:
                yield ui.back()
        yield from book_here(ui, params["day"], params["time"], params["people"])


TEMPLATES: tuple[TaskTemplate, ...] = (
    BookTable(),
    BestHotpot(),
    RatingGap(),
    AveragePrice(),
    NthByRating(),
    WriteReview(),
    BookIfFree(),
    CancelBooking(),
    AddressToSms(),
    BookThenCalendar(),
    BookFromSms(),
    SmsBookNote(),
    CompareAndBook(),
    BuyVoucher(),
)
