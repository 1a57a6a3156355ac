"""Question templates of 追剧: a sum of episode running times, the higher rated of two
titles, and how many episodes are left of a show being watched."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.longvideo.common import (
    HISTORY,
    LongVideoTemplate,
    open_title,
    plain_name,
    series,
    title_params,
    titles,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Duration, Expectation, Number, Text, numbers_in
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction


class FirstEpisodesMinutes(LongVideoTemplate):
    """Aggregation: the running time of a show's first N episodes, summed."""

    id = "longvideo.first_episodes_minutes"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        t = pick(rng, [t for t in series(world) if plain_name(t)])
        count = rng.randrange(3, 7)
        return {**title_params(t), "count": count,
                "total": sum(e["minutes"] for e in t["episodes"][:count])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, n = params["title"], params["count"]
        return phrased(
            zh=[f"《{t}》前{n}集加起来一共多少分钟？", f"算一下看完《{t}》的前{n}集总共要多少分钟",
                f"追剧里《{t}》开头{n}集的总时长是多少分钟？"],
            en=[f"How many minutes do the first {n} episodes of '{t}' run in total?",
                f"Work out how long it takes to watch the first {n} episodes of '{t}', in minutes",
                f"What is the total running time of the opening {n} episodes of '{t}' in Long "
                "Video?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Duration(params["total"])

    def wrong_answer(self, params: Params) -> str:
        return f"{params['total'] + 5}分钟"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_title(ui, params["title"], params["title_id"])
        total = 0
        for n in range(1, params["count"] + 1):
            yield from ui.scroll_to(f"ep_{n}")
            said = next(x for x in ui.texts_in(f"ep_{n}") if x.endswith("分钟"))
            total += int(numbers_in(said)[0])
        yield Answer(text=f"{total}分钟")


class HigherRating(LongVideoTemplate):
    """Comparison: which of two titles is rated higher."""

    id = "longvideo.higher_rating"
    difficulty = 9
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        a, b = pick(rng, [t for t in titles(world) if plain_name(t)], 2)
        higher, lower = (a, b) if a["rating"] > b["rating"] else (b, a)
        return {
            "first": a["title"],
            "second": b["title"],
            "ids": [a["id"], b["id"]],
            "higher": higher["title"],
            "lower": lower["title"],
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"], params["second"]
        return phrased(
            zh=[f"《{a}》和《{b}》哪部评分更高？",
                f"在追剧里比较一下《{a}》与《{b}》的评分，哪个高",
                f"《{a}》《{b}》这两部，追剧上谁的评分高？"],
            en=[f"Which is rated higher in Long Video, '{a}' or '{b}'?",
                f"Compare the ratings of '{a}' and '{b}': which one is higher?",
                f"Of '{a}' and '{b}', which has the better rating in Long Video?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Text([params["higher"]], others=[params["lower"]], what="title")

    def wrong_answer(self, params: Params) -> str:
        return f"《{params['first']}》和《{params['second']}》一样高"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        rated = {}
        for title_id, title in zip(params["ids"], (params["first"], params["second"]),
                                   strict=True):  # fmt: skip
            yield from open_title(ui, title, title_id)
            rated[title] = float(ui.text_of("rating").split()[-1])
        yield Answer(text=f"《{max(rated, key=lambda name: rated[name])}》")


class EpisodesLeft(LongVideoTemplate):
    """Count: the episodes after the one being watched of a finished show in the history."""

    id = "longvideo.episodes_left"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's own place in a finished series: a free episode before the last, of a
        # series already in the history or newly started
        pool = [t for t in series(world) if t["schedule"] is None and plain_name(t)
                and len(t["episodes"]) > 1]  # fmt: skip
        t = pick(rng, pool)
        free = [e for e in t["episodes"][:-1] if not e["vip"]] or t["episodes"][:1]
        episode = rng.choice(free)
        position = rng.randrange(60, episode["minutes"] * 60 - 60)
        return {**title_params(t), "episode": episode["n"], "position": position,
                "episodes": len(t["episodes"]), "hours_ago": rng.randint(2, 72),
                "left": len(t["episodes"]) - episode["n"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        entry = next((h for h in it.data["history"] if h["id"] == params["title_id"]), None)
        if entry is None:
            entry = {"id": params["title_id"], "time": it.clock - 3600 * params["hours_ago"]}
            it.data["history"].append(entry)
        entry.update(episode=params["episode"], position=params["position"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"我正在追剧里看《{t}》，看完正在看的这一集后还剩几集？",
                f"《{t}》我看到的这集之后，后面还有多少集没看？",
                f"算算《{t}》在我当前看的这一集之后还剩多少集"],
            en=[f"I'm watching '{t}' in Long Video: after the episode I'm on, how many are left?",
                f"How many episodes of '{t}' come after the one I'm currently watching?",
                f"Count the episodes of '{t}' still left after my current one"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        seen = next(h for h in diff.value_before(HISTORY) if h["id"] == params["title_id"])
        return Number(params["episodes"] - seen["episode"])

    def wrong_answer(self, params: Params) -> str:
        return f"{params['left'] + 1}集"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_title(ui, params["title"], params["title_id"])
        current = int(numbers_in(ui.text_of("play"))[0])
        total = int(numbers_in(ui.text_of("status"))[0])
        yield Answer(text=f"还剩{total - current}集")


QUESTIONS: tuple[TaskTemplate, ...] = (FirstEpisodesMinutes(), HigherRating(), EpisodesLeft())
