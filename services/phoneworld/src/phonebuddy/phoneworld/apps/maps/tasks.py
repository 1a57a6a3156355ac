"""Task templates of the Maps app (地图): saving a place, a route's duration, the 公司 address."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.maps.app import MAPS, MODES, ROADS, route
from phonebuddy.phoneworld.tasks.answers import Expectation, Number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

ENGLISH_MODES = {"drive": "driving", "transit": "public transit", "walk": "walking",
                 "bike": "cycling"}  # fmt: skip


def open_place(ui: OracleUI, name: str) -> Iterator[Action]:
    yield ui.open("地图")
    yield from ui.scroll_to(text=name)
    yield ui.tap(text=name)


class MapsTemplate(TaskTemplate):
    category = Category.SINGLE_APP
    apps = (MAPS,)


class SavePlace(MapsTemplate):
    id = "maps.save_place"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        place = pick(rng, world.content(MAPS)["places"])
        return {"place_id": place["id"], "name": place["name"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"在地图里收藏“{name}”", f"帮我把“{name}”加到地图的收藏夹",
                f"打开地图，找到“{name}”并收藏"],
            en=[f"Save '{name}' to favourites in Maps", f"Add '{name}' to my Maps favourites",
                f"Open Maps, find '{name}' and favourite it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"apps/{MAPS}/favourites"
        changes = diff.touched(f"apps/{MAPS}")
        problems = [f"unexpected change: {c.describe()}" for c in changes
                    if not c.path.startswith(path)]  # fmt: skip
        if diff.value_after(path) != [params["place_id"]]:
            problems.append(f"favourites are {diff.value_after(path)!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_place(ui, params["name"])
        yield ui.tap("favourite")


class RouteDuration(MapsTemplate):
    id = "maps.route_duration"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        place = pick(rng, world.content(MAPS)["places"])
        mode = rng.choice([m[0] for m in MODES])
        minutes = route(place, mode)[1]
        return {"place_id": place["id"], "name": place["name"], "mode": mode,
                "label": next(m[1] for m in MODES if m[0] == mode), "minutes": minutes}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, label, en = params["name"], params["label"], ENGLISH_MODES[params["mode"]]
        return phrased(
            zh=[f"用地图查一下{label}去“{name}”要多少分钟", f"{label}到“{name}”需要多久？",
                f"在地图里规划去“{name}”的{label}路线，告诉我要几分钟"],
            en=[f"In Maps, how many minutes does {en} to '{name}' take?",
                f"How long is the {en} route to '{name}'?",
                f"Plan a {en} route to '{name}' in Maps and tell me the minutes"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(params["minutes"], unit="分钟")

    def wrong_answer(self, params: Params) -> str:
        return f"{params['minutes'] + 7}分钟"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_place(ui, params["name"])
        yield ui.tap("route")
        yield ui.tap(f"tab_{params['mode']}")
        yield Answer(text=ui.text_of("duration"))


class SetWork(MapsTemplate):
    id = "maps.set_work"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"address": f"杭州市{rng.choice(ROADS)}{rng.randrange(1, 400)}号"}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a = params["address"]
        return phrased(
            zh=[f"在地图里把公司地址设为“{a}”", f"帮我设置地图的公司地址：“{a}”",
                f"我的公司在“{a}”，在地图里设置一下"],
            en=[f"Set my work address in Maps to '{a}'", f"In Maps, save '{a}' as work",
                f"My office is at '{a}': set it as the work address in Maps"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_changes(diff, f"apps/{MAPS}", {f"apps/{MAPS}/work": params["address"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("地图")
        yield ui.tap("work_address")
        yield from ui.type_into("address", params["address"])
        yield ui.tap("save_address")


TEMPLATES = (SavePlace(), RouteDuration(), SetWork())
