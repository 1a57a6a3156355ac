"""Maps templates with other apps: a meeting place from an SMS saved, a route's minutes sent
back by SMS, a place shared to WeChat, a question answered across two routes, a chain over SMS,
Maps and WeChat, and a weekend list in a note saved place by place."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.maps.app import MAPS, MODES, route
from phonebuddy.phoneworld.apps.messages.tasks import (
    MESSAGES,
    add_incoming,
    address_book,
    check_one_sms,
    message_texts,
    open_thread,
    sent_messages,
    write_in_conversation,
)
from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Duration, Expectation, Text, Together, numbers_in
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import friend_with_chat, share_sheet_to_friend
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

MESSENGER = "com.pw.messenger"
NOTES = "com.pw.notes"
MODE_NAMES = {key: label for key, label, _, _ in MODES}
MODE_EN = {"drive": "drive", "transit": "public transit", "walk": "walk", "bike": "bike ride"}
FAVOURITES = f"apps/{MAPS}/favourites"
WEEKEND_TITLES = ("周末去哪儿", "这周末的安排", "假期打卡清单")


def places(world: World) -> tuple[Any, ...]:
    return tuple(world.content(MAPS)["places"])


def place_params(place: Any) -> Params:
    return {"place_id": place["id"], "name": place["name"], "address": place["address"]}


def open_place(ui: OracleUI, place_id: str) -> Iterator[Action]:
    """Maps' home (back from wherever Maps was left), then the place's page."""
    yield ui.open("地图")
    for screen_button in ("start", "route"):  # the route page, then the place's page
        if ui.visible(screen_button):
            yield ui.back()
    yield from ui.scroll_to(f"place_{place_id}")
    yield ui.tap(f"place_{place_id}")


def route_minutes(ui: OracleUI, mode: str) -> Iterator[Action | int]:
    """On a place's page: open its route, pick `mode`, and hand back the minutes shown."""
    yield ui.tap("route")
    if mode != "drive":
        yield ui.tap(f"tab_{mode}")
    yield int(numbers_in(ui.text_of("duration"))[0])


def back_to_thread(ui: OracleUI, name: str) -> Iterator[Action]:
    """Return to 信息: it reopens in the thread left open; otherwise open `name`'s thread."""
    yield ui.open("信息")
    if not ui.visible("reply"):
        yield from ui.scroll_to(text=name)
        yield ui.tap(text=name)


def favourites_problems(diff: StateDiff, expected: list[str]) -> list[str]:
    """The favourites became `expected` (in any order), and nothing else of Maps changed but
    what browsing leaves behind."""
    before = diff.value_before(FAVOURITES) or []
    after = diff.value_after(FAVOURITES) or []
    diff.touched(FAVOURITES)
    if sorted(after) != sorted([*before, *expected]):
        return [f"the Maps favourites are {after}, expected {before} plus {expected}"]
    return []


def sms_sender(world: World, rng: random.Random) -> dict[str, Any]:
    return dict(pick(rng, address_book(world)))


class MeetingPlaceFromSms(TaskTemplate):
    """Messages → Maps: a friend names where to meet; the place is saved in Maps."""

    id = "maps.meeting_place_from_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, MAPS)
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        person = sms_sender(world, rng)
        return {**place_params(pick(rng, places(world))), "from": person["name"],
                "from_phone": person["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["from_phone"], params["from"]),
                     f"周六下午三点在{params['name']}碰头，别迟到哈", ago=1800,
                     key="maps-meet")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        who = params["from"]
        return phrased(
            zh=[f"{who}发短信说了周六碰头的地方，在地图里把那个地方收藏起来",
                f"看看{who}短信里约的见面地点，去地图收藏它",
                f"把{who}短信里提到的碰头地点加到地图收藏夹"],
            en=[f"{who} texted where we meet on Saturday: save that place in Maps",
                f"Check the meeting place in {who}'s SMS and favourite it in Maps",
                f"Add the place {who} mentioned in their text to my Maps favourites"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return favourites_problems(diff, [params["place_id"]])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["from"])
        said = next((text for text in message_texts(ui) if "碰头" in text), None)
        if said is None:
            raise OracleError(f"no meeting place in {params['from']}'s thread")
        name = said.removeprefix("周六下午三点在").split("碰头")[0]
        yield ui.open("地图")
        yield from ui.scroll_to(text=name)
        yield ui.tap(text=name)
        yield ui.tap("favourite")


class RouteMinutesBySms(WritesValue):
    """Messages → Maps → Messages: a friend asks how long the trip takes; the reply states the
    route's minutes (and no other duration)."""

    id = "maps.route_minutes_by_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, MAPS)
    difficulty = 11
    written = f"apps/{MESSAGES}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        person = sms_sender(world, rng)
        mode = rng.choice(("drive", "transit", "bike"))
        place = pick(rng, places(world))
        return {**place_params(place), "mode": mode, "label": MODE_NAMES[mode],
                "from": person["name"], "from_phone": person["phone"],
                "minutes": route(place, mode)[1]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["from_phone"], params["from"]),
                     f"你{params['label']}到{params['name']}大概要多久？", ago=600,
                     key="maps-howlong")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        who = params["from"]
        return phrased(
            zh=[f"{who}短信问我路上要多久，用地图查一下，回短信告诉他几分钟",
                f"回复{who}的短信：按他问的出行方式，用地图算出要多少分钟",
                f"{who}发短信问路程时间，去地图查好后短信回复分钟数"],
            en=[f"{who} asked by SMS how long the trip takes: check Maps and text back the "
                "minutes",
                f"Reply to {who}'s text with the number of minutes Maps gives for the trip and "
                "mode they asked about",
                f"{who} wants to know the travel time: look it up in Maps and answer by SMS"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Duration(params["minutes"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["from_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["from"])
        yield from open_place(ui, params["place_id"])
        minutes = 0
        for step in route_minutes(ui, params["mode"]):
            if isinstance(step, int):
                minutes = step
            else:
                yield step
        yield from back_to_thread(ui, params["from"])
        yield from write_in_conversation(ui, f"{params['label']}大概{minutes}分钟")


class SharePlaceToWechat(TaskTemplate):
    """Maps → the share sheet → WeChat: a place's card sent to a friend."""

    id = "maps.share_place_wechat"
    category = Category.CROSS_APP
    apps = (MAPS, MESSENGER)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**place_params(pick(rng, places(world))), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, friend = params["name"], params["friend"]
        return phrased(
            zh=[f"在地图里把“{name}”分享到微信发给{friend}",
                f"把地图上的“{name}”通过微信分享给{friend}",
                f"{friend}不知道“{name}”在哪，从地图分享给他（微信）"],
            en=[f"Share '{name}' from Maps to {friend} on WeChat",
                f"Send {friend} the Maps place '{name}' through WeChat",
                f"{friend} doesn't know where '{name}' is: share it from Maps via WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        sent = diff.added(f"apps/{MESSENGER}/messages")
        chat = private_chat_id(params["friend_id"])
        cards = [m for m in sent if m["chat"] == chat and m["kind"] == "card"]
        problems = [f"a message went to {m['chat']}, not {chat}" for m in sent if m["chat"] != chat]
        if len(cards) != 1 or len(sent) != 1:
            return [*problems, f"expected one shared card to {params['friend']}, sent {sent}"]
        card = cards[0]["card"]
        if (card["title"], card["text"]) != (params["name"], params["address"]):
            problems.append(f"shared {card}, not the place {params['name']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_place(ui, params["place_id"])
        yield ui.tap("share")
        yield from share_sheet_to_friend(ui, params["friend_id"])


class CloserOnFoot(TaskTemplate):
    """Question across two routes: which of two places is the shorter walk, and by how much."""

    id = "maps.closer_on_foot"
    category = Category.SINGLE_APP
    apps = (MAPS,)
    difficulty = 11
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        while True:
            first, second = pick(rng, places(world), 2)
            a, b = route(first, "walk")[1], route(second, "walk")[1]
            if a != b:
                break
        return {"first_id": first["id"], "first": first["name"], "first_min": a,
                "second_id": second["id"], "second": second["name"], "second_min": b}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"], params["second"]
        return phrased(
            zh=[f"步行去“{a}”和“{b}”，哪个更近？近几分钟？用地图查",
                f"用地图比一比：走路到“{a}”和到“{b}”哪个用时短，差多少分钟",
                f"“{a}”和“{b}”，哪个走过去更快？快多少分钟？"],
            en=[f"On foot, which is closer, '{a}' or '{b}', and by how many minutes? Use Maps",
                f"Compare in Maps: is the walk to '{a}' or to '{b}' shorter, and by how much?",
                f"Which can I walk to faster, '{a}' or '{b}'? How many minutes faster?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        a, b = params["first_min"], params["second_min"]
        near, far = params["first"], params["second"]
        if b < a:
            near, far = far, near
        return Together(Text([near], others=[far], what="place"), Duration(abs(a - b)))

    def wrong_answer(self, params: Params) -> str:
        a, b = params["first_min"], params["second_min"]
        far = params["second"] if a < b else params["first"]
        return f"{far}，近{abs(a - b)}分钟"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        minutes: dict[str, int] = {}
        for key in ("first", "second"):
            yield from open_place(ui, params[f"{key}_id"])
            for step in route_minutes(ui, "walk"):
                if isinstance(step, int):
                    minutes[key] = step
                else:
                    yield step
        near = "first" if minutes["first"] < minutes["second"] else "second"
        gap = abs(minutes["first"] - minutes["second"])
        yield Answer(text=f"{params[near]}，近{gap}分钟")


class DinnerChain(WritesValue):
    """Messages → Maps → WeChat → Messages: a friend fixes the restaurant; its address goes to
    a WeChat friend, and the drive's minutes back to the friend by SMS."""

    id = "maps.dinner_chain"
    category = Category.CROSS_APP
    apps = (MESSAGES, MAPS, MESSENGER)
    difficulty = 22
    written = f"apps/{MESSAGES}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        person = sms_sender(world, rng)
        place = pick(rng, [p for p in places(world) if p["category"] == "餐厅"])
        return {**place_params(place), **friend_with_chat(world, rng), "from": person["name"],
                "from_phone": person["phone"], "minutes": route(place, "drive")[1]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["from_phone"], params["from"]),
                     f"晚饭定在{params['name']}了！你把地址微信发给{params['friend']}，"
                     "再告诉我你开车过去要多久", ago=900, key="maps-dinner")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        who = params["from"]
        return phrased(
            zh=[f"照{who}的短信办：把餐厅地址从地图查出来用微信发过去，再短信回复{who}开车要几分钟",
                f"{who}发短信交代了两件事，用地图查好地址和车程，一件件办完",
                f"看{who}刚发的短信，按要求用微信转发餐厅地址，并回短信说开车要多久"],
            en=[f"Do what {who}'s SMS asks: look up the restaurant's address in Maps, send it on "
                f"WeChat, then text {who} how many minutes the drive takes",
                f"{who} texted me two things to do: find the address and the drive time in Maps "
                "and do both",
                f"Read {who}'s latest text, forward the restaurant's address on WeChat as asked, "
                "and reply by SMS with the driving time"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Duration(params["minutes"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        sent = diff.added(f"apps/{MESSENGER}/messages")
        chat = private_chat_id(params["friend_id"])
        problems = [f"a WeChat message went to {m['chat']}, not {chat}" for m in sent
                    if m["chat"] != chat]  # fmt: skip
        said = " ".join(m["text"] + " " + m.get("card", {}).get("text", "") for m in sent
                        if m["chat"] == chat)  # fmt: skip
        if params["address"] not in said:
            problems.append(f"{params['friend']} was not sent the address {params['address']}")
        sms = check_one_sms(diff, params["from_phone"])
        if sms:
            return problems + sms
        [(_, text)] = sent_messages(diff)
        return problems + self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["from"])
        yield from SharePlaceToWechat().solve(ui, params)
        yield from open_place(ui, params["place_id"])
        minutes = 0
        for step in route_minutes(ui, "drive"):
            if isinstance(step, int):
                minutes = step
            else:
                yield step
        yield from back_to_thread(ui, params["from"])
        yield from write_in_conversation(ui, f"开车{minutes}分钟左右")


class WeekendListFromNote(TaskTemplate):
    """Notes → Maps, long: every place of a weekend list in a note saved in Maps."""

    id = "maps.weekend_list_from_note"
    category = Category.CROSS_APP
    apps = (NOTES, MAPS)
    difficulty = 22

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, places(world), 4)
        return {"title": rng.choice(WEEKEND_TITLES), "place_ids": [p["id"] for p in chosen],
                "names": [p["name"] for p in chosen]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        body = "\n".join(f"{i + 1}. {name}" for i, name in enumerate(params["names"]))
        it.app_data(NOTES)["notes"].insert(
            0, {"id": "note-weekend", "title": params["title"], "body": body, "pinned": False}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"把备忘录“{title}”里列的地方全部在地图里收藏",
                f"备忘录“{title}”列了几个想去的地方，帮我一个个加到地图收藏夹",
                f"打开备忘录“{title}”，里面每个地点都去地图收藏一下"],
            en=[f"Favourite in Maps every place listed in the note '{title}'",
                f"The note '{title}' lists places I want to visit: add each one to my Maps "
                "favourites",
                f"Open the note '{title}' and save every place in it to Maps"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return favourites_problems(diff, params["place_ids"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["title"])
        yield ui.tap(text=params["title"])
        body = ui.text_of(f"{NOTES}:id/note_body")
        names = [line.split(". ", 1)[1] for line in body.splitlines() if ". " in line]
        by_name = {p["name"]: p["id"] for p in places(ui.device.world)}
        if len(names) != 4 or any(name not in by_name for name in names):
            raise OracleError(f"the note lists {names}, not four known places")
        for name in names:
            yield from open_place(ui, by_name[name])
            yield ui.tap("favourite")


CROSS_TEMPLATES = (
    MeetingPlaceFromSms(),
    RouteMinutesBySms(),
    SharePlaceToWechat(),
    CloserOnFoot(),
    DinnerChain(),
    WeekendListFromNote(),
)
