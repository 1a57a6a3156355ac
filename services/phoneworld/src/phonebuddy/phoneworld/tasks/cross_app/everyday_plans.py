"""Everyday errands between the phone's own apps, part two, about getting somewhere:
tomorrow's weather deciding between an SMS and a calendar event, a forecast sent back by SMS,
a place from a Circle post planned in Maps, and a ride's plate sent to a friend."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.calendar.app import CALENDAR
from phonebuddy.phoneworld.apps.calendar.tasks import (
    EVENTS,
    fill_event,
    one_new_event,
    open_calendar,
)
from phonebuddy.phoneworld.apps.circle.app import CIRCLE
from phonebuddy.phoneworld.apps.maps.app import MAPS, MODES, route
from phonebuddy.phoneworld.apps.messages.tasks import (
    MESSAGES,
    add_incoming,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.messenger.steps import MESSENGER
from phonebuddy.phoneworld.apps.ride.app import RIDE_PACKAGE, new_trip
from phonebuddy.phoneworld.apps.ride.content import CAR_BY_NAME
from phonebuddy.phoneworld.apps.ride.tasks import open_ride
from phonebuddy.phoneworld.apps.weather.base import WEATHER, rains, weather_text
from phonebuddy.phoneworld.apps.weather.tasks import (
    KINDS,
    city_params,
    forecasts,
    open_city,
    shown_range,
    shown_weather,
    today_of,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    Duration,
    Expectation,
    Number,
    Text,
    Together,
    numbers_in,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.everyday import (
    ChatWrites,
    reply_by_sms,
    send_in_chat,
    sms_person,
)
from phonebuddy.phoneworld.tasks.cross_app.steps import friend_with_chat
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

SMS_TEXT = f"apps/{MESSAGES}/threads[*]/messages[*]/text"
FAVOURITES = f"apps/{MAPS}/favourites"
MODE_NAMES = {key: label for key, label, _, _ in MODES}
MODE_EN = {"drive": "drive", "transit": "public transit ride", "bike": "bike ride"}
RUN_PLANS = (("晨跑", "07:00", "08:00"), ("骑行", "08:00", "10:00"), ("打羽毛球", "16:00", "18:00"))
RAIN_REPLIES = ("明天有雨，改天再约", "明天下雨，活动延期吧")


def tomorrow_of(diff: StateDiff) -> dt.date:
    return today_of(diff) + dt.timedelta(days=1)


def plan_of(params: Params, day: dt.date) -> Params:
    """The calendar event a dry day gets: the plan, in the city, on `day`."""
    return {"title": params["title"], "start": params["start"], "end": params["end"],
            "location": params["name"], "date": day.isoformat()}  # fmt: skip


# Maps' and Circle's task modules reach into this package, so their steps are written here
# rather than imported (no import cycle).
def open_place(ui: OracleUI, place_id: str) -> Iterator[Action]:
    """Maps' home (back from a route or a place left open), then the place's page."""
    yield ui.open("地图")
    for button in ("start", "route"):
        if ui.visible(button):
            yield ui.back()
    yield from ui.scroll_to(f"place_{place_id}")
    yield ui.tap(f"place_{place_id}")


def favourite_added(diff: StateDiff, place_id: str) -> list[str]:
    before, after = diff.value_before(FAVOURITES) or [], diff.value_after(FAVOURITES) or []
    diff.touched(FAVOURITES)
    if sorted(after) != sorted([*before, place_id]):
        return [f"the Maps favourites are {after}, expected {before} plus {place_id}"]
    return []


# -- Weather -----------------------------------------------------------------------------------
def mixed_cities(world: World) -> list[Any]:
    """Cities whose week has both wet and dry days, so tomorrow may go either way."""
    return [c for c in world.content(WEATHER)["cities"]
            if 2 <= sum(rains(f) for f in forecasts(world, c["id"])) <= 5]  # fmt: skip


class RainOrPlan(TaskTemplate):
    """Weather → Messages or Calendar, conditional: rain tomorrow calls the plan off by SMS;
    a dry day puts it in the calendar."""

    id = "cross_app.everyday_rain_or_plan"
    category = Category.CROSS_APP
    apps = (WEATHER, MESSAGES, CALENDAR)
    difficulty = 17

    def sample(self, world: World, rng: random.Random) -> Params:
        city = pick(rng, mixed_cities(world))
        person = sms_person(world, rng, "person")
        activity, start, end = rng.choice(RUN_PLANS)
        # The city and the friend show in both outcomes, so another city or friend never passes.
        return {**city_params(city), **person, "title": f"和{person['person']}{activity}",
                "start": start, "end": end, "reply": f"{city['name']}{rng.choice(RAIN_REPLIES)}",
                "wet": [rains(f) for f in forecasts(world, city["id"])]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        city, en, name, reply = params["name"], params["en"], params["person"], params["reply"]
        title, at = params["title"], f"{params['start']}-{params['end']}"
        return phrased(
            zh=[f"查一下{city}明天的天气：如果下雨，就发短信告诉{name}“{reply}”；如果不下雨，"
                f"就在日历上明天添加日程“{title}”，{at}，地点写{city}",
                f"明天{city}要是下雨，短信跟{name}说“{reply}”；不下雨的话，在日历里给明天加个"
                f"“{title}”的日程，时间{at}，地点{city}",
                f"看看{city}明天下不下雨。下雨：给{name}发短信“{reply}”。不下雨：日历上明天"
                f"{at}添加日程“{title}”，地点填{city}"],
            en=[f"Check tomorrow's weather in {city} ({en}): if it rains, text {name} '{reply}'; "
                f"if not, add the calendar event '{title}' tomorrow, {at}, location {city}",
                f"If rain is forecast in {city} ({en}) tomorrow, send {name} the SMS '{reply}'; "
                f"otherwise put '{title}' in tomorrow's calendar, {at}, at {city}",
                f"Will it rain in {city} ({en}) tomorrow? Yes: text {name} '{reply}'. No: add "
                f"an event '{title}' for tomorrow, {at}, with the location {city}, to the "
                "calendar"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        tomorrow = tomorrow_of(diff)
        sent, events = sent_messages(diff), diff.added(EVENTS)
        if params["wet"][tomorrow.weekday()]:
            problems = [f"rain tomorrow, yet {len(events)} events were added"] if events else []
            return problems + check_one_sms(diff, params["phone"], params["reply"])
        problems = [f"no rain tomorrow, yet {len(sent)} SMS were sent"] if sent else []
        return problems + one_new_event(diff, plan_of(params, tomorrow))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_city(ui, {"city": params["city"], "name": params["name"]})
        yield from ui.scroll_to("day_1_temp")
        if "雨" in shown_weather(ui, "day_1"):
            yield ui.open("信息")
            yield ui.tap("compose")
            yield from ui.type_into("to", params["person"])
            yield from ui.type_into("body", params["reply"])
            yield ui.tap("send")
            return
        yield ui.tap("day_1")
        shown = re.match(r"(\d{4})年(\d{1,2})月(\d{1,2})日", ui.text_of("day_date"))
        if shown is None:
            raise OracleError("the day page shows no date")
        day = dt.date(int(shown[1]), int(shown[2]), int(shown[3]))
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, plan_of(params, day))


class TripForecastBySms(WritesValue):
    """Messages → Weather → Messages: a friend travelling tomorrow asks about the weather; the
    reply states tomorrow's weather and its low and high."""

    id = "cross_app.everyday_trip_forecast_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, WEATHER)
    difficulty = 12
    written = SMS_TEXT

    def sample(self, world: World, rng: random.Random) -> Params:
        city = pick(rng, list(world.content(WEATHER)["cities"]))
        week = [{"day": f["day"], "night": f["night"], "high": f["high"], "low": f["low"]}
                for f in forecasts(world, city["id"])]  # fmt: skip
        return {**city_params(city), **sms_person(world, rng, "person"), "week": week}

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["person"]),
                     f"我明天去{params['name']}出差，那边天气怎么样？几度？", ago=900,
                     key="trip-weather")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        who = params["person"]
        return phrased(
            zh=[f"{who}发短信问出差那边明天的天气，用天气查好后回短信告诉他天气和最低、最高气温（°C）",
                f"回复{who}的短信：他明天要去的城市明天什么天气、最低和最高多少度（°C）",
                f"帮{who}查一下他短信里说的城市明天的天气，短信回复天气和最低、最高气温（°C）"],
            en=[f"{who} texted asking about tomorrow's weather where they travel: look it up "
                "and reply with the weather and the low and high in °C",
                f"Reply to {who}'s SMS with tomorrow's weather in the city they are going to, "
                "plus the low and high in °C",
                f"Check tomorrow's forecast for the city in {who}'s text and answer by SMS: the "
                "weather, the low and the high (°C)"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        day = params["week"][tomorrow_of(diff).weekday()]
        weather = Text([weather_text(day), day["day"]], others=KINDS, also=[day["night"]],
                       what="weather")  # fmt: skip
        return Together(weather, Number(day["low"], day["high"], every=True))

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["person"])
        asked = re.match(r"我明天去(.+?)出差", ui.text_of("msg_task-trip-weather"))
        if asked is None or asked[1] != params["name"]:
            raise OracleError("the SMS names another city")
        yield from open_city(ui, {"city": params["city"], "name": asked[1]})
        yield from ui.scroll_to("day_1_temp")
        low, high = shown_range(ui, "day_1")
        reply = f"明天{asked[1]}{shown_weather(ui, 'day_1')}，最低{low}°C，最高{high}°C"
        yield from reply_by_sms(ui, params["person"], reply)


# -- Circle and Maps ---------------------------------------------------------------------------
class CirclePlacePlan(WritesValue):
    """Circle → Maps → Messages, long: a post about a sight is collected, the sight saved in
    Maps, and a friend told by SMS how long the trip there takes."""

    id = "cross_app.everyday_circle_place_plan"
    category = Category.CROSS_APP
    apps = (CIRCLE, MAPS, MESSAGES)
    difficulty = 22
    written = SMS_TEXT

    def sample(self, world: World, rng: random.Random) -> Params:
        post = pick(rng, [p for p in world.content(CIRCLE)["posts"] if p["place"]])
        place = next(p for p in world.content(MAPS)["places"] if p["name"] == post["place"])
        mode = rng.choice(("drive", "transit", "bike"))
        return {"post_id": post["id"], "title": post["title"], "collects": post["collects"],
                "place_id": place["id"], "mode": mode, "label": MODE_NAMES[mode],
                "minutes": route(place, mode)[1], **sms_person(world, rng)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, name, label, mode = params["title"], params["name"], params["label"], params["mode"]
        return phrased(
            zh=[f"在生活圈收藏笔记“{title}”，把笔记里说的地点在地图里收藏，再短信告诉{name}"
                f"{label}过去要多少分钟",
                f"周末想去生活圈笔记“{title}”写的地方：先收藏这篇笔记，再到地图收藏那个地点，"
                f"然后用短信告诉{name}{label}要几分钟",
                f"收藏生活圈的“{title}”，笔记提到的地点也在地图里收藏，最后短信跟{name}说"
                f"{label}到那儿要多久（分钟）"],
            en=[f"Collect the Circle post '{title}', favourite the place it mentions in Maps, "
                f"then text {name} how many minutes the {MODE_EN[mode]} there takes",
                f"I want to visit the place in the Circle post '{title}': collect the post, save "
                f"the place in Maps, and SMS {name} the minutes by {MODE_EN[mode]}",
                f"Collect '{title}' in Circle, favourite the place from the post in Maps, and "
                f"finally text {name} how long the {MODE_EN[mode]} there is, in minutes"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Duration(params["minutes"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"apps/{CIRCLE}/posts[{params['post_id']}]"
        problems = expect_changes(diff, f"apps/{CIRCLE}", {
            f"{path}/collected": True, f"{path}/collects": params["collects"] + 1})  # fmt: skip
        diff.touched(f"apps/{MAPS}/history")  # searching for the place is the way
        problems += favourite_added(diff, params["place_id"])
        sms = check_one_sms(diff, params["phone"])
        if sms:
            return problems + sms
        [(_, text)] = sent_messages(diff)
        return problems + self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("生活圈")
        yield from ui.scroll_to(text=params["title"])
        yield ui.tap(text=params["title"])
        yield ui.tap("collect")
        where = re.search(r"地点：(.+?)。", ui.text_of("body"))
        if where is None:
            raise OracleError("the post names no place")
        by_name = {p["name"]: p["id"] for p in ui.device.world.content(MAPS)["places"]}
        yield from open_place(ui, by_name[where[1]])
        yield ui.tap("favourite")
        yield ui.tap("route")
        if params["mode"] != "drive":
            yield ui.tap(f"tab_{params['mode']}")
        minutes = int(numbers_in(ui.text_of("duration"))[0])
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["name"])
        yield from ui.type_into("body", f"{params['label']}过去大概{minutes}分钟")
        yield ui.tap("send")


# -- Ride --------------------------------------------------------------------------------------
class PlateToFriend(ChatWrites):
    """Ride → WeChat: the plate of the car on its way, sent to a friend for safety."""

    id = "cross_app.everyday_ride_plate_chat"
    category = Category.CROSS_APP
    apps = (RIDE_PACKAGE, MESSENGER)
    difficulty = 13

    def sample(self, world: World, rng: random.Random) -> Params:
        ride = world.content(RIDE_PACKAGE)
        place = pick(rng, [p for p in ride["places"] if p["id"] != ride["here"]["id"]])
        car = rng.choice(tuple(CAR_BY_NAME))
        trip = new_trip(f"trip-now-{place['id']}", ride, place["id"], CAR_BY_NAME[car].key, 0)
        return {**friend_with_chat(world, rng), "place_id": place["id"], "place": place["name"],
                "car_type": car, "plate": trip["driver"]["plate"],
                "plates": sorted({d["plate"] for d in ride["drivers"]})}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        ride = it.for_app(RIDE_PACKAGE)
        trip = new_trip(f"trip-now-{params['place_id']}", ride.content, params["place_id"],
                        CAR_BY_NAME[params["car_type"]].key, it.clock - 30)  # fmt: skip
        trip["pickup_s"] = 900  # the driver is still on the way throughout the task
        ride.data["trips"].append(trip)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        friend, place = params["friend"], params["place"]
        return phrased(
            zh=[f"我刚叫了去{place}的车，把司机的车牌号用微信发给{friend}报个平安",
                f"在打车里看看去{place}那辆车的车牌，微信告诉{friend}",
                f"为了安全，把我刚叫的去{place}的车的车牌号发给{friend}（微信）"],
            en=[f"I just called a car to {place}: send the plate number to {friend} on WeChat "
                "so they know",
                f"Check the plate of the car taking me to {place} in Ride and tell {friend} on "
                "WeChat",
                f"For safety, send {friend} on WeChat the plate number of the car I just called "
                f"to {place}"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        plate = params["plate"]
        others = [p for p in params["plates"] if p != plate]
        return Text([plate, plate.replace("·", "")], others=others, what="plate")

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.chat_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_ride(ui)
        yield ui.tap("active_trip")
        if not any(n.text == f"● {params['place']}" for n in ui.find_all()):
            raise OracleError(f"the car on its way does not go to {params['place']}")
        plate = ui.text_of("plate")
        yield from send_in_chat(ui, params, f"我上车了，车牌 {plate}，去{params['place']}")


TEMPLATES: tuple[TaskTemplate, ...] = (
    RainOrPlan(),
    TripForecastBySms(),
    CirclePlacePlan(),
    PlateToFriend(),
)
