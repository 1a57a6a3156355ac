"""Question templates of 浏览器 (compare a product's price on two shops' pages, count a
restaurant's opening days, sum a page's figures, count a word's matches), and a conditional one
built on the price comparison."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.browser.base import BROWSER, count_matches, page_text
from phonebuddy.phoneworld.apps.browser.common import (
    APP_LABEL,
    HISTORY,
    BrowserTemplate,
    bookmarked,
    go_to,
    open_address,
    page_of,
    page_params,
    pages,
    read_lines,
    search_open,
)
from phonebuddy.phoneworld.apps.browser.content import DAYS, PRODUCTS, SHOPS
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import ClockTime, Expectation, Number, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction

SHOP_NAMES = tuple(name for _, name in SHOPS)
WORDS = ("地铁", "公园", "花期", "气温", "图书馆", "马拉松", "充电桩", "豆腐", "鸡蛋",
         "白菜", "五花肉",
         "社保", "护照", "公积金", "办理", "预约", "火车票", "放假", "开售", "专业", "学院", "金牌",
         "运动会", "价格", "休息", "餐厅")  # fmt: skip


def update_page(it: Interaction, url: str, **fields: Any) -> None:
    """This task's own version of a page (today's hours, prices, figures or comments): the
    world's shared page stays as it is."""
    it.data.setdefault("updates", {})[url] = fields


def shared_page(it: Interaction, url: str) -> Any:
    return next(p for p in it.content["pages"] if p["url"] == url)


def updated(diff: StateDiff, url: str) -> dict[str, Any]:
    """The fields of the page at `url` this task's start state replaced."""
    return dict(diff.before["apps"][BROWSER].get("updates", {}).get(url, {}))


def with_section(page: Any, index: int, paragraphs: list[str]) -> list[dict[str, Any]]:
    """The page's sections, the `index`-th one's lines replaced."""
    sections = [{"heading": s["heading"], "paragraphs": list(s["paragraphs"])}
                for s in page["sections"]]  # fmt: skip
    sections[index]["paragraphs"] = list(paragraphs)
    return sections


def shop_prices(world: World, product: str) -> list[int]:
    return [page_of(world, url)["prices"][product] for url, _ in SHOPS]


def price_on_screen(ui: OracleUI, product: str) -> Iterator[Action | int]:
    """On a shop's page: read the product's price line."""
    lines: list[str] = []
    yield from read_lines(ui, 0, len(PRODUCTS), lines)
    line = next(t for t in lines if t.startswith(product + "："))
    yield int(line.rsplit("¥", 1)[1])


def read_prices(ui: OracleUI, product: str) -> Iterator[Action | int]:
    """Open both shops' pages in turn (the second through the first's link), reading the
    product's price on each: yields the actions, then the two prices."""
    found: list[int] = []
    for i, (url, _) in enumerate(SHOPS):
        if i == 0:
            yield from open_address(ui, url)
        else:
            yield from go_to(ui, url)
        for item in price_on_screen(ui, product):
            if isinstance(item, int):
                found.append(item)
            else:
                yield item
    yield from found


class _Prices(BrowserTemplate):
    def sample(self, world: World, rng: random.Random) -> Params:
        product = rng.choice(PRODUCTS)
        prices = shop_prices(world, product)
        cheaper = 0 if prices[0] < prices[1] else 1
        return {"product": product, "prices": prices, "cheaper": SHOP_NAMES[cheaper],
                "dearer": SHOP_NAMES[1 - cheaper], "cheaper_url": SHOPS[cheaper][0]}  # fmt: skip


class ComparePrice(_Prices):
    """Today's prices of the product on both shops' pages are this task's own."""

    id = "browser.compare_price"
    difficulty = 8
    answers = True
    ignorable = (HISTORY,)  # reading a page records a visit

    def sample(self, world: World, rng: random.Random) -> Params:
        product = rng.choice(PRODUCTS)
        prices = rng.sample(range(99, 4999), 2)
        cheaper = 0 if prices[0] < prices[1] else 1
        return {"product": product, "prices": prices, "cheaper": SHOP_NAMES[cheaper],
                "dearer": SHOP_NAMES[1 - cheaper], "cheaper_url": SHOPS[cheaper][0],
                "listed": [dict(page_of(world, url)["prices"]) for url, _ in SHOPS]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        for (url, _), listed, price in zip(SHOPS, params["listed"], params["prices"],
                                           strict=True):  # fmt: skip
            listed = {**listed, params["product"]: price}
            page = shared_page(it, url)
            update_page(
                it,
                url,
                prices=listed,
                sections=with_section(page, 0, [f"{p}：¥{listed[p]}" for p in PRODUCTS]),
            )

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        a, b = (updated(diff, url)["prices"][params["product"]] for url, _ in SHOPS)
        cheaper = 0 if a < b else 1
        return Together(Text((SHOP_NAMES[cheaper],), others=(SHOP_NAMES[1 - cheaper],),
                             what="shop"), Number(abs(a - b), unit="元"))  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, (a, b) = params["product"], SHOP_NAMES
        return phrased(
            zh=[f"“{p}”在“{a}”和“{b}”哪家更便宜？便宜多少元？",
                f"用浏览器比较一下“{p}”在“{a}”与“{b}”两个网站上的价格：哪家便宜，差多少钱",
                f"我想买“{p}”，“{a}”和“{b}”两家比价页面上哪个价低，低多少元？"],
            en=[f"Is '{p}' cheaper on '{a}' or on '{b}', and by how many yuan?",
                f"In the browser, compare the price of '{p}' on '{a}' and '{b}': which is cheaper "
                "and by how much",
                f"I want to buy '{p}': which of the '{a}' and '{b}' price pages lists it lower, "
                "and by how many yuan?"],
        )  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        a, b = params["prices"]
        return f"{params['dearer']}，便宜{abs(a - b)}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        prices: list[int] = []
        for item in read_prices(ui, params["product"]):
            if isinstance(item, int):
                prices.append(item)
            else:
                yield item
        cheaper = SHOP_NAMES[0] if prices[0] < prices[1] else SHOP_NAMES[1]
        yield Answer(text=f"{cheaper}更便宜，便宜{abs(prices[0] - prices[1])}元")


class CheaperBookmark(_Prices):
    """Conditional: bookmark whichever shop's page lists the product cheaper."""

    id = "browser.cheaper_bookmark"
    difficulty = 9

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, (a, b) = params["product"], SHOP_NAMES
        return phrased(
            zh=[f"比较“{p}”在“{a}”和“{b}”的价格：如果“{a}”更便宜就收藏它的比价页，否则收藏“{b}”的比价页",
                f"看看“{p}”在“{a}”便宜还是在“{b}”便宜：“{a}”便宜就把它的页面加书签，不然就给“{b}”的页面加书签",
                f"要是“{a}”上的“{p}”比“{b}”便宜，收藏“{a}”的比价网页；否则收藏“{b}”的比价网页"],
            en=[f"Compare the price of '{p}' on '{a}' and '{b}': if '{a}' is cheaper, bookmark "
                f"its price page, otherwise bookmark the one of '{b}'",
                f"Check whether '{p}' is cheaper on '{a}' or on '{b}': if on '{a}', bookmark its "
                f"page; if not, bookmark the page of '{b}'",
                f"If '{p}' costs less on '{a}' than on '{b}', bookmark the price page of '{a}'; "
                f"else bookmark the price page of '{b}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return bookmarked(diff, params["cheaper_url"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        prices: list[int] = []
        for item in read_prices(ui, params["product"]):
            if isinstance(item, int):
                prices.append(item)
            else:
                yield item
        if prices[0] < prices[1]:  # the first shop's page: two back from the second's
            yield ui.tap("nav_back")
        yield ui.tap("bookmark")


def restaurant_params(page: Any) -> Params:
    return {**page_params(page), "open_days": sum(h != "休息" for h in page["hours"]),
            "monday": page["hours"][0] != "休息", "address": page["address"]}  # fmt: skip


def read_hours(ui: OracleUI, lines: list[str]) -> Iterator[Action]:
    """On a restaurant's page: its seven opening-hours lines."""
    yield from read_lines(ui, 1, len(DAYS), lines)


def closing(hours: list[str]) -> tuple[int, int]:
    """The time a restaurant closes on its open days ('10:30-21:30': 21:30)."""
    hour, minute = next(h for h in hours if h != "休息").split("-")[1].split(":")
    return int(hour), int(minute)


class OpenDays(BrowserTemplate):
    """The restaurant's opening hours this week are this task's own: how many days it opens,
    and when it closes."""

    id = "browser.open_days"
    difficulty = 6
    answers = True
    ignorable = (HISTORY,)  # reading a page records a visit

    def sample(self, world: World, rng: random.Random) -> Params:
        page = pick(rng, pages(world, "restaurant"))
        closed = set(rng.sample(range(7), rng.choice((0, 1, 1, 2, 2, 3))))
        opens = rng.choice((540, 570, 600, 630, 660, 690))  # 9:00 to 11:30
        closes = opens + 60 * rng.randint(8, 12)  # 17:00 to 23:30
        day = f"{opens // 60}:{opens % 60:02d}-{closes // 60}:{closes % 60:02d}"
        hours = ["休息" if i in closed else day for i in range(7)]
        return {**page_params(page), "hours": hours}

    def setup(self, it: Interaction, params: Params) -> None:
        page = shared_page(it, params["url"])
        lines = [f"{d}：{h}" for d, h in zip(DAYS, params["hours"], strict=True)]
        update_page(
            it, params["url"], hours=list(params["hours"]), sections=with_section(page, 1, lines)
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["title"]
        return phrased(
            zh=[f"“{name}”一周营业几天？营业的日子几点关门？",
                f"在浏览器里查一下“{name}”每周有几天开门，开门那天晚上几点打烊",
                f"看看“{name}”的营业时间，一周七天里有几天营业？每天营业到几点？"],
            en=[f"How many days a week is '{name}' open, and at what time does it close?",
                f"Look up in the browser on how many days a week '{name}' opens, and when it "
                "closes on those days",
                f"Check the opening hours of '{name}': on how many of the seven days is it open, "
                "and until what time?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        hours = updated(diff, params["url"])["hours"]
        return Together(ClockTime(*closing(hours)),
                        Number(sum(h != "休息" for h in hours), unit="天"))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        hours = params["hours"]
        hour, minute = closing(hours)
        return f"{sum(h != '休息' for h in hours)}天，{hour - 1}:{minute:02d}关门"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield from search_open(ui, params["title"], params["page_id"])
        lines: list[str] = []
        yield from read_hours(ui, lines)
        hours = [line.split("：", 1)[1] for line in lines]
        hour, minute = closing(hours)
        yield Answer(text=f"{sum(h != '休息' for h in hours)}天，{hour}:{minute:02d}关门")


class SumFigures(BrowserTemplate):
    """Aggregation over a long list: the university's places, or the districts' gold medals."""

    id = "browser.sum_figures"
    difficulty = 8
    answers = True
    ignorable = (HISTORY,)  # reading a page records a visit

    def sample(self, world: World, rng: random.Random) -> Params:
        page = pick(rng, [p for p in pages(world) if "figures" in p])
        low, high = (40, 320) if page["unit"] == "人" else (3, 30)
        figures = {name: rng.randrange(low, high) for name in page["figures"]}  # this task's
        return {**page_params(page), "figures": figures, "total": sum(figures.values()),
                "count": len(figures), "unit": page["unit"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        page = shared_page(it, params["url"])
        figures = params["figures"]
        if params["unit"] == "人":
            lines = [f"{name}：{n}人" for name, n in figures.items()]
        else:
            lines = [f"{name}：金牌{n}枚" for name, n in figures.items()]
        section = next(i for i, s in enumerate(page["sections"])
                       if s["paragraphs"][0].startswith(next(iter(figures)) + "："))  # fmt: skip
        update_page(
            it, params["url"], figures=dict(figures), sections=with_section(page, section, lines)
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        if params["unit"] == "人":
            zh = [
                f"网页《{title}》里各专业的招生人数加起来一共是多少人？",
                f"用浏览器打开《{title}》，算一下分专业招生计划的总人数",
                f"《{title}》这个页面上所有专业合计招多少人？",
            ]
            en = [
                f"On the page '{title}', how many places do all the majors add up to?",
                f"Open '{title}' in the browser and total the admission plan over the majors",
                f"How many students in all do the majors on the page '{title}' admit?",
            ]
        else:
            zh = [
                f"网页《{title}》里各区的金牌数加起来一共多少枚？",
                f"用浏览器打开《{title}》，算一下各区金牌的总数",
                f"《{title}》这个页面上所有区合计拿了多少枚金牌？",
            ]
            en = [
                f"On the page '{title}', how many gold medals do all the districts add up to?",
                f"Open '{title}' in the browser and total the districts' gold medals",
                f"How many gold medals in all did the districts on the page '{title}' win?",
            ]
        return phrased(zh=zh, en=en)

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(sum(updated(diff, params["url"])["figures"].values()), unit=params["unit"])

    def wrong_answer(self, params: Params) -> str:
        return f"{params['total'] - 12}{params['unit']}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield from search_open(ui, params["title"], params["page_id"])
        lines: list[str] = []
        yield from read_lines(ui, 1, params["count"], lines)
        total = sum(int("".join(c for c in line.split("：")[1] if c.isdigit())) for line in lines)
        yield Answer(text=f"{total}{params['unit']}")


COMMENTS = ("关于{w}，写得很清楚，先收藏了。", "{w}这块讲得挺实用。", "转给家人看看{w}的情况。",
            "希望多更新一些{w}的消息。", "{w}的事一直在关注。",
            "原来{w}是这样，长知识了。")  # fmt: skip
FILLERS = ("写得不错，支持一下。", "谢谢分享！", "顶一个。", "已转发给朋友。")


class FindCount(BrowserTemplate):
    """Find in page: how many times a word occurs on a page (with this task's own readers'
    comments under it, a seeded number of them naming the word)."""

    id = "browser.find_count"
    difficulty = 10
    answers = True
    ignorable = (HISTORY,)  # reading a page records a visit

    def sample(self, world: World, rng: random.Random) -> Params:
        pairs = [(p, w) for p in pages(world) for w in WORDS if count_matches(p, w) >= 2]
        page, word = pick(rng, pairs)
        lines = [rng.choice(COMMENTS).format(w=word) for _ in range(rng.randint(1, 12))]
        lines += rng.sample(FILLERS, rng.randint(1, len(FILLERS)))
        rng.shuffle(lines)
        shown = {
            **page,
            "sections": [*page["sections"], {"heading": "网友评论", "paragraphs": lines}],
        }
        return {**page_params(page), "word": word, "comments": lines,
                "count": count_matches(shown, word)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        page = shared_page(it, params["url"])
        comments = {"heading": "网友评论", "paragraphs": list(params["comments"])}
        sections = with_section(page, 0, page["sections"][0]["paragraphs"])  # a copy
        update_page(it, params["url"], sections=[*sections, comments])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, word = params["title"], params["word"]
        return phrased(
            zh=[f"网页《{title}》里“{word}”这个词一共出现了几次？",
                f"用浏览器的页内查找，数一数《{title}》中有几处“{word}”",
                f"在《{title}》页面里查找“{word}”，告诉我有多少处匹配"],
            en=[f"How many times does the word '{word}' appear on the page '{title}'?",
                f"Use find in page to count the matches of '{word}' on '{title}'",
                f"Search the page '{title}' for '{word}' and tell me how many matches there are"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        sections = updated(diff, params["url"])["sections"]
        return Number(page_text({"title": params["title"], "sections": sections})
                      .count(params["word"]))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        return f"{params['count'] + 1}处"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield from search_open(ui, params["title"], params["page_id"])
        yield ui.tap("menu")
        yield from ui.scroll_to("menu_find", scroll="menu_sheet_scroll")
        yield ui.tap("menu_find")
        yield from ui.type_into("find", params["word"])
        shown = ui.text_of("find_count")
        yield Answer(text=f"{int(shown.removeprefix('共').removesuffix('处匹配'))}处")
