"""Cross-app templates of the messenger: an address a friend sent saved in Notes, a note's
text sent to a friend, the Wallet's balance told to a friend, and a tracking number from a
note added in the 裹裹快递 mini-program."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.apps.messenger.miniprograms import tasks as mini_tasks
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSENGER,
    NOTES,
    ROOT,
    MessengerTemplate,
    content,
    facts,
    friend_by_id,
    friend_fields,
    one_message,
    open_private_chat,
    shown_name,
)
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Text
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import WALLET_BALANCE
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

WALLET = "com.pw.wallet"
NOTES_LIST = f"apps/{NOTES}/notes"


class SaveAddressToNote(WritesValue, MessengerTemplate):
    id = "messenger.address_to_note"
    category = Category.CROSS_APP
    apps = (NOTES, MESSENGER)
    difficulty = 14
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        addresses = facts(world, "address")
        fact = rng.choice(addresses)
        friend = friend_by_id(world, fact["friend"])
        return {
            **friend_fields(friend),
            "address": fact["address"],
            "title": f"{shown_name(friend)}的地址",
            "addresses": [f["address"] for f in addresses],  # every one the chats hold
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, title = params["name"], params["title"]
        return phrased(
            zh=[f"把{name}在微信上发给我的地址存到备忘录，标题写“{title}”",
                f"{name}在微信上给我发过地址，帮我记到备忘录里，标题是“{title}”",
                f"新建一条备忘录，标题“{title}”，内容是{name}在微信上发我的地址"],
            en=[f"Save the address {name} sent me on WeChat as a note titled '{title}'",
                f"{name} sent me an address on WeChat; put it in a new note titled '{title}'",
                f"Create a note titled '{title}' containing the address {name} sent me on WeChat"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Text([params["address"]], others=params["addresses"], what="address")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["name"], params["friend"])
        yield from ui.scroll_to(text=f"我家地址：{params['address']}", scroll="messages")
        bubble = ui.find(text=f"我家地址：{params['address']}")
        address = bubble.text.removeprefix("我家地址：") if bubble else ""
        yield ui.open("备忘录")
        yield ui.tap("new_note")
        yield from ui.type_into("title", params["title"])
        yield from ui.type_into("body", address)
        yield ui.tap("save")


class NoteToFriend(WritesValue, MessengerTemplate):
    id = "messenger.note_to_friend"
    category = Category.CROSS_APP
    apps = (NOTES, MESSENGER)
    difficulty = 11
    written = f"{ROOT}/messages[*]/text"
    NOTE_TITLE = "聚会安排"
    NOTE_BODIES = (
        "周六晚6点，湖滨银泰in77 B区的外婆家，已订8人包间",
        "周日上午10点西湖文化广场集合，记得带水和防晒",
        "下周五团建：上午9点公司楼下大巴出发，去千岛湖",
    )

    def sample(self, world: World, rng: random.Random) -> Params:
        friend = rng.choice(list(content(world)["friends"]))
        return {**friend_fields(friend), "body": rng.choice(self.NOTE_BODIES)}

    def setup(self, it: Any, params: Params) -> None:
        it.app_data(NOTES)["notes"].insert(
            0,
            {"id": "note-party", "title": self.NOTE_TITLE, "body": params["body"], "pinned": False},
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, name = self.NOTE_TITLE, params["name"]
        return phrased(
            zh=[f"把备忘录“{title}”的内容用微信发给{name}",
                f"用微信把备忘录“{title}”里写的内容发给{name}",
                f"打开备忘录“{title}”，把里面的内容通过微信发给{name}"],
            en=[f"Send the text of the note '{title}' to {name} on WeChat",
                f"On WeChat, send {name} what the note '{title}' says",
                f"Copy the text of the note '{title}' and send it to {name} over WeChat"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        message, problems = one_message(diff, private_chat_id(params["friend"]))
        if message is None:
            return problems
        return problems + self.writing_problems(diff, params, message["text"], what="the message")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        notes = diff.value_before(NOTES_LIST)
        others = [*self.NOTE_BODIES, *(n["body"] for n in notes if n["body"])]
        return Text([params["body"]], others=others, what="note text")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=self.NOTE_TITLE)
        yield ui.tap(text=self.NOTE_TITLE)
        body = ui.find("note_body")
        text = body.text if body else ""
        yield from open_private_chat(ui, params["name"], params["friend"])
        yield from ui.type_into("input", text)
        yield ui.tap("send")


class TellBalance(WritesValue, MessengerTemplate):
    id = "messenger.tell_balance"
    category = Category.CROSS_APP
    apps = (WALLET, MESSENGER)
    difficulty = 10
    written = f"{ROOT}/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        return friend_fields(rng.choice(list(content(world)["friends"])))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"查一下钱包余额，再用微信告诉{name}我还有多少钱",
                f"用微信告诉{name}我钱包里还剩多少钱（先去钱包看看余额）",
                f"看看钱包里还有多少余额，然后微信发给{name}"],
            en=[f"Check the wallet balance and tell {name} on WeChat how much money I have left",
                f"Tell {name} on WeChat how much money is left in my wallet (check the balance "
                "first)",
                f"Look up my wallet balance and send the amount to {name} on WeChat"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        message, problems = one_message(diff, private_chat_id(params["friend"]))
        if message is None:
            return problems
        return problems + self.writing_problems(diff, params, message["text"], what="the message")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(diff.value_before(WALLET_BALANCE) / 100)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("钱包")
        node = ui.find(f"{WALLET}:id/balance")
        balance = node.text if node else ""
        yield from open_private_chat(ui, params["name"], params["friend"])
        yield from ui.type_into("input", f"我钱包里还有{balance}")
        yield ui.tap("send")


class ParcelFromNote(MessengerTemplate):
    id = "messenger.parcel_from_note"
    category = Category.CROSS_APP
    apps = (NOTES, MESSENGER)
    difficulty = 13
    NOTE_TITLE = "待收快递"

    def sample(self, world: World, rng: random.Random) -> Params:
        parcel = rng.choice(list(content(world)["mini"]["parcels"]["parcels"][7:]))
        return {"number": str(parcel["id"]), "courier": str(parcel["courier"])}

    def setup(self, it: Any, params: Params) -> None:
        body = f"{params['courier']} {params['number']}（网购的书）"
        it.app_data(NOTES)["notes"].insert(
            0, {"id": "note-parcel", "title": self.NOTE_TITLE, "body": body, "pinned": False}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = self.NOTE_TITLE
        return phrased(
            zh=[f"备忘录“{title}”里记着一个快递单号，把它添加到微信「裹裹快递」小程序的我的快递里",
                f"把备忘录“{title}”里的快递单号加到微信「裹裹快递」小程序的我的快递中",
                f"打开备忘录“{title}”找到快递单号，再去微信「裹裹快递」小程序把它添加到我的快递"],
            en=[f"The note '{title}' holds a tracking number; add it to 'My parcels' in the "
                "裹裹快递 mini-program in WeChat",
                f"Add the tracking number from the note '{title}' to 'My parcels' in WeChat's "
                "裹裹快递 mini-program",
                f"Find the tracking number in the note '{title}', then add it to 'My parcels' in "
                "the 裹裹快递 mini-program on WeChat"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        tracked, problems = one_added(diff, f"{ROOT}/mini/parcels/tracked", "tracked parcel")
        if tracked is not None and tracked["number"] != params["number"]:
            problems.append(f"added {tracked['number']}, expected {params['number']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=self.NOTE_TITLE)
        yield ui.tap(text=self.NOTE_TITLE)
        body = ui.find("note_body")
        number = next(
            (
                w
                for w in (body.text if body else "").replace("（", " ").split()
                if w[:2].isalpha() and w[2:].isdigit()
            ),
            "",
        )
        yield from mini_tasks.track_number(ui, number)


TEMPLATES: tuple[TaskTemplate, ...] = (
    SaveAddressToNote(),
    NoteToFriend(),
    TellBalance(),
    ParcelFromNote(),
)
