"""Times in the messenger: seeded histories are stored as "seconds before the episode began"
and placed on the device's clock when shown, so every device sees its chats as recent.

Devices reset to `EPOCH_START` plus a whole number of days (`Device.reset`) and an episode is
far shorter than a day, so the moment the episode began is recoverable from the clock.
"""

from __future__ import annotations

from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.ui.format import local_time

DAY = 86400
WEEKDAYS = ("星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日")


def episode_start(clock: int) -> int:
    """The clock at the device's last reset."""
    return EPOCH_START + (clock - EPOCH_START) // DAY * DAY


def seeded_time(ago: int, clock: int) -> int:
    """The epoch time of a seeded event that happened `ago` seconds before the reset."""
    return episode_start(clock) - ago


def hhmm(t: int) -> str:
    return local_time(t).strftime("%H:%M")


def _days_between(earlier: int, later: int) -> int:
    return (local_time(later).date() - local_time(earlier).date()).days


def list_label(t: int, now: int) -> str:
    """How the chat list dates a last message: 09:12, 昨天, 星期三, 3月2日."""
    days = _days_between(t, now)
    if days <= 0:
        return hhmm(t)
    if days == 1:
        return "昨天"
    if days < 7:
        return WEEKDAYS[local_time(t).weekday()]
    return f"{local_time(t).month}月{local_time(t).day}日"


def chat_label(t: int, now: int) -> str:
    """The centred stamp between chat messages: 09:12, 昨天 21:05, 3月2日 08:30."""
    days = _days_between(t, now)
    if days <= 0:
        return hhmm(t)
    if days == 1:
        return f"昨天 {hhmm(t)}"
    if days < 7:
        return f"{WEEKDAYS[local_time(t).weekday()]} {hhmm(t)}"
    return f"{local_time(t).month}月{local_time(t).day}日 {hhmm(t)}"


def moment_label(t: int, now: int) -> str:
    """How the moments feed dates a post: 刚刚, 25分钟前, 3小时前, 昨天, 4天前."""
    seconds = now - t
    if seconds < 60:
        return "刚刚"
    if seconds < 3600:
        return f"{seconds // 60}分钟前"
    days = _days_between(t, now)
    if days == 0:
        return f"{seconds // 3600}小时前"
    return "昨天" if days == 1 else f"{days}天前"


def spoken_time(hour: int, minute: int) -> str:
    """How a person writes a time in a chat: 上午10点, 下午3点半, 晚上7点40."""
    if hour < 12:
        period, shown = ("早上" if hour < 9 else "上午"), hour
    elif hour == 12:
        period, shown = "中午", 12
    else:
        period, shown = ("下午" if hour < 18 else "晚上"), hour - 12
    tail = "" if minute == 0 else ("半" if minute == 30 else f"{minute:02d}")
    return f"{period}{shown}点{tail}"
