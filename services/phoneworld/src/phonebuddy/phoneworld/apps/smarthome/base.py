"""What the 智能家居 screens share: the app's identity, look-ups, and the device handlers (the
only place a device's state changes). Offline devices refuse every control."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View
from phonebuddy.phoneworld.apps.smarthome import content
from phonebuddy.phoneworld.apps.smarthome.content import AC_MAX, AC_MIN, KINDS, op_label
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

SMARTHOME = "com.pw.smarthome"
ORANGE: Color = (255, 103, 0)
GREY: Color = (150, 150, 150)
RED: Color = (220, 50, 50)
MIN_BATTERY = 20


class SmartHomeBase(App):
    package = SMARTHOME
    label = Label(zh="智能家居", en="Smart Home")
    domain = "smart home"
    theme = AppTheme(primary=ORANGE)
    icon_text = "家"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "devices": [clone(d) for d in content["devices"]],
            "scenes": [clone(s) for s in content["scenes"]],
            "automations": [clone(a) for a in content["automations"]],
            "members": [clone(m) for m in content["members"]],
        }

    # -- look-ups ---------------------------------------------------------------------------------
    @staticmethod
    def device(data: dict[str, Any], device_id: str) -> dict[str, Any]:
        return next(d for d in data["devices"] if d["id"] == device_id)

    @staticmethod
    def find(items: list[dict[str, Any]], item_id: str) -> dict[str, Any] | None:
        return next((x for x in items if x["id"] == item_id), None)

    @staticmethod
    def reading(v: View, device: dict[str, Any]) -> dict[str, Any]:
        """A 温湿度计's latest reading: the one the device reported, where a task starts with one
        of its own, else the seeded one of its room."""
        return device.get("reading") or v.content["readings"]["sensors"][device["room"]]

    @staticmethod
    def status(v: View, device: dict[str, Any]) -> str:
        """The one-line state a device row shows."""
        if not device["online"]:
            return "离线"
        kind = device["kind"]
        if kind == "sensor":
            r = SmartHomeBase.reading(v, device)
            return f"温度{r['temp']}℃ 湿度{r['humidity']}%"
        if kind == "lock":
            return "已上锁"
        if kind == "curtain":
            return f"打开{device['position']}%" if device["position"] else "已关闭"
        if kind == "vacuum":
            return (
                f"清扫中 电量{device['battery']}%"
                if device["on"]
                else f"待机 电量{device['battery']}%"
            )
        if not device["on"]:
            return "已关闭"
        if kind == "light":
            return f"已开启 亮度{device['brightness']}%"
        if kind == "ac":
            return f"{device['mode']} {device['temp']}℃"
        if kind == "purifier":
            return f"{device['mode']}模式"
        return "已开启"

    @staticmethod
    def action_text(data: dict[str, Any], action: dict[str, Any]) -> str:
        device = next((d for d in data["devices"] if d["id"] == action["device"]), None)
        if device is None:
            return "设备已移除"
        return f"{op_label(device['kind'], action['op'])}{device['name']}"

    # -- device handlers ----------------------------------------------------------------------
    @staticmethod
    def _online(it: Interaction, device: dict[str, Any]) -> None:
        if not device["online"]:
            it.toast(f"{device['name']}已离线，无法控制")
            it.no_op(f"{device['id']} is offline")

    @staticmethod
    def apply(device: dict[str, Any], op: str) -> bool:
        """Turn a device on or off (a curtain opens fully or closes); whether it changed."""
        on = op == "on"
        if device["kind"] == "curtain":
            position = 100 if on else 0
            changed = device["position"] != position
            device.update(position=position, on=on)
            return changed
        if device["on"] == on:
            return False
        device["on"] = on
        return True

    def set_power(self, it: Interaction, device_id: str, on: bool) -> None:
        device = self.device(it.data, device_id)
        self._online(it, device)
        if device["kind"] == "vacuum" and on:
            if device["battery"] < MIN_BATTERY:
                it.toast("电量过低，请先回充")
                it.no_op("battery too low")
            if not device["rooms"]:
                it.toast("请先选择要清扫的房间")
                it.no_op("no rooms chosen")
        if not self.apply(device, "on" if on else "off"):
            it.no_op(f"{device_id} is already {'on' if on else 'off'}")
        it.toast(f"{device['name']}已{'开启' if on else '关闭'}")

    def _powered(self, it: Interaction, device_id: str) -> dict[str, Any]:
        device = self.device(it.data, device_id)
        self._online(it, device)
        if not device["on"]:
            it.toast(f"请先打开{device['name']}")
            it.no_op(f"{device_id} is off")
        return device

    def adjust_brightness(self, it: Interaction, device_id: str, step: int) -> None:
        device = self._powered(it, device_id)
        value = device["brightness"] + step
        if not 1 <= value <= 100:
            value = max(1, min(100, value))
            if value == device["brightness"]:
                it.toast("亮度范围为1%到100%")
                it.no_op(f"brightness {device['brightness']} at its limit")
        device["brightness"] = value

    def set_color(self, it: Interaction, device_id: str, color: str) -> None:
        device = self._powered(it, device_id)
        if device["color"] == color:
            it.no_op(f"colour already {color}")
        device["color"] = color

    def set_mode(self, it: Interaction, device_id: str, mode: str) -> None:
        device = self._powered(it, device_id)
        if device["mode"] == mode:
            it.no_op(f"mode already {mode}")
        device["mode"] = mode
        it.toast(f"已切换到{mode}模式")

    def adjust_temp(self, it: Interaction, device_id: str, step: int) -> None:
        device = self._powered(it, device_id)
        self._set_temp(it, device, device["temp"] + step)

    def temp_from_field(self, it: Interaction, device_id: str) -> None:
        device = self._powered(it, device_id)
        raw = it.field("temp").strip().removesuffix("℃").removesuffix("度")
        if not raw.isdigit():
            it.toast("请输入整数温度")
            it.no_op(f"bad temperature {raw!r}")
        self._set_temp(it, device, int(raw))
        it.set_field("temp", "")

    @staticmethod
    def _set_temp(it: Interaction, device: dict[str, Any], temp: int) -> None:
        if not AC_MIN <= temp <= AC_MAX:
            it.toast(f"温度范围为{AC_MIN}℃到{AC_MAX}℃")
            it.no_op(f"temperature {temp} out of range")
        if temp == device["temp"]:
            it.no_op(f"already {temp}")
        device["temp"] = temp
        it.toast(f"已设为{temp}℃")

    def set_position(self, it: Interaction, device_id: str, position: int) -> None:
        device = self.device(it.data, device_id)
        self._online(it, device)
        position = max(0, min(100, position))
        if position == device["position"]:
            it.toast("窗帘已在该位置")
            it.no_op(f"curtain already at {position}")
        device.update(position=position, on=position > 0)

    def toggle_room(self, it: Interaction, device_id: str, room: str) -> None:
        device = self.device(it.data, device_id)
        self._online(it, device)
        if device["on"]:
            it.toast("清扫中，无法修改房间")
            it.no_op("cleaning")
        rooms = device["rooms"]
        device["rooms"] = [r for r in rooms if r != room] if room in rooms else [*rooms, room]


def kind_label(kind: str) -> str:
    return KINDS[kind]
