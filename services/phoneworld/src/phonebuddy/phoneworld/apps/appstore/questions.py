"""Question-answer templates of 应用市场: the total size of the apps with updates (a sum over
the installed list), which of two apps is rated higher and by how much, and how many installed
apps have updates (a count)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.appstore.common import (
    StoreTemplate,
    behind_before,
    catalogue,
    open_app_page,
    open_mine,
    plain_named,
    seeded_installed,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, numbers_in, which_is_more
from phonebuddy.phoneworld.tasks.base import Params, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction


class _SeededInstalled(StoreTemplate):
    """A question about the 已安装 list, which this task seeds: which apps are installed and
    which of them are behind (`seeded_installed`)."""

    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return seeded_installed(world, rng)

    def setup(self, it: Interaction, params: Params) -> None:
        it.data["installed"] = [dict(entry) for entry in params["installed"]]


class UpdatesSize(_SeededInstalled):
    """Aggregation: the sizes of the installed apps that have updates, summed."""

    id = "appstore.updates_size"
    difficulty = 8

    def total(self, params: Params, behind: list[str]) -> float:
        return round(sum(params["apps"][i][1] for i in behind), 1)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["我已安装的应用里，有更新的那些加起来一共多大（MB）？",
                "算一下所有可更新应用的安装包大小总和，单位MB",
                "有更新的已安装应用，它们的大小合计是多少MB？"],
            en=["Of my installed apps, how large are the ones with updates in total, in MB?",
                "Add up the sizes of all the apps that have updates, in MB",
                "What is the combined size in MB of the installed apps that can be updated?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(self.total(params, behind_before(diff, params)), unit="MB")

    def wrong_answer(self, params: Params) -> str:
        every = self.total(params, params["ids"])  # every installed app's size
        return f"{every:.1f} MB"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mine(ui)
        total = 0.0
        for app_id in params["ids"]:
            yield from ui.scroll_to(f"inst_{app_id}")
            line = next((t for t in ui.texts_in(f"inst_{app_id}") if "→" in t), None)
            if line is not None:
                total += numbers_in(line.split("｜")[1])[0]
        yield Answer(text=f"{total:.1f} MB")


class CompareRating(StoreTemplate):
    """Comparison: which of two apps is rated higher, and by how much."""

    id = "appstore.compare_rating"
    difficulty = 12
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        apps = plain_named(catalogue(world))
        while True:
            first, second = pick(rng, apps, 2)
            if first["rating"] != second["rating"]:
                break
        return {"first": first["name"], "first_id": first["id"], "first_rating": first["rating"],
                "second": second["name"], "second_id": second["id"],
                "second_rating": second["rating"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"], params["second"]
        return phrased(
            zh=[f"应用市场里“{a}”和“{b}”哪个评分更高？高多少分？",
                f"比较一下“{a}”与“{b}”的评分：哪个高，差几分",
                f"“{a}”和“{b}”，谁的评分高，高出多少？"],
            en=[f"In the App Store, which is rated higher, '{a}' or '{b}', and by how much?",
                f"Compare the ratings of '{a}' and '{b}': which is higher, and by how many points",
                f"Between '{a}' and '{b}', whose rating is higher, and how much higher?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return which_is_more(params["first"], params["first_rating"], params["second"],
                             params["second_rating"], what="app")  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        a, b = params["first_rating"], params["second_rating"]
        loser = params["second"] if a > b else params["first"]
        return f"“{loser}”高{abs(a - b):.1f}分"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        found = {}
        for key in ("first", "second"):
            yield from open_app_page(ui, params[key], params[f"{key}_id"])
            found[key] = numbers_in(ui.text_of("rating").split("分")[0])[0]
        a, b = found["first"], found["second"]
        winner = params["first"] if a > b else params["second"]
        yield Answer(text=f"“{winner}”更高，高{abs(a - b):.1f}分")


class CountUpdates(_SeededInstalled):
    """Counting: how many installed apps have an update (the 我的 list needs scrolling)."""

    id = "appstore.count_updates"
    difficulty = 6

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["我装的应用里有几个可以更新？", "数一下已安装应用中有多少个有更新",
                "应用市场里显示有更新的已安装应用一共几个？"],
            en=["How many of my installed apps can be updated?",
                "Count the installed apps that have an update",
                "How many installed apps does the App Store show with updates?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(len(behind_before(diff, params)))

    def wrong_answer(self, params: Params) -> str:
        behind = sum(e["version"] != params["apps"][e["id"]][0] for e in params["installed"])
        return f"{behind + 2}个"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mine(ui)
        count = 0
        for app_id in params["ids"]:
            yield from ui.scroll_to(f"inst_{app_id}")
            count += ui.visible(f"update_{app_id}")
        yield Answer(text=f"{count}个")
