"""What the 录音机 templates share: content look-ups, oracle steps and checks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.recorder.base import RECORDER
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Type, Wait

RECS = f"apps/{RECORDER}/recordings"
NUMERALS = set("0123456789一二三四五六七八九十")
MEMO_NAMES = ("买菜清单", "明早提醒", "会议要点", "快递取件", "健身计划", "读书感想", "家长会")
# The memo's length may overrun the asked seconds by the few actions between 开始 and 停止.
SLACK = 20
MAX_WAIT = 60  # the longest a single Wait action may last


def live(world: World) -> list[Any]:
    """The recordings outside 最近删除 after a reset."""
    return [r for r in world.content(RECORDER)["recordings"] if not r["deleted"]]


def binned(world: World) -> list[Any]:
    return [r for r in world.content(RECORDER)["recordings"] if r["deleted"]]


def meetings(world: World) -> list[Any]:
    return [r for r in live(world) if r["facts"]]


def plain_name(rec: Any) -> bool:
    """Whether the name has no digits or numerals (which would read as numbers in answers)."""
    return not set(rec["name"]) & NUMERALS


def rec_params(rec: Any) -> Params:
    return {"rec_id": rec["id"], "name": rec["name"]}


def path(rec_id: str) -> str:
    return f"{RECS}[{rec_id}]"


def open_rec(ui: OracleUI, name: str, rec_id: str) -> Iterator[Action]:
    """Open 录音机, search the name and open the recording."""
    yield ui.open("录音机")
    yield from find_rec(ui, name, rec_id)


def find_rec(ui: OracleUI, name: str, rec_id: str) -> Iterator[Action]:
    """On 录音机's list: search the name (clearing an earlier search) and open it."""
    if ui.text_of("search"):
        yield ui.tap("clear_search")  # which leaves the field focused
        yield Type(text=name)
    else:
        yield from ui.type_into("search", name)
    yield ui.tap(f"rec_{rec_id}")


def more_action(ui: OracleUI, action: str) -> Iterator[Action]:
    """On a recording's page: ⋯ then the action (rename, move, delete)."""
    yield ui.tap("more")
    yield ui.tap(action)


def record_memo(ui: OracleUI, seconds: int, name: str) -> Iterator[Action]:
    """From anywhere: record for `seconds` and save the recording as `name`."""
    yield ui.open("录音机")
    yield ui.tap("record")
    yield ui.tap("rec_start")
    for waited in range(0, seconds, MAX_WAIT):
        yield Wait(time=min(MAX_WAIT, seconds - waited))
    yield ui.tap("rec_stop")
    yield ui.tap("clear_rec_name")  # the suggested 新录音 N; the field stays focused
    yield Type(text=name)
    yield ui.tap("rec_save")


def memo_problems(diff: StateDiff, seconds: int, name: str) -> list[str]:
    rec, problems = one_added(diff, RECS, "recording")
    if rec is None:
        return problems
    if rec["name"] != name:
        problems.append(f"the recording is named {rec['name']!r}, expected {name!r}")
    if not seconds <= rec["duration"] <= seconds + SLACK:
        problems.append(f"the recording lasts {rec['duration']} s, expected about {seconds} s")
    return problems


def list_rows(ui: OracleUI, seen: dict[str, list[str]]) -> Iterator[Action]:
    """Scroll the whole list once, collecting each recording row's texts by widget id."""
    prefix = f"{RECORDER}:id/rec_rec"
    while True:
        for node in ui.device.ui_tree().walk():
            if node.resource_id.startswith(prefix):
                found = texts(node)  # a row cut by the screen's edge shows fewer
                if len(found) >= len(seen.get(node.resource_id, [])):
                    seen[node.resource_id] = found
        if ui.device.scroll_room("content")[1] <= 0:
            return
        yield ui.page_down()


def seconds_of(mmss: str) -> int:
    minutes, seconds = mmss.split(":")
    return int(minutes) * 60 + int(seconds)


class RecorderTemplate(TaskTemplate):
    """A template of 录音机 alone."""

    category = Category.SINGLE_APP
    apps = (RECORDER,)
