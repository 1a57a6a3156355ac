"""What the Clock app's screens share: times and repeat days, the world cities, and the
look-up of alarms.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import Any

from phonebuddy.phoneworld.app import App
from phonebuddy.phoneworld.ui.widgets import Spacer

CLOCK = "com.pw.clock"
BEIJING_OFFSET_MINUTES = 480
WEEKDAYS = ("一", "二", "三", "四", "五", "六", "日")  # Monday first, as datetime.weekday()
WORKDAYS = [0, 1, 2, 3, 4]
WEEKEND = [5, 6]
TABS = (("alarm", "闹钟"), ("world", "世界时钟"), ("timer", "计时器"), ("stopwatch", "秒表"))
# Room below the last row of a list, so that scrolling can bring it fully into view.
END_SPACE = Spacer(60)
TIMER_PRESETS = (1, 3, 5, 10, 15, 30)
TIMER_MAX_MINUTES = 180

# hour, minute, label, repeat days; every seeded alarm rings at 07:00 or later
SEED_ALARMS = (
    (7, 0, "起床", WORKDAYS),
    (7, 30, "", WORKDAYS),
    (8, 30, "周末懒觉", WEEKEND),
    (9, 15, "", []),
    (12, 50, "午休结束", WORKDAYS),
    (18, 0, "下班打卡", WORKDAYS),
    (22, 30, "该睡觉了", [0, 1, 2, 3, 4, 5, 6]),
    (7, 45, "送孩子上学", [0, 2, 4]),
)
# id, Chinese name, English name, UTC offset in minutes (standard time)
CITIES = (
    ("london", "伦敦", "London", 0),
    ("paris", "巴黎", "Paris", 60),
    ("berlin", "柏林", "Berlin", 60),
    ("rome", "罗马", "Rome", 60),
    ("madrid", "马德里", "Madrid", 60),
    ("cairo", "开罗", "Cairo", 120),
    ("moscow", "莫斯科", "Moscow", 180),
    ("istanbul", "伊斯坦布尔", "Istanbul", 180),
    ("dubai", "迪拜", "Dubai", 240),
    ("new_delhi", "新德里", "New Delhi", 330),
    ("kathmandu", "加德满都", "Kathmandu", 345),
    ("bangkok", "曼谷", "Bangkok", 420),
    ("singapore", "新加坡", "Singapore", 480),
    ("hong_kong", "香港", "Hong Kong", 480),
    ("tokyo", "东京", "Tokyo", 540),
    ("seoul", "首尔", "Seoul", 540),
    ("sydney", "悉尼", "Sydney", 600),
    ("auckland", "奥克兰", "Auckland", 720),
    ("honolulu", "檀香山", "Honolulu", -600),
    ("los_angeles", "洛杉矶", "Los Angeles", -480),
    ("vancouver", "温哥华", "Vancouver", -480),
    ("chicago", "芝加哥", "Chicago", -360),
    ("new_york", "纽约", "New York", -300),
    ("toronto", "多伦多", "Toronto", -300),
    ("sao_paulo", "圣保罗", "São Paulo", -180),
)
_TIME = re.compile(r"^\s*(\d{1,2})\s*[:：.点]\s*(\d{1,2})\s*分?\s*$")


def hhmm(hour: int, minute: int) -> str:
    return f"{hour:02d}:{minute:02d}"


def parse_time(text: str) -> tuple[int, int] | None:
    """'06:45', '6:45', '6：45', '6点45' -> (6, 45); None if it is not a time of day."""
    match = _TIME.match(text)
    if match is None:
        return None
    hour, minute = int(match[1]), int(match[2])
    return (hour, minute) if hour < 24 and minute < 60 else None


def repeat_text(days: list[int]) -> str:
    if not days:
        return "只响一次"
    if len(days) == 7:
        return "每天"
    if days == WORKDAYS:
        return "工作日"
    if days == WEEKEND:
        return "周末"
    return " ".join("周" + WEEKDAYS[d] for d in days)


def utc_offset_text(minutes: int) -> str:
    """How far a city is from Beijing, as a Chinese clock app says it: '晚8小时', '早1.5小时'."""
    diff = minutes - BEIJING_OFFSET_MINUTES
    if diff == 0:
        return "与北京时间相同"
    hours = f"{abs(diff) / 60:g}"
    return f"{'早' if diff > 0 else '晚'}{hours}小时"


def duration_text(seconds: int) -> str:
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours:02d}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def until_text(minutes: int) -> str:
    """'2 天 21 小时 45 分钟', leaving out leading zero units."""
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = [(days, "天"), (hours, "小时"), (minutes, "分钟")]
    while len(parts) > 1 and parts[0][0] == 0:
        parts.pop(0)
    return " ".join(f"{value} {unit}" for value, unit in parts)


def minutes_until(now: dt.datetime, alarm: dict[str, Any]) -> int:
    """Minutes from `now` until the alarm next rings (on one of its repeat days, if any)."""
    start = now.replace(second=0, microsecond=0)
    for day in range(8):
        ring = (start + dt.timedelta(days=day)).replace(hour=alarm["hour"], minute=alarm["minute"])
        if ring > now and (not alarm["repeat"] or ring.weekday() in alarm["repeat"]):
            return math.ceil((ring - now).total_seconds() / 60)
    raise AssertionError("an alarm rings within a week")


class ClockBase(App):
    """The base of the Clock's screen classes (alarms, tools) and of the app combining them."""
