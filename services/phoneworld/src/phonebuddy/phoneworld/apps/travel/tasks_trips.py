"""Travel templates about trips already booked or about to be: refunds, passengers, departure
times, seats left and hotel prices."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.travel.base import (
    KINDS,
    TRAVEL_PACKAGE,
    departure_epoch,
    new_train_order,
    refund_fee_cents,
    travel_date,
)
from phonebuddy.phoneworld.apps.travel.content import SEAT_BY_KEY, route_key
from phonebuddy.phoneworld.apps.travel.steps import (
    ORDERS,
    SEAT_EN,
    booking_params,
    check_new_passenger,
    days_words,
    fill_passenger,
    open_travel,
    random_passenger,
    route,
    search_route,
)
from phonebuddy.phoneworld.tasks.answers import ClockTime, Expectation, Money, clock, train_number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.ui.format import yuan_short
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction


class TravelTemplate(TaskTemplate):
    """A template of the Travel app alone."""

    category = Category.SINGLE_APP
    apps = (TRAVEL_PACKAGE,)


# -- templates: orders and passengers ---------------------------------------------------------
class RefundTicket(TravelTemplate):
    id = "travel.refund"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        params = booking_params(world, rng, "earliest")
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
        return {**random_passenger(rng), "kind": rng.choice(KINDS)}

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
        trains = route(world, rng)
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
        params = booking_params(world, rng, "earliest")
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
