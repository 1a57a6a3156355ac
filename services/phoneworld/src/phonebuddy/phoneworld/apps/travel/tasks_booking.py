"""Travel templates that book: the earliest or the cheapest train, the train a note asks for,
and a hotel."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.travel.base import TRAVEL_PACKAGE
from phonebuddy.phoneworld.apps.travel.content import SEAT_BY_KEY, SEATS
from phonebuddy.phoneworld.apps.travel.steps import (
    MAX_PRICE_CENTS,
    NOTES,
    ORDERS,
    SEAT_EN,
    WALLET,
    available,
    book_and_pay,
    booking_params,
    check_train_order,
    days_words,
    ensure_passenger,
    open_travel,
    random_passenger,
    route,
    search_route,
    start_date,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction


# -- templates: booking ------------------------------------------------------------------------
class BookEarliestTrain(TaskTemplate):
    id = "travel.book_earliest"
    category = Category.CROSS_APP
    apps = (TRAVEL_PACKAGE, WALLET)
    difficulty = 22
    PICK = "earliest"
    NEW_PASSENGER = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return booking_params(world, rng, self.PICK, new_passenger=self.NEW_PASSENGER)

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
            trains = route(world, rng)
            train = rng.choice(trains)
            seat = rng.choice(SEATS[:2])
            days = rng.randint(2, 13)
            if available(train, seat.key, days):
                return {
                    "origin": train["from"],
                    "destination": train["to"],
                    "days": days,
                    "seat": seat.key,
                    "train": train["number"],
                    "note_title": rng.choice(self.NOTE_TITLES),
                    "note_body": f"车次：{train['number']}，{train['from_station']}"
                    f"{train['depart']}开，到{train['to_station']}{train['arrive']}",
                    "passenger": random_passenger(rng),
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
                    "guest": random_passenger(rng),
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
