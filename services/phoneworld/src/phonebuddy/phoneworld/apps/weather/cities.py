"""Weather's 城市管理 (add through search, remove after a confirmation, the default city) and
settings (unit, alerts).
"""

from __future__ import annotations

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.weather.base import (
    SKY,
    UNITS,
    WeatherBase,
    find_city,
    forecast_on,
    glyph,
    hourly,
    local_hour,
    range_text,
    temp_text,
    weather_text,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Chip,
    Dialog,
    IconButton,
    ListItem,
    Page,
    Spacer,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)


class CityScreens(WeatherBase):
    # -- handlers (the only place data changes) -------------------------------------------------
    def add_city(self, it: Interaction, city_id: str) -> None:
        city = self.require_city(it, city_id)
        if self.saved(it.data, city_id):
            it.toast(f"{city['name']}已在城市列表中")
            it.no_op(f"{city_id} is already saved")
        it.data["cities"].append({"id": city["id"], "name": city["name"]})
        it.reset_to("home")
        it.push("cities")
        it.toast(f"已添加{city['name']}")

    @staticmethod
    def ask_to_remove(it: Interaction, city_id: str) -> None:
        if len(it.data["cities"]) == 1:
            it.set_ui("dialog", None)
            it.toast("至少保留一个城市")
            it.no_op("the last city cannot be removed")
        it.set_ui("dialog", f"remove:{city_id}")

    @staticmethod
    def remove_city(it: Interaction, city_id: str) -> None:
        it.set_ui("dialog", None)
        remaining = [c for c in it.data["cities"] if c["id"] != city_id]
        if len(remaining) == len(it.data["cities"]):
            it.no_op(f"{city_id} is not saved")
        it.data["cities"] = remaining
        if it.data["default_city"] == city_id:  # the next city takes over as the default
            it.data["default_city"] = remaining[0]["id"]
        it.toast("已删除")

    def set_default(self, it: Interaction, city_id: str) -> None:
        it.set_ui("dialog", None)
        if not self.saved(it.data, city_id):
            it.no_op(f"{city_id} is not saved")
        if it.data["default_city"] == city_id:
            it.no_op(f"{city_id} is already the default city")
        it.data["default_city"] = city_id
        it.toast("已设为默认城市")

    @staticmethod
    def set_unit(it: Interaction, unit: str) -> None:
        if it.data["unit"] == unit:
            it.no_op(f"the unit is already °{unit}")
        it.data["unit"] = unit

    @staticmethod
    def toggle_alerts(it: Interaction) -> None:
        it.data["alerts"] = not it.data["alerts"]

    @staticmethod
    def open_search(it: Interaction) -> None:
        it.push("search")
        it.focus("query")

    # -- screens: managing cities ---------------------------------------------------------------
    @screen("cities")
    def cities(self, v: View) -> Page:
        clock = int(v.os["clock"])
        unit = v.data["unit"]
        rows: list[Widget | None] = []
        for saved in v.data["cities"]:
            today = forecast_on(v.content, saved["id"], local_date(clock), v.data)
            _, celsius = hourly(today, local_hour(clock))
            is_default = saved["id"] == v.data["default_city"]
            rows.append(
                ListItem(
                    saved["name"] + ("（默认）" if is_default else ""),
                    subtitle=f"{weather_text(today)}  {range_text(today, unit)}",
                    trailing=temp_text(celsius, unit),
                    leading=glyph(today["day"]),
                    leading_color=SKY,
                    on_tap=v.go("city", city=saved["id"]),
                    id=f"city_{saved['id']}",
                    action=IconButton(
                        "more",
                        f"{saved['name']}的更多操作",
                        v.set_ui("dialog", f"actions:{saved['id']}"),
                        id=f"more_{saved['id']}",
                    ),
                )
            )
        rows.append(Spacer(60))
        return Page(
            "城市管理",
            rows,
            on_back=v.back(),
            actions=[IconButton("plus", "添加城市", v.do(self.open_search), id="add")],
            background=theme.SURFACE,
            overlay=self._cities_overlay(v),
        )

    def _cities_overlay(self, v: View) -> Dialog | BottomSheet | None:
        kind, _, city_id = str(v.ui("dialog") or "").partition(":")
        city = next((c for c in v.data["cities"] if c["id"] == city_id), None)
        if city is None:
            return None
        if kind == "actions":
            is_default = city_id == v.data["default_city"]
            return BottomSheet(
                city["name"],
                [
                    None
                    if is_default
                    else ListItem(
                        "设为默认城市", on_tap=v.do(self.set_default, city_id), id="set_default"
                    ),
                    ListItem("删除", on_tap=v.do(self.ask_to_remove, city_id), id="remove"),
                    Button("取消", v.set_ui("dialog", None), id="sheet_cancel", style="secondary"),
                ],
                on_dismiss=v.set_ui("dialog", None),
                id="city_actions",
            )
        if kind == "remove":
            return Dialog(
                "删除城市",
                message=f"确定从我的城市中删除“{city['name']}”吗？",
                buttons=[
                    Button("取消", v.set_ui("dialog", None), id="cancel", style="secondary"),
                    Button(
                        "删除", v.do(self.remove_city, city_id), id="confirm_remove", style="danger"
                    ),
                ],
                id="remove_dialog",
            )
        return None

    @screen("search")
    def search(self, v: View) -> Page:
        query = v.field("query").strip().lower()
        body: list[Widget | None] = [
            TextField(
                "query", v.field("query"), "搜索城市（中文或拼音）", on_focus=v.focus("query")
            )
        ]
        if not query:
            body += [
                Text("热门城市", size=38, bold=True),
                Wrap(
                    [
                        Chip(city["name"], v.go("city", city=city["id"]), id=f"hot_{city['id']}")
                        for city_id in v.content["hot"]
                        if (city := find_city(v.content, city_id)) is not None
                    ]
                ),
            ]
        else:
            matches = [
                c
                for c in v.content["cities"]
                if query in c["name"] or query in c["id"] or query in c["province"]
            ]
            body += [
                ListItem(
                    c["name"],
                    subtitle=f"{c['province']}，中国",
                    trailing="已添加" if self.saved(v.data, c["id"]) else "",
                    on_tap=v.go("city", city=c["id"]),
                    id=f"result_{c['id']}",
                )
                for c in matches
            ] or [Text("未找到相关城市", color=theme.TEXT_SECONDARY, align="center", padding=40)]
        return Page(
            "添加城市",
            body,
            on_back=v.back(),
            background=theme.SURFACE,
            body_padding=32,
            spacing=28,
        )

    @screen("settings")
    def settings(self, v: View) -> Page:
        unit = v.data["unit"]
        return Page(
            "设置",
            [
                Text("温度单位", size=34, color=theme.TEXT_SECONDARY, padding=24),
                *[
                    ListItem(
                        label,
                        trailing="✓" if code == unit else "",
                        selected=code == unit,
                        on_tap=v.do(self.set_unit, code),
                        id=f"unit_{code}",
                    )
                    for code, label in UNITS
                ],
                Text("通知", size=34, color=theme.TEXT_SECONDARY, padding=24),
                Toggle(
                    "恶劣天气预警",
                    v.data["alerts"],
                    v.do(self.toggle_alerts),
                    id="alerts",
                    subtitle="暴雨、雷电、高温等预警推送",
                ),
                Text(
                    "数据来源：中央气象台（模拟数据）",
                    size=30,
                    color=theme.TEXT_SECONDARY,
                    align="center",
                    padding=40,
                ),
            ],
            on_back=v.back(),
        )
