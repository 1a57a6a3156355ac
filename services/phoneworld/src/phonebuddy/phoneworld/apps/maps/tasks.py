"""Task templates of the Maps app (地图): saving a place, a route's duration, the 公司 address,
a place's address texted to a contact, and a walk-or-transit navigation decided by the route;
the templates with other apps are in `cross`."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.maps.app import MAPS, MODES, ROADS, route
from phonebuddy.phoneworld.apps.maps.cross import CROSS_TEMPLATES
from phonebuddy.phoneworld.apps.messages.tasks import address_book, check_one_sms, sent_messages
from phonebuddy.phoneworld.tasks.answers import Duration, Expectation, numbers_in
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import copy_text, paste_into
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

MESSAGES = "com.pw.messages"
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
        return Duration(params["minutes"])

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


class AddressToSms(TaskTemplate):
    """Maps → Messages: a place's address copied from its page and texted to a contact."""

    id = "maps.address_to_sms"
    category = Category.CROSS_APP
    apps = (MAPS, MESSAGES)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        place = pick(rng, world.content(MAPS)["places"])
        person = pick(rng, address_book(world))
        return {"place_id": place["id"], "name": place["name"], "address": place["address"],
                "to": person["name"], "to_phone": person["phone"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, to = params["name"], params["to"]
        return phrased(
            zh=[f"在地图里找到“{name}”，把它的地址发短信给{to}",
                f"{to}要去“{name}”，用短信把地图上它的地址发给他",
                f"把“{name}”的地址（在地图里查）通过短信告诉{to}"],
            en=[f"Find '{name}' in Maps and text its address to {to}",
                f"{to} is going to '{name}': send them its address from Maps by SMS",
                f"Look up the address of '{name}' in Maps and text it to {to}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return [] if params["address"] in text else [f"the SMS {text!r} lacks the address"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_place(ui, params["name"])
        yield from copy_text(ui, "address")
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from paste_into(ui, "body")
        yield ui.tap("send")


class WalkOrTransit(MapsTemplate):
    """Conditional: walk there if the walk is short enough, otherwise take public transit."""

    id = "maps.walk_or_transit"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        place = pick(rng, world.content(MAPS)["places"])
        walk = route(place, "walk")[1]
        limit = max(5, walk + rng.choice((-6, -3, 3, 6)))  # either side of the walk, by seed
        return {"place_id": place["id"], "name": place["name"], "limit": limit,
                "mode": "walk" if walk <= limit else "transit"}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, limit = params["name"], params["limit"]
        return phrased(
            zh=[f"用地图看步行去“{name}”要多久：不超过{limit}分钟就开始步行导航，否则开始公交导航",
                f"去“{name}”：步行在{limit}分钟以内就走路去（开始步行导航），不然就坐公交（开始公交导航）",
                f"如果步行到“{name}”不超过{limit}分钟，在地图里开始步行导航；否则开始公交导航"],
            en=[f"Check the walk to '{name}' in Maps: if it takes at most {limit} minutes start "
                "walking navigation, otherwise start transit navigation",
                f"Going to '{name}': walk (start walking navigation) if it is within {limit} "
                "minutes on foot, else take public transit (start transit navigation)",
                f"If walking to '{name}' takes no more than {limit} minutes, start walking "
                "navigation in Maps; otherwise start public-transit navigation"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        trip, problems = one_added(diff, f"apps/{MAPS}/trips", "trip")
        if trip is None:
            return problems
        if trip["place_id"] != params["place_id"]:
            problems.append(f"navigated to {trip['place_id']}, not {params['place_id']}")
        if trip["mode"] != params["mode"]:
            problems.append(f"navigated by {trip['mode']}, expected {params['mode']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_place(ui, params["name"])
        yield ui.tap("route")
        yield ui.tap("tab_walk")
        walk = int(numbers_in(ui.text_of("duration"))[0])
        if walk > params["limit"]:
            yield ui.tap("tab_transit")
        yield ui.tap("start")


TEMPLATES = (
    SavePlace(),
    RouteDuration(),
    SetWork(),
    AddressToSms(),
    WalkOrTransit(),
    *CROSS_TEMPLATES,
)
