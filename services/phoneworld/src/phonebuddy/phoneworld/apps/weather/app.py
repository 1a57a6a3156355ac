"""天气 (Weather), in the manner of 墨迹天气 and 华为天气: the default city's weather on the home
screen; 城市管理 with the saved cities (added through search and a preview page, removed after a
confirmation, one of them the default); city pages with today's hourly forecast, seven days,
air quality and sunrise; day details; settings whose temperature unit changes every
temperature shown.

Forecasts are seeded content, one per city and weekday. Screens lay them out from the phone's
clock, so "today" and "tomorrow" follow the phone while "Saturday in 成都" reads the same on
every phone of a world (which lets a task's parameters decide its answer).
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, local_date
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
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
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)

WEATHER = "com.pw.weather"
SKY: Color = (45, 125, 235)
SKY_PALE: Color = (228, 239, 253)
SKY_TEXT: Color = (214, 232, 255)
WARNING: Color = (255, 243, 224)
WARNING_TEXT: Color = (214, 110, 0)
WEEKDAYS = ("一", "二", "三", "四", "五", "六", "日")  # Monday first, as date.weekday()
FORECAST_DAYS = 7
HOURLY_COLUMNS = 6
# Where the phone is: the city the location permission reveals (the same 北京 as other apps).
HERE = "beijing"
HERE_DISTRICT = "北京市朝阳区"
# id, name, province, typical high and low in late March (°C), chance of a wet day, typical
# AQI, sunrise, sunset.
CITY_TABLE: tuple[tuple[str, str, str, int, int, float, int, str, str], ...] = (
    ("beijing", "北京", "北京市", 16, 3, 0.15, 95, "06:14", "18:32"),
    ("shanghai", "上海", "上海市", 17, 9, 0.45, 60, "05:53", "18:10"),
    ("guangzhou", "广州", "广东省", 25, 18, 0.5, 45, "06:24", "18:43"),
    ("shenzhen", "深圳", "广东省", 25, 19, 0.45, 38, "06:21", "18:40"),
    ("hangzhou", "杭州", "浙江省", 18, 9, 0.45, 62, "05:58", "18:16"),
    ("nanjing", "南京", "江苏省", 17, 7, 0.4, 75, "06:03", "18:19"),
    ("suzhou", "苏州", "江苏省", 17, 8, 0.4, 65, "05:56", "18:13"),
    ("chengdu", "成都", "四川省", 19, 11, 0.35, 90, "07:04", "19:22"),
    ("chongqing", "重庆", "重庆市", 20, 13, 0.4, 78, "06:53", "19:10"),
    ("wuhan", "武汉", "湖北省", 19, 9, 0.45, 85, "06:27", "18:44"),
    ("changsha", "长沙", "湖南省", 19, 11, 0.5, 70, "06:32", "18:50"),
    ("xian", "西安", "陕西省", 18, 7, 0.25, 110, "06:49", "19:07"),
    ("zhengzhou", "郑州", "河南省", 18, 6, 0.2, 115, "06:30", "18:47"),
    ("tianjin", "天津", "天津市", 15, 4, 0.15, 100, "06:10", "18:28"),
    ("qingdao", "青岛", "山东省", 12, 5, 0.25, 68, "05:56", "18:15"),
    ("shenyang", "沈阳", "辽宁省", 10, -1, 0.2, 80, "05:48", "18:09"),
    ("harbin", "哈尔滨", "黑龙江省", 5, -6, 0.2, 70, "05:36", "17:58"),
    ("xiamen", "厦门", "福建省", 21, 14, 0.4, 35, "06:18", "18:35"),
    ("fuzhou", "福州", "福建省", 21, 13, 0.45, 38, "06:12", "18:30"),
    ("kunming", "昆明", "云南省", 22, 9, 0.1, 35, "07:13", "19:30"),
    ("guilin", "桂林", "广西壮族自治区", 22, 14, 0.5, 45, "06:44", "19:02"),
    ("sanya", "三亚", "海南省", 29, 22, 0.2, 25, "06:37", "18:55"),
    ("haikou", "海口", "海南省", 27, 20, 0.3, 30, "06:35", "18:52"),
    ("lasa", "拉萨", "西藏自治区", 16, 1, 0.05, 30, "07:38", "20:03"),
    ("urumqi", "乌鲁木齐", "新疆维吾尔自治区", 12, 1, 0.1, 85, "08:07", "20:28"),
    ("lanzhou", "兰州", "甘肃省", 16, 2, 0.1, 105, "07:04", "19:23"),
    ("huhehaote", "呼和浩特", "内蒙古自治区", 10, -3, 0.1, 75, "06:33", "18:55"),
)
HOT_CITIES = ("beijing", "shanghai", "guangzhou", "shenzhen", "hangzhou", "chengdu",
              "chongqing", "wuhan", "xian", "nanjing", "sanya", "xiamen")  # fmt: skip
SAVED_ON_NEW_DEVICE = (2, 4)  # besides the phone's own city
DRY_TYPES = (("晴", 4), ("多云", 4), ("阴", 2))
HAZY_TYPES = (("雾", 1), ("霾", 1))
WARM_WET_TYPES = (("小雨", 3), ("中雨", 2), ("阵雨", 3), ("雷阵雨", 3), ("大雨", 1))
MILD_WET_TYPES = (("小雨", 4), ("中雨", 2), ("阵雨", 2))
COLD_WET_TYPES = (("小雪", 3), ("雨夹雪", 2), ("中雪", 1))
WINDS = ("北风", "东北风", "东风", "东南风", "南风", "西南风", "西风", "西北风")
# The share of the day's range reached at each hour: coldest before dawn, warmest at 14:00.
DIURNAL = (0.15, 0.11, 0.07, 0.04, 0.01, 0.0, 0.04, 0.14, 0.3, 0.45, 0.6, 0.74, 0.86, 0.95, 1.0,
           0.97, 0.9, 0.78, 0.63, 0.51, 0.41, 0.32, 0.25, 0.2)  # fmt: skip
DAYTIME = range(6, 18)
SEVERE = {"雷阵雨": "雷电黄色预警", "大雨": "暴雨蓝色预警", "中雪": "道路结冰黄色预警",
          "霾": "霾黄色预警"}  # fmt: skip
AQI_LEVELS = ((50, "优"), (100, "良"), (150, "轻度污染"), (200, "中度污染"), (300, "重度污染"))
AQI_COLORS: dict[str, Color] = {"优": (0, 170, 90), "良": (230, 170, 0),
                                "轻度污染": (240, 120, 0), "中度污染": (220, 40, 40),
                                "重度污染": (150, 30, 90)}  # fmt: skip
UV_LEVELS = ((2, "弱"), (4, "中等"), (6, "强"), (99, "很强"))
UNITS = (("C", "摄氏度 °C"), ("F", "华氏度 °F"))
Forecast = Mapping[str, Any]


# -- seeded content ------------------------------------------------------------------------------
def _weighted(rng: random.Random, options: Sequence[tuple[str, int]]) -> str:
    names, weights = zip(*options, strict=True)
    return rng.choices(names, weights=weights)[0]


def _wet_types(high: int, low: int) -> Sequence[tuple[str, int]]:
    if low <= 0:
        return COLD_WET_TYPES
    return WARM_WET_TYPES if high >= 20 else MILD_WET_TYPES


def _day_forecast(rng: random.Random, row: tuple[Any, ...]) -> dict[str, Any]:
    _, _, _, typical_high, typical_low, wet_chance, typical_aqi, _, _ = row
    wet = rng.random() < wet_chance
    high = typical_high + rng.randint(-3, 3) - (rng.randint(1, 4) if wet else 0)
    low = min(high - 3, typical_low + rng.randint(-2, 2) - (1 if wet else 0))
    if wet:
        rain = _weighted(rng, _wet_types(high, low))
        day, night = rng.choice(((rain, rain), ("多云", rain), ("阴", rain), (rain, "阴")))
    else:
        dry = DRY_TYPES + (HAZY_TYPES if typical_aqi >= 90 else ())
        day = _weighted(rng, dry)
        night = "晴" if day == "晴" else rng.choice((day, "多云", "晴"))
    aqi = typical_aqi * rng.uniform(0.6, 1.5) * (0.6 if wet else 1.0)
    if "霾" in (day, night):
        aqi = max(aqi, 160)
    humid_base = 55 if typical_high >= 17 else 25
    return {
        "day": day,
        "night": night,
        "high": high,
        "low": low,
        "aqi": max(15, round(aqi)),
        "humidity": rng.randint(75, 95) if wet else rng.randint(humid_base, humid_base + 25),
        "wind": rng.choice(WINDS),
        "wind_level": rng.randint(1, 5 if typical_high < 17 else 3),
        "rain_chance": rng.randint(60, 95) if wet else rng.choice((0, 0, 5, 10, 20)),
        "uv": _uv_index(rng, wet=wet, sunny=day == "晴"),
    }


def _uv_index(rng: random.Random, *, wet: bool, sunny: bool) -> int:
    if wet:
        return rng.randint(1, 2)
    return rng.randint(5, 8) if sunny else rng.randint(2, 4)


def build_content(rng: random.Random) -> dict[str, Any]:
    cities = [
        {"id": row[0], "name": row[1], "province": row[2], "sunrise": row[7], "sunset": row[8]}
        for row in CITY_TABLE
    ]
    # Index by weekday (Monday = 0): the week ahead of any phone covers each weekday once.
    forecasts = {
        row[0]: [_day_forecast(rng, row) for _ in range(FORECAST_DAYS)] for row in CITY_TABLE
    }
    return {"cities": cities, "forecasts": forecasts, "hot": list(HOT_CITIES), "here": HERE}


# -- reading forecasts ---------------------------------------------------------------------------
def local_hour(clock: int) -> int:
    return dt.datetime.fromtimestamp(clock, BEIJING).hour


def find_city(content: Any, city_id: str) -> Mapping[str, Any] | None:
    return next((c for c in content["cities"] if c["id"] == city_id), None)


def city_by_name(content: Any, name: str) -> Mapping[str, Any] | None:
    """A city by its name, with or without 市 (北京, 北京市), or by its pinyin id."""
    wanted = name.strip().removesuffix("市").lower()
    return next((c for c in content["cities"] if wanted in (c["name"], c["id"])), None)


def forecast_on(content: Any, city_id: str, day: dt.date) -> Forecast:
    return content["forecasts"][city_id][day.weekday()]


def day_of(clock: int, offset: int) -> dt.date:
    return local_date(clock) + dt.timedelta(days=offset)


def rains(forecast: Forecast) -> bool:
    return "雨" in forecast["day"] or "雨" in forecast["night"]


def weather_text(forecast: Forecast) -> str:
    """'多云转小雨' when the night differs from the day, as Chinese forecasts write it."""
    if forecast["day"] == forecast["night"]:
        return str(forecast["day"])
    return f"{forecast['day']}转{forecast['night']}"


def hourly(forecast: Forecast, hour: int) -> tuple[str, int]:
    """The weather type and °C at `hour` of a forecast day."""
    kind = forecast["day"] if hour in DAYTIME else forecast["night"]
    span = forecast["high"] - forecast["low"]
    return kind, round(forecast["low"] + span * DIURNAL[hour])


def fahrenheit(celsius: int) -> int:
    return round(celsius * 9 / 5 + 32)


def temp_text(celsius: int, unit: str) -> str:
    return f"{fahrenheit(celsius)}°F" if unit == "F" else f"{celsius}°"


def range_text(forecast: Forecast, unit: str) -> str:
    """Low to high, the way the 7-day list shows it: '3°~15°'."""
    return f"{temp_text(forecast['low'], unit)}~{temp_text(forecast['high'], unit)}"


def aqi_level(aqi: int) -> str:
    return next((name for limit, name in AQI_LEVELS if aqi <= limit), "严重污染")


def uv_level(uv: int) -> str:
    return next(name for limit, name in UV_LEVELS if uv <= limit)


def glyph(kind: str) -> str:
    if "雪" in kind:
        return "☃"
    if "雨" in kind:
        return "☂"
    return {"晴": "☀", "雾": "≡", "霾": "≡"}.get(kind, "☁")


def day_label(offset: int, day: dt.date) -> str:
    return ("今天", "明天")[offset] if offset < 2 else f"周{WEEKDAYS[day.weekday()]}"


def date_line(offset: int, day: dt.date) -> str:
    """The small line under a day's label; today and tomorrow also name their weekday."""
    weekday = f" 周{WEEKDAYS[day.weekday()]}" if offset < 2 else ""
    return f"{day.month}/{day.day}{weekday}"


def on_sky(text: str, widget_id: str, *, size: int = 36) -> Text:
    """White text on the blue weather card."""
    return Text(text, size=size, color=theme.WHITE, id=widget_id)


class Weather(App):
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

    # -- lookups -------------------------------------------------------------------------------
    @staticmethod
    def saved(data: Any, city_id: str) -> bool:
        return any(c["id"] == city_id for c in data["cities"])

    @staticmethod
    def require_city(it: Interaction, city_id: str) -> Mapping[str, Any]:
        city = find_city(it.content, city_id)
        if city is None:
            it.no_op(f"no city {city_id}")
        return city

    @staticmethod
    def located(v: View) -> bool:
        return v.os["permissions"].get(WEATHER, {}).get("location") is True

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

    @screen("city")
    def city(self, v: View) -> Page:
        city = find_city(v.content, v.params["city"])
        if city is None:
            return Page("天气", [Text("未找到该城市", padding=40)], on_back=v.back())
        bottom = None
        if not self.saved(v.data, city["id"]):  # a preview from search
            bottom = Column(
                [Button("添加到我的城市", v.do(self.add_city, city["id"]), id="add_city")],
                padding=24,
                fill=theme.SURFACE,
            )
        return Page(
            city["name"],
            self._forecast_body(v, city, located=False),
            on_back=v.back(),
            bottom=bottom,
            body_padding=32,
            spacing=28,
        )

    def _forecast_body(
        self, v: View, city: Mapping[str, Any], *, located: bool
    ) -> list[Widget | None]:
        clock = int(v.os["clock"])
        today = forecast_on(v.content, city["id"], local_date(clock))
        return [
            self._now_card(v, city, today, located=located),
            self._warning(today),
            self._hourly_card(v, today, local_hour(clock)),
            self._week_card(v, city["id"], clock),
            self._details_card(v, city, today, local_hour(clock)),
            Spacer(40),
        ]

    @staticmethod
    def _location_off_banner() -> Text:
        return Text(
            "未开启定位权限，显示默认城市天气",
            size=34,
            color=theme.TEXT_SECONDARY,
            align="center",
            id="location_off",
        )

    @staticmethod
    def _now_card(v: View, city: Any, today: Forecast, *, located: bool) -> Card:
        clock = int(v.os["clock"])
        day, hour = local_date(clock), local_hour(clock)
        kind, celsius = hourly(today, hour)
        unit = v.data["unit"]
        level = aqi_level(today["aqi"])
        region = "" if city["province"] == f"{city['name']}市" else f"{city['province']} "
        where = f"定位 · {HERE_DISTRICT}" if located else f"{region}{city['name']}"
        return Card(
            [
                Text(where, size=36, color=SKY_TEXT, id="now_place"),
                Text(
                    f"{day.month}月{day.day}日 周{WEEKDAYS[day.weekday()]}  {hour:02d}:00 发布",
                    size=32,
                    color=SKY_TEXT,
                ),
                Text(
                    temp_text(celsius, unit), size=170, bold=True, color=theme.WHITE, id="now_temp"
                ),
                Text(
                    f"{glyph(kind)} {kind}   {range_text(today, unit)}",
                    size=48,
                    color=theme.WHITE,
                    id="now_weather",
                ),
                Spacer(12),
                Row(
                    [
                        on_sky(f"空气{level} {today['aqi']}", "aqi_now"),
                        on_sky(f"湿度 {today['humidity']}%", "humidity_now"),
                        on_sky(f"{today['wind']} {today['wind_level']}级", "wind_now"),
                    ],
                    spacing=12,
                ),
            ],
            padding=48,
            spacing=8,
            fill=SKY,
            id="now",
        )

    @staticmethod
    def _warning(today: Forecast) -> Card | None:
        severe = next((SEVERE[k] for k in (today["day"], today["night"]) if k in SEVERE), None)
        if severe is None:
            return None
        return Card(
            [Text(f"⚠ {severe}：请关注天气变化，注意出行安全", size=36, color=WARNING_TEXT)],
            fill=WARNING,
            padding=32,
            id="warning",
        )

    @staticmethod
    def _hourly_card(v: View, today: Forecast, now_hour: int) -> Card:
        unit = v.data["unit"]
        cells: list[Widget] = []
        for hour in range(now_hour, 24):
            kind, celsius = hourly(today, hour)
            cells.append(
                Column(
                    [
                        Text(
                            "现在" if hour == now_hour else f"{hour}时",
                            size=32,
                            color=theme.TEXT_SECONDARY,
                            align="center",
                        ),
                        Text(glyph(kind), size=44, color=SKY, align="center"),
                        Text(temp_text(celsius, unit), size=36, align="center"),
                    ],
                    spacing=6,
                    id=f"hour_{hour}",
                )
            )
        while len(cells) % HOURLY_COLUMNS:
            cells.append(Column([]))
        rows = [
            Row(cells[i : i + HOURLY_COLUMNS], spacing=8)
            for i in range(0, len(cells), HOURLY_COLUMNS)
        ]
        return Card([Text("今日逐小时预报", size=40, bold=True), *rows], spacing=24, id="hourly")

    @classmethod
    def _week_card(cls, v: View, city_id: str, clock: int) -> Card:
        rows = [
            cls._week_row(v, city_id, offset, day_of(clock, offset))
            for offset in range(FORECAST_DAYS)
        ]
        return Card([Text("7日天气预报", size=40, bold=True), *rows], spacing=8, id="week")

    @staticmethod
    def _week_row(v: View, city_id: str, offset: int, day: dt.date) -> Column:
        """One day of the 7-day list: label and date, weather, air quality, low~high."""
        forecast = forecast_on(v.content, city_id, day)
        level = aqi_level(forecast["aqi"])
        label = Column(
            [
                Text(day_label(offset, day), size=40, bold=True, id=f"day_{offset}_label"),
                Text(date_line(offset, day), size=30, color=theme.TEXT_SECONDARY),
            ]
        )
        weather = Text(
            f"{glyph(forecast['day'])} {weather_text(forecast)}",
            size=38,
            id=f"day_{offset}_weather",
        )
        air = Text(level, size=32, color=AQI_COLORS.get(level, WARNING_TEXT), align="center")
        temps = Text(
            range_text(forecast, v.data["unit"]), size=38, align="right", id=f"day_{offset}_temp"
        )
        return Column(
            [Row([label, weather, air, temps], weights=(2.2, 3.4, 1.6, 2.8), spacing=12)],
            padding=12,
            on_tap=v.go("day", city=city_id, offset=offset),
            id=f"day_{offset}",
        )

    @staticmethod
    def _details_card(v: View, city: Any, today: Forecast, hour: int) -> Card:
        _, celsius = hourly(today, hour)
        feels = celsius - today["wind_level"] // 2 + (1 if today["humidity"] > 80 else 0)
        cells = (
            ("日出", city["sunrise"], "sunrise"),
            ("日落", city["sunset"], "sunset"),
            ("体感温度", temp_text(feels, v.data["unit"]), "feels_like"),
            ("紫外线", uv_level(today["uv"]), "uv"),
            ("降水概率", f"{today['rain_chance']}%", "rain_chance"),
            ("风力", f"{today['wind']} {today['wind_level']}级", "wind"),
        )
        grid = [
            Row(
                [
                    Column(
                        [
                            Text(label, size=32, color=theme.TEXT_SECONDARY),
                            Text(value, size=44, bold=True, id=widget_id),
                        ],
                        spacing=4,
                    )
                    for label, value, widget_id in cells[i : i + 3]
                ],
                spacing=16,
            )
            for i in range(0, len(cells), 3)
        ]
        return Card([Text("生活指数", size=40, bold=True), *grid], spacing=28, id="details")

    @screen("day")
    def day(self, v: View) -> Page:
        city = find_city(v.content, v.params["city"])
        if city is None:
            return Page("天气", [Text("未找到该城市", padding=40)], on_back=v.back())
        offset = int(v.params["offset"])
        day = day_of(int(v.os["clock"]), offset)
        forecast = forecast_on(v.content, city["id"], day)
        unit = v.data["unit"]
        level = aqi_level(forecast["aqi"])

        def fact(label: str, value: str, widget_id: str) -> ListItem:
            return ListItem(label, trailing=value, id=widget_id)

        return Page(
            f"{city['name']} · {day_label(offset, day)}",
            [
                Card(
                    [
                        Text(
                            f"{day.year}年{day.month}月{day.day}日 周{WEEKDAYS[day.weekday()]}",
                            size=36,
                            color=SKY_TEXT,
                            id="day_date",
                        ),
                        Text(
                            f"{glyph(forecast['day'])} {weather_text(forecast)}",
                            size=64,
                            bold=True,
                            color=theme.WHITE,
                            id="day_weather",
                        ),
                        Text(
                            range_text(forecast, unit), size=56, color=theme.WHITE, id="day_range"
                        ),
                    ],
                    padding=48,
                    spacing=12,
                    fill=SKY,
                ),
                Card(
                    [
                        fact("白天", forecast["day"], "day_daytime"),
                        fact("夜间", forecast["night"], "day_night"),
                        fact("最高气温", temp_text(forecast["high"], unit), "day_high"),
                        fact("最低气温", temp_text(forecast["low"], unit), "day_low"),
                        fact("空气质量", f"{level} {forecast['aqi']}", "day_aqi"),
                        fact("降水概率", f"{forecast['rain_chance']}%", "day_rain_chance"),
                        fact("相对湿度", f"{forecast['humidity']}%", "day_humidity"),
                        fact(
                            "风向风力", f"{forecast['wind']} {forecast['wind_level']}级", "day_wind"
                        ),
                        fact("紫外线", uv_level(forecast["uv"]), "day_uv"),
                        fact("日出 / 日落", f"{city['sunrise']} / {city['sunset']}", "day_sun"),
                    ],
                    padding=0,
                    spacing=0,
                ),
            ],
            on_back=v.back(),
            body_padding=32,
            spacing=28,
        )

    # -- screens: managing cities ---------------------------------------------------------------
    @screen("cities")
    def cities(self, v: View) -> Page:
        clock = int(v.os["clock"])
        unit = v.data["unit"]
        rows: list[Widget | None] = []
        for saved in v.data["cities"]:
            today = forecast_on(v.content, saved["id"], local_date(clock))
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
