"""Task templates of 录音机 (Recorder): the single-app and question ones here, the cross-app ones
imported from `cross`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
import re
from collections.abc import Generator, Iterator
from typing import Any

from phonebuddy.phoneworld.apps.recorder.common import (
    MEMO_NAMES,
    RECS,
    RecorderTemplate,
    binned,
    find_rec,
    list_rows,
    live,
    memo_problems,
    more_action,
    open_rec,
    path,
    plain_name,
    rec_params,
    record_memo,
    seconds_of,
)
from phonebuddy.phoneworld.apps.recorder.content import FOLDERS, day_label, day_of
from phonebuddy.phoneworld.apps.recorder.cross import (
    MailToContact,
    MeetingChain,
    MemoFromSms,
    PhoneToContact,
    ShareOrStar,
    TimeToCalendar,
    TranscriptToNote,
    TranscriptToWeChat,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Duration, Expectation, Number, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction, Type

NEW_NAMES = ("周会纪要", "重要访谈", "灵感备份", "复习重点", "客户电话", "面试录音")
LONG_MINUTES = 10
MMSS = re.compile(r"\d\d:\d\d")


class RecordMemo(RecorderTemplate):
    """Record for N seconds (the oracle waits) and name the recording."""

    id = "recorder.record_memo"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"seconds": rng.choice((30, 45, 60, 90, 120)), "name": rng.choice(MEMO_NAMES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, name = params["seconds"], params["name"]
        return phrased(
            zh=[f"用录音机录一段{s}秒左右的录音，保存为“{name}”",
                f"帮我录{s}秒的音，名称起作“{name}”",
                f"录一条大约{s}秒的语音备忘，存成“{name}”"],
            en=[f"Record about {s} seconds with Recorder and save it as '{name}'",
                f"Please record {s} seconds of audio and name it '{name}'",
                f"Make a voice memo of roughly {s} seconds, saved as '{name}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return memo_problems(diff, params["seconds"], params["name"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from record_memo(ui, params["seconds"], params["name"])


class Rename(RecorderTemplate):
    id = "recorder.rename"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**rec_params(pick(rng, live(world))), "new": rng.choice(NEW_NAMES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        old, new = params["name"], params["new"]
        return phrased(
            zh=[f"把录音“{old}”重命名为“{new}”", f"录音机里的“{old}”改个名字，叫“{new}”",
                f"帮我把“{old}”这条录音的名称改成“{new}”"],
            en=[f"Rename the recording '{old}' to '{new}'",
                f"In Recorder, give '{old}' the new name '{new}'",
                f"Please change the name of the recording '{old}' to '{new}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        p = path(params["rec_id"])
        return expect_changes(diff, p, {f"{p}/name": params["new"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_rec(ui, params["name"], params["rec_id"])
        yield from more_action(ui, "rename")
        yield ui.tap("clear_new_name")
        yield Type(text=params["new"])
        yield ui.tap("rename_ok")


class Restore(RecorderTemplate):
    id = "recorder.restore"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return rec_params(pick(rng, binned(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"把最近删除里的录音“{name}”恢复回来", f"我误删了“{name}”这条录音，帮我恢复",
                f"从录音机的最近删除中还原“{name}”"],
            en=[f"Restore the recording '{name}' from Recently deleted",
                f"I deleted '{name}' by mistake: please bring the recording back",
                f"In Recorder, recover '{name}' from the recently deleted list"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        p = path(params["rec_id"])
        return expect_changes(diff, p, {f"{p}/deleted": False})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("录音机")
        yield from ui.scroll_to("open_trash")
        yield ui.tap("open_trash")
        yield ui.tap(f"restore_{params['rec_id']}")


class StarOrDelete(RecorderTemplate):
    """Conditional: a recording longer than 10 minutes is starred, a shorter one deleted."""

    id = "recorder.star_or_delete"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        long = rng.random() < 0.5
        pool = [r for r in live(world) if not r["starred"] and r["duration"] != LONG_MINUTES * 60
                and (r["duration"] > LONG_MINUTES * 60) == long]  # fmt: skip
        return rec_params(pick(rng, pool))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, m = params["name"], LONG_MINUTES
        return phrased(
            zh=[f"看看录音“{name}”有多长：超过{m}分钟就给它标星，否则把它删除",
                f"如果“{name}”这条录音长于{m}分钟，标个星；不然的话就删掉",
                f"“{name}”时长超过{m}分钟的话加星标，要是没超过就删除它"],
            en=[f"Check how long the recording '{name}' is: over {m} minutes, star it; otherwise "
                "delete it",
                f"If '{name}' is longer than {m} minutes, star it; if not, delete it",
                f"Star the recording '{name}' when it runs over {m} minutes, else delete it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        p = path(params["rec_id"])
        long = diff.value_before(p)["duration"] > LONG_MINUTES * 60
        return expect_changes(diff, p, {f"{p}/starred" if long else f"{p}/deleted": True})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_rec(ui, params["name"], params["rec_id"])
        length = seconds_of(ui.text_of("info").split()[1].split("｜")[0])
        if length > LONG_MINUTES * 60:
            yield ui.tap("star")
        else:
            yield from more_action(ui, "delete")
            yield ui.tap("confirm_delete")


class MoveSeveral(RecorderTemplate):
    """Long horizon: four recordings searched for and moved into one folder."""

    id = "recorder.move_four"
    difficulty = 28

    def sample(self, world: World, rng: random.Random) -> Params:
        folder = rng.choice(FOLDERS)
        chosen = pick(rng, [r for r in live(world) if r["folder"] != folder], 4)
        return {"folder": folder, "ids": [r["id"] for r in chosen],
                "names": [r["name"] for r in chosen]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f = params["folder"]
        zh = "、".join(f"“{n}”" for n in params["names"])
        en = ", ".join(f"'{n}'" for n in params["names"])
        return phrased(
            zh=[f"把这四条录音都移到“{f}”文件夹：{zh}", f"帮我整理录音：{zh}统统放进“{f}”",
                f"录音机里的{zh}，全部移动到文件夹“{f}”"],
            en=[f"Move these four recordings into the folder '{f}': {en}",
                f"Tidy up my recordings: put {en} all in '{f}'",
                f"In Recorder, move {en} to the folder '{f}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        expected = {f"{path(i)}/folder": params["folder"] for i in params["ids"]}
        return expect_changes(diff, RECS, expected)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("录音机")
        for i, (rec_id, name) in enumerate(zip(params["ids"], params["names"], strict=True)):
            if i:
                yield ui.back()
            yield from find_rec(ui, name, rec_id)
            yield from more_action(ui, "move")
            yield ui.tap(f"move_{params['folder']}")


def set_length(rec: dict[str, Any], seconds: int) -> None:
    """This task's own length of a recording (its file size kept in step)."""
    rate = rec["size"] // rec["duration"] if rec["duration"] else 4
    rec["duration"], rec["size"] = seconds, seconds * rate


def set_lengths(it: Interaction, lengths: dict[str, int]) -> None:
    for rec in it.data["recordings"]:
        if rec["id"] in lengths:
            set_length(rec, lengths[rec["id"]])


class FolderTotal(RecorderTemplate):
    """Aggregation: the recordings of a folder summed, to the nearest minute (their lengths
    this task's own)."""

    id = "recorder.folder_total"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        folder = rng.choice([f for f in FOLDERS if any(r["folder"] == f for r in live(world))])
        ids = [r["id"] for r in live(world) if r["folder"] == folder]
        lengths = {i: rng.randint(60, 3000) for i in ids}
        # A total of n minutes 30 seconds would round either way.
        while sum(lengths.values()) % 60 == 30:
            lengths[ids[0]] += 1
        return {"folder": folder, "lengths": lengths,
                "minutes": round(sum(lengths.values()) / 60)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        set_lengths(it, params["lengths"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f = params["folder"]
        return phrased(
            zh=[f"录音机“{f}”文件夹里的录音一共有多长？按分钟四舍五入回答",
                f"算一下“{f}”里所有录音的总时长，精确到分钟（四舍五入）",
                f"“{f}”文件夹中的录音加起来多少分钟？四舍五入到整分钟"],
            en=[f"How long are the recordings in Recorder's '{f}' folder in total? Round to the "
                "nearest minute",
                f"Work out the total length of all recordings in '{f}', to the nearest minute",
                f"How many minutes do the recordings in the '{f}' folder add up to, rounded to "
                "whole minutes?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        recs = diff.value_before(RECS)
        total = sum(r["duration"] for r in recs if r["folder"] == params["folder"]
                    and not r["deleted"])  # fmt: skip
        return Duration(round(total / 60))

    def wrong_answer(self, params: Params) -> str:
        return f"{params['minutes'] + 3}分钟"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("录音机")
        yield ui.tap(f"folder_{params['folder']}")
        rows: dict[str, list[str]] = {}
        yield from list_rows(ui, rows)
        total = sum(seconds_of(next(t for t in shown if MMSS.fullmatch(t)))
                    for shown in rows.values())  # fmt: skip
        yield Answer(text=f"{round(total / 60)}分钟")


def read_two_lengths(ui: OracleUI, params: Params) -> Generator[Action, None, list[int]]:
    """Open the recordings `first` and `second` in turn; their lengths in seconds."""
    yield ui.open("录音机")
    lengths = []
    for rec_id, name in zip(params["ids"], (params["first"], params["second"]), strict=True):
        yield from find_rec(ui, name, rec_id)
        lengths.append(seconds_of(ui.text_of("info").split()[1].split("｜")[0]))
        yield ui.back()
    return lengths


class LongerOfTwo(RecorderTemplate):
    """Comparison: which of two recordings is longer, and how long it is (their lengths this
    task's own)."""

    id = "recorder.longer_of_two"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = [r for r in live(world) if plain_name(r)]
        a, b = pick(rng, pool, 2)
        lengths = rng.sample(range(30, 3600), 2)
        return {"first": a["name"], "second": b["name"], "ids": [a["id"], b["id"]],
                "lengths": dict(zip((a["id"], b["id"]), lengths, strict=True))}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        set_lengths(it, params["lengths"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"], params["second"]
        return phrased(
            zh=[f"录音“{a}”和“{b}”哪个更长？它有多长（几分几秒）？",
                f"比较一下“{a}”与“{b}”这两条录音，哪条时长更长，时长是几分几秒",
                f"“{a}”和“{b}”，哪段录音时间长一些？长的那段多长？"],
            en=[f"Which recording is longer, '{a}' or '{b}', and how long is it (minutes and "
                "seconds)?",
                f"Compare the recordings '{a}' and '{b}': which one lasts longer, and for how "
                "many minutes and seconds?",
                f"Of '{a}' and '{b}', which recording runs longer, and how long does it run?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        a, b = (diff.value_before(path(i))["duration"] for i in params["ids"])
        longer, shorter = ((params["first"], params["second"]) if a > b
                           else (params["second"], params["first"]))  # fmt: skip
        return Together(Text((longer,), others=(shorter,), what="recording"),
                        Duration(seconds=max(a, b)))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        minutes, seconds = divmod(max(params["lengths"].values()), 60)
        return f"{params['first']}和{params['second']}一样长，都是{minutes}分{seconds}秒"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        lengths = yield from read_two_lengths(ui, params)
        longer = params["first"] if lengths[0] > lengths[1] else params["second"]
        minutes, seconds = divmod(max(lengths), 60)
        yield Answer(text=f"{longer}更长，{minutes}分{seconds}秒")


class PairLength(RecorderTemplate):
    """Aggregation to the second: two recordings' lengths added up ('7分12秒', '07:12')."""

    id = "recorder.pair_length"
    difficulty = 9
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        a, b = pick(rng, [r for r in live(world) if plain_name(r)], 2)
        return {"first": a["name"], "second": b["name"], "ids": [a["id"], b["id"]],
                "seconds": a["duration"] + b["duration"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a, b = params["first"], params["second"]
        return phrased(
            zh=[f"录音“{a}”和“{b}”加起来一共多长？精确到秒",
                f"把“{a}”和“{b}”两段录音的时长加起来，告诉我总共几分几秒",
                f"“{a}”加上“{b}”，这两条录音总时长是多少（到秒）？"],
            en=[f"How long are the recordings '{a}' and '{b}' together? Give it to the second",
                f"Add up the lengths of the recordings '{a}' and '{b}': how many minutes and "
                "seconds is that?",
                f"What is the total length, to the second, of '{a}' plus '{b}'?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Duration(seconds=sum(diff.value_before(path(i))["duration"] for i in params["ids"]))

    def wrong_answer(self, params: Params) -> str:
        minutes, seconds = divmod(params["seconds"] + 1, 60)
        return f"{minutes}分{seconds}秒"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        lengths = yield from read_two_lengths(ui, params)
        minutes, seconds = divmod(sum(lengths), 60)
        yield Answer(text=f"{minutes}分{seconds}秒")


class CountOnDay(RecorderTemplate):
    """Counting: how many recordings (outside 最近删除) were made on a given day (this task's
    own dates: a seeded 1 to 12 of them on that day)."""

    id = "recorder.count_on_day"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        recs = live(world)
        days = sorted({day_of(r["created"]) for r in recs})
        target = rng.choice(days)
        chosen = set(rng.sample([r["id"] for r in recs], rng.randint(1, 12)))
        shifts = {}  # a recording's id: the seconds its date moves by
        for r in recs:
            was = day_of(r["created"])
            if r["id"] in chosen:
                now = target
            elif was == target:
                now = rng.choice([d for d in days if d != target])
            else:
                continue
            if now != was:
                shifts[r["id"]] = (now - was).days * 86400
        day = day_label(target)
        return {"day": day, "month": target.month, "date": target.day, "count": len(chosen),
                "shifts": shifts}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        for rec in it.data["recordings"]:
            rec["created"] += params["shifts"].get(rec["id"], 0)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        day, m, d = params["day"], params["month"], params["date"]
        en = f"{('March', 'April')[m - 3] if m in (3, 4) else m} {d}"
        return phrased(
            zh=[f"我{day}那天一共录了几条录音？（不算最近删除里的）",
                f"数一数录音机里{day}录制的录音有多少条，最近删除的不算",
                f"{day}当天的录音有几条？已删除的不计"],
            en=[f"How many recordings did I make on {en}? (Not counting recently deleted ones)",
                f"Count the recordings in Recorder made on {en}, leaving out recently deleted "
                "ones",
                f"How many recordings are from {en}? Deleted ones don't count"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        recs = diff.value_before(RECS)
        n = sum(1 for r in recs if not r["deleted"]
                and day_label(day_of(r["created"])) == params["day"])  # fmt: skip
        return Number(n, unit="条")

    def wrong_answer(self, params: Params) -> str:
        return f"{params['count'] + 1}条"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("录音机")
        rows: dict[str, list[str]] = {}
        yield from list_rows(ui, rows)
        n = sum(any(t.startswith(params["day"] + " ") for t in shown) for shown in rows.values())
        yield Answer(text=f"{n}条")


TEMPLATES: tuple[TaskTemplate, ...] = (
    RecordMemo(),
    Rename(),
    Restore(),
    StarOrDelete(),
    MoveSeveral(),
    FolderTotal(),
    LongerOfTwo(),
    PairLength(),
    CountOnDay(),
    PhoneToContact(),
    TimeToCalendar(),
    TranscriptToNote(),
    TranscriptToWeChat(),
    MailToContact(),
    MemoFromSms(),
    MeetingChain(),
    ShareOrStar(),
)
