"""Task templates of 航班管家: the single-app and question ones here, the cross-app ones imported
from `cross` and `cross_more`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.flights.base import (
    CHECKED,
    FLIGHTS,
    REFUNDED,
    hours_before,
    minutes,
    refund_fee_cents,
)
from phonebuddy.phoneworld.apps.flights.common import (
    BOOKINGS,
    FOLLOWS,
    FlightsTemplate,
    check_new_passenger,
    flight_by_id,
    flight_number,
    flight_params,
    flights,
    free_seat,
    look_up,
    new_passenger,
    open_flight,
    open_flights,
    open_trip,
    same_day_route,
    search_route,
    seeded_bookings,
    status_of,
)
from phonebuddy.phoneworld.apps.flights.content import FEE_CENTS, INSURANCE_CENTS, hhmm
from phonebuddy.phoneworld.apps.flights.cross import (
    BookAndPay,
    CalendarEvent,
    GateBySms,
    ShareToWechat,
)
from phonebuddy.phoneworld.apps.flights.cross_more import (
    CheapOrNote,
    DelayedMail,
    MailChain,
    PassengerFromNote,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import ClockTime, Expectation, Money
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import A_TIME, StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction


class Follow(FlightsTemplate):
    id = "flights.follow"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return flight_params(pick(rng, [f for f in flights(world) if f["day"] == 0]))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["number"]
        return phrased(
            zh=[f"在航班管家里关注今天的{n}航班", f"帮我关注一下航班{n}，好收到它的动态",
                f"查一下今天{n}的航班动态，并点关注"],
            en=[f"In Flights, follow today's flight {n}",
                f"Please follow flight {n} so I get its updates",
                f"Look up today's status of {n} and follow the flight"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        follow, problems = one_added(diff, FOLLOWS, "follow")
        if follow is not None and follow["id"] != params["number"]:
            problems.append(f"followed {follow['id']}, expected {params['number']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from look_up(ui, params["number"])
        yield ui.tap("follow")


class CheckIn(FlightsTemplate):
    id = "flights.check_in"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        booking = pick(rng, seeded_bookings(world))
        seat = free_seat(booking["flight_id"], rng)
        return {**flight_params(flight_by_id(world, booking["flight_id"])),
                "booking_id": booking["id"], "seat": seat}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, s, d, de = params["number"], params["seat"], params["day_zh"], params["day_en"]
        return phrased(
            zh=[f"给我{d}的{n}航班办理在线值机，座位选{s}", f"帮我{d}坐的{n}值机，选{s}座",
                f"在航班管家行程里为{n}（{d}）选座值机，要{s}"],
            en=[f"Check me in online for flight {n} {de} and pick seat {s}",
                f"Please do the check-in of my flight {n} {de}, seat {s}",
                f"In my Flights trips, check in for {n} ({de}) choosing seat {s}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{BOOKINGS}[{params['booking_id']}]"
        [passenger] = diff.value_before(f"{path}/passengers")
        seated = [{**passenger, "seat": params["seat"]}]
        return expect_changes(diff, path, {f"{path}/passengers": seated,
                                           f"{path}/status": CHECKED})  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_trip(ui, params["booking_id"])
        yield from ui.scroll_to("checkin_0")
        yield ui.tap("checkin_0")
        yield from ui.scroll_to(f"seat_{params['seat']}")
        yield ui.tap(f"seat_{params['seat']}")


class Refund(FlightsTemplate):
    """A refund behind a confirmation; the fee follows the hours left before take-off."""

    id = "flights.refund"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        booking = pick(rng, seeded_bookings(world))
        return {**flight_params(flight_by_id(world, booking["flight_id"])),
                "booking_id": booking["id"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, d, de = params["number"], params["day_zh"], params["day_en"]
        return phrased(
            zh=[f"把我{d}的{n}机票退掉", f"{d}的{n}航班不去了，帮我在航班管家退票",
                f"帮我办理{n}（{d}）的退票"],
            en=[f"Refund my ticket for flight {n} {de}",
                f"I'm not taking flight {n} {de} any more: refund it in Flights",
                f"Please get my {n} ticket ({de}) refunded"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{BOOKINGS}[{params['booking_id']}]"
        booking = diff.value_before(path)
        flight = {"day": params["day"], "depart": params["depart"]}
        clock = int(diff.value_after("os/clock"))
        fee = refund_fee_cents(booking["fare_cents"], hours_before(flight, clock))
        return expect_changes(diff, path, {
            f"{path}/status": REFUNDED, f"{path}/refund_fee_cents": fee,
            f"{path}/refund_cents": booking["total_cents"] - fee,
            f"{path}/refunded_at": A_TIME,
        })  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_trip(ui, params["booking_id"])
        yield from ui.scroll_to("refund")
        yield ui.tap("refund")
        yield ui.tap("confirm_refund")


class AddPassenger(FlightsTemplate):
    id = "flights.add_passenger"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        return new_passenger(rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, i = params["name"], params["id_number"]
        return phrased(
            zh=[f"在航班管家添加常用乘机人{n}，身份证号{i}", f"把{n}（身份证{i}）加到常用乘机人里",
                f"新增一位乘机人：姓名{n}，身份证号码{i}"],
            en=[f"Add {n} as a frequent passenger in Flights, ID number {i}",
                f"Save {n} (ID {i}) among my frequent passengers",
                f"Add a new passenger: name {n}, ID card number {i}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_passenger(diff, params["name"], params["id_number"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_flights(ui, "me")
        yield from ui.scroll_to("new_passenger")
        yield ui.tap("new_passenger")
        yield from ui.type_into("pax_name", params["name"])
        yield from ui.type_into("pax_id", params["id_number"])
        yield ui.tap("save_passenger")


class CheapestDirect(FlightsTemplate):
    """Sort and filter: the cheapest non-stop flight of a route on a day."""

    id = "flights.cheapest_direct"
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        while True:
            flight = pick(rng, [f for f in flights(world) if f["day"] >= 1])
            direct = [f for f in same_day_route(world, flight) if not f["stop"]]
            # Sold-out flights show no fare in the list: every candidate has seats.
            if len(direct) >= 2 and all(f["seats"]["economy"] > 1 for f in direct):
                break
        # this task's own economy fares (in tens of yuan), every one different
        fares = rng.sample(range(40, 200), len(direct))
        prices = {f["id"]: {**f["prices"], "economy": 1000 * fare}
                  for f, fare in zip(direct, fares, strict=True)}  # fmt: skip
        best = min(direct, key=lambda f: prices[f["id"]]["economy"])
        return {**flight_params(best), "prices": prices,
                "others": [f["number"] for f in direct if f is not best]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        updates = it.data.setdefault("live", {})
        for flight_id, prices in params["prices"].items():
            updates[flight_id] = {"prices": dict(prices)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        a, b, d = p["from_zh"], p["to_zh"], p["day_zh"]
        ae, be, de = p["from_en"], p["to_en"], p["day_en"]
        return phrased(
            zh=[f"{d}从{a}飞{b}，经济舱最便宜的直飞航班是哪一班？",
                f"查一下{d}{a}到{b}的直飞航班里哪班经济舱票价最低，告诉我航班号",
                f"我想{d}坐直飞从{a}去{b}，最便宜的是哪个航班？"],
            en=[f"Which non-stop flight from {ae} to {be} {de} has the cheapest economy fare?",
                f"Find the non-stop {ae}-{be} flight {de} with the lowest economy price and tell "
                "me its number",
                f"I want to fly non-stop from {ae} to {be} {de}: which flight is cheapest?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return flight_number(params["number"])

    def wrong_answer(self, params: Params) -> str:
        return str(params["others"][0])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_flights(ui)
        yield from search_route(ui, params)
        yield ui.tap("filter_direct")
        yield ui.tap("sort_price")
        prefix = f"{ui.package}:id/flight_"
        first = next(n for n in ui.device.ui_tree().walk() if n.resource_id.startswith(prefix))
        yield Answer(text=first.resource_id.removeprefix(prefix))


class TwoPassengersTotal(FlightsTemplate):
    """Arithmetic: two passengers' fares, airport fees and insurance."""

    id = "flights.two_total"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        flight = pick(rng, [f for f in flights(world) if f["day"] >= 1 and f["seats"]["economy"]])
        total = 2 * (flight["prices"]["economy"] + FEE_CENTS + INSURANCE_CENTS)
        return {**flight_params(flight), "total_cents": total}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        n, d, de = p["number"], p["day_zh"], p["day_en"]
        return phrased(
            zh=[f"{d}的{n}航班，2个人坐经济舱、都买航意险，一共要多少钱？",
                f"算一下{d}{n}航班经济舱2位乘客的总价（含机建费和每人一份航空意外险）",
                f"我和家人2个人{d}坐{n}经济舱，每人加一份航意险，总共多少钱？"],
            en=[f"Flight {n} {de}: how much in total for 2 people in economy, both with flight "
                "insurance?",
                f"Work out the total for 2 economy passengers on {n} {de}, airport fees and one "
                "flight insurance each included",
                f"My family member and I (2 people) take {n} in economy {de}, each with flight "
                "insurance: what's the total?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["total_cents"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return f"{(params['total_cents'] - 2 * INSURANCE_CENTS) // 100}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_flight(ui, params)
        fare = int(next(t for t in ui.texts_in("cabin_economy") if t.startswith("¥"))[1:])
        yield Answer(text=f"{2 * (fare + FEE_CENTS // 100 + INSURANCE_CENTS // 100)}元")


DAY = 24 * 60


class DelayedLanding(FlightsTemplate):
    """Time arithmetic: a delayed flight lands later by its delay."""

    id = "flights.delayed_landing"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # it lands the same day: a delay past midnight would be another day's clock time
        flight = pick(rng, [f for f in flights(world)
                            if f["status"] and f["status"]["state"] == "延误"
                            and minutes(f["arrive"]) <= DAY - 60])  # fmt: skip
        delay = rng.randrange(15, min(300, DAY - minutes(flight["arrive"])))  # this task's own
        landing = hhmm(minutes(flight["arrive"]) + delay)
        return {**flight_params(flight), "landing": landing, "planned": flight["arrive"],
                "status": {**flight["status"], "delay": delay}}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.data.setdefault("live", {})[params["flight_id"]] = {"status": dict(params["status"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["number"]
        return phrased(
            zh=[f"今天的{n}航班延误了，按延误时间算它几点能落地？",
                f"查一下{n}今天的动态，算出它延误后预计几点到达",
                f"{n}今天晚点了，计划到达时间加上延误，实际大概几点到？"],
            en=[f"Today's flight {n} is delayed: by its delay, what time will it land?",
                f"Check today's status of {n} and work out when it should arrive after the delay",
                f"{n} is late today: planned arrival plus the delay, what time does it land?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        delay = diff.before["apps"][FLIGHTS]["live"][params["flight_id"]]["status"]["delay"]
        hour, minute = map(int, hhmm(minutes(params["planned"]) + delay).split(":"))
        return ClockTime(hour, minute)

    def wrong_answer(self, params: Params) -> str:
        return str(params["planned"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from look_up(ui, params["number"])
        _, delay, _ = status_of(ui)
        arrive = ui.text_of("status_plan").split("计划到达 ")[1]
        yield Answer(text=hhmm(minutes(arrive) + delay))


TEMPLATES: tuple[TaskTemplate, ...] = (
    Follow(),
    CheckIn(),
    Refund(),
    AddPassenger(),
    CheapestDirect(),
    TwoPassengersTotal(),
    DelayedLanding(),
    BookAndPay(),
    GateBySms(),
    CalendarEvent(),
    ShareToWechat(),
    DelayedMail(),
    PassengerFromNote(),
    MailChain(),
    CheapOrNote(),
)
