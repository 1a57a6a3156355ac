"""Task templates of the Travel app: book the earliest or cheapest train with seats left (or
the train written in a note) and pay, book a hotel and pay, refund a ticket, add a passenger,
and questions about departure times, the earliest train with seats, and hotel prices."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.travel.base import (
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
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
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

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh_day, en_day = days_words(params["days"])
        seat, seat_en = SEAT_BY_KEY[params["seat"]].name, SEAT_EN[params["seat"]]
        who, origin, destination = params["passenger"], params["origin"], params["destination"]
        name, id_no, phone = who["name"], who["id_number"], who["phone"]
        return phrased(
            zh=[f"帮我朋友{name}（身份证号{id_no}，手机{phone}，还不是常用乘车人）在旅行App订{zh_day}"
                f"从{origin}到{destination}最早一班还有{seat}余票的火车，买一张{seat}，并用钱包付款",
                f"请在旅行App给我朋友{name}买一张{zh_day}从{origin}到{destination}的{seat}，"
                f"选最早一班还有{seat}余票的火车。{name}还不是常用乘车人，身份证号{id_no}，"
                f"手机{phone}，用钱包付款",
                f"{zh_day}我朋友{name}要从{origin}去{destination}（还不是常用乘车人，身份证号"
                f"{id_no}，手机{phone}）。请在旅行App订最早一班还有{seat}余票的火车，"
                f"给{name}买一张{seat}，用钱包付款"],
            en=[f"My friend {name} (ID number {id_no}, phone {phone}, not yet a saved passenger) "
                f"needs a ticket: in Travel, book the earliest train from {origin} to "
                f"{destination} {en_day} that still has {seat_en} tickets, one {seat_en} "
                "ticket, paid with the wallet",
                f"Please book a train ticket in Travel for my friend {name}, who is not a saved "
                f"passenger yet (ID number {id_no}, phone {phone}): the earliest train from "
                f"{origin} to {destination} {en_day} that still has {seat_en} tickets, one "
                f"{seat_en} ticket, paid with the wallet",
                f"My friend {name} has to get from {origin} to {destination} {en_day}. In "
                f"Travel, find the earliest train that still has {seat_en} tickets and buy one "
                f"{seat_en} ticket for them with the wallet; {name} is not a saved passenger "
                f"yet (ID number {id_no}, phone {phone})"],
        )  # fmt: skip

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

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh_day, en_day = days_words(params["days"])
        seat, seat_en = SEAT_BY_KEY[params["seat"]].name, SEAT_EN[params["seat"]]
        name, origin = params["passenger"]["name"], params["origin"]
        destination = params["destination"]
        return phrased(
            zh=[f"在旅行App订{zh_day}从{origin}到{destination}、{seat}票价最便宜且还有余票的一班"
                f"火车（票价相同选出发最早的），乘车人{name}，并用钱包付款",
                f"帮{name}在旅行App订{zh_day}从{origin}到{destination}的火车{seat}：挑{seat}"
                f"票价最低、还有余票的那一班，票价相同就选出发最早的，然后用钱包付款",
                f"{zh_day}要从{origin}去{destination}，想买最便宜的{seat}。请在旅行App找{seat}"
                f"票价最低且有余票的车次（同价取最早出发的），给乘车人{name}下单，用钱包付款"],
            en=[f"In Travel, book the train from {origin} to {destination} {en_day} with the "
                f"cheapest {seat_en} fare that still has tickets (the earliest one if fares "
                f"tie), one ticket for {name}, paid with the wallet",
                f"Use Travel to get {name} one {seat_en} ticket from {origin} to {destination} "
                f"{en_day}, on the train with the cheapest {seat_en} fare that still has "
                "tickets (the earliest if fares tie), and pay with the wallet",
                f"I'm after the cheapest {seat_en} train from {origin} to {destination} "
                f"{en_day}. In Travel, pick the one with the lowest {seat_en} fare that is not "
                f"sold out (earliest departure on a tie), book one ticket for {name} and pay "
                "with the wallet"],
        )  # fmt: skip

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

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh_day, en_day = days_words(params["days"])
        seat, seat_en = SEAT_BY_KEY[params["seat"]].name, SEAT_EN[params["seat"]]
        name, title = params["passenger"]["name"], params["note_title"]
        return phrased(
            zh=[f"备忘录“{title}”里记了车次。在旅行App订{zh_day}这趟车的{seat}，乘车人{name}，"
                "并用钱包付款",
                f"看一下备忘录“{title}”里记的车次，在旅行App订{zh_day}这趟车的{seat}，"
                f"乘车人是{name}，用钱包付款",
                f"帮{name}订{zh_day}的火车票：车次记在备忘录“{title}”里，在旅行App买{seat}，"
                "并用钱包付款"],
            en=[f"The note '{title}' has a train number. In Travel, book that train {en_day} in "
                f"{seat_en} for {name} and pay with the wallet",
                f"Look up the train number in the note '{title}', then book that train "
                f"{en_day} in {seat_en} for {name} in Travel and pay with the wallet",
                f"{name} needs a {seat_en} ticket {en_day} on the train written in the note "
                f"'{title}'. Book it in Travel and pay with the wallet"],
        )  # fmt: skip

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

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh_day, en_day = days_words(params["days"])
        name, city, hotel = params["guest"]["name"], params["city"], params["hotel"]
        room, nights = params["room"], params["nights"]
        return phrased(
            zh=[f"在旅行App预订{city}的“{hotel}”，{room}，{zh_day}入住，住{nights}晚，入住人{name}，"
                "并用钱包付款",
                f"帮我在旅行App订{city}“{hotel}”的{room}，{zh_day}入住，住{nights}晚，"
                f"入住人写{name}，用钱包付款",
                f"{city}的“{hotel}”要订{nights}晚，{zh_day}入住：请在旅行App订{room}，"
                f"入住人{name}，用钱包付款"],
            en=[f"In Travel, book a {room} at '{hotel}' in {city}, checking in {en_day} for "
                f"{nights} night(s), guest {name}, and pay with the wallet",
                f"Please use Travel to book {name} into '{hotel}' in {city}: a {room}, "
                f"arriving {en_day} and staying {nights} night(s), paid with the wallet",
                f"I need a hotel in {city}: in Travel, reserve a {room} at '{hotel}' for "
                f"{nights} night(s), checking in {en_day}, with {name} as the guest, and pay "
                "with the wallet"],
        )  # fmt: skip

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


class TravelTemplate(TaskTemplate):
    """A template of the Travel app alone."""

    category = Category.SINGLE_APP
    apps = (TRAVEL_PACKAGE,)


# -- templates: orders and passengers ---------------------------------------------------------
class RefundTicket(TravelTemplate):
    id = "travel.refund"
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

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh_day, en_day = days_words(params["days"])
        train, origin, destination = params["train"], params["origin"], params["destination"]
        return phrased(
            zh=[f"把我{zh_day}从{origin}到{destination}的{train}次火车票退掉",
                f"{zh_day}{origin}到{destination}的{train}次我不坐了，帮我把这张火车票退了",
                f"请在旅行App退掉我{zh_day}从{origin}去{destination}的{train}次车票"],
            en=[f"Refund my {train} train ticket from {origin} to {destination} {en_day}",
                f"I'm not taking the {train} train from {origin} to {destination} {en_day} "
                "anymore; please refund the ticket",
                f"In Travel, get a refund for my ticket on train {train} ({origin} to "
                f"{destination}, {en_day})"],
        )  # fmt: skip

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


class AddPassenger(TravelTemplate):
    id = "travel.add_passenger"
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**_passenger(rng), "kind": rng.choice(KINDS)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, id_no = params["name"], params["id_number"]
        phone, kind = params["phone"], params["kind"]
        return phrased(
            zh=[f"在旅行App添加常用乘车人：{name}，身份证号{id_no}，手机号{phone}，旅客类型{kind}",
                f"帮我在旅行App的常用乘车人里加上{name}：身份证号{id_no}，手机号{phone}，"
                f"旅客类型选{kind}",
                f"把{name}添加为旅行App的常用乘车人，旅客类型{kind}，身份证号{id_no}，手机号{phone}"],
            en=[f"In Travel, add the passenger {name} (ID number {id_no}, phone {phone}, type "
                f"{kind})",
                f"Please save {name} as a passenger in Travel: ID number {id_no}, phone "
                f"{phone}, type {kind}",
                f"Add {name} to my saved passengers in Travel, with ID number {id_no}, phone "
                f"{phone} and passenger type {kind}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_passenger(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_travel(ui)
        yield ui.tap("tab_mine")
        yield ui.tap("my_passengers")
        yield ui.tap("add_passenger")
        yield from fill_passenger(ui, params)


# -- templates: questions ----------------------------------------------------------------------
class DepartureTime(TravelTemplate):
    id = "travel.departure_time"
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

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        train, origin, destination = params["train"], params["origin"], params["destination"]
        station = params["station"]
        return phrased(
            zh=[f"{origin}到{destination}的{train}次列车几点从{station}发车？",
                f"查一下{origin}开往{destination}的{train}次，从{station}出发是几点",
                f"我要在{station}上{train}次车（{origin}开往{destination}），它几点发车？"],
            en=[f"At what time does train {train} from {origin} to {destination} leave "
                f"{station}?",
                f"When does the {train} train from {origin} to {destination} depart from "
                f"{station}?",
                f"I'm catching train {train} ({origin} to {destination}) at {station}. What "
                "time does it leave?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return ClockTime(*clock(params["depart"]))

    def wrong_answer(self, params: Params) -> str:
        return params["other_depart"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_travel(ui)
        yield from search_route(ui, params, 1)
        yield from ui.scroll_to(f"train_{params['train']}")
        node = ui.find(f"depart_{params['train']}")
        yield Answer(text=node.text if node else "")


class EarliestWithSeats(TravelTemplate):
    id = "travel.earliest_train"
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

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh_day, en_day = days_words(params["days"])
        seat, seat_en = SEAT_BY_KEY[params["seat"]].name, SEAT_EN[params["seat"]]
        origin, destination = params["origin"], params["destination"]
        return phrased(
            zh=[f"{zh_day}从{origin}到{destination}，最早一班还有{seat}余票的是哪一趟车？请回答车次",
                f"查一下{zh_day}{origin}到{destination}还有{seat}余票的车里最早的是哪一班，"
                "告诉我车次",
                f"我{zh_day}要从{origin}去{destination}，想坐{seat}。还有{seat}余票的车次里，"
                "最早发车的是哪一趟？回答车次即可"],
            en=[f"Which is the earliest train from {origin} to {destination} {en_day} that "
                f"still has {seat_en} tickets? Answer with the train number",
                f"Find the earliest train {en_day} from {origin} to {destination} with "
                f"{seat_en} tickets still available, and tell me its train number",
                f"I want to travel {seat_en} from {origin} to {destination} {en_day}. What is "
                f"the first train that still has {seat_en} tickets? Give me the train number"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return train_number(params["train"])

    def wrong_answer(self, params: Params) -> str:
        return params["other_train"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_travel(ui)
        yield from search_route(ui, params, params["days"])
        yield from ui.scroll_to(f"train_{params['train']}")
        yield Answer(text=params["train"] if ui.find(f"train_{params['train']}") else "")


class HotelPrice(TravelTemplate):
    id = "travel.hotel_price"
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

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        city, hotel, room = params["city"], params["hotel"], params["room"]
        return phrased(
            zh=[f"旅行App里，{city}“{hotel}”的{room}一晚多少钱？",
                f"查一下{city}“{hotel}”的{room}住一晚要多少钱",
                f"在旅行App上看看，{city}的“{hotel}”{room}每晚价格是多少？"],
            en=[f"In Travel, how much is one night in a {room} at '{hotel}' in {city}?",
                f"Check Travel: what does a {room} at '{hotel}' in {city} cost per night?",
                f"How much is a {room} at '{hotel}' in {city} for a night, according to "
                "Travel?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["price_cents"] / 100)

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
