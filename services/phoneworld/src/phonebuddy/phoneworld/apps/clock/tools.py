"""Clock's other tabs: the world clock (add and remove cities), the timer and the stopwatch."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.clock.base import (
    BEIJING_OFFSET_MINUTES,
    END_SPACE,
    TIMER_MAX_MINUTES,
    TIMER_PRESETS,
    WEEKDAYS,
    ClockBase,
    duration_text,
    utc_offset_text,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time
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
    Text,
    TextField,
    Widget,
    Wrap,
)


class ToolScreens(ClockBase):
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
