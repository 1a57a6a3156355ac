"""The home screen's device list by room and each device's page with its controls, readings,
energy use and (for the door lock) its log."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.smarthome.base import GREY, ORANGE, RED, SmartHomeBase, kind_label
from phonebuddy.phoneworld.apps.smarthome.content import (
    COLOR_TEMPS,
    DAYS,
    MODES,
    PURIFIER_MODES,
    ROOMS,
)
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
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

TABS = (("devices", "设备"), ("scenes", "场景"), ("autos", "自动化"), ("me", "我的"))
Device = dict[str, Any]
ICONS = {"light": "灯", "ac": "空", "vacuum": "扫", "curtain": "帘", "plug": "插",
         "purifier": "净", "lock": "锁", "sensor": "温", "camera": "摄"}  # fmt: skip
BEIJING = dt.timezone(dt.timedelta(hours=8))


def log_time(timestamp: int) -> str:
    moment = dt.datetime.fromtimestamp(timestamp, BEIJING)
    return f"{moment.month}月{moment.day}日 {moment:%H:%M}"


class HomeScreens(SmartHomeBase):
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "devices")
        body, overlay = {"devices": self._devices, "scenes": self.scenes_tab,
                         "autos": self.autos_tab, "me": self.me_tab}[tab](v)  # fmt: skip
        return Page(v.content["home"], [*body, Spacer(60)],
                    header=Tabs(TABS, tab, v.on_select("tab")), overlay=overlay)  # fmt: skip

    def _devices(self, v: View) -> tuple[list[Widget | None], Widget | None]:
        room = v.ui("room", "")
        chips = [Chip("全部", v.set_ui("room", ""), selected=not room, id="room_all")]
        chips += [Chip(r, v.set_ui("room", r), selected=room == r, id=f"room_{i}")
                  for i, r in enumerate(ROOMS)]  # fmt: skip
        query = v.field("search").strip()
        rows: list[Widget | None] = [
            TextField("search", v.field("search"), "搜索设备", on_focus=v.focus("search")),
            Wrap(chips),
        ]
        shown = len(rows)
        for device in v.data["devices"]:
            if (room and device["room"] != room) or (query and query not in device["name"]):
                continue
            rows.append(ListItem(
                device["name"], subtitle=f"{device['room']}｜{self.status(v, device)}",
                leading=ICONS[device["kind"]],
                leading_color=ORANGE if device["online"] else GREY,
                on_tap=v.go("device", device_id=device["id"]), id=f"dev_{device['id']}",
            ))  # fmt: skip
        if len(rows) == shown:
            rows.append(Text(f"没有找到“{query}”" if query else "这个房间还没有设备",
                             color=theme.TEXT_SECONDARY, padding=40, align="center",
                             id="no_devices"))  # fmt: skip
        return rows, None

    @screen("device")
    def device_page(self, v: View) -> Page:
        device = self.device(v.data, v.params["device_id"])
        kind = device["kind"]
        head = Card([
            Text(device["name"], size=56, bold=True, id="device_name"),
            Text(f"{device['room']}｜{kind_label(kind)}", size=36, color=theme.TEXT_SECONDARY,
                 id="device_room"),
            Text(self.status(v, device), size=40, id="device_status"),
            Text("设备已离线，请检查网络或电源", color=RED, id="offline_note")
            if not device["online"] else None,
        ])  # fmt: skip
        body: list[Widget | None] = [head]
        if kind not in ("sensor", "lock"):
            label = {"curtain": "窗帘打开", "vacuum": "清扫"}.get(kind, "电源")
            power = v.do(self.set_power, device["id"], not device["on"])
            body.append(Toggle(label, device["on"], power, id="power"))
        body += getattr(self, f"_controls_{kind}", lambda v, d: [])(v, device)
        energy = v.content["readings"]["energy"].get(device["id"])
        if energy:
            body.append(Text("近7天用电", size=44, bold=True, padding=12))
            body += [ListItem(day, trailing=f"{kwh}度", id=f"energy_{i}")
                     for i, (day, kwh) in enumerate(zip(DAYS, energy, strict=True))]  # fmt: skip
        return Page(device["name"], body, on_back=v.back(), body_padding=30, spacing=20)

    def _controls_light(self, v: View, d: Device) -> list[Widget | None]:
        return [
            Text(f"亮度：{d['brightness']}%", size=40, id="brightness"),
            Row([Button("-10%", v.do(self.adjust_brightness, d["id"], -10), id="bright_down",
                        style="secondary"),
                 Button("+10%", v.do(self.adjust_brightness, d["id"], 10), id="bright_up")]),
            Text("色温", size=40),
            Wrap([Chip(label, v.do(self.set_color, d["id"], key), selected=d["color"] == key,
                       id=f"color_{key}") for key, label in COLOR_TEMPS]),
        ]  # fmt: skip

    def _controls_ac(self, v: View, d: Device) -> list[Widget | None]:
        return [
            Text(f"设定温度：{d['temp']}℃", size=44, bold=True, id="temp_now"),
            Row([IconButton("minus", "调低温度", v.do(self.adjust_temp, d["id"], -1),
                            id="temp_down"),
                 IconButton("plus", "调高温度", v.do(self.adjust_temp, d["id"], 1),
                            id="temp_up")]),
            TextField("temp", v.field("temp"), "输入温度（16-30）", on_focus=v.focus("temp")),
            Button("设定温度", v.do(self.temp_from_field, d["id"]), id="set_temp",
                   style="secondary"),
            Text("模式", size=40),
            Wrap([Chip(m, v.do(self.set_mode, d["id"], m), selected=d["mode"] == m,
                       id=f"mode_{i}") for i, m in enumerate(MODES)]),
        ]  # fmt: skip

    def _controls_purifier(self, v: View, d: Device) -> list[Widget | None]:
        pm = v.content["readings"]["pm25"][d["id"]]
        return [
            Text(f"PM2.5：{pm}μg/m³", size=44, bold=True, id="pm25"),
            Text("模式", size=40),
            Wrap([Chip(m, v.do(self.set_mode, d["id"], m), selected=d["mode"] == m,
                       id=f"mode_{i}") for i, m in enumerate(PURIFIER_MODES)]),
        ]  # fmt: skip

    def _controls_curtain(self, v: View, d: Device) -> list[Widget | None]:
        return [
            Text(f"打开程度：{d['position']}%", size=40, id="position"),
            Row([Button("-10%", v.do(self.set_position, d["id"], d["position"] - 10),
                        id="pos_down", style="secondary"),
                 Button("+10%", v.do(self.set_position, d["id"], d["position"] + 10),
                        id="pos_up")]),
            Wrap([Chip(f"{p}%", v.do(self.set_position, d["id"], p),
                       selected=d["position"] == p, id=f"pos_{p}") for p in (0, 50, 100)]),
        ]  # fmt: skip

    def _controls_vacuum(self, v: View, d: Device) -> list[Widget | None]:
        return [
            Text(f"电量：{d['battery']}%", size=40, id="battery"),
            Text("清扫房间", size=40),
            Wrap([Chip(r, v.do(self.toggle_room, d["id"], r), selected=r in d["rooms"],
                       id=f"clean_{i}") for i, r in enumerate(ROOMS)]),
        ]  # fmt: skip

    def _controls_sensor(self, v: View, d: Device) -> list[Widget | None]:
        r = self.reading(v, d)
        return [Text(f"温度：{r['temp']}℃", size=44, id="temperature"),
                Text(f"湿度：{r['humidity']}%", size=44, id="humidity")]  # fmt: skip

    def _controls_lock(self, v: View, d: Device) -> list[Widget | None]:
        rows: list[Widget | None] = [Text("开锁记录", size=44, bold=True, padding=12)]
        rows += [ListItem(log_time(e["time"]), subtitle=f"{e['who']}｜{e['method']}",
                          id=f"log_{i}") for i, e in enumerate(v.content["lock_log"])]  # fmt: skip
        return rows
