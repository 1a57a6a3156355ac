"""Task templates of the Weather app: managing cities and the unit, questions about forecasts,
and two that carry a forecast into Notes and Calendar.

Forecasts are indexed by weekday, so a question about "周六" has one answer per world and the
parameters carry it; "tomorrow" and "now" depend on the phone's date, which the verifier reads
from the state before the episode.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.calendar.app import CALENDAR
from phonebuddy.phoneworld.apps.calendar.tasks import fill_event, one_new_event, open_calendar
from phonebuddy.phoneworld.apps.weather.base import (
    COLD_WET_TYPES,
    DRY_TYPES,
    HAZY_TYPES,
    HERE,
    MILD_WET_TYPES,
    WARM_WET_TYPES,
    WEATHER,
    WEEKDAYS,
    local_date,
    rains,
    weather_text,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    ClockTime,
    Expectation,
    Number,
    Text,
    Together,
    YesNo,
    clock,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI, texts
from phonebuddy.phoneworld.tasks.toggles import Switch, ToggleTemplate
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction, Type

NOTES = "com.pw.notes"
ROOT = f"apps/{WEATHER}"
CITIES = f"{ROOT}/cities"
NOTES_LIST = f"apps/{NOTES}/notes"
EN_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
EN_NAMES = {"xian": "Xi'an", "lasa": "Lhasa", "huhehaote": "Hohhot", "urumqi": "Urumqi"}
UNIT_NAMES = {"C": ("摄氏度（°C）", "Celsius (°C)"), "F": ("华氏度（°F）", "Fahrenheit (°F)")}
# What to plan on a weekend day, depending on the weather: title, start, end.
RAIN_PLANS = (("带伞出门", "08:00", "08:30"), ("在家看电影", "14:00", "16:00"),
              ("室内攀岩", "15:00", "17:00"))  # fmt: skip
DRY_PLANS = (("户外野餐", "10:00", "14:00"), ("骑行奥森", "09:00", "11:00"),
             ("爬香山", "08:00", "12:00"))  # fmt: skip
_WEEK_ROW = re.compile(r"^day_(\d)$")
# Every kind of weather forecasts name: the weather written in a note is one of them.
KINDS = tuple(
    dict.fromkeys(
        kind
        for types in (DRY_TYPES, HAZY_TYPES, WARM_WET_TYPES, MILD_WET_TYPES, COLD_WET_TYPES)
        for kind, _ in types
    )
)


def unless(ok: bool, problem: str) -> list[str]:
    """A verifier's result: no problem when `ok`, else this one."""
    return [] if ok else [problem]


def english(city: Any) -> str:
    return EN_NAMES.get(city["id"], str(city["id"]).capitalize())


def city_params(city: Any) -> Params:
    return {"city": city["id"], "name": city["name"], "en": english(city)}


def forecasts(world: World, city_id: str) -> list[Any]:
    return list(world.content(WEATHER)["forecasts"][city_id])


def other_cities(world: World) -> list[Any]:
    """Cities other than the phone's own (which a new phone always has as its default)."""
    return [c for c in world.content(WEATHER)["cities"] if c["id"] != HERE]


def changed_to(diff: StateDiff, path: str) -> Any:
    """The new value of a setting the task changes (claimed); None if it did not change."""
    changes = diff.touched(path)
    return changes[0].after if changes else None


def today_of(diff: StateDiff) -> dt.date:
    """The phone's date when the episode started."""
    return local_date(int(diff.before["os"]["clock"]))


def next_weekday(today: dt.date, weekday: int) -> dt.date:
    """The day with that weekday within the seven days from today (today included)."""
    return today + dt.timedelta(days=(weekday - today.weekday()) % 7)


def ensure_saved(it: Interaction, city: Params) -> None:
    """Setup: the city is in the phone's list (appended, so the default does not change)."""
    cities = it.app_data(WEATHER)["cities"]
    if not any(c["id"] == city["city"] for c in cities):
        cities.append({"id": city["city"], "name": city["name"]})


# -- oracle steps ----------------------------------------------------------------------------------
def open_weather(ui: OracleUI) -> Iterator[Action]:
    """Open Weather on its home screen, allowing the location permission if it asks."""
    yield from ui.open_app("天气")
    for _ in range(6):
        if ui.visible("cities"):
            return
        yield ui.back()
    raise OracleError("could not get back to Weather's home screen")


def open_city(ui: OracleUI, city: Params) -> Iterator[Action]:
    """Show a city's weather: the home screen if it is the default city, else its page from
    城市管理, else a preview through search."""
    yield from open_weather(ui)
    if ui.text_of("toolbar_title") == city["name"]:
        return
    yield ui.tap("cities")
    if ui.find(f"city_{city['city']}") is not None:
        yield from ui.scroll_to(f"city_{city['city']}")
        yield ui.tap(f"city_{city['city']}")
        return
    yield ui.tap("add")
    yield Type(text=city["name"])  # the search field has focus
    yield ui.tap(f"result_{city['city']}")


def open_city_actions(ui: OracleUI, city_id: str) -> Iterator[Action]:
    """On 城市管理: the sheet of a saved city's actions."""
    yield from ui.scroll_to(f"more_{city_id}")
    yield ui.tap(f"more_{city_id}")


def week_row(ui: OracleUI, weekday: int) -> str:
    """The id of the 7-day list's row of a weekday (a row shows '周六' or '明天 … 周六')."""
    label = f"周{WEEKDAYS[weekday]}"
    for node in ui.find_all():
        match = _WEEK_ROW.match(node.resource_id.rpartition(":id/")[2])
        if match and any(label in text for text in texts(node)):
            return f"day_{match[1]}"
    raise OracleError(f"no row for {label} in the 7-day forecast")


def scroll_to_week(ui: OracleUI) -> Iterator[Action]:
    """Bring the whole 7-day list into view (its last row, then its first)."""
    yield from ui.scroll_to("day_6")
    yield from ui.scroll_to("day_0")


def shown_weather(ui: OracleUI, row: str) -> str:
    """A row's weather without its glyph: '☂ 多云转小雨' -> '多云转小雨'."""
    return ui.text_of(f"{row}_weather").split(" ", 1)[-1]


def shown_range(ui: OracleUI, row: str) -> tuple[str, str]:
    """A row's '3°~15°' as ('3', '15')."""
    low, _, high = ui.text_of(f"{row}_temp").partition("~")
    return low.rstrip("°F"), high.rstrip("°F")


# -- single app: cities and settings --------------------------------------------------------------
class WeatherTemplate(TaskTemplate):
    category = Category.SINGLE_APP
    apps = (WEATHER,)


class AddCity(WeatherTemplate):
    id = "weather.add_city"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        return city_params(rng.choice(other_cities(world)))

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.app_data(WEATHER)
        data["cities"] = [c for c in data["cities"] if c["id"] != params["city"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, en = params["name"], params["en"]
        return phrased(
            zh=[f"在天气里添加城市“{name}”", f"帮我在天气App里加上“{name}”这个城市",
                f"我想随时看“{name}”的天气，在天气里把这个城市添加进去"],
            en=[f"Add {name} ({en}) to the cities in Weather",
                f"Please add the city {name} ({en}) in the Weather app",
                f"I want to follow the weather in {name} ({en}); add it to my cities in Weather"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = [c["id"] for c in diff.added(CITIES)]
        return unless(added == [params["city"]], f"added {added}, expected [{params['city']!r}]")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_city(ui, params)
        yield ui.tap("add_city")


class RemoveCity(WeatherTemplate):
    id = "weather.remove_city"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return city_params(rng.choice(other_cities(world)))

    def setup(self, it: Interaction, params: Params) -> None:
        ensure_saved(it, params)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, en = params["name"], params["en"]
        return phrased(
            zh=[f"把“{name}”从天气的城市列表里删掉", f"天气里不需要“{name}”这个城市了，删除它",
                f"在天气的城市管理里移除“{name}”"],
            en=[f"Remove {name} ({en}) from the cities in Weather",
                f"I no longer need {name} ({en}) in Weather; delete that city",
                f"In Weather's city list, remove {name} ({en})"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [c["id"] for c in diff.removed(CITIES)]
        return unless(
            removed == [params["city"]], f"removed {removed}, expected [{params['city']!r}]"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_weather(ui)
        yield ui.tap("cities")
        yield from open_city_actions(ui, params["city"])
        yield ui.tap("remove")
        yield ui.tap("confirm_remove")


class SetDefaultCity(WeatherTemplate):
    id = "weather.set_default"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return city_params(rng.choice(other_cities(world)))

    def setup(self, it: Interaction, params: Params) -> None:
        ensure_saved(it, params)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, en = params["name"], params["en"]
        return phrased(
            zh=[f"把天气的默认城市设为{name}", f"帮我把{name}设成天气里的默认城市",
                f"我想一打开天气就看到{name}，把它设为默认城市"],
            en=[f"Make {name} ({en}) the default city in Weather",
                f"Set the default city in Weather to {name} ({en})",
                f"I want Weather to open on {name} ({en}); make it the default city"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        after = changed_to(diff, f"{ROOT}/default_city")
        return unless(
            after == params["city"], f"the default city is {after!r}, expected {params['city']!r}"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_weather(ui)
        yield ui.tap("cities")
        yield from open_city_actions(ui, params["city"])
        yield ui.tap("set_default")


class SwitchUnit(WeatherTemplate):
    id = "weather.switch_unit"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"unit": rng.choice(("C", "F"))}

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(WEATHER)["unit"] = "C" if params["unit"] == "F" else "F"

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh, en = UNIT_NAMES[params["unit"]]
        return phrased(
            zh=[f"把天气里的温度单位改成{zh}", f"天气里的温度请用{zh}显示",
                f"在天气的设置里把温度单位切换为{zh}"],
            en=[f"Show temperatures in {en} in Weather",
                f"Switch Weather's temperature unit to {en}",
                f"In Weather's settings, change the temperature unit to {en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        after = changed_to(diff, f"{ROOT}/unit")
        return unless(
            after == params["unit"], f"the unit is {after!r}, expected {params['unit']!r}"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_weather(ui)
        yield ui.tap("settings")
        yield ui.tap(f"unit_{params['unit']}")


# -- single app: questions ------------------------------------------------------------------------
class TomorrowHigh(WeatherTemplate):
    id = "weather.tomorrow_high"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        city = rng.choice(list(world.content(WEATHER)["cities"]))
        return {**city_params(city), "highs": [f["high"] for f in forecasts(world, city["id"])]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, en = params["name"], params["en"]
        return phrased(
            zh=[f"{name}明天的最高气温是多少摄氏度？", f"查一下{name}明天最高气温多少度（摄氏度）",
                f"明天{name}最高能到多少摄氏度？"],
            en=[f"What is tomorrow's high in {name} ({en}), in °C?",
                f"How hot will it get in {name} ({en}) tomorrow? Give the high in °C",
                f"Check tomorrow's highest temperature in {name} ({en}) in °C"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        tomorrow = today_of(diff) + dt.timedelta(days=1)
        return Number(params["highs"][tomorrow.weekday()], unit="°C")

    def wrong_answer(self, params: Params) -> str:
        return f"{min(params['highs']) - 2}°C"  # colder than any day of the week

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_city(ui, params)
        yield from ui.scroll_to("day_1_temp")
        yield Answer(text=f"{shown_range(ui, 'day_1')[1]}°C")


class RainOnWeekday(WeatherTemplate):
    id = "weather.rain_on_weekday"
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        city = rng.choice(list(world.content(WEATHER)["cities"]))
        weekday, wanted = rng.randrange(7), rng.random() < 0.5
        # this task's own forecast of that day: its day and night weather
        wet = [k for k in KINDS if "雨" in k]
        dry = [k for k in KINDS if "雨" not in k]
        if wanted:
            kinds = [rng.choice(wet), rng.choice(KINDS)]
            rng.shuffle(kinds)
        else:
            kinds = [rng.choice(dry), rng.choice(dry)]
        forecast = {"day": kinds[0], "night": kinds[1 if rng.random() < 0.6 else 0]}
        return {
            **city_params(city),
            "weekday": weekday,
            "rain": rains(forecast),
            "forecast": forecast,
            "weather": weather_text(forecast),
        }

    def setup(self, it: Interaction, params: Params) -> None:
        own = it.data.setdefault("forecasts", {}).setdefault(params["city"], {})
        own[str(params["weekday"])] = dict(params["forecast"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        # A bare yes/no would pay a guesser half the time: the answer names the forecast too.
        day_zh, day_en = f"周{WEEKDAYS[params['weekday']]}", EN_WEEKDAYS[params["weekday"]]
        name, en = params["name"], params["en"]
        return phrased(
            zh=[f"接下来7天里的{day_zh}，{name}会下雨吗？说出会不会，以及那天的天气",
                f"接下来7天内，{name}{day_zh}那天下不下雨？告诉我天气预报是什么",
                f"帮我看看{name}在接下来7天里的{day_zh}会不会下雨，并说一下那天是什么天气"],
            en=[f"Will it rain in {name} ({en}) on {day_en} (within the next 7 days)? Say yes "
                "or no and what the forecast for that day is",
                f"Is rain forecast in {name} ({en}) for {day_en}, within the next 7 days? Tell me "
                "the day's forecast too",
                f"Check whether it will rain in {name} ({en}) on the coming {day_en} (within the "
                "next 7 days), and name that day's weather"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        own = diff.before["apps"][WEATHER]["forecasts"][params["city"]]
        forecast = own[str(params["weekday"])]
        text = weather_text(forecast)
        day, _, night = text.partition("转")
        weather = Text([text, day], others=KINDS, also=[night] if night else [],
                       what="weather")  # fmt: skip
        return Together(YesNo(rains(forecast)), weather)

    def wrong_answer(self, params: Params) -> str:
        return f"{'不会下雨' if params['rain'] else '会下雨'}，{params['weather']}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_city(ui, params)
        yield from scroll_to_week(ui)
        shown = shown_weather(ui, week_row(ui, params["weekday"]))
        yield Answer(text=f"{'会下雨' if '雨' in shown else '不会下雨'}，{shown}")


class AirQualityNow(WeatherTemplate):
    id = "weather.aqi_now"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        city = rng.choice(list(world.content(WEATHER)["cities"]))
        return {**city_params(city), "aqis": [f["aqi"] for f in forecasts(world, city["id"])]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, en = params["name"], params["en"]
        return phrased(
            zh=[f"{name}现在的空气质量指数（AQI）是多少？",
                f"查一下{name}当前的AQI（空气质量指数）",
                f"{name}这会儿空气怎么样？告诉我它的空气质量指数（AQI）"],
            en=[f"What is the air quality index (AQI) in {name} ({en}) right now?",
                f"Look up the current AQI (air quality index) in {name} ({en})",
                f"How is the air in {name} ({en}) at the moment? Tell me its air quality index "
                "(AQI)"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(params["aqis"][today_of(diff).weekday()])

    def wrong_answer(self, params: Params) -> str:
        return str(max(params["aqis"]) + 12)  # worse than any day of the week

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_city(ui, params)
        shown = ui.text_of("aqi_now")
        yield Answer(text="".join(ch for ch in shown if ch.isdigit()))


class Sunrise(WeatherTemplate):
    id = "weather.sunrise"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        city = rng.choice(list(world.content(WEATHER)["cities"]))
        return {**city_params(city), "sunrise": city["sunrise"], "sunset": city["sunset"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, en = params["name"], params["en"]
        return phrased(
            zh=[f"{name}今天几点日出？", f"查一下{name}今天的日出时间",
                f"今天{name}的太阳几点升起？"],
            en=[f"What time is sunrise in {name} ({en}) today?",
                f"When does the sun rise in {name} ({en}) today?",
                f"Look up today's sunrise time in {name} ({en})"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return ClockTime(*clock(params["sunrise"]))

    def wrong_answer(self, params: Params) -> str:
        return str(params["sunset"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_city(ui, params)
        yield from ui.scroll_to("sunrise")
        yield Answer(text=ui.text_of("sunrise"))


# -- cross app ------------------------------------------------------------------------------------
class ForecastToNote(WritesValue, WeatherTemplate):
    id = "weather.forecast_to_note"
    category = Category.CROSS_APP
    apps = (WEATHER, NOTES)
    difficulty = 13
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        city = rng.choice(list(world.content(WEATHER)["cities"]))
        week = [
            {"day": f["day"], "night": f["night"], "high": f["high"], "low": f["low"]}
            for f in forecasts(world, city["id"])
        ]
        return {**city_params(city), "title": f"{city['name']}明天天气", "week": week}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, en, title = params["name"], params["en"], params["title"]
        return phrased(
            zh=[f"查一下{name}明天的天气，新建一条标题为“{title}”的备忘录，"
                "内容写上明天的天气和最低、最高气温（°C）",
                f"新建备忘录“{title}”，把{name}明天的天气以及最低、最高气温（°C）记进去",
                f"帮我把{name}明天的天气预报记到备忘录里：标题写“{title}”，"
                "正文写天气和最低、最高气温（°C）"],
            en=[f"Look up tomorrow's weather in {name} ({en}) and save it as a note titled "
                f"'{title}': the weather and the low and high in °C",
                f"Create a note titled '{title}' with tomorrow's weather in {name} ({en}) and its "
                "low and high in °C",
                f"Please write tomorrow's forecast for {name} ({en}) down in a note titled "
                f"'{title}': the weather plus the low and high temperatures in °C"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        """Tomorrow's weather ('多云转小雨', or the day's alone; the night's may be named too)
        and its low and high, no other temperature."""
        tomorrow = params["week"][(today_of(diff) + dt.timedelta(days=1)).weekday()]
        weather = Text([weather_text(tomorrow), tomorrow["day"]], others=KINDS,
                       also=[tomorrow["night"]], what="weather")  # fmt: skip
        return Together(weather, Number(tomorrow["low"], tomorrow["high"], every=True))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_city(ui, params)
        yield from ui.scroll_to("day_1_temp")
        low, high = shown_range(ui, "day_1")
        forecast = f"{shown_weather(ui, 'day_1')}，最低{low}°C，最高{high}°C"
        yield ui.open("备忘录")
        yield ui.tap("new_note")
        yield from ui.type_into("title", params["title"])
        yield from ui.type_into("body", forecast)
        yield ui.tap("save")


class WeekendPlan(WeatherTemplate):
    id = "weather.weekend_plan"
    category = Category.CROSS_APP
    apps = (WEATHER, CALENDAR)
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        wanted = rng.random() < 0.5
        choices = [
            (city, weekday)
            for city in world.content(WEATHER)["cities"]
            for weekday in (5, 6)
            if rains(forecasts(world, city["id"])[weekday]) == wanted
        ]
        city, weekday = rng.choice(choices)
        wet, dry = rng.choice(RAIN_PLANS), rng.choice(DRY_PLANS)
        return {
            **city_params(city),
            "weekday": weekday,
            "rain": wanted,
            "wet": dict(zip(("title", "start", "end"), wet, strict=True)),
            "dry": dict(zip(("title", "start", "end"), dry, strict=True)),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        day_zh, day_en = f"周{WEEKDAYS[params['weekday']]}", EN_WEEKDAYS[params["weekday"]]
        name, en, wet, dry = params["name"], params["en"], params["wet"], params["dry"]
        wet_at, dry_at = f"{wet['start']}-{wet['end']}", f"{dry['start']}-{dry['end']}"
        return phrased(
            zh=[f"看看接下来7天里的{day_zh}{name}会不会下雨：如果下雨，就在日历上那天"
                f"添加日程“{wet['title']}”，{wet_at}；如果不下雨，就添加“{dry['title']}”，{dry_at}",
                f"帮我安排接下来7天里的{day_zh}：{name}那天要是下雨，就在日历上加日程"
                f"“{wet['title']}”（{wet_at}）；不下雨的话，就加“{dry['title']}”（{dry_at}）",
                f"查一下{name}接下来7天里{day_zh}的天气，下雨就在日历的那一天添加“{wet['title']}”，"
                f"时间{wet_at}，不下雨就添加“{dry['title']}”，时间{dry_at}"],
            en=[f"Check whether it rains in {name} ({en}) on the coming {day_en} (within 7 days). "
                f"If it does, add the calendar event '{wet['title']}' that day, {wet_at}; if not, "
                f"add '{dry['title']}', {dry_at}",
                f"Plan the coming {day_en} (within 7 days) around the weather in {name} ({en}): "
                f"if rain is forecast, put '{wet['title']}' in the calendar that day, {wet_at}; "
                f"otherwise put '{dry['title']}' there, {dry_at}",
                f"If it will rain in {name} ({en}) on the coming {day_en} (within 7 days), add a "
                f"calendar event '{wet['title']}' that day, {wet_at}; if it won't, add "
                f"'{dry['title']}', {dry_at}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        plan = params["wet"] if params["rain"] else params["dry"]
        day = next_weekday(today_of(diff), params["weekday"])
        return one_new_event(diff, {**plan, "date": day.isoformat()})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_city(ui, params)
        yield from scroll_to_week(ui)
        row = week_row(ui, params["weekday"])
        plan = params["wet"] if "雨" in shown_weather(ui, row) else params["dry"]
        yield ui.tap(row)
        shown = re.match(r"(\d{4})年(\d{1,2})月(\d{1,2})日", ui.text_of("day_date"))
        if shown is None:
            raise OracleError("the day page shows no date")
        day = dt.date(int(shown[1]), int(shown[2]), int(shown[3]))
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, {**plan, "date": day.isoformat()})


class ToggleAlerts(ToggleTemplate):
    id = "weather.alerts"
    apps = (WEATHER,)
    app_names = ("天气", "Weather")
    switches = {"alerts": Switch(f"apps/{WEATHER}/alerts", ("settings",), "alerts",
                                 "恶劣天气预警", "severe-weather alerts")}  # fmt: skip


TEMPLATES: tuple[TaskTemplate, ...] = (
    ToggleAlerts(),
    AddCity(),
    RemoveCity(),
    SetDefaultCity(),
    SwitchUnit(),
    TomorrowHigh(),
    RainOnWeekday(),
    AirQualityNow(),
    Sunrise(),
    ForecastToNote(),
    WeekendPlan(),
)
