"""The Clock app: alarms, world clocks, a countdown timer and a stopwatch, on four tabs.

Times shown are Beijing time read from the simulated device clock. The alarm editor keeps the
time being edited in its view state: the −/+ buttons step it, and a time typed into the `time`
field ("06:45") takes precedence, so an agent can either tap or type.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import re
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.interaction import Interaction, NoOp
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Column,
    Dialog,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)

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


class Clock(App):
    package = CLOCK
    label = Label(zh="时钟", en="Clock")
    domain = "productivity"
    theme = AppTheme(primary=(48, 79, 254))
    icon_text = "钟"
    permissions = ("notifications",)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return {
            "cities": [
                {"id": cid, "name": zh, "name_en": en, "utc_offset": offset}
                for cid, zh, en, offset in CITIES
            ]
        }

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        alarms = sorted(rng.sample(SEED_ALARMS, k=rng.randint(3, 5)), key=lambda a: a[:2])
        cities = rng.sample([c["id"] for c in content["cities"]], k=rng.randint(1, 3))
        return {
            "alarms": [
                {
                    "id": f"alarm-{i}",
                    "hour": hour,
                    "minute": minute,
                    "label": label,
                    "repeat": list(repeat),
                    "enabled": rng.random() < 0.7,
                }
                for i, (hour, minute, label, repeat) in enumerate(alarms)
            ],
            "world_clocks": [{"id": city} for city in cities],
            "timer": {
                "duration_seconds": rng.choice((3, 5, 10)) * 60,
                "running": False,
                "started_at": None,
            },
            "stopwatch": {"running": False, "started_at": None, "elapsed_seconds": 0},
        }

    # -- handlers: alarms ---------------------------------------------------------------------
    @staticmethod
    def find_alarm(it: Interaction, alarm_id: str) -> dict[str, Any]:
        alarm = next((a for a in it.data["alarms"] if a["id"] == alarm_id), None)
        if alarm is None:
            raise NoOp(f"no alarm {alarm_id}")
        return alarm

    @staticmethod
    def add_alarm(it: Interaction, hour: int, minute: int, label: str, repeat: list[int]) -> str:
        if not (0 <= hour < 24 and 0 <= minute < 60):
            it.no_op(f"{hour}:{minute} is not a time of day")
        alarm_id = it.new_id("alarm")
        it.data["alarms"].append(
            {
                "id": alarm_id,
                "hour": hour,
                "minute": minute,
                "label": label.strip(),
                "repeat": sorted(set(repeat)),
                "enabled": True,
            }
        )
        return alarm_id

    def toggle_alarm(self, it: Interaction, alarm_id: str) -> None:
        alarm = self.find_alarm(it, alarm_id)
        alarm["enabled"] = not alarm["enabled"]
        if alarm["enabled"]:
            it.toast(self._ring_toast(it, alarm))

    @staticmethod
    def _ring_toast(it: Interaction, alarm: dict[str, Any]) -> str:
        return f"闹钟将在 {until_text(minutes_until(local_time(it.clock), alarm))}后响铃"

    @staticmethod
    def editor_time(it: Interaction | View) -> tuple[int, int]:
        """The time the alarm editor shows: a valid typed time, else the stepped one."""
        typed = parse_time(it.field("time"))
        if typed is not None:
            return typed
        params = it.entry["params"]
        return it.ui("hour", params["hour"]), it.ui("minute", params["minute"])

    def step_time(self, it: Interaction, unit: str, delta: int) -> None:
        hour, minute = self.editor_time(it)
        if unit == "hour":
            hour = (hour + delta) % 24
        else:
            minute = (minute + delta) % 60
        it.set_ui("hour", hour)
        it.set_ui("minute", minute)
        it.set_field("time", "")

    @staticmethod
    def toggle_repeat_day(it: Interaction, day: int) -> None:
        days = set(it.ui("repeat", it.entry["params"]["repeat"]))
        it.set_ui("repeat", sorted(days ^ {day}))

    def save_alarm(self, it: Interaction) -> None:
        if it.field("time") and parse_time(it.field("time")) is None:
            it.toast("请输入正确的时间，如 07:30")
            it.no_op(f"{it.field('time')!r} is not a time")
        hour, minute = self.editor_time(it)
        params = it.entry["params"]
        repeat = list(it.ui("repeat", params["repeat"]))
        label = it.field("label").strip()
        if params["alarm_id"] is None:
            alarm = self.find_alarm(it, self.add_alarm(it, hour, minute, label, repeat))
        else:
            alarm = self.find_alarm(it, params["alarm_id"])
            alarm.update(hour=hour, minute=minute, label=label, repeat=repeat, enabled=True)
        it.pop()
        it.toast(self._ring_toast(it, alarm))

    def delete_alarm(self, it: Interaction, alarm_id: str) -> None:
        alarm = self.find_alarm(it, alarm_id)
        it.data["alarms"].remove(alarm)
        it.pop()
        it.toast("已删除闹钟")

    @staticmethod
    def clear_field(it: Interaction, name: str) -> None:
        if not it.field(name):
            it.no_op(f"{name} is already empty")
        it.set_field(name, "")
        it.focus(name)

    # -- handlers: world clock, timer, stopwatch ------------------------------------------------
    @staticmethod
    def add_city(it: Interaction, city_id: str) -> None:
        if any(c["id"] == city_id for c in it.data["world_clocks"]):
            it.no_op(f"{city_id} is already on the world clock")
        it.data["world_clocks"].append({"id": city_id})
        it.pop()

    @staticmethod
    def remove_city(it: Interaction, city_id: str) -> None:
        it.data["world_clocks"] = [c for c in it.data["world_clocks"] if c["id"] != city_id]
        it.set_ui("dialog", None)

    @staticmethod
    def set_timer_minutes(it: Interaction, minutes: int) -> None:
        timer = it.data["timer"]
        if timer["running"]:
            it.no_op("the timer is running")
        if not 1 <= minutes <= TIMER_MAX_MINUTES:
            it.no_op(f"a timer runs 1 to {TIMER_MAX_MINUTES} minutes")
        if timer["duration_seconds"] == minutes * 60:
            it.no_op(f"the timer is already {minutes} minutes")
        timer["duration_seconds"] = minutes * 60

    def step_timer(self, it: Interaction, delta: int) -> None:
        self.set_timer_minutes(it, it.data["timer"]["duration_seconds"] // 60 + delta)

    @staticmethod
    def start_timer(it: Interaction) -> None:
        it.data["timer"].update(running=True, started_at=it.clock)

    @staticmethod
    def cancel_timer(it: Interaction) -> None:
        it.data["timer"].update(running=False, started_at=None)

    @staticmethod
    def start_stopwatch(it: Interaction) -> None:
        it.data["stopwatch"].update(running=True, started_at=it.clock)

    @staticmethod
    def stop_stopwatch(it: Interaction) -> None:
        watch = it.data["stopwatch"]
        watch["elapsed_seconds"] += it.clock - watch["started_at"]
        watch.update(running=False, started_at=None)

    @staticmethod
    def reset_stopwatch(it: Interaction) -> None:
        if it.data["stopwatch"]["elapsed_seconds"] == 0:
            it.no_op("the stopwatch is already at zero")
        it.data["stopwatch"]["elapsed_seconds"] = 0

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "alarm")
        body, actions = {
            "alarm": self._alarm_tab,
            "world": self._world_tab,
            "timer": self._timer_tab,
            "stopwatch": self._stopwatch_tab,
        }[tab](v)
        return Page(
            "时钟",
            [*body, END_SPACE],
            header=Tabs(TABS, tab, v.on_select("tab")),
            actions=actions,
            overlay=self._remove_city_dialog(v),
        )

    def _alarm_tab(self, v: View) -> tuple[list[Widget | None], list[IconButton]]:
        alarms = sorted(v.data["alarms"], key=lambda a: (a["hour"], a["minute"]))
        now = local_time(v.os["clock"])
        enabled = [a for a in alarms if a["enabled"]]
        if enabled:
            summary = f"{until_text(min(minutes_until(now, a) for a in enabled))}后响铃"
        else:
            summary = "所有闹钟已关闭"
        body: list[Widget | None] = [
            Text(
                summary,
                size=40,
                color=theme.TEXT_SECONDARY,
                align="center",
                padding=40,
                id="next_alarm",
            ),
            *(self._alarm_card(v, a) for a in alarms),
        ]
        if not alarms:
            body.append(Text("没有闹钟，点击右上角 + 添加", color=theme.TEXT_SECONDARY, padding=40))
        new = IconButton(
            "plus",
            "添加闹钟",
            v.go("alarm_edit", alarm_id=None, hour=7, minute=0, repeat=[]),
            id="add_alarm",
        )
        return body, [new]

    def _alarm_card(self, v: View, alarm: dict[str, Any]) -> Card:
        color = theme.TEXT if alarm["enabled"] else theme.DISABLED
        details = " | ".join(filter(None, [alarm["label"] or "闹钟", repeat_text(alarm["repeat"])]))
        edit = v.go(
            "alarm_edit",
            alarm_id=alarm["id"],
            hour=alarm["hour"],
            minute=alarm["minute"],
            repeat=alarm["repeat"],
            fields={"label": alarm["label"]},
        )
        return Card(
            [
                Row(
                    [
                        Column(
                            [
                                Text(hhmm(alarm["hour"], alarm["minute"]), size=80, color=color),
                                Text(details, size=34, color=theme.TEXT_SECONDARY),
                            ],
                            on_tap=edit,
                            id=f"alarm_{alarm['id']}",
                        ),
                        Toggle(
                            "",
                            alarm["enabled"],
                            v.do(self.toggle_alarm, alarm["id"]),
                            id=f"switch_{alarm['id']}",
                        ),
                    ],
                    weights=[3, 1],
                )
            ],
            padding=24,
        )

    def _world_tab(self, v: View) -> tuple[list[Widget | None], list[IconButton]]:
        now = local_time(v.os["clock"])
        cities = {c["id"]: c for c in v.content["cities"]}
        body: list[Widget | None] = [
            Text(now.strftime("%H:%M"), size=120, bold=True, align="center", padding=30),
            Text(
                f"北京时间 · {now.month}月{now.day}日 周{WEEKDAYS[now.weekday()]}",
                size=38,
                color=theme.TEXT_SECONDARY,
                align="center",
            ),
        ]
        for entry in v.data["world_clocks"]:
            city = cities[entry["id"]]
            body.append(self._city_card(v, city, now))
        add = IconButton("plus", "添加城市", v.go("add_city"), id="add_city")
        return body, [add]

    @staticmethod
    def _city_card(v: View, city: Any, now: dt.datetime) -> Card:
        there = now + dt.timedelta(minutes=city["utc_offset"] - BEIJING_OFFSET_MINUTES)
        day = {0: "今天", 1: "明天", -1: "昨天"}[(there.date() - now.date()).days]
        return Card(
            [
                Row(
                    [
                        Column(
                            [
                                Text(city["name"], size=48),
                                Text(
                                    f"{day}，{utc_offset_text(city['utc_offset'])}",
                                    size=34,
                                    color=theme.TEXT_SECONDARY,
                                    id=f"offset_{city['id']}",
                                ),
                            ]
                        ),
                        Text(there.strftime("%H:%M"), size=72, align="right"),
                    ],
                    weights=[3, 2],
                )
            ],
            on_long_press=v.set_ui("dialog", city["id"]),
            id=f"world_{city['id']}",
            padding=30,
        )

    def _remove_city_dialog(self, v: View) -> Dialog | None:
        city_id = v.ui("dialog")
        city = next((c for c in v.content["cities"] if c["id"] == city_id), None)
        if city is None:
            return None
        return v.confirm(
            f"删除“{city['name']}”？",
            v.do(self.remove_city, city["id"]),
            label="删除",
            confirm_id="confirm_remove",
            danger=True,
        )

    def _timer_tab(self, v: View) -> tuple[list[Widget | None], list[IconButton]]:
        timer = v.data["timer"]
        duration = timer["duration_seconds"]
        if timer["running"]:
            remaining = duration - (v.os["clock"] - timer["started_at"])
            return [
                Text(
                    duration_text(remaining) if remaining > 0 else "时间到",
                    size=150,
                    bold=True,
                    align="center",
                    padding=80,
                    id="timer_display",
                ),
                Text(f"共 {duration // 60} 分钟", color=theme.TEXT_SECONDARY, align="center"),
                Column(
                    [Button("取消", v.do(self.cancel_timer), id="timer_cancel", style="secondary")],
                    padding=60,
                ),
            ], []
        minutes = duration // 60
        return [
            Text(
                duration_text(duration),
                size=150,
                bold=True,
                align="center",
                padding=80,
                id="timer_display",
            ),
            Row(
                [
                    IconButton("minus", "减少一分钟", v.do(self.step_timer, -1), id="timer_minus"),
                    Text("分钟", size=40, align="center"),
                    IconButton("plus", "增加一分钟", v.do(self.step_timer, 1), id="timer_plus"),
                ]
            ),
            Column(
                [
                    Text("常用时长", size=36, color=theme.TEXT_SECONDARY),
                    Wrap(
                        [
                            Chip(
                                f"{m}分钟",
                                v.do(self.set_timer_minutes, m),
                                selected=m == minutes,
                                id=f"preset_{m}",
                            )
                            for m in TIMER_PRESETS
                        ]
                    ),
                    Button("开始", v.do(self.start_timer), id="timer_start"),
                ],
                spacing=30,
                padding=60,
            ),
        ], []

    def _stopwatch_tab(self, v: View) -> tuple[list[Widget | None], list[IconButton]]:
        watch = v.data["stopwatch"]
        elapsed = watch["elapsed_seconds"]
        if watch["running"]:
            elapsed += v.os["clock"] - watch["started_at"]
            buttons = [Button("暂停", v.do(self.stop_stopwatch), id="stopwatch_stop")]
        else:
            buttons = [
                Button(
                    "复位",
                    v.do(self.reset_stopwatch),
                    id="stopwatch_reset",
                    style="secondary",
                    enabled=elapsed > 0,
                ),
                Button(
                    "开始" if elapsed == 0 else "继续",
                    v.do(self.start_stopwatch),
                    id="stopwatch_start",
                ),
            ]
        return [
            Text(
                duration_text(elapsed),
                size=150,
                bold=True,
                align="center",
                padding=120,
                id="stopwatch_display",
            ),
            Column([Row(buttons)], padding=60),
        ], []

    @screen("alarm_edit")
    def alarm_edit(self, v: View) -> Page:
        creating = v.params["alarm_id"] is None
        hour, minute = self.editor_time(v)
        repeat = v.ui("repeat", v.params["repeat"])
        body: list[Widget | None] = [
            Text(
                hhmm(hour, minute),
                size=150,
                bold=True,
                align="center",
                padding=30,
                id="time_display",
            ),
            Row(
                [
                    IconButton(
                        "minus", "小时减一", v.do(self.step_time, "hour", -1), id="hour_down"
                    ),
                    Text("时", size=40, align="center"),
                    IconButton("plus", "小时加一", v.do(self.step_time, "hour", 1), id="hour_up"),
                    IconButton(
                        "minus", "分钟减一", v.do(self.step_time, "minute", -1), id="minute_down"
                    ),
                    Text("分", size=40, align="center"),
                    IconButton(
                        "plus", "分钟加一", v.do(self.step_time, "minute", 1), id="minute_up"
                    ),
                ]
            ),
            self._field_row(v, "time", "或直接输入时间，如 07:30"),
            Text("闹钟名称", size=36, color=theme.TEXT_SECONDARY),
            self._field_row(v, "label", "闹钟"),
            Text(
                f"重复：{repeat_text(repeat)}",
                size=36,
                color=theme.TEXT_SECONDARY,
                id="repeat_summary",
            ),
            Wrap(
                [
                    Chip(
                        f"周{WEEKDAYS[d]}",
                        v.do(self.toggle_repeat_day, d),
                        selected=d in repeat,
                        id=f"repeat_{d}",
                    )
                    for d in range(7)
                ]
            ),
            ListItem("铃声", subtitle="默认铃声（晨曦）"),
        ]
        dialog = None
        if not creating:
            body.append(
                Button("删除闹钟", v.set_ui("dialog", "delete"), id="delete_alarm", style="danger")
            )
            if v.ui("dialog") == "delete":
                dialog = v.confirm(
                    "删除此闹钟？",
                    v.do(self.delete_alarm, v.params["alarm_id"]),
                    label="删除",
                    confirm_id="confirm_delete",
                    danger=True,
                )
        return Page(
            "添加闹钟" if creating else "编辑闹钟",
            [*body, END_SPACE],
            on_back=v.back(),
            actions=[IconButton("check", "保存", v.do(self.save_alarm), id="save")],
            body_padding=40,
            spacing=24,
            overlay=dialog,
        )

    def _field_row(self, v: View, name: str, placeholder: str) -> Row:
        return Row(
            [
                TextField(name, v.field(name), placeholder, on_focus=v.focus(name)),
                IconButton("close", "清除", v.do(self.clear_field, name), id=f"clear_{name}"),
            ]
        )

    @screen("add_city")
    def add_city_screen(self, v: View) -> Page:
        query = v.field("query").strip().lower()
        added = {c["id"] for c in v.data["world_clocks"]}
        matches = [
            c
            for c in v.content["cities"]
            if not query or query in c["name"] or query in c["name_en"].lower()
        ]
        items: list[Widget | None] = [
            ListItem(
                c["name"],
                subtitle=f"{c['name_en']} · {utc_offset_text(c['utc_offset'])}",
                trailing="已添加" if c["id"] in added else "",
                on_tap=None if c["id"] in added else v.do(self.add_city, c["id"]),
                id=f"city_{c['id']}",
            )
            for c in matches
        ]
        if not items:
            items.append(Text("没有找到该城市", color=theme.TEXT_SECONDARY, padding=40))
        search = TextField("query", v.field("query"), "搜索城市", on_focus=v.focus("query"))
        return Page(
            "添加城市",
            [*items, END_SPACE],
            header=Column([search], padding=24, fill=theme.SURFACE),
            on_back=v.back(),
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "set_alarm",
        "Create an alarm that rings once at hour:minute (24-hour clock) with a label.",
        {"hour": int, "minute": int, "label": str},
    )
    def set_alarm_tool(self, it: Interaction, hour: int, minute: int, label: str) -> str:
        alarm_id = self.add_alarm(it, hour, minute, label, [])
        return f"created {alarm_id} at {hhmm(hour, minute)}"
