"""Task templates of the Ride app: call a car and pay after the trip (to a place, home, or a
place written in Notes), set home/company, cancel a trip, and read an estimate or a past fare."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.ride.app import RIDE_PACKAGE, SAVED, new_trip
from phonebuddy.phoneworld.apps.ride.content import CAR_BY_NAME, distance_km, fare_cents
from phonebuddy.phoneworld.tasks.answers import Expectation, Money
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import yuan_short
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction, Wait

WALLET = "com.pw.wallet"
NOTES = "com.pw.notes"
TRIPS = f"apps/{RIDE_PACKAGE}/trips"
SAVED_PLACES = f"apps/{RIDE_PACKAGE}/saved_places"
CAR_NAMES = {
    "快车": "an Express car (快车)",
    "专车": "a Premium car (专车)",
    "拼车": "a Carpool ride (拼车)",
}
MAX_WAITS = 12  # a trip lasts at most 8 simulated minutes
MAX_FARE_CENTS = 40000  # stays well below the smallest seeded wallet balance


# -- parameters --------------------------------------------------------------------------------
def _sample_destination(world: World, rng: random.Random, car_name: str) -> Params:
    content = world.content(RIDE_PACKAGE)
    here = content["here"]
    while True:
        place = rng.choice([p for p in content["places"] if p["id"] != here["id"]])
        fare = fare_cents(CAR_BY_NAME[car_name], distance_km(here, place))
        if fare <= MAX_FARE_CENTS:
            return {
                "place_id": place["id"],
                "place": place["name"],
                "car_type": car_name,
                "fare_cents": fare,
            }


# -- verification helpers ----------------------------------------------------------------------
def check_paid_trip(diff: StateDiff, params: Params) -> list[str]:
    """One new trip of the right car type to the right place, finished and paid."""
    added = diff.added(TRIPS)
    if len(added) != 1:
        return [f"expected one new trip, found {len(added)}"]
    trip = added[0]
    problems = []
    if trip["to_id"] != params["place_id"]:
        problems.append(f"went to {trip['to']}, expected {params['place']}")
    if trip["car_type"] != params["car_type"]:
        problems.append(f"took a {trip['car_type']}, expected {params['car_type']}")
    if trip["status"] != "paid":
        problems.append(f"trip status is {trip['status']}, expected paid")
    return problems + wallet_payment_problems(
        diff, amount_cents=trip["fare_cents"], reference=trip["id"]
    )


# -- oracle helpers ----------------------------------------------------------------------------
def open_ride(ui: OracleUI) -> Iterator[Action]:
    yield from ui.open_app("打车")


def search_place(ui: OracleUI, entry: str, place: str, place_id: str) -> Iterator[Action]:
    yield ui.tap(entry)
    yield from ui.type_into("query", place)
    yield from ui.scroll_to(f"place_{place_id}")
    yield ui.tap(f"place_{place_id}")


def call_and_pay(ui: OracleUI, car_type: str) -> Iterator[Action]:
    """On the confirm page: pick the car, call it, wait for the trip to end, pay."""
    if car_type != "快车":  # the express car is preselected
        yield ui.tap(f"car_{CAR_BY_NAME[car_type].key}")
    yield ui.tap("call_ride")
    for _ in range(MAX_WAITS):
        if ui.visible("pay_trip"):
            break
        yield Wait(time=60)
    yield ui.tap("pay_trip")
    yield ui.tap(f"{WALLET}:id/pay_confirm")


# -- templates ---------------------------------------------------------------------------------
class CallRide(TaskTemplate):
    id = "ride.call"
    category = Category.CROSS_APP
    apps = (RIDE_PACKAGE, WALLET)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        return _sample_destination(world, rng, rng.choice(tuple(CAR_BY_NAME)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        car, place, car_en = params["car_type"], params["place"], CAR_NAMES[params["car_type"]]
        return phrased(
            zh=[f"用打车叫一辆{car}去{place}，行程结束后用钱包付款",
                f"帮我在打车上叫辆{car}到{place}，到了之后用钱包把车费付了",
                f"我要去{place}，麻烦用打车叫一辆{car}，下车后用钱包付款"],
            en=[f"In Ride, call {car_en} to {place} and pay with the wallet when the trip ends",
                f"Please book {car_en} to {place} in Ride, then pay with the wallet once the "
                "trip is over",
                f"I need to get to {place}: get {car_en} in Ride and, when the ride is done, "
                "pay for it with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_paid_trip(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_ride(ui)
        yield from search_place(ui, "where_to", params["place"], params["place_id"])
        yield from call_and_pay(ui, params["car_type"])


class RideHome(TaskTemplate):
    id = "ride.go_home"
    category = Category.CROSS_APP
    apps = (RIDE_PACKAGE, WALLET)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _sample_destination(world, rng, rng.choice(("快车", "专车")))
        params["saved"] = rng.choice(("home", "company"))
        return params

    def setup(self, it: Any, params: Params) -> None:
        it.data["saved_places"][params["saved"]] = params["place_id"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh, en = ("回家", "home") if params["saved"] == "home" else ("去公司", "to work")
        car, car_en = params["car_type"], CAR_NAMES[params["car_type"]]
        return phrased(
            zh=[f"打一辆{car}{zh}（用已保存的常用地址），到达后用钱包付款",
                f"帮我叫辆{car}{zh}，目的地就用打车里存好的常用地址，到了用钱包付钱",
                f"我准备{zh}了，用打车里保存的常用地址叫一辆{car}，行程结束后用钱包付款"],
            en=[f"Take {car_en} {en} (the saved address in Ride) and pay with the wallet at the "
                "end",
                f"Please call {car_en} {en} using the address saved in Ride, and pay with the "
                "wallet once you arrive",
                f"Time to head {en}: book {car_en} to the saved address in Ride, then pay with "
                "the wallet when the trip is over"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_paid_trip(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_ride(ui)
        yield ui.tap(f"shortcut_{params['saved']}")
        yield from call_and_pay(ui, params["car_type"])


class RideToNotePlace(TaskTemplate):
    id = "ride.note_place"
    category = Category.CROSS_APP
    apps = (NOTES, RIDE_PACKAGE, WALLET)
    difficulty = 17
    NOTES_ABOUT = (
        ("周末聚餐", "周六晚上6点，{place}见，别迟到"),
        ("面试安排", "周三上午10点到{place}，带好简历"),
        ("接人", "下午去{place}接表姐"),
    )

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _sample_destination(world, rng, rng.choice(tuple(CAR_BY_NAME)))
        title, body = rng.choice(self.NOTES_ABOUT)
        params.update(note_title=title, note_body=body.format(place=params["place"]))
        return params

    def setup(self, it: Any, params: Params) -> None:
        it.app_data(NOTES)["notes"].insert(
            0,
            {
                "id": "note-ride",
                "title": params["note_title"],
                "body": params["note_body"],
                "pinned": False,
            },
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, car, car_en = params["note_title"], params["car_type"], CAR_NAMES[params["car_type"]]
        return phrased(
            zh=[f"备忘录“{title}”里写着要去的地点。用打车叫一辆{car}去那里，行程结束后用钱包付款",
                f"看一下备忘录“{title}”里写的是哪儿，帮我用打车叫辆{car}过去，到了用钱包付钱",
                f"我要去的地方记在备忘录“{title}”里了，请用打车叫一辆{car}送我去，下车后用钱包付款"],
            en=[f"The note '{title}' says where to go. Call {car_en} there in Ride and pay with "
                "the wallet at the end",
                f"Check the note '{title}' for the destination, then book {car_en} there in "
                "Ride and pay with the wallet when the trip ends",
                f"Where I need to go is written in the note '{title}'. Please get {car_en} "
                "there in Ride and pay with the wallet once the ride is over"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_paid_trip(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["note_title"])
        yield ui.tap(text=params["note_title"])
        yield from open_ride(ui)
        yield from search_place(ui, "where_to", params["place"], params["place_id"])
        yield from call_and_pay(ui, params["car_type"])


class RideTemplate(TaskTemplate):
    """A template of the Ride app alone."""

    category = Category.SINGLE_APP
    apps = (RIDE_PACKAGE,)


class SetSavedPlace(RideTemplate):
    id = "ride.set_place"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _sample_destination(world, rng, "快车")
        params["saved"] = rng.choice(("home", "company"))
        return params

    def setup(self, it: Any, params: Params) -> None:
        saved = it.data["saved_places"]
        if saved[params["saved"]] == params["place_id"]:
            saved[params["saved"]] = None

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh = dict(SAVED)[params["saved"]]
        en = "home" if params["saved"] == "home" else "work (公司)"
        place = params["place"]
        return phrased(
            zh=[f"在打车里把常用地址“{zh}”设置为{place}",
                f"帮我把打车的常用地址“{zh}”改成{place}",
                f"以后打车的常用地址“{zh}”要用{place}，去打车里设置一下"],
            en=[f"In Ride, set the saved address for {en} to {place}",
                f"Please change my saved {en} address in Ride to {place}",
                f"My {en} address in Ride should be {place}: update the saved address there"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        changes = [(c.path, c.after) for c in diff.touched(SAVED_PLACES)]
        wanted = [(f"{SAVED_PLACES}/{params['saved']}", params["place_id"])]
        return [] if changes == wanted else [f"saved places changed {changes}, expected {wanted}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_ride(ui)
        yield ui.tap("tab_mine")
        yield from search_place(ui, f"saved_{params['saved']}", params["place"], params["place_id"])


class CancelTrip(RideTemplate):
    id = "ride.cancel"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return _sample_destination(world, rng, rng.choice(tuple(CAR_BY_NAME)))

    def setup(self, it: Any, params: Params) -> None:
        key = CAR_BY_NAME[params["car_type"]].key
        trip = new_trip(
            f"trip-now-{params['place_id']}", it.content, params["place_id"], key, it.clock
        )
        trip["pickup_s"] = 900  # the driver is stuck in traffic: plenty of time to cancel
        it.data["trips"].append(trip)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        car, place = params["car_type"], params["place"]
        return phrased(
            zh=[f"我刚叫的去{place}的{car}不需要了，帮我取消这个行程",
                f"把刚才叫的那辆去{place}的{car}取消掉",
                f"{place}不去了，请在打车里取消我刚叫的{car}"],
            en=[f"I no longer need the {car} I just called to {place}; cancel that trip",
                f"Cancel the {car} ride to {place} that I just ordered",
                f"Plans changed, I'm not going to {place} anymore. Please cancel the {car} I "
                "just called in Ride"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        changes = [(c.path, c.after) for c in diff.touched(TRIPS)]
        wanted = [(f"{TRIPS}[trip-now-{params['place_id']}]/status", "cancelled")]
        return [] if changes == wanted else [f"trips changed {changes}, expected {wanted}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_ride(ui)
        yield ui.tap("active_trip")
        yield ui.tap("cancel_trip")
        yield ui.tap("confirm_cancel")


class FareEstimate(RideTemplate):
    id = "ride.estimate"
    difficulty = 7
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return _sample_destination(world, rng, rng.choice(("快车", "快车", "专车")))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        car, place, car_en = params["car_type"], params["place"], CAR_NAMES[params["car_type"]]
        return phrased(
            zh=[f"在打车里查一下，从当前位置打{car}去{place}预估多少钱？",
                f"从我现在的位置坐{car}到{place}大概要多少钱？用打车看看预估价",
                f"我想打{car}去{place}，帮我在打车里看下从这儿出发的预估价格"],
            en=[f"In Ride, what is the estimated price of {car_en} from where I am to {place}?",
                f"How much would {car_en} from my current location to {place} cost? Check the "
                "estimate in Ride",
                f"I'm thinking of taking {car_en} to {place}. What price does Ride estimate "
                "from here?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["fare_cents"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return yuan_short(params["fare_cents"] + 500)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_ride(ui)
        yield from search_place(ui, "where_to", params["place"], params["place_id"])
        node = ui.find(f"price_{CAR_BY_NAME[params['car_type']].key}")
        yield Answer(text=node.text.removeprefix("预估") if node else "")


class LastTripFare(RideTemplate):
    id = "ride.last_fare"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _sample_destination(world, rng, rng.choice(tuple(CAR_BY_NAME)))
        # An older ride to the same place in another car, so only yesterday's fare is right.
        other = rng.choice([name for name in CAR_BY_NAME if name != params["car_type"]])
        here, place = world.content(RIDE_PACKAGE)["here"], world.content(RIDE_PACKAGE)["by_id"]
        km = distance_km(here, place[params["place_id"]])
        params.update(older_car_type=other, older_fare_cents=fare_cents(CAR_BY_NAME[other], km))
        return params

    def setup(self, it: Any, params: Params) -> None:
        rides = ((5, params["older_car_type"], "older"), (1, params["car_type"], "last"))
        for days_ago, car_type, label in rides:
            requested = it.clock - days_ago * 86400 + 2 * 3600
            trip = new_trip(
                f"trip-{label}-{params['place_id']}",
                it.content,
                params["place_id"],
                CAR_BY_NAME[car_type].key,
                requested,
            )
            trip.update(status="paid", paid_at=requested + 1500)
            it.data["trips"].append(trip)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        place = params["place"]
        return phrased(
            zh=[f"我昨天打车去{place}花了多少钱？",
                f"查一下昨天那趟去{place}的打车行程实付了多少",
                f"昨天坐车去{place}的车费是多少？帮我在打车里看看"],
            en=[f"How much did my ride to {place} yesterday cost?",
                f"Look up what I paid for yesterday's ride to {place}",
                f"What was the fare of my trip to {place} yesterday? Check it in Ride"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["fare_cents"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return yuan_short(params["older_fare_cents"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_ride(ui)
        yield ui.tap("tab_trips")
        trip = f"trip_trip-last-{params['place_id']}"
        yield from ui.scroll_to(trip)
        yield ui.tap(trip)
        node = ui.find("trip_fare")
        yield Answer(text=node.text.removeprefix("实付 ") if node else "")


TEMPLATES: tuple[TaskTemplate, ...] = (
    CallRide(),
    RideHome(),
    RideToNotePlace(),
    SetSavedPlace(),
    CancelTrip(),
    FareEstimate(),
    LastTripFare(),
)
