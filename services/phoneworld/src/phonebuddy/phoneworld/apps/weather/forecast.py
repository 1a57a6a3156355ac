"""Weather's forecast screens: a city's now card, warnings, hourly and weekly forecasts, the
details card, and a day's page.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.weather.base import (
    AQI_COLORS,
    FORECAST_DAYS,
    HERE_DISTRICT,
    HOURLY_COLUMNS,
    SEVERE,
    SKY,
    SKY_TEXT,
    WARNING,
    WARNING_TEXT,
    WEEKDAYS,
    Forecast,
    WeatherBase,
    aqi_level,
    date_line,
    day_label,
    day_of,
    find_city,
    forecast_on,
    glyph,
    hourly,
    local_hour,
    on_sky,
    range_text,
    temp_text,
    uv_level,
    weather_text,
)
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Column,
    ListItem,
    Page,
    Row,
    Spacer,
    Text,
    Widget,
)


class ForecastScreens(WeatherBase):
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
        today = forecast_on(v.content, city["id"], local_date(clock), v.data)
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
        forecast = forecast_on(v.content, city_id, day, v.data)
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
        forecast = forecast_on(v.content, city["id"], day, v.data)
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
