"""What the Weather app's screens share: the seeded forecasts, temperatures in either unit,
weather words and glyphs, and the look-ups of saved cities.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, View
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, local_date
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import Text

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


def forecast_on(content: Any, city_id: str, day: dt.date, data: Any = None) -> Forecast:
    """The city's forecast of that day: the seeded one, with what the device's data holds for
    it instead (a task may start with a day's forecast of its own)."""
    seeded = content["forecasts"][city_id][day.weekday()]
    own = (data or {}).get("forecasts", {}).get(city_id, {}).get(str(day.weekday()))
    return {**seeded, **own} if own else seeded


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


class WeatherBase(App):
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
