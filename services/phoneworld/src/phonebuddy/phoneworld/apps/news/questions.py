"""Question templates of 头条新闻: a 热榜 entry's heat, which of two articles was read more and
by how much, and the medals one article reports, summed."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.news.base import NEWS
from phonebuddy.phoneworld.apps.news.common import (
    APP_LABEL,
    HISTORY,
    NewsTemplate,
    article_params,
    articles,
    open_article,
    paragraph_with,
)
from phonebuddy.phoneworld.apps.news.content import heat_label
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction

DIGITS = set("0123456789一二三四五六七八九十两")


class HotHeat(NewsTemplate):
    """A 热榜 entry's heat (this task's own latest heat of every entry, in rank order)."""

    id = "news.hot_heat"
    difficulty = 4
    answers = True
    ignorable = (HISTORY,)

    def sample(self, world: World, rng: random.Random) -> Params:
        hot = list(world.content(NEWS)["hot"])
        top = rng.randrange(2_000_000, 9_000_000)
        drawn = sorted(rng.sample(range(100_000, top), len(hot)), reverse=True)
        heats = {str(e["rank"]): h for e, h in zip(hot, drawn, strict=True)}
        entry = rng.choice(hot[5:])
        return {"rank": entry["rank"], "heats": heats,
                "heat": float(heat_label(heats[str(entry["rank"])])[:-1])}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.data["heat"] = dict(params["heats"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["rank"]
        return phrased(
            zh=[f"头条新闻热榜第{n}名的热度是多少（万）？",
                f"看一下热榜上排第{n}的那条热度有多少万",
                f"热榜第{n}位的热度值是多少万？"],
            en=[f"What is the heat, in 万 (ten-thousands), of entry #{n} on the News hot list?",
                f"Check the hot list in News: how much heat (in 万) does the #{n} entry have?",
                f"How many 万 of heat does the number {n} entry of the hot list show?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        heat = diff.before["apps"][NEWS]["heat"][str(params["rank"])]
        return Number(float(heat_label(heat)[:-1]), unit="万")

    def wrong_answer(self, params: Params) -> str:
        return f"{params['heat'] + 3.2:.1f}万"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open(APP_LABEL)
        yield ui.tap("open_hot")
        row = f"hot_{params['rank']}"
        yield from ui.scroll_to(row)
        heat = next(t for t in ui.texts_in(row) if t.endswith("热度"))
        yield Answer(text=heat.removesuffix("热度"))


class CompareReads(NewsTemplate):
    """Comparison: which of two articles was read more, and by how many reads."""

    id = "news.compare_reads"
    difficulty = 10
    answers = True
    ignorable = (HISTORY,)

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = [a for a in articles(world) if not set(a["title"]) & DIGITS]
        first, second = pick(rng, pool, 2)
        return {"first": first["title"], "second": second["title"],
                "ids": [first["id"], second["id"]],
                "reads": [first["reads"], second["reads"]]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"], params["second"]
        return phrased(
            zh=[f"《{a}》和《{b}》哪篇阅读量更高？高多少？",
                f"比较一下新闻《{a}》与《{b}》的阅读数：哪篇多，多几次",
                f"《{a}》《{b}》这两篇文章，谁的阅读量大，相差多少？"],
            en=[f"Which of '{a}' and '{b}' has more reads, and by how many?",
                f"Compare the read counts of '{a}' and '{b}': which is higher, and by how much",
                f"Between the articles '{a}' and '{b}', which was read more, and what is the "
                "difference?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        r1, r2 = params["reads"]
        ahead, behind = ((params["first"], params["second"]) if r1 > r2
                         else (params["second"], params["first"]))  # fmt: skip
        return Together(Text((ahead,), others=(behind,), what="article"), Number(abs(r1 - r2)))

    def wrong_answer(self, params: Params) -> str:
        r1, r2 = params["reads"]
        lower = params["second"] if r1 > r2 else params["first"]
        return f"《{lower}》，多{abs(r1 - r2)}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_article(ui, params["first"], params["ids"][0])
        reads = [int(ui.text_of("stats").split("｜")[0].removeprefix("阅读 "))]
        yield ui.back()
        yield ui.back()
        yield ui.tap("open_search")
        yield from ui.type_into("query", params["second"])
        yield ui.tap(f"art_{params['ids'][1]}")
        reads.append(int(ui.text_of("stats").split("｜")[0].removeprefix("阅读 ")))
        ahead = params["first"] if reads[0] > reads[1] else params["second"]
        yield Answer(text=f"《{ahead}》，多{abs(reads[0] - reads[1])}")


class MedalSum(NewsTemplate):
    """Aggregation: the gold, silver and bronze medals one article reports, summed (this
    task's own corrected tally)."""

    id = "news.medal_sum"
    difficulty = 6
    answers = True
    ignorable = (HISTORY,)

    def sample(self, world: World, rng: random.Random) -> Params:
        a = pick(rng, articles(world, medals=True))
        medals = {kind: rng.randrange(1, 30) for kind in ("gold", "silver", "bronze")}
        gold, silver, bronze = medals.values()
        said = f"本市代表团共获得金牌{gold}枚、银牌{silver}枚、铜牌{bronze}枚。"
        index = next(i for i, p in enumerate(a["paragraphs"]) if "金牌" in p)
        paragraphs = [*a["paragraphs"][:index], said, *a["paragraphs"][index + 1 :]]
        return {**article_params(a), "medals": medals, "paragraphs": paragraphs,
                "total": sum(medals.values())}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        revised = it.data.setdefault("revised", {})
        revised[params["article_id"]] = {"medals": dict(params["medals"]),
                                         "paragraphs": list(params["paragraphs"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"根据新闻《{t}》，本市代表团一共拿了多少枚奖牌？",
                f"《{t}》里说的金牌、银牌、铜牌加起来一共几枚？",
                f"算一下《{t}》这篇报道中本市代表团的奖牌总数"],
            en=[f"According to '{t}', how many medals did the city's team win in total?",
                f"Add up the gold, silver and bronze medals reported in '{t}'",
                f"What is the total medal count of the city's delegation in the article '{t}'?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        medals = diff.before["apps"][NEWS]["revised"][params["article_id"]]["medals"]
        return Number(sum(medals.values()), unit="个")  # the kit reads no "枚" after a numeral

    def wrong_answer(self, params: Params) -> str:
        return f"{params['total'] - 2}枚"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_article(ui, params["title"], params["article_id"])
        para, text = paragraph_with(ui, "金牌")
        yield from ui.scroll_to(para)
        total = sum(int(n) for n in re.findall(r"牌(\d+)枚", text))
        yield Answer(text=f"{total}枚")
