"""The seeded recordings of 录音机: meetings, lectures, interviews, ideas and calls, each with a
transcript that mentions times, phone numbers, amounts or rooms (the facts are kept beside the
text so that templates can ask about them)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

FOLDERS = ("会议记录", "课堂", "采访", "灵感", "通话")
MEETINGS = ("项目例会", "需求评审会", "季度复盘会", "预算讨论会", "产品周会", "客户对接会",
            "招聘协调会", "市场策划会")  # fmt: skip
LECTURES = ("高等数学第三讲", "英语听力课", "经济学原理", "数据结构复习课", "心理学导论",
            "摄影入门课")  # fmt: skip
INTERVIEWS = ("社区老人访谈", "创业者专访", "用户调研访谈", "校友访谈", "咖啡店店主采访")
IDEAS = ("歌词灵感", "周末计划", "新产品点子", "小说开头", "旅行想法", "健身打卡")
CALLS = ("与房东通话", "与快递员通话", "与客服通话", "与妈妈通话", "与物业通话")
PEOPLE = ("蒋文博", "邵雨桐", "钟子航", "尹若溪", "龚嘉怡", "范志远", "汤思琪", "严立群")
ROOMS = ("301", "512", "806", "1203", "A207", "B415")
EVENT_TITLES = ("方案评审", "合同签约", "版本发布会", "客户回访", "验收会议", "培训分享")
MOBILE_PREFIXES = ("135", "138", "139", "150", "158", "177", "186", "189")
FILLER = (
    "大家先把手头的问题过一遍。", "这部分内容后面还会再讲到。", "我觉得这个方向是对的。",
    "细节我们会后再单独沟通。", "请大家注意时间安排。", "这一点非常重要，一定要记下来。",
    "有问题可以随时提出来。", "我们先说到这里。",
)  # fmt: skip
PER_FOLDER = (8, 6, 5, 6, 5)
# A few seconds per stored kilobyte at the default quality (标准: 32 kbps = 4 KB a second).
KB_PER_SECOND = 4


def day_of(epoch: int) -> dt.date:
    return dt.datetime.fromtimestamp(epoch, dt.timezone(dt.timedelta(hours=8))).date()


def when_label(epoch: int) -> str:
    """'3月12日 14:30' in Beijing time."""
    t = dt.datetime.fromtimestamp(epoch, dt.timezone(dt.timedelta(hours=8)))
    return f"{t.month}月{t.day}日 {t.hour:02d}:{t.minute:02d}"


def day_label(day: dt.date) -> str:
    return f"{day.month}月{day.day}日"


def mmss(seconds: int) -> str:
    return f"{seconds // 60:02d}:{seconds % 60:02d}"


def size_label(kb: int) -> str:
    return f"{kb / 1024:.1f}MB" if kb >= 1024 else f"{kb}KB"


def _meeting(rng: random.Random, title: str) -> tuple[str, dict[str, Any]]:
    person = rng.choice(PEOPLE)
    phone = rng.choice(MOBILE_PREFIXES) + f"{rng.randrange(10**8):08d}"
    day = dt.date(2026, 4, 1) + dt.timedelta(days=rng.randrange(0, 28))
    hour = rng.randrange(9, 17)
    event = rng.choice(EVENT_TITLES)
    room = rng.choice(ROOMS)
    amount = rng.randrange(3, 60) * 1000
    facts = {"person": person, "phone": phone, "date": day.isoformat(),
             "start": f"{hour:02d}:00", "end": f"{hour + 1:02d}:00", "event": event,
             "room": room, "amount": amount}  # fmt: skip
    text = (
        f"今天的{title}主要讨论下一阶段的安排。{rng.choice(FILLER)}"
        f"{event}定在{day.month}月{day.day}日{hour:02d}:00到{hour + 1:02d}:00，"
        f"地点是{room}会议室。本次预算为{amount}元。"
        f"对接人是{person}，手机号{phone}，有问题直接联系。{rng.choice(FILLER)}"
    )
    return text, facts


def _plain(rng: random.Random, title: str) -> tuple[str, dict[str, Any]]:
    hour = rng.randrange(8, 21)
    text = (f"关于{title}，{rng.choice(FILLER)}{rng.choice(FILLER)}"
            f"下次约在{hour:02d}:30再聊。{rng.choice(FILLER)}")  # fmt: skip
    return text, {}


def build(rng: random.Random) -> dict[str, Any]:
    names = (MEETINGS, LECTURES, INTERVIEWS, IDEAS, CALLS)
    recordings: list[dict[str, Any]] = []
    for folder, pool, count in zip(FOLDERS, names, PER_FOLDER, strict=True):
        for title in rng.sample(pool, count):
            seconds = (
                rng.randrange(40, 3600)
                if folder in ("会议记录", "课堂")
                else rng.randrange(15, 1500)
            )
            text, facts = _meeting(rng, title) if folder == "会议记录" else _plain(rng, title)
            recordings.append({"name": title, "folder": folder, "duration": seconds,
                               "size": seconds * KB_PER_SECOND, "transcript": text,
                               "facts": facts})  # fmt: skip
    rng.shuffle(recordings)
    # Several recordings share a day, so "how many on <day>" needs counting.
    days = [rng.randrange(1, 15) for _ in recordings]
    for i, (rec, ago) in enumerate(zip(recordings, days, strict=True)):
        rec["id"] = f"rec-{i + 1:02d}"
        start = EPOCH_START - ago * 86400 + rng.randrange(-1, 10) * 3600 + rng.randrange(60) * 60
        rec["created"] = start
        rec["starred"] = rng.random() < 0.2
        rec["deleted"] = False
    for rec in rng.sample([r for r in recordings if not r["facts"]], 3):
        rec["deleted"] = True
    recordings.sort(key=lambda r: -r["created"])
    return {"recordings": recordings}
