"""Task templates of the Notes app."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.notes.app import NOTES_ON_NEW_DEVICE, SEED_NOTES
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

NOTES = "com.pw.notes"
NOTES_LIST = f"apps/{NOTES}/notes"
# Short to-do notes a task may add besides the usual ones.
EXTRA_TITLES = ("待办：交水电费", "取快递", "给妈妈打电话", "还信用卡", "买猫粮", "预约理发",
                "洗车", "续费视频会员", "换灯泡", "寄文件", "体检预约", "修自行车", "订机票",
                "交房租", "备份照片", "买生日礼物", "看牙医", "退货", "学英语单词", "整理衣柜",
                "给植物浇水", "缴停车费", "换手机膜", "约朋友吃饭")  # fmt: skip
TITLES = ("周末计划", "买菜", "快递单号", "健身打卡", "给房东的话", "项目想法", "读书清单")
BODIES = ("周六上午去图书馆", "西红柿三个，土豆两个", "SF1234567890", "今天跑了5公里",
          "下月房租按时转账", "做一个记账小程序", "《活着》《围城》")  # fmt: skip


def _existing_note(rng: random.Random) -> dict[str, Any]:
    """A note the setup makes sure is on the device (usually it already is)."""
    title, body = rng.choice(SEED_NOTES)
    return {"title": title, "body": body}


class _WithNote(TaskTemplate):
    """Templates that act on a note which the setup makes sure exists."""

    def setup(self, it: Any, params: Params) -> None:
        notes = it.app_data(NOTES)["notes"]
        if not any(n["title"] == params["title"] for n in notes):
            notes.append({"id": "note-task", "title": params["title"], "body": params["body"],
                          "pinned": False})  # fmt: skip

    def _open_note(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["title"])
        yield ui.tap(text=params["title"])


class CreateNote(TaskTemplate):
    id = "notes.create"
    category = Category.SINGLE_APP
    apps = (NOTES,)
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        i = rng.randrange(len(TITLES))
        return {"title": TITLES[i], "body": BODIES[i]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, body = params["title"], params["body"]
        return phrased(
            zh=[f"在备忘录里新建一条标题为“{title}”、内容为“{body}”的备忘录",
                f"帮我记一条备忘录，标题“{title}”，内容写“{body}”",
                f"新建备忘录：标题是“{title}”，正文是“{body}”"],
            en=[f"Create a note titled '{title}' with the text '{body}'",
                f"Please jot down a note called '{title}' that says '{body}'",
                f"In Notes, add a new note: title '{title}', text '{body}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        if note["body"].strip() != params["body"]:
            problems.append(f"body is {note['body']!r}, expected {params['body']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield ui.tap("new_note")
        yield from ui.type_into("title", params["title"])
        yield from ui.type_into("body", params["body"])
        yield ui.tap("save")


class DeleteNote(_WithNote):
    id = "notes.delete"
    category = Category.SINGLE_APP
    apps = (NOTES,)
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return _existing_note(rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"删除备忘录“{title}”", f"帮我把“{title}”这条备忘录删掉",
                f"备忘录“{title}”不需要了，删了吧"],
            en=[f"Delete the note '{title}'", f"Please remove the note '{title}'",
                f"I don't need the note '{title}' anymore; delete it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = diff.removed(NOTES_LIST)
        titles = [n["title"] for n in removed]
        return [] if titles == [params["title"]] else [f"deleted {titles}, expected only "
                                                       f"{params['title']!r}"]  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self._open_note(ui, params)
        yield ui.tap("delete")
        yield ui.tap("confirm_delete")


class PinNote(_WithNote):
    id = "notes.pin"
    category = Category.SINGLE_APP
    apps = (NOTES,)
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        return _existing_note(rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"把备忘录“{title}”置顶", f"帮我置顶“{title}”这条备忘录",
                f"在备忘录里把“{title}”固定到最上面"],
            en=[f"Pin the note '{title}' to the top", f"Please pin the note '{title}'",
                f"In Notes, keep '{title}' pinned at the top of the list"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = []
        pinned = [c for c in diff.touched(NOTES_LIST) if c.path.endswith("/pinned")]
        notes = {n["id"]: n for n in diff.after["apps"][NOTES]["notes"]}
        targets = [c for c in pinned if notes[c.path.split("[")[1].split("]")[0]]["title"]
                   == params["title"] and c.after is True]  # fmt: skip
        if len(targets) != 1 or len(pinned) != 1:
            problems.append(f"expected exactly {params['title']!r} to become pinned")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self._open_note(ui, params)
        yield ui.tap("pin")


class ReadNote(_WithNote):
    id = "notes.read"
    category = Category.SINGLE_APP
    apps = (NOTES,)
    difficulty = 4
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return _existing_note(rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"备忘录“{title}”里写了什么？", f"帮我看看“{title}”这条备忘录的内容",
                f"打开备忘录“{title}”，告诉我里面记的是什么"],
            en=[f"What does the note '{title}' say?", f"Check what's written in the note '{title}'",
                f"Open the note '{title}' and tell me what it says"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        bodies = [note["body"] for note in diff.before["apps"][NOTES]["notes"] if note["body"]]
        return Text([params["body"]], others=bodies, what="note text")

    def wrong_answer(self, params: Params) -> str:
        return params["title"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self._open_note(ui, params)
        node = ui.find("note_body")
        yield Answer(text=node.text if node else "")


class CountNotes(TaskTemplate):
    id = "notes.count"
    category = Category.SINGLE_APP
    apps = (NOTES,)
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's own notes: a seeded 1 to 24, some of the usual ones kept, others added
        count = rng.randint(1, 24)
        keep = rng.randint(max(0, count - len(EXTRA_TITLES)), min(NOTES_ON_NEW_DEVICE, count))
        titles = rng.sample(EXTRA_TITLES, count - keep)
        return {"keep": keep, "titles": titles, "count": count}

    def setup(self, it: Any, params: Params) -> None:
        notes = it.app_data(NOTES)["notes"]
        del notes[params["keep"] :]
        for i, title in enumerate(params["titles"]):
            notes.append({"id": f"note-extra-{i}", "title": title, "body": "",
                          "pinned": False})  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["备忘录里一共有几条备忘录？", "数一下备忘录里总共有多少条",
                "我现在存了多少条备忘录？"],
            en=["How many notes are in Notes?", "Count the notes in the Notes app",
                "How many notes do I have saved in total?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(len(diff.value_before(NOTES_LIST)), unit="条")

    def wrong_answer(self, params: Params) -> str:
        return str(params["count"] + 1)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        seen: set[str] = set()
        while True:
            seen |= {node.resource_id for node in ui.device.ui_tree().walk()
                     if node.resource_id.startswith(f"{NOTES}:id/note_")}  # fmt: skip
            if ui.device.scroll_room("content")[1] <= 0:
                break
            yield ui.page_down()
        yield Answer(text=str(len(seen)))


TEMPLATES: tuple[TaskTemplate, ...] = (CreateNote(), DeleteNote(), PinNote(), ReadNote(),
                                       CountNotes())  # fmt: skip
