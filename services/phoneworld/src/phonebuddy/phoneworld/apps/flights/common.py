"""What the 航班管家 templates share: content look-ups, relative days, the flight-number answer
token, checks of a booking, and the oracle's ways through the app."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.flights.base import (
    CHECKED,
    CITY_OF,
    FLIGHTS,
    PAID,
    SEAT_LETTERS,
    SEAT_ROWS,
    iso_date,
    per_person_cents,
    seat_taken,
)
from phonebuddy.phoneworld.apps.flights.content import NEW_PASSENGERS, make_id
from phonebuddy.phoneworld.tasks.answers import Token
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

BOOKINGS = f"apps/{FLIGHTS}/bookings"
PASSENGERS = f"apps/{FLIGHTS}/passengers"
FOLLOWS = f"apps/{FLIGHTS}/follows"
WALLET = "com.pw.wallet"
MESSAGES = "com.pw.messages"
MESSENGER = "com.pw.messenger"
MAIL = "com.pw.mail"
NOTES = "com.pw.notes"
CALENDAR = "com.pw.calendar"
WALLET_FLOOR_CENTS = 78000  # every seeded wallet holds at least ¥800
CITY_EN = {"北京": "Beijing", "上海": "Shanghai", "广州": "Guangzhou", "成都": "Chengdu",
           "深圳": "Shenzhen", "杭州": "Hangzhou", "西安": "Xi'an", "重庆": "Chongqing",
           "昆明": "Kunming", "武汉": "Wuhan", "厦门": "Xiamen", "三亚": "Sanya"}  # fmt: skip


class FlightsTemplate(TaskTemplate):
    """A template of 航班管家 alone."""

    category = Category.SINGLE_APP
    apps = (FLIGHTS,)


# -- content -------------------------------------------------------------------------------------
def flights(world: World) -> list[Any]:
    return list(world.content(FLIGHTS)["flights"])


def seeded_bookings(world: World) -> list[Any]:
    return list(world.content(FLIGHTS)["bookings"])


def flight_by_id(world: World, flight_id: str) -> Any:
    return next(f for f in flights(world) if f["id"] == flight_id)


def same_day_route(world: World, flight: Any) -> list[Any]:
    return [f for f in flights(world) if (f["from"], f["to"], f["day"]) ==
            (flight["from"], flight["to"], flight["day"])]  # fmt: skip


def days_words(days: int) -> tuple[str, str]:
    if days == 1:
        return "明天", "tomorrow"
    if days == 2:
        return "后天", "the day after tomorrow"
    return f"{days}天后", f"in {days} days"


def flight_params(flight: Any) -> Params:
    """A flight as templates name it: number, day, route (cities in zh and en)."""
    zh, en = days_words(flight["day"]) if flight["day"] else ("今天", "today")
    origin, dest = CITY_OF[flight["from"]], CITY_OF[flight["to"]]
    return {"flight_id": flight["id"], "number": flight["number"], "day": flight["day"],
            "day_zh": zh, "day_en": en, "from": flight["from"], "to": flight["to"],
            "from_zh": origin, "to_zh": dest, "from_en": CITY_EN[origin],
            "to_en": CITY_EN[dest], "depart": flight["depart"],
            "arrive": flight["arrive"]}  # fmt: skip


def bookable(world: World, *, passengers: int = 1, insurance: bool = False) -> list[Any]:
    """Flights from tomorrow on with economy seats for `passengers` the wallet can pay for."""
    return [
        f
        for f in flights(world)
        if f["day"] >= 1
        and f["seats"]["economy"] > passengers
        and per_person_cents(f, "economy", insurance) * passengers <= WALLET_FLOOR_CENTS
    ]


def free_seat(flight_id: str, rng: random.Random) -> str:
    seats = [f"{r}{c}" for r in SEAT_ROWS for c in SEAT_LETTERS]
    return str(rng.choice([s for s in seats if not seat_taken(flight_id, s)]))


def new_passenger(rng: random.Random) -> Params:
    return {"name": rng.choice(NEW_PASSENGERS), "id_number": make_id(rng)}


FLIGHT_NUMBER = re.compile(r"(?<![a-z\d])(?:ca|mu|cz|hu|zh|mf)\s?\d{4}(?!\d)")


def flight_number(number: str) -> Token:
    """'CA1501', 'ca 1501'."""
    return Token(
        number, pattern=FLIGHT_NUMBER, canonical=lambda t: re.sub(r"\s", "", t).upper(),
        what="flight number",
    )  # fmt: skip


# -- checks ----------------------------------------------------------------------------------------
def booking_problems(
    diff: StateDiff,
    flight_id: str,
    names: list[str],
    *,
    insurance: bool = False,
    seat: str | None = None,
) -> list[str]:
    """One new paid economy booking of `flight_id` for exactly `names`, paid in the wallet;
    with `seat`, its one passenger checked in there."""
    added = diff.added(BOOKINGS)
    if len(added) != 1:
        return [f"expected one new booking, found {len(added)}"]
    booking = added[0]
    problems = []
    if booking["flight_id"] != flight_id:
        problems.append(f"booked {booking['flight_id']}, expected {flight_id}")
    if booking["cabin"] != "economy":
        problems.append(f"booked {booking['cabin']}, expected economy")
    if booking["status"] != (PAID if seat is None else CHECKED):
        problems.append(f"the booking is {booking['status']}")
    seats = [p["seat"] for p in booking["passengers"]]
    if seats != [seat] * len(seats):
        problems.append(f"seats {seats}, expected {seat}")
    booked = sorted(p["name"] for p in booking["passengers"])
    if booked != sorted(names):
        problems.append(f"passengers {booked}, expected {sorted(names)}")
    if booking["insurance"] != insurance:
        problems.append(f"insurance is {booking['insurance']}, expected {insurance}")
    return problems + wallet_payment_problems(
        diff, amount_cents=booking["total_cents"], reference=booking["id"]
    )


def check_new_passenger(diff: StateDiff, name: str, id_number: str) -> list[str]:
    added = diff.added(PASSENGERS)
    if len(added) != 1:
        return [f"expected one new passenger, found {len(added)}"]
    got = (added[0]["name"], added[0]["id_number"])
    return [] if got == (name, id_number) else [f"added {got}, expected {(name, id_number)}"]


def start_date(diff: StateDiff, day: int) -> str:
    return iso_date(day, int(diff.value_before("os/clock")))


# -- oracle steps --------------------------------------------------------------------------------
def open_flights(ui: OracleUI, tab: str | None = None) -> Iterator[Action]:
    yield ui.open("航班管家")
    if tab is not None:
        yield ui.tap(f"tab_{tab}")


def choose_city(ui: OracleUI, field: str, code: str) -> Iterator[Action]:
    if ui.text_of(field) == CITY_OF[code]:
        return
    yield ui.tap(field)
    yield from ui.scroll_to(f"city_{code}")
    yield ui.tap(f"city_{code}")


def search_route(ui: OracleUI, params: Params) -> Iterator[Action]:
    """From the 机票 tab: cities, the day's chip, 搜索机票."""
    yield from choose_city(ui, "from_city", params["from"])
    yield from choose_city(ui, "to_city", params["to"])
    if params["day"]:
        yield from ui.scroll_to(f"date_{params['day']}")
        yield ui.tap(f"date_{params['day']}")
    yield ui.tap("search")


def open_flight(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from open_flights(ui)
    yield from search_route(ui, params)
    yield from ui.scroll_to(f"flight_{params['number']}")
    yield ui.tap(f"flight_{params['number']}")


def fill_passenger(ui: OracleUI, name: str, id_number: str) -> Iterator[Action]:
    yield ui.tap("add_passenger")
    yield from ui.type_into("pax_name", name)
    yield from ui.type_into("pax_id", id_number)
    yield ui.tap("save_passenger")


def choose_and_pay(ui: OracleUI, names: list[str], *, insurance: bool = False) -> Iterator[Action]:
    """On the order form: tick the passengers by name, insurance, submit, confirm, pay."""
    for name in names:
        yield from ui.scroll_to(text=name)
        yield ui.tap(text=name)
    if insurance:
        yield from ui.scroll_to("insurance")
        yield ui.tap("insurance")
    yield from ui.scroll_to("submit")
    yield ui.tap("submit")
    yield ui.tap("confirm_pay")
    yield ui.tap(f"{WALLET}:id/pay_confirm")


def look_up(ui: OracleUI, number: str) -> Iterator[Action]:
    """Today's status page of a flight, from the 动态 tab."""
    yield from open_flights(ui, "status")
    yield from ui.type_into("query", number)
    yield ui.tap("look_up")


def status_of(ui: OracleUI) -> tuple[str, int, str]:
    """On a status page: the state, the delay in minutes, the gate."""
    state = ui.text_of("status_state")
    delay = int(state.split()[1]) if state.startswith("延误") else 0
    return state.split()[0], delay, ui.text_of("status_gate").split()[1]


def open_trip(ui: OracleUI, booking_id: str) -> Iterator[Action]:
    yield from open_flights(ui, "trips")
    yield from ui.scroll_to(f"trip_{booking_id}")
    yield ui.tap(f"trip_{booking_id}")
