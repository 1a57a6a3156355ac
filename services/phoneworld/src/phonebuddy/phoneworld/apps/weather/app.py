"""天气 (Weather), in the manner of 墨迹天气 and 华为天气: the default city's weather on the home
screen; 城市管理 with the saved cities (added through search and a preview page, removed after a
confirmation, one of them the default); city pages with today's hourly forecast, seven days,
air quality and sunrise; day details; settings whose temperature unit changes every
temperature shown.

Forecasts are seeded content, one per city and weekday. Screens lay them out from the phone's
clock, so "today" and "tomorrow" follow the phone while "Saturday in 成都" reads the same on
every phone of a world (which lets a task's parameters decide its answer).

A city's forecast screens live in `forecast`, city management, search and settings in `cities`;
what they share is in `base`.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import Label, View, screen, tool
from phonebuddy.phoneworld.apps.weather.base import (
    SAVED_ON_NEW_DEVICE,
    SKY,
    SKY_PALE,
    WEATHER,
    build_content,
    city_by_name,
    find_city,
)
from phonebuddy.phoneworld.apps.weather.cities import CityScreens
from phonebuddy.phoneworld.apps.weather.forecast import ForecastScreens
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import IconButton, Page


class Weather(ForecastScreens, CityScreens):
    package = WEATHER
    label = Label(zh="天气", en="Weather")
    domain = "lifestyle"
    theme = AppTheme(primary=SKY, background=SKY_PALE)
    friction = Friction(
        popup=Popup(
            "开启天气提醒",
            "降雨、降温第一时间提醒你",
            "去开启",
            close="暂不",
            toast="已在通知中开启",
        ),
    )
    icon_text = "☀"
    permissions = ("location",)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return build_content(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        others = [c for c in content["cities"] if c["id"] != content["here"]]
        extra = rng.sample(others, k=rng.randint(*SAVED_ON_NEW_DEVICE))
        here = find_city(content, content["here"])
        assert here is not None
        return {
            "cities": [{"id": c["id"], "name": c["name"]} for c in (here, *extra)],
            "default_city": here["id"],
            "unit": "C",
            "alerts": True,
        }

    # -- screens: a city's weather ---------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        city_id = v.data["default_city"]
        city = find_city(v.content, city_id)
        assert city is not None
        located = self.located(v) and city_id == v.content["here"]
        return Page(
            city["name"],
            [
                None if self.located(v) else self._location_off_banner(),
                *self._forecast_body(v, city, located=located),
            ],
            actions=[
                IconButton("menu", "城市管理", v.go("cities"), id="cities"),
                IconButton("settings", "设置", v.go("settings"), id="settings"),
            ],
            body_padding=32,
            spacing=28,
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "add_city",
        "Add a city (by its Chinese name, e.g. 成都) to the saved cities.",
        {"name": str},
    )
    def add_city_tool(self, it: Interaction, name: str) -> str:
        city = city_by_name(it.content, name)
        if city is None:
            it.no_op(f"no city named {name!r}")
        self.add_city(it, city["id"])
        return f"added {city['name']} ({city['id']})"
