"""Circle templates with other apps: the place a post recommends saved in Maps, the transit time
to it, a draft in Notes published, and an SMS -> Maps -> Circle chain that posts an address."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.circle.app import CIRCLE
from phonebuddy.phoneworld.apps.circle.tasks_social import (
    NEW_POSTS,
    new_post_problems,
    open_me,
    posts,
    publish,
)
from phonebuddy.phoneworld.apps.maps.app import MAPS, route
from phonebuddy.phoneworld.apps.maps.cross import (
    favourites_problems,
    open_place,
    route_minutes,
    sms_sender,
)
from phonebuddy.phoneworld.apps.messages.tasks import MESSAGES, add_incoming, open_thread
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Duration, Expectation
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import copy_text, paste_into
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

NOTES = "com.pw.notes"
DRAFT_TITLES = ("生活圈草稿", "笔记草稿", "想发的笔记")


def place_posts(world: World) -> list[Any]:
    return [p for p in posts(world) if p["place"]]


def maps_place(world: World, name: str) -> dict[str, Any]:
    return next(p for p in world.content(MAPS)["places"] if p["name"] == name)


def post_place(ui: OracleUI, title: str) -> Iterator[Action | str]:
    """Open a post from the feed and hand back the place its body names ('地点：X。')."""
    yield ui.open("生活圈")
    yield from ui.scroll_to(text=title)
    yield ui.tap(text=title)
    body = ui.text_of("body")
    if "地点：" not in body:
        raise OracleError(f"the post {title!r} names no place")
    yield body.split("地点：", 1)[1].split("。", 1)[0]


class PlaceFromPostToMaps(TaskTemplate):
    """Circle → Maps: the place a post recommends, saved in Maps."""

    id = "circle.place_to_maps"
    category = Category.CROSS_APP
    apps = (CIRCLE, MAPS)
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        post = pick(rng, place_posts(world))
        return {"title": post["title"], "place_id": maps_place(world, post["place"])["id"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"生活圈笔记“{t}”里推荐的地方，在地图里收藏一下",
                f"把生活圈“{t}”这篇笔记提到的地点加到地图收藏夹",
                f"看看笔记“{t}”说的是哪儿，然后去地图收藏它"],
            en=[f"Save in Maps the place recommended in the Circle post '{t}'",
                f"Add the place mentioned in the Circle post '{t}' to my Maps favourites",
                f"See which place the post '{t}' is about, then favourite it in Maps"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return favourites_problems(diff, [params["place_id"]])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        place = ""
        for step in post_place(ui, params["title"]):
            if isinstance(step, str):
                place = step
            else:
                yield step
        yield ui.open("地图")
        yield from ui.scroll_to(text=place)
        yield ui.tap(text=place)
        yield ui.tap("favourite")


class TransitToPostPlace(TaskTemplate):
    """Circle → Maps, a question: how long public transit takes to a post's place."""

    id = "circle.transit_to_post_place"
    category = Category.CROSS_APP
    apps = (CIRCLE, MAPS)
    difficulty = 9
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        post = pick(rng, place_posts(world))
        place = maps_place(world, post["place"])
        return {"title": post["title"], "place_id": place["id"],
                "minutes": route(place, "transit")[1]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"生活圈笔记“{t}”推荐的地方，坐公交过去要多久？",
                f"我想去“{t}”这篇笔记里的地点，用地图查查公交要几分钟",
                f"笔记“{t}”提到的地方，公交路线要多少分钟？"],
            en=[f"How long does public transit take to the place in the Circle post '{t}'?",
                f"I want to visit the place from the post '{t}': check the transit minutes in "
                "Maps",
                f"How many minutes by public transit to the place the post '{t}' mentions?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Duration(params["minutes"])

    def wrong_answer(self, params: Params) -> str:
        return f"{params['minutes'] + 9}分钟"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        for step in post_place(ui, params["title"]):
            if not isinstance(step, str):
                yield step
        yield from open_place(ui, params["place_id"])
        minutes = 0
        for step in route_minutes(ui, "transit"):
            if isinstance(step, int):
                minutes = step
            else:
                yield step
        yield Answer(text=f"公交{minutes}分钟")


class PublishDraftFromNote(TaskTemplate):
    """Notes → Circle: a draft kept in a note (标题/正文/话题) published as written."""

    id = "circle.publish_draft_from_note"
    category = Category.CROSS_APP
    apps = (NOTES, CIRCLE)
    difficulty = 13

    def sample(self, world: World, rng: random.Random) -> Params:
        title, tag, body = rng.choice(NEW_POSTS)
        return {"note": rng.choice(DRAFT_TITLES), "title": title, "tag": tag, "body": body}

    def setup(self, it: Interaction, params: Params) -> None:
        text = f"标题：{params['title']}\n正文：{params['body']}\n话题：{params['tag']}"
        it.app_data(NOTES)["notes"].insert(
            0, {"id": "note-draft", "title": params["note"], "body": text, "pinned": False}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["note"]
        return phrased(
            zh=[f"把备忘录“{n}”里写好的笔记发到生活圈（标题、正文、话题都照着写）",
                f"备忘录“{n}”是我写的生活圈草稿，帮我按里面的标题、正文和话题发布出去",
                f"照着备忘录“{n}”的内容在生活圈发一篇笔记"],
            en=[f"Publish on Circle the post drafted in the note '{n}' (title, text and topic as "
                "written)",
                f"The note '{n}' is my Circle draft: post it with its title, text and topic",
                f"Post on Circle exactly what the note '{n}' drafts"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return new_post_problems(diff, params["title"], params["tag"], params["body"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["note"])
        yield ui.tap(text=params["note"])
        lines = dict(
            line.split("：", 1) for line in ui.text_of(f"{NOTES}:id/note_body").splitlines()
        )
        if not {"标题", "正文", "话题"} <= lines.keys():
            raise OracleError(f"the note {params['note']!r} is no draft")
        yield from open_me(ui)
        yield from publish(ui, lines["标题"], lines["话题"], lines["正文"])


class AddressPostChain(TaskTemplate):
    """Messages → Maps → Circle, long: a friend asks for a post recommending a place, with its
    address copied from Maps."""

    id = "circle.address_post_chain"
    category = Category.CROSS_APP
    apps = (MESSAGES, MAPS, CIRCLE)
    difficulty = 19

    def sample(self, world: World, rng: random.Random) -> Params:
        person = sms_sender(world, rng)
        place = pick(rng, [p for p in world.content(MAPS)["places"] if p["category"] == "餐厅"])
        return {"from": person["name"], "from_phone": person["phone"], "place_id": place["id"],
                "name": place["name"], "address": place["address"],
                "title": f"推荐{place['name']}"[:20]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["from_phone"], params["from"]),
                     f"帮我在生活圈发个笔记推荐{params['name']}吧，标题就叫“{params['title']}”，"
                     "正文放它的地址，话题选美食", ago=1200, key="circle-chain")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        who = params["from"]
        return phrased(
            zh=[f"照{who}短信里说的，在生活圈发一篇笔记（地址从地图里查）",
                f"{who}发短信让我发一篇生活圈笔记，按他的要求发，地址去地图复制",
                f"看{who}的短信，用地图查到地址后，在生活圈发出他要的笔记"],
            en=[f"Do what {who}'s SMS asks: publish the Circle post, with the address from Maps",
                f"{who} texted me to post something on Circle: post it as asked, copying the "
                "address from Maps",
                f"Read {who}'s text, look the address up in Maps, and publish the post they "
                "want on Circle"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return new_post_problems(diff, params["title"], "美食", params["address"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["from"])
        yield from open_place(ui, params["place_id"])
        yield from copy_text(ui, "address")
        yield from open_me(ui)
        yield ui.tap("compose")
        yield from ui.type_into("title", params["title"])
        yield from paste_into(ui, "body")
        yield ui.back()  # the keyboard
        yield ui.tap("tag_美食")
        yield ui.tap("publish")


CROSS_TEMPLATES: tuple[TaskTemplate, ...] = (
    PlaceFromPostToMaps(),
    TransitToPostPlace(),
    PublishDraftFromNote(),
    AddressPostChain(),
)
