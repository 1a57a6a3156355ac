"""Templates of the everyday mini-programs: 幸运咖啡 (order, price), 捷停车 (pay, fee, add a
plate) and 单车 (ride, last ride)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.bike import SPOTS, ride_fee
from phonebuddy.phoneworld.apps.messenger.miniprograms.coffee import OPTION_IDS, SIZES, SUGARS
from phonebuddy.phoneworld.apps.messenger.miniprograms.coffee import unit_price as coffee_price
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import find
from phonebuddy.phoneworld.apps.messenger.miniprograms.parking import parking_fee, show_plate
from phonebuddy.phoneworld.apps.messenger.miniprograms.task_steps import (
    PAYING,
    mini_content,
    node_text,
    row_texts,
)
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSENGER,
    PAY_CONFIRM,
    MessengerTemplate,
    mini,
    open_mini,
    pass_first_use_prompts,
)
from phonebuddy.phoneworld.apps.messenger.timeline import seeded_time
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    ClockTime,
    Duration,
    Expectation,
    Money,
    Text,
    Together,
)
from phonebuddy.phoneworld.tasks.base import Params, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import local_time, yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction


def _coffee_drink(world: World, rng: random.Random) -> Any:
    return rng.choice([d for d in mini_content(world, "coffee")["drinks"] if not d["sold_out"]])


class CoffeeOrder(MessengerTemplate):
    id = "mini.coffee.order"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        drink = _coffee_drink(world, rng)
        store = rng.choice(list(mini_content(world, "coffee")["stores"]))
        return {
            "drink": str(drink["id"]),
            "drink_name": str(drink["name"]),
            "size": rng.choice([s for s, _ in SIZES]),
            "temp": rng.choice(drink["temperatures"]),
            "sugar": rng.choice(SUGARS),
            "store": str(store["id"]),
            "store_name": str(store["name"]),
            "unit_cents": coffee_price(drink, "中杯"),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        drink, size, temp, sugar, store = (p["drink_name"], p["size"], p["temp"], p["sugar"],
                                           p["store_name"])  # fmt: skip
        return phrased(
            zh=[f"在微信「幸运咖啡」小程序点一杯{size}{temp}{drink}，{sugar}，到{store}自取，并完成支付",
                f"帮我用微信「幸运咖啡」小程序下单：{size}{temp}{drink}一杯，{sugar}，{store}自取，"
                "记得付款",
                f"想喝一杯{size}{temp}{drink}（{sugar}），用微信「幸运咖啡」小程序下单，选{store}自取，"
                "并把钱付了"],
            en=[f"In the 幸运咖啡 mini-program in WeChat, order one {drink} ({size}, {temp}, "
                f"{sugar}) for pick-up at {store} and pay for it",
                f"Order a {drink} ({size}, {temp}, {sugar}) from the 幸运咖啡 mini-program in "
                f"WeChat for pick-up at {store}, and pay for it",
                f"I'd like one {drink}, {size}, {temp}, {sugar}: order it in WeChat's 幸运咖啡 "
                f"mini-program for pick-up at {store} and complete the payment"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        order, problems = one_added(diff, mini("coffee", "orders"), "coffee order")
        store_changes = diff.touched(mini("coffee", "store"))
        if store_changes and store_changes[0].after != params["store"]:
            problems.append(f"the pick-up store became {store_changes[0].after}")
        if order is None:
            return problems
        wanted = [(params["drink"], params["size"], params["temp"], params["sugar"], 1)]
        items = [(i["drink"], i["size"], i["temp"], i["sugar"], i["qty"]) for i in order["items"]]
        if items != wanted:
            problems.append(f"ordered {items}, expected {wanted}")
        if order["store"] != params["store"]:
            problems.append(f"pick-up at {order['store']}, expected {params['store']}")
        if order["status"] != "paid":
            problems.append(f"the order is {order['status']}, not paid")
        price = params["unit_cents"] + dict(SIZES)[params["size"]]
        if order["subtotal_cents"] != price or order["total_cents"] != (
            price - order["discount_cents"]
        ):
            problems.append(f"the order costs {order['total_cents']} cents for {price}")
        return problems + wallet_payment_problems(
            diff, amount_cents=order["total_cents"], reference=f"coffee:{order['id']}"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "coffee")
        yield from pass_first_use_prompts(ui)
        yield ui.tap("store_picker")
        yield ui.tap(f"store_{params['store']}")
        yield from ui.scroll_to(f"drink_{params['drink']}")
        yield ui.tap(f"drink_{params['drink']}")
        for option in (params["size"], params["temp"], params["sugar"]):
            chip = ui.find(OPTION_IDS[option])
            if chip is not None and not chip.checked:
                yield ui.tap(OPTION_IDS[option])
        yield ui.tap("add_to_cart")
        yield ui.tap("go_checkout")
        yield ui.tap("submit_order")
        yield ui.tap(PAY_CONFIRM)


class CoffeePrice(MessengerTemplate):
    id = "mini.coffee.price"
    category = Category.MINI_PROGRAM
    difficulty = 10
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        drink = _coffee_drink(world, rng)
        size = rng.choice([s for s, _ in SIZES])
        return {
            "drink": str(drink["id"]),
            "drink_name": str(drink["name"]),
            "size": size,
            "price_cents": coffee_price(drink, size),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        size, drink = params["size"], params["drink_name"]
        return phrased(
            zh=[f"微信「幸运咖啡」小程序里，一杯{size}{drink}多少钱？",
                f"在微信「幸运咖啡」小程序查一下{size}{drink}的价格",
                f"用微信「幸运咖啡」小程序看看，{size}{drink}一杯要多少钱"],
            en=[f"In the 幸运咖啡 mini-program in WeChat, how much is a {size} {drink}?",
                f"Check the price of a {size} {drink} in the 幸运咖啡 mini-program in WeChat",
                f"How much does a {size} {drink} cost in WeChat's 幸运咖啡 mini-program?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["price_cents"] / 100)

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["price_cents"] + 300)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "coffee")
        yield from pass_first_use_prompts(ui)
        yield from ui.scroll_to(f"drink_{params['drink']}")
        yield ui.tap(f"drink_{params['drink']}")
        chip = ui.find(OPTION_IDS[params["size"]])
        if chip is not None and not chip.checked:
            yield ui.tap(OPTION_IDS[params["size"]])
        yield Answer(text=node_text(ui, "item_price").split()[0])


# -- parking ---------------------------------------------------------------------------------


def _open_session(ui: OracleUI, plate: str) -> Iterator[Action]:
    """The plate's parking record: from My cars when it is bound, else by looking it up."""
    yield from open_mini(ui, "parking", via_recent=True)
    if ui.visible(f"plate_{plate}"):
        yield ui.tap(f"plate_{plate}")
    else:
        yield from ui.type_into("query", plate)
        yield ui.tap("query_submit")


def _parking_params(world: World, session: Any) -> Params:
    """The record's plate and what its fee depends on (the verifier has no world at hand)."""
    lot = find(mini_content(world, "parking")["lots"], session["lot"])
    return {
        "session": str(session["id"]),
        "plate": str(session["plate"]),
        "entered_ago": int(session["entered_ago"]),
        "rate_cents": int(lot["rate_cents"]),
        "cap_cents": int(lot["cap_cents"]),
    }


def _parking_fee(params: Params, now: int) -> int:
    return parking_fee(params, seeded_time(params["entered_ago"], now), now)


class ParkingPay(MessengerTemplate):
    id = "mini.parking.pay"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        return _parking_params(world, rng.choice(list(mini_content(world, "parking")["sessions"])))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        plate = show_plate(params["plate"])
        return phrased(
            zh=[f"用微信「捷停车」小程序交一下车牌{plate}的停车费",
                f"帮我把车牌{plate}的停车费交了，用微信「捷停车」小程序",
                f"在微信「捷停车」小程序里给{plate}这辆车缴停车费"],
            en=[f"Pay the parking fee of the car {plate} with the 捷停车 mini-program in WeChat",
                f"Use the 捷停车 mini-program in WeChat to pay for parking for the car {plate}",
                f"In WeChat's 捷停车 mini-program, settle the parking fee for the car {plate}"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        payment, problems = one_added(diff, mini("parking", "payments"), "parking payment")
        if payment is None:
            return problems
        if payment["session"] != params["session"]:
            return [f"paid for {payment['plate']}, expected {params['plate']}"]
        if payment["status"] != "paid":
            problems.append(f"the payment is {payment['status']}")
        fee = _parking_fee(params, payment["time"])
        if payment["amount_cents"] != fee:
            problems.append(f"paid {payment['amount_cents']} cents, the fee is {fee}")
        return problems + wallet_payment_problems(
            diff, amount_cents=fee, reference=f"parking:{payment['id']}"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from _open_session(ui, params["plate"])
        yield ui.tap("pay_now")
        yield ui.tap(PAY_CONFIRM)


class ParkingFee(MessengerTemplate):
    id = "mini.parking.fee"
    category = Category.MINI_PROGRAM
    difficulty = 9
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _parking_params(
            world, rng.choice(list(mini_content(world, "parking")["sessions"]))
        )
        # this task's own entry time: whole hours plus 12-44 minutes before the episode began,
        # as the seeded ones, so that the fee cannot tick over during the episode
        return {**params, "entered_ago": rng.randrange(1, 9) * 3600 + rng.randrange(12, 45) * 60}

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.for_app(MESSENGER).data["mini"]["parking"]
        data["entered_ago"] = {params["session"]: params["entered_ago"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        plate = show_plate(params["plate"])
        return phrased(
            zh=[f"车牌{plate}现在要交多少停车费？几点入场的？用微信「捷停车」小程序查一下",
                f"用微信「捷停车」小程序查查车牌{plate}目前的停车费是多少，以及入场时间",
                f"{plate}这辆车现在停车费多少钱？什么时候进的场？去微信「捷停车」小程序看看"],
            en=[f"How much is the parking fee of the car {plate} now, and when did it enter? Look "
                "it up in the 捷停车 mini-program in WeChat",
                f"Use the 捷停车 mini-program in WeChat to check how much parking currently costs "
                f"for the car {plate}, and its entry time",
                f"What does the car {plate} owe for parking right now, and at what time did it "
                "come in? Check WeChat's 捷停车 mini-program"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        # Entry times keep the fee away from an hour boundary, so the clock at the start and at
        # the end of the episode give the same fee; either is accepted.
        ago = diff.value_before(mini("parking", "entered_ago"))[params["session"]]
        own = {**params, "entered_ago": ago}
        fees = {_parking_fee(own, doc["os"]["clock"]) for doc in (diff.before, diff.after)}
        entered = local_time(seeded_time(ago, diff.before["os"]["clock"]))
        # the time first: its digits are no amount
        return Together(ClockTime(entered.hour, entered.minute),
                        Money(*(fee / 100 for fee in fees)))  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["rate_cents"] * 2 + 100)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from _open_session(ui, params["plate"])
        entered = node_text(ui, "session_entered").split()[-1]
        yield Answer(text=f"{node_text(ui, 'session_fee')}，{entered}入场")


class ParkingAddPlate(MessengerTemplate):
    id = "mini.parking.add_plate"
    category = Category.MINI_PROGRAM
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        parking = mini_content(world, "parking")
        plates = [s["plate"] for s in parking["sessions"] if s["plate"] not in parking["owned"]]
        return {"plate": str(rng.choice([*plates, parking["unknown"]]))}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        plate = show_plate(params["plate"])
        return phrased(
            zh=[f"在微信「捷停车」小程序里绑定车牌{plate}",
                f"把车牌{plate}绑定到微信「捷停车」小程序",
                f"在微信「捷停车」小程序的我的车辆里添加车牌{plate}"],
            en=[f"Add the plate {plate} to my cars in the 捷停车 mini-program in WeChat",
                f"Bind the plate {plate} in WeChat's 捷停车 mini-program",
                f"In the 捷停车 mini-program in WeChat, register the car {plate} under my cars"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        plate, problems = one_added(diff, mini("parking", "plates"), "plate")
        if plate is not None and plate["number"] != params["plate"]:
            problems.append(f"bound {plate['number']}, expected {params['plate']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "parking")
        yield ui.tap("add_plate")
        yield from ui.type_into("plate", show_plate(params["plate"]))
        yield ui.tap("save_plate")


# -- bike ------------------------------------------------------------------------------------


class BikeRide(MessengerTemplate):
    id = "mini.bike.ride"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 15

    def sample(self, world: World, rng: random.Random) -> Params:
        bikes = [b for b in mini_content(world, "bike")["bikes"] if not b["broken"]]
        return {"bike": str(rng.choice(bikes)["id"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        bike = params["bike"]
        return phrased(
            zh=[f"用微信「青骑单车」小程序扫码解锁编号{bike}的单车，然后结束行程并付车费",
                f"在微信「青骑单车」小程序解锁{bike}号单车，骑完结束行程，把车费付了",
                f"帮我用微信「青骑单车」扫码开锁编号{bike}的车，再结束行程、支付车费"],
            en=[f"With the 青骑单车 mini-program in WeChat, unlock bike {bike}, then end the ride "
                "and pay for it",
                f"Unlock bike {bike} using the 青骑单车 mini-program in WeChat, end the ride and "
                "pay the fare",
                f"In WeChat's 青骑单车 mini-program, scan to unlock bike {bike}; after that, end "
                "the ride and pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        ride, problems = one_added(diff, mini("bike", "rides"), "ride")
        if ride is None:
            return problems
        if ride["bike"] != params["bike"]:
            problems.append(f"rode bike {ride['bike']}, expected {params['bike']}")
        if ride["status"] != "paid":
            return [*problems, f"the ride is {ride['status']}, not ended and paid"]
        fee = ride_fee(ride["end"] - ride["start"])
        if ride["fee_cents"] != fee:
            problems.append(f"the ride cost {ride['fee_cents']} cents, expected {fee}")
        return problems + wallet_payment_problems(
            diff, amount_cents=fee, reference=f"bike:{ride['id']}"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "bike", via_recent=True)
        yield from pass_first_use_prompts(ui)
        yield from ui.scroll_to("scan")
        yield ui.tap("scan")
        if ui.visible(f"scan_{params['bike']}"):
            yield from ui.scroll_to(f"scan_{params['bike']}")
            yield ui.tap(f"scan_{params['bike']}")
        else:
            yield from ui.scroll_to("bike_number")
            yield from ui.type_into("bike_number", params["bike"])
            yield ui.enter()
        yield ui.tap("unlock")
        yield ui.tap("end_ride")
        yield ui.tap("confirm_end")
        yield ui.tap("pay_ride")
        yield ui.tap(PAY_CONFIRM)


class BikeLastRide(MessengerTemplate):
    """The last ride in the trip history: what it cost and how long it took, or where it ended
    (this task's own trips, drawn as the app's content draws them)."""

    id = "mini.bike.last_ride"
    category = Category.MINI_PROGRAM
    difficulty = 11
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        trips = []
        for i in range(3):
            seconds = rng.randrange(4, 70) * 60 + rng.randrange(0, 60)
            trips.append({"id": f"bh{i + 1}", "bike": str(rng.randrange(860_100_000, 860_999_999)),
                          "from": rng.choice(SPOTS), "to": rng.choice(SPOTS), "seconds": seconds,
                          "fee_cents": ride_fee(seconds),
                          "days_ago": 1 + 3 * i + rng.randrange(0, 3)})  # fmt: skip
        last = trips[0]
        return {
            "history": trips,
            "trip": str(last["id"]),
            "fee_cents": int(last["fee_cents"]),
            "to": str(last["to"]),
            "ask": rng.choice(("fee", "route")),
        }

    def setup(self, it: Interaction, params: Params) -> None:
        it.for_app(MESSENGER).data["mini"]["bike"]["history"] = [dict(h) for h in params["history"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        if params["ask"] == "fee":
            return phrased(
                zh=["我上一次骑「青骑单车」花了多少钱，骑了多久？",
                    "查一下我最近一次骑「青骑单车」的费用和骑行时长",
                    "上回骑「青骑单车」付了多少车费？骑了多长时间？"],
                en=["How much did my last 青骑单车 bike ride cost, and how long was it?",
                    "Check the cost and the duration of my most recent 青骑单车 ride",
                    "What was the fare of my previous 青骑单车 bike ride, and how long did I "
                    "ride?"],
            )  # fmt: skip
        return phrased(
            zh=["我上一次骑「青骑单车」骑到了哪里？", "最近一次骑「青骑单车」，我的终点是哪儿？",
                "查查我上回骑「青骑单车」是在哪里结束的"],
            en=["Where did my last 青骑单车 bike ride end?",
                "What was the destination of my most recent 青骑单车 ride?",
                "Check where my previous 青骑单车 bike ride finished"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        last = min(diff.value_before(mini("bike", "history")), key=lambda h: h["days_ago"])
        if params["ask"] == "fee":
            return Together(Money(last["fee_cents"] / 100), Duration(-(-last["seconds"] // 60)))
        return Text([last["to"]], others=SPOTS, what="place")

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        if params["ask"] == "fee":
            minutes = -(-params["history"][0]["seconds"] // 60)
            return f"{yuan(params['fee_cents'] + 100)}，{minutes}分钟"
        return "西湖"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "bike")
        yield from pass_first_use_prompts(ui)
        yield from ui.scroll_to("trips")
        yield ui.tap("trips")
        texts = row_texts(ui, f"trip_{params['trip']}")
        if params["ask"] == "fee":
            fee = next(t for t in texts if t.startswith("¥"))
            minutes = next(t for t in texts if "骑行" in t).split("骑行")[1]
            yield Answer(text=f"{fee}，骑行{minutes}")
        else:
            yield Answer(text=next(t for t in texts if "→" in t).split("→")[-1].strip())


# -- movies ----------------------------------------------------------------------------------
