"""Clock's alarms: the list with switches, the editor (time steppers, repeat days, label),
saving and deleting after a confirmation.
"""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.clock.base import (
    END_SPACE,
    WEEKDAYS,
    ClockBase,
    hhmm,
    minutes_until,
    parse_time,
    repeat_text,
    until_text,
)
from phonebuddy.phoneworld.interaction import Interaction, NoOp
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Column,
    IconButton,
    ListItem,
    Page,
    Row,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)


class AlarmScreens(ClockBase):
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
