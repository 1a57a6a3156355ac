"""Task templates of the Travel app: book the earliest or cheapest train with seats left (or
the train written in a note) and pay, book a hotel and pay, refund a ticket, add a passenger,
and questions about departure times, the earliest train with seats, and hotel prices."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.travel.app import (
    KINDS,
    PASSENGER_NAMES,
    TRAVEL_PACKAGE,
    departure_epoch,
    id_number,
    new_train_order,
    refund_fee_cents,
    travel_date,
)
from phonebuddy.phoneworld.apps.travel.content import SEAT_BY_KEY, SEATS, route_key, seats_left
from phonebuddy.phoneworld.tasks.answers import ClockTime, Expectation, Money, clock, train_number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import yuan_short
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

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


def _passenger(rng: random.Random, names: tuple[str, ...] = PASSENGER_NAMES) -> dict[str, str]:
    return {
        "name": rng.choice(names),
        "id_number": id_number(rng),
        "phone": "13" + "".join(str(rng.randrange(10)) for _ in range(9)),
    }


def _route(world: World, rng: random.Random) -> list[Any]:
    """The trains of a random route, in order of departure."""
    routes = world.content(TRAVEL_PACKAGE)["routes"]
    return sorted(routes[rng.choice(sorted(routes))], key=lambda t: t["depart"])


def _available(train: Any, seat_key: str, days: int) -> bool:
    price = train["prices"][seat_key]
    return (
        price is not None
        and price <= MAX_PRICE_CENTS
        and seats_left(train["number"], seat_key, days) > 0
    )


def _booking_params(
    world: World, rng: random.Random, pick: str, *, new_passenger: bool = False
) -> Params:
    """A route, a day, a seat class and the train the task wants: the earliest (or cheapest,
    then earliest) one with tickets of that class left."""
    while True:
        trains = _route(world, rng)
        seat = rng.choice(SEATS[:2] if rng.random() < 0.8 else SEATS)
        days = rng.randint(1, 13)
        candidates = [t for t in trains if _available(t, seat.key, days)]
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
            "passenger": _passenger(rng, NEW_NAMES if new_passenger else PASSENGER_NAMES),
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


# -- templates: booking ------------------------------------------------------------------------
class BookEarliestTrain(TaskTemplate):
    id = "travel.book_earliest"
    category = Category.CROSS_APP
    apps = (TRAVEL_PACKAGE, WALLET)
    difficulty = 22
    PICK = "earliest"
    NEW_PASSENGER = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return _booking_params(world, rng, self.PICK, new_passenger=self.NEW_PASSENGER)

    def setup(self, it: Any, params: Params) -> None:
        if not params["new_passenger"]:
            ensure_passenger(it, params["passenger"])

    def instruction(self, params: Params) -> Instruction:
        zh_day, en_day = days_words(params["days"])
        seat = SEAT_BY_KEY[params["seat"]]
        who = params["passenger"]
        return Instruction(
            zh=f"帮我朋友{who['name']}（身份证号{who['id_number']}，手机{who['phone']}，还不是常用"
            f"乘车人）在旅行App订{zh_day}从{params['origin']}到{params['destination']}最早一班还有"
            f"{seat.name}余票的火车，买一张{seat.name}，并用钱包付款",
            en=f"My friend {who['name']} (ID number {who['id_number']}, phone {who['phone']}, "
            f"not yet a saved passenger) needs a ticket: in Travel, book the earliest train from "
            f"{params['origin']} to {params['destination']} {en_day} that still has "
            f"{SEAT_EN[seat.key]} tickets, one {SEAT_EN[seat.key]} ticket, paid with the wallet",
        )

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_train_order(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_travel(ui)
        yield from search_route(ui, params, params["days"])
        yield from book_and_pay(ui, params)


class BookCheapestTrain(BookEarliestTrain):
    id = "travel.book_cheapest"
    difficulty = 15
    PICK = "cheapest"
    NEW_PASSENGER = False

    def instruction(self, params: Params) -> Instruction:
        zh_day, en_day = days_words(params["days"])
        seat = SEAT_BY_KEY[params["seat"]]
        name = params["passenger"]["name"]
        return Instruction(
            zh=f"在旅行App订{zh_day}从{params['origin']}到{params['destination']}、{seat.name}"
            f"票价最便宜且还有余票的一班火车（票价相同选出发最早的），乘车人{name}，并用钱包付款",
            en=f"In Travel, book the train from {params['origin']} to {params['destination']} "
            f"{en_day} with the cheapest {SEAT_EN[seat.key]} fare that still has tickets (the "
            f"earliest one if fares tie), one ticket for {name}, paid with the wallet",
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_travel(ui)
        yield from search_route(ui, params, params["days"])
        yield from book_and_pay(ui, params, sort="price")


class BookNoteTrain(TaskTemplate):
    id = "travel.note_train"
    category = Category.CROSS_APP
    apps = (NOTES, TRAVEL_PACKAGE, WALLET)
    difficulty = 16
    NOTE_TITLES = ("出差安排", "回家车次", "旅行计划-车票")

    def sample(self, world: World, rng: random.Random) -> Params:
        while True:
            trains = _route(world, rng)
            train = rng.choice(trains)
            seat = rng.choice(SEATS[:2])
            days = rng.randint(2, 13)
            if _available(train, seat.key, days):
                return {
                    "origin": train["from"],
                    "destination": train["to"],
                    "days": days,
                    "seat": seat.key,
                    "train": train["number"],
                    "note_title": rng.choice(self.NOTE_TITLES),
                    "note_body": f"车次：{train['number']}，{train['from_station']}"
                    f"{train['depart']}开，到{train['to_station']}{train['arrive']}",
                    "passenger": _passenger(rng),
                }

    def setup(self, it: Any, params: Params) -> None:
        it.app_data(NOTES)["notes"].insert(
            0,
            {
                "id": "note-train",
                "title": params["note_title"],
                "body": params["note_body"],
                "pinned": False,
            },
        )
        ensure_passenger(it, params["passenger"])

    def instruction(self, params: Params) -> Instruction:
        zh_day, en_day = days_words(params["days"])
        seat = SEAT_BY_KEY[params["seat"]]
        name = params["passenger"]["name"]
        return Instruction(
            zh=f"备忘录“{params['note_title']}”里记了车次。在旅行App订{zh_day}这趟车的{seat.name}，"
            f"乘车人{name}，并用钱包付款",
            en=f"The note '{params['note_title']}' has a train number. In Travel, book that "
            f"train {en_day} in {SEAT_EN[seat.key]} for {name} and pay with the wallet",
        )

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_train_order(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["note_title"])
        yield ui.tap(text=params["note_title"])
        yield from open_travel(ui)
        yield from search_route(ui, params, params["days"])
        yield from book_and_pay(ui, params)


class BookHotel(TaskTemplate):
    id = "travel.book_hotel"
    category = Category.CROSS_APP
    apps = (TRAVEL_PACKAGE, WALLET)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        hotels = world.content(TRAVEL_PACKAGE)["hotels"]
        while True:
            hotel = rng.choice(hotels)
            room = rng.choice(hotel["rooms"])
            nights = rng.randint(1, 3)
            if room["price_cents"] * nights <= MAX_PRICE_CENTS:
                return {
                    "city": hotel["city"],
                    "hotel_id": hotel["id"],
                    "hotel": hotel["name"],
                    "room": room["name"],
                    "room_key": room["key"],
                    "days": rng.randint(1, 10),
                    "nights": nights,
                    "total_cents": room["price_cents"] * nights,
                    "guest": _passenger(rng),
                }

    def setup(self, it: Any, params: Params) -> None:
        ensure_passenger(it, params["guest"])

    def instruction(self, params: Params) -> Instruction:
        zh_day, en_day = days_words(params["days"])
        name = params["guest"]["name"]
        return Instruction(
            zh=f"在旅行App预订{params['city']}的“{params['hotel']}”，{params['room']}，{zh_day}入住，"
            f"住{params['nights']}晚，入住人{name}，并用钱包付款",
            en=f"In Travel, book a {params['room']} at '{params['hotel']}' in {params['city']}, "
            f"checking in {en_day} for {params['nights']} night(s), guest {name}, and pay with "
            "the wallet",
        )

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(ORDERS)
        if len(added) != 1:
            return [f"expected one new order, found {len(added)}"]
        order = added[0]
        if order["kind"] != "hotel":
            return [f"booked a {order['kind']}, expected a hotel"]
        expected = {
            "hotel_id": params["hotel_id"],
            "room": params["room"],
            "checkin": start_date(diff, params["days"]),
            "nights": params["nights"],
            "guest": params["guest"]["name"],
            "status": "paid",
        }
        problems = [
            f"{key} is {order[key]!r}, expected {value!r}"
            for key, value in expected.items()
            if order[key] != value
        ]
        return problems + wallet_payment_problems(
            diff, amount_cents=order["total_cents"], reference=order["id"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        cities = [c["name"] for c in ui.device.world.content(TRAVEL_PACKAGE)["cities"]]
        yield from open_travel(ui)
        yield ui.tap("tab_hotel")
        yield ui.tap("hotel_city")
        yield from ui.scroll_to(f"city_{cities.index(params['city'])}")
        yield ui.tap(f"city_{cities.index(params['city'])}")
        yield from ui.scroll_to(f"checkin_{params['days']}")
        yield ui.tap(f"checkin_{params['days']}")
        for _ in range(params["nights"] - 1):
            yield ui.tap("nights_plus")
        yield from ui.scroll_to(f"hotel_{params['hotel_id']}")
        yield ui.tap(f"hotel_{params['hotel_id']}")
        yield from ui.scroll_to(f"book_{params['room_key']}")
        yield ui.tap(f"book_{params['room_key']}")
        yield ui.tap(text=params["guest"]["name"])
        yield ui.tap("submit_hotel")
        yield ui.tap(f"{WALLET}:id/pay_confirm")


# -- templates: orders and passengers ---------------------------------------------------------
class RefundTicket(TaskTemplate):
    id = "travel.refund"
    category = Category.SINGLE_APP
    apps = (TRAVEL_PACKAGE,)
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _booking_params(world, rng, "earliest")
        params["order_id"] = f"ticket-task-{params['train']}"
        return params

    def setup(self, it: Any, params: Params) -> None:
        route = it.content["routes"][route_key(params["origin"], params["destination"])]
        train = next(t for t in route if t["number"] == params["train"])
        order = new_train_order(
            params["order_id"],
            train,
            params["seat"],
            travel_date(it.clock, params["days"]),
            it.data["passengers"][:1],
            it.clock - 3 * 86400,
        )
        order.update(status="paid", paid_at=it.clock - 3 * 86400 + 60)
        it.data["orders"].append(order)

    def instruction(self, params: Params) -> Instruction:
        zh_day, en_day = days_words(params["days"])
        return Instruction(
            zh=f"把我{zh_day}从{params['origin']}到{params['destination']}的{params['train']}次"
            "火车票退掉",
            en=f"Refund my {params['train']} train ticket from {params['origin']} to "
            f"{params['destination']} {en_day}",
        )

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{ORDERS}[{params['order_id']}]"
        changes = diff.touched(ORDERS)
        stray = [c.path for c in changes if not c.path.startswith(path + "/")]
        order = diff.value_after(path)
        if stray or order is None:
            return [f"unexpected order changes {stray}"]
        if order["status"] != "refunded":
            return [f"the ticket is {order['status']}, expected refunded"]
        hours = (departure_epoch(order["date"], order["depart"]) - order["refunded_at"]) / 3600
        fee = refund_fee_cents(order["total_cents"], hours)
        if order["refund_fee_cents"] != fee or order["refund_cents"] != order["total_cents"] - fee:
            return [f"refund fee {order['refund_fee_cents']}, expected {fee}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_travel(ui)
        yield ui.tap("tab_orders")
        yield from ui.scroll_to(f"order_{params['order_id']}")
        yield ui.tap(f"order_{params['order_id']}")
        yield ui.tap("refund")
        yield ui.tap("confirm_refund")


class AddPassenger(TaskTemplate):
    id = "travel.add_passenger"
    category = Category.SINGLE_APP
    apps = (TRAVEL_PACKAGE,)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**_passenger(rng), "kind": rng.choice(KINDS)}

    def instruction(self, params: Params) -> Instruction:
        return Instruction(
            zh=f"在旅行App添加常用乘车人：{params['name']}，身份证号{params['id_number']}，手机号"
            f"{params['phone']}，旅客类型{params['kind']}",
            en=f"In Travel, add the passenger {params['name']} (ID number {params['id_number']}, "
            f"phone {params['phone']}, type {params['kind']})",
        )

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_passenger(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_travel(ui)
        yield ui.tap("tab_mine")
        yield ui.tap("my_passengers")
        yield ui.tap("add_passenger")
        yield from fill_passenger(ui, params)


# -- templates: questions ----------------------------------------------------------------------
class DepartureTime(TaskTemplate):
    id = "travel.departure_time"
    category = Category.SINGLE_APP
    apps = (TRAVEL_PACKAGE,)
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        trains = _route(world, rng)
        train = rng.choice(trains)
        others = [t["depart"] for t in trains if t["depart"] != train["depart"]]
        return {
            "origin": train["from"],
            "destination": train["to"],
            "train": train["number"],
            "station": train["from_station"],
            "depart": train["depart"],
            "other_depart": rng.choice(others),
        }

    def instruction(self, params: Params) -> Instruction:
        return Instruction(
            zh=f"{params['origin']}到{params['destination']}的{params['train']}次列车几点从"
            f"{params['station']}发车？",
            en=f"At what time does train {params['train']} from {params['origin']} to "
            f"{params['destination']} leave {params['station']}?",
        )

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return ClockTime(*clock(params["depart"]))

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return params["other_depart"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_travel(ui)
        yield from search_route(ui, params, 1)
        yield from ui.scroll_to(f"train_{params['train']}")
        node = ui.find(f"depart_{params['train']}")
        yield Answer(text=node.text if node else "")


class EarliestWithSeats(TaskTemplate):
    id = "travel.earliest_train"
    category = Category.SINGLE_APP
    apps = (TRAVEL_PACKAGE,)
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _booking_params(world, rng, "earliest")
        trains = world.content(TRAVEL_PACKAGE)["routes"][
            route_key(params["origin"], params["destination"])
        ]
        others = [t["number"] for t in trains if t["number"] != params["train"]]
        params["other_train"] = rng.choice(others)
        return params

    def instruction(self, params: Params) -> Instruction:
        zh_day, en_day = days_words(params["days"])
        seat = SEAT_BY_KEY[params["seat"]]
        return Instruction(
            zh=f"{zh_day}从{params['origin']}到{params['destination']}，最早一班还有{seat.name}"
            "余票的是哪一趟车？请回答车次",
            en=f"Which is the earliest train from {params['origin']} to {params['destination']} "
            f"{en_day} that still has {SEAT_EN[seat.key]} tickets? Answer with the train number",
        )

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return train_number(params["train"])

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return params["other_train"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_travel(ui)
        yield from search_route(ui, params, params["days"])
        yield from ui.scroll_to(f"train_{params['train']}")
        yield Answer(text=params["train"] if ui.find(f"train_{params['train']}") else "")


class HotelPrice(TaskTemplate):
    id = "travel.hotel_price"
    category = Category.SINGLE_APP
    apps = (TRAVEL_PACKAGE,)
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        hotel = rng.choice(world.content(TRAVEL_PACKAGE)["hotels"])
        room = rng.choice(hotel["rooms"])
        return {
            "city": hotel["city"],
            "hotel_id": hotel["id"],
            "hotel": hotel["name"],
            "room": room["name"],
            "room_key": room["key"],
            "price_cents": room["price_cents"],
        }

    def instruction(self, params: Params) -> Instruction:
        return Instruction(
            zh=f"旅行App里，{params['city']}“{params['hotel']}”的{params['room']}一晚多少钱？",
            en=f"In Travel, how much is one night in a {params['room']} at '{params['hotel']}' "
            f"in {params['city']}?",
        )

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["price_cents"] / 100)

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan_short(params["price_cents"] + 2000)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        cities = [c["name"] for c in ui.device.world.content(TRAVEL_PACKAGE)["cities"]]
        yield from open_travel(ui)
        yield ui.tap("tab_hotel")
        if ui.find("hotel_city") and not ui.find(contains=f"{params['city']} ›"):
            yield ui.tap("hotel_city")
            yield from ui.scroll_to(f"city_{cities.index(params['city'])}")
            yield ui.tap(f"city_{cities.index(params['city'])}")
        yield from ui.scroll_to(f"hotel_{params['hotel_id']}")
        yield ui.tap(f"hotel_{params['hotel_id']}")
        yield from ui.scroll_to(f"room_price_{params['room_key']}")
        node = ui.find(f"room_price_{params['room_key']}")
        yield Answer(text=node.text if node else "")


TEMPLATES: tuple[TaskTemplate, ...] = (
    BookEarliestTrain(),
    BookCheapestTrain(),
    BookNoteTrain(),
    BookHotel(),
    RefundTicket(),
    AddPassenger(),
    DepartureTime(),
    EarliestWithSeats(),
    HotelPrice(),
)
