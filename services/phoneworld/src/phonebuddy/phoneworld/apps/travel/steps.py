"""What Travel's templates share: routes and trains with seats left, passengers, checking a
paid train order, and the oracle's ways through the app (search a route, book and pay)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.travel.base import (
    KINDS,
    PASSENGER_NAMES,
    TRAVEL_PACKAGE,
    id_number,
    travel_date,
)
from phonebuddy.phoneworld.apps.travel.content import SEATS, seats_left
from phonebuddy.phoneworld.tasks.base import Params
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action

WALLET = "com.pw.wallet"
NOTES = "com.pw.notes"
ORDERS = f"apps/{TRAVEL_PACKAGE}/orders"
PASSENGERS = f"apps/{TRAVEL_PACKAGE}/passengers"
MAX_PRICE_CENTS = 60000  # stays below the smallest seeded wallet balance
# Friends who are never among a device's saved passengers.
NEW_NAMES = ("孙悦", "马超", "朱琳", "胡军", "郭静", "何洁")
SEAT_EN = {"second": "second class", "first": "first class", "business": "business class"}


# -- parameters --------------------------------------------------------------------------------
def days_words(days: int) -> tuple[str, str]:
    if days == 1:
        return "明天", "tomorrow"
    if days == 2:
        return "后天", "the day after tomorrow"
    return f"{days}天后", f"in {days} days"


def random_passenger(
    rng: random.Random, names: tuple[str, ...] = PASSENGER_NAMES
) -> dict[str, str]:
    return {
        "name": rng.choice(names),
        "id_number": id_number(rng),
        "phone": "13" + "".join(str(rng.randrange(10)) for _ in range(9)),
    }


def route(world: World, rng: random.Random) -> list[Any]:
    """The trains of a random route, in order of departure."""
    routes = world.content(TRAVEL_PACKAGE)["routes"]
    return sorted(routes[rng.choice(sorted(routes))], key=lambda t: t["depart"])


def available(train: Any, seat_key: str, days: int) -> bool:
    price = train["prices"][seat_key]
    return (
        price is not None
        and price <= MAX_PRICE_CENTS
        and seats_left(train["number"], seat_key, days) > 0
    )


def booking_params(
    world: World, rng: random.Random, pick: str, *, new_passenger: bool = False
) -> Params:
    """A route, a day, a seat class and the train the task wants: the earliest (or cheapest,
    then earliest) one with tickets of that class left."""
    while True:
        trains = route(world, rng)
        seat = rng.choice(SEATS[:2] if rng.random() < 0.8 else SEATS)
        days = rng.randint(1, 13)
        candidates = [t for t in trains if available(t, seat.key, days)]
        if not candidates:
            continue
        if pick == "cheapest":
            candidates.sort(key=lambda t: (t["prices"][seat.key], t["depart"]))
        train = candidates[0]
        return {
            "origin": train["from"],
            "destination": train["to"],
            "days": days,
            "seat": seat.key,
            "train": train["number"],
            "depart": train["depart"],
            "price_cents": train["prices"][seat.key],
            "passenger": random_passenger(rng, NEW_NAMES if new_passenger else PASSENGER_NAMES),
            "new_passenger": new_passenger,
        }


def ensure_passenger(it: Any, passenger: Params) -> None:
    passengers = it.app_data(TRAVEL_PACKAGE)["passengers"]
    if not any(p["name"] == passenger["name"] for p in passengers):
        passengers.append({"id": "pax-task", **passenger, "kind": "成人"})


# -- verification helpers ----------------------------------------------------------------------
def start_date(diff: StateDiff, days: int) -> str:
    return travel_date(int(diff.value_before("os/clock")), days)


def check_train_order(diff: StateDiff, params: Params) -> list[str]:
    added = diff.added(ORDERS)
    if len(added) != 1:
        return [f"expected one new order, found {len(added)}"]
    order = added[0]
    if order["kind"] != "train":
        return [f"booked a {order['kind']}, expected a train ticket"]
    expected = {
        "train": params["train"],
        "date": start_date(diff, params["days"]),
        "seat": params["seat"],
        "from": params["origin"],
        "to": params["destination"],
        "status": "paid",
    }
    problems = [
        f"{key} is {order[key]!r}, expected {value!r}"
        for key, value in expected.items()
        if order[key] != value
    ]
    names = [p["name"] for p in order["passengers"]]
    if names != [params["passenger"]["name"]]:
        problems.append(f"passengers {names}, expected only {params['passenger']['name']}")
    if params.get("new_passenger"):
        problems += check_new_passenger(diff, {**params["passenger"], "kind": "成人"})
    return problems + wallet_payment_problems(
        diff, amount_cents=order["total_cents"], reference=order["id"]
    )


def check_new_passenger(diff: StateDiff, passenger: Params) -> list[str]:
    added = diff.added(PASSENGERS)
    if len(added) != 1:
        return [f"expected one new passenger, found {len(added)}"]
    return [
        f"passenger {key} is {added[0][key]!r}, expected {passenger[key]!r}"
        for key in ("name", "id_number", "phone", "kind")
        if added[0][key] != passenger[key]
    ]


# -- oracle helpers ----------------------------------------------------------------------------
def open_travel(ui: OracleUI) -> Iterator[Action]:
    yield ui.open("旅行")


def choose_city(ui: OracleUI, field: str, city: str, world_cities: list[str]) -> Iterator[Action]:
    node = ui.find(field)
    if node is not None and node.text == city:
        return
    yield ui.tap(field)
    target = f"city_{world_cities.index(city)}"
    yield from ui.scroll_to(target)
    yield ui.tap(target)


def search_route(ui: OracleUI, params: Params, days: int) -> Iterator[Action]:
    cities = [c["name"] for c in ui.device.world.content(TRAVEL_PACKAGE)["cities"]]
    yield from choose_city(ui, "from_city", params["origin"], cities)
    yield from choose_city(ui, "to_city", params["destination"], cities)
    if days:
        yield from ui.scroll_to(f"date_{days}")
        yield ui.tap(f"date_{days}")
    yield ui.tap("search_trains")


def book_and_pay(ui: OracleUI, params: Params, sort: str | None = None) -> Iterator[Action]:
    """From the results list: the train, seat class, passenger, submit, confirm, pay."""
    if sort is not None:
        yield ui.tap(f"sort_{sort}")
    yield from ui.scroll_to(f"train_{params['train']}")
    yield ui.tap(f"train_{params['train']}")
    yield ui.tap(f"seat_{params['seat']}")
    if params.get("new_passenger"):
        yield from ui.scroll_to("add_passenger")
        yield ui.tap("add_passenger")
        yield from fill_passenger(ui, {**params["passenger"], "kind": "成人"})
    yield from ui.scroll_to(text=params["passenger"]["name"])
    yield ui.tap(text=params["passenger"]["name"])
    yield ui.tap("submit_order")
    yield ui.tap("confirm_order")
    yield ui.tap(f"{WALLET}:id/pay_confirm")


def fill_passenger(ui: OracleUI, passenger: Params) -> Iterator[Action]:
    """On the passenger form: type the details, pick the type, save."""
    yield from ui.type_into("name", passenger["name"])
    yield from ui.type_into("id_number", passenger["id_number"])
    yield from ui.type_into("phone", passenger["phone"])
    if passenger["kind"] != KINDS[0]:
        yield ui.tap(f"kind_{KINDS.index(passenger['kind'])}")
    yield ui.tap("save_passenger")
