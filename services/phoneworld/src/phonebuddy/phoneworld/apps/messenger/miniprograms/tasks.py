"""Task templates of the mini-programs (category mini_program): order coffee, pay for parking,
ride a shared bike, buy movie tickets, track parcels, and questions about each."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.bike import SPOTS, ride_fee
from phonebuddy.phoneworld.apps.messenger.miniprograms.coffee import OPTION_IDS, SIZES, SUGARS
from phonebuddy.phoneworld.apps.messenger.miniprograms.coffee import unit_price as coffee_price
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import find
from phonebuddy.phoneworld.apps.messenger.miniprograms.parcels import STATUSES
from phonebuddy.phoneworld.apps.messenger.miniprograms.parking import parking_fee, show_plate
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSENGER,
    PAY_CONFIRM,
    MessengerTemplate,
    content,
    facts,
    friend_by_id,
    mini,
    open_mini,
    open_private_chat,
    pass_first_use_prompts,
    shown_name,
)
from phonebuddy.phoneworld.apps.messenger.timeline import seeded_time
from phonebuddy.phoneworld.tasks.answers import (
    ClockTimes,
    Expectation,
    Money,
    Text,
    clock,
    dashed_code,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

WALLET = "com.pw.wallet"
PAYING = (MESSENGER, WALLET)
TIME = re.compile(r"^\d{2}:\d{2}$")


def _mini_content(world: World, name: str) -> Any:
    return content(world)["mini"][name]


def _row_texts(ui: OracleUI, row_id: str) -> list[str]:
    """The texts shown in a list row (its title, subtitle and trailing text)."""
    row = ui.find(row_id)
    if row is None:
        raise OracleError(f"{row_id!r} is not on screen")
    return [child.text for child in row.children if child.text]


def _node_text(ui: OracleUI, widget_id: str) -> str:
    node = ui.find(widget_id)
    if node is None:
        raise OracleError(f"{widget_id!r} is not on screen")
    return node.text


# -- coffee ----------------------------------------------------------------------------------


def _coffee_drink(world: World, rng: random.Random) -> Any:
    return rng.choice([d for d in _mini_content(world, "coffee")["drinks"] if not d["sold_out"]])


class CoffeeOrder(MessengerTemplate):
    id = "mini.coffee.order"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        drink = _coffee_drink(world, rng)
        store = rng.choice(list(_mini_content(world, "coffee")["stores"]))
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
        yield Answer(text=_node_text(ui, "item_price").split()[0])


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
    lot = find(_mini_content(world, "parking")["lots"], session["lot"])
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
        return _parking_params(world, rng.choice(list(_mini_content(world, "parking")["sessions"])))

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
        return _parking_params(world, rng.choice(list(_mini_content(world, "parking")["sessions"])))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        plate = show_plate(params["plate"])
        return phrased(
            zh=[f"车牌{plate}现在要交多少停车费？用微信「捷停车」小程序查一下",
                f"用微信「捷停车」小程序查查车牌{plate}目前的停车费是多少",
                f"{plate}这辆车现在停车费多少钱？去微信「捷停车」小程序看看"],
            en=[f"How much is the parking fee of the car {plate} now? Look it up in the 捷停车 "
                "mini-program in WeChat",
                f"Use the 捷停车 mini-program in WeChat to check how much parking currently costs "
                f"for the car {plate}",
                f"What does the car {plate} owe for parking right now? Check WeChat's 捷停车 "
                "mini-program"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        # Entry times keep the fee away from an hour boundary, so the clock at the start and at
        # the end of the episode give the same fee; either is accepted.
        fees = {_parking_fee(params, doc["os"]["clock"]) for doc in (diff.before, diff.after)}
        return Money(*(fee / 100 for fee in fees))

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["rate_cents"] * 2 + 100)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from _open_session(ui, params["plate"])
        yield Answer(text=_node_text(ui, "session_fee"))


class ParkingAddPlate(MessengerTemplate):
    id = "mini.parking.add_plate"
    category = Category.MINI_PROGRAM
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        parking = _mini_content(world, "parking")
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
        bikes = [b for b in _mini_content(world, "bike")["bikes"] if not b["broken"]]
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
    id = "mini.bike.last_ride"
    category = Category.MINI_PROGRAM
    difficulty = 11
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        history = _mini_content(world, "bike")["history"]
        last = min(history, key=lambda h: h["days_ago"])
        return {
            "trip": str(last["id"]),
            "fee_cents": int(last["fee_cents"]),
            "to": str(last["to"]),
            "ask": rng.choice(("fee", "route")),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        if params["ask"] == "fee":
            return phrased(
                zh=["我上一次骑「青骑单车」花了多少钱？", "查一下我最近一次骑「青骑单车」的费用",
                    "上回骑「青骑单车」付了多少车费？"],
                en=["How much did my last 青骑单车 bike ride cost?",
                    "Check what my most recent 青骑单车 ride cost",
                    "What was the fare of my previous 青骑单车 bike ride?"],
            )  # fmt: skip
        return phrased(
            zh=["我上一次骑「青骑单车」骑到了哪里？", "最近一次骑「青骑单车」，我的终点是哪儿？",
                "查查我上回骑「青骑单车」是在哪里结束的"],
            en=["Where did my last 青骑单车 bike ride end?",
                "What was the destination of my most recent 青骑单车 ride?",
                "Check where my previous 青骑单车 bike ride finished"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        if params["ask"] == "fee":
            return Money(params["fee_cents"] / 100)
        return Text([params["to"]], others=SPOTS, what="place")

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["fee_cents"] + 100) if params["ask"] == "fee" else "西湖"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "bike")
        yield from pass_first_use_prompts(ui)
        yield from ui.scroll_to("trips")
        yield ui.tap("trips")
        texts = _row_texts(ui, f"trip_{params['trip']}")
        if params["ask"] == "fee":
            yield Answer(text=next(t for t in texts if t.startswith("¥")))
        else:
            yield Answer(text=next(t for t in texts if "→" in t).split("→")[-1].strip())


# -- movies ----------------------------------------------------------------------------------


def _seats_for(showtime: Any, rng: random.Random) -> list[str]:
    """Two free seats side by side in the middle rows."""
    sold = set(showtime["sold"])
    pairs = [(f"{r}排{c}座", f"{r}排{c + 1}座") for r in range(3, 8) for c in range(2, 9)]
    free = [p for p in pairs if not sold & set(p)]
    return list(rng.choice(free))


def _ticket_params(world: World, showtime: Any, rng: random.Random) -> Params:
    movies = _mini_content(world, "movies")
    film = find(movies["films"], showtime["film"])
    cinema = find(movies["cinemas"], showtime["cinema"])
    return {
        "showtime": str(showtime["id"]),
        "film": str(film["id"]),
        "film_title": str(film["title"]),
        "cinema": str(cinema["id"]),
        "cinema_name": str(cinema["name"]),
        "time": str(showtime["time"]),
        "seats": _seats_for(showtime, rng),
        "price_cents": int(showtime["price_cents"]),
    }


def _check_tickets(diff: StateDiff, params: Params) -> list[str]:
    order, problems = one_added(diff, mini("movies", "orders"), "ticket order")
    if order is None:
        return problems
    if order["showtime"] != params["showtime"]:
        problems.append(
            f"bought {order['film']} {order['time']} at {order['cinema']}, expected "
            f"{params['film']} {params['time']} at {params['cinema']}"
        )
    if sorted(order["seats"]) != sorted(params["seats"]):
        problems.append(f"seats {order['seats']}, expected {params['seats']}")
    if order["status"] != "paid":
        return [*problems, f"the order is {order['status']}, not paid"]
    total = params["price_cents"] * len(params["seats"])
    if order["total_cents"] != total:
        problems.append(f"the order costs {order['total_cents']} cents, expected {total}")
    return problems + wallet_payment_problems(
        diff, amount_cents=total, reference=f"movies:{order['id']}"
    )


def _buy_from_film_page(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from ui.scroll_to(f"cinema_{params['cinema']}")
    yield ui.tap(f"cinema_{params['cinema']}")
    yield ui.tap(f"show_{params['time'].replace(':', '')}")
    for seat in params["seats"]:
        row, column = seat[:-1].split("排")
        yield ui.tap(f"seat_{row}_{column}")
    yield ui.tap("confirm_seats")
    yield ui.tap("submit_order")
    yield ui.tap(PAY_CONFIRM)


class MovieTickets(MessengerTemplate):
    id = "mini.movies.buy"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 15

    def sample(self, world: World, rng: random.Random) -> Params:
        showtime = rng.choice(list(_mini_content(world, "movies")["showtimes"]))
        return _ticket_params(world, showtime, rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, seats = params, "和".join(params["seats"])
        film, cinema, time = p["film_title"], p["cinema_name"], p["time"]
        seats_en = " and ".join(p["seats"])
        return phrased(
            zh=[f"用微信「喵眼电影」小程序买2张{cinema}今天{time}场《{film}》的票，座位选{seats}，"
                "并完成支付",
                f"帮我在微信「喵眼电影」小程序订《{film}》的票：{cinema}，今天{time}场，2张，"
                f"座位{seats}，付好款",
                f"今天{time}想在{cinema}看《{film}》，用微信「喵眼电影」小程序买2张票，选{seats}，"
                "并付款"],
            en=[f"With the 喵眼电影 mini-program in WeChat, buy 2 tickets for 《{film}》 at "
                f"{cinema}, today {time}, seats {seats_en}, and pay for them",
                f"Book 2 tickets for 《{film}》 in WeChat's 喵眼电影 mini-program: {cinema}, today "
                f"at {time}, seats {seats_en}; pay for them too",
                f"I want to see 《{film}》 at {cinema} today at {time}: buy 2 tickets (seats "
                f"{seats_en}) in the 喵眼电影 mini-program in WeChat and pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _check_tickets(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "movies")
        yield ui.tap(f"film_{params['film']}")
        yield from _buy_from_film_page(ui, params)


class MovieFromCard(MessengerTemplate):
    id = "mini.movies.from_card"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        fact = rng.choice(facts(world, "card", program="movies"))
        movies = _mini_content(world, "movies")
        showtime = rng.choice([s for s in movies["showtimes"] if s["film"] == fact["args"]["film"]])
        friend = friend_by_id(world, fact["friend"])
        return {
            **_ticket_params(world, showtime, rng),
            "friend": str(friend["id"]),
            "name": shown_name(friend),
            "card": str(fact["title"]),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, seats = params, "和".join(params["seats"])
        name, cinema, time = p["name"], p["cinema_name"], p["time"]
        seats_en = " and ".join(p["seats"])
        return phrased(
            zh=[f"{name}在微信上给我分享了一部电影。打开那张小程序卡片，买2张{cinema}今天{time}场的票，"
                f"座位{seats}，并完成支付",
                f"打开{name}在微信上分享给我的电影小程序卡片，买{cinema}今天{time}场的票2张，"
                f"座位{seats}，然后付款",
                f"用{name}在微信上发我的那张电影卡片买票：{cinema}，今天{time}场，2张，座位{seats}，"
                "并完成支付"],
            en=[f"{name} shared a film with me on WeChat. Open that mini-program card and buy 2 "
                f"tickets at {cinema}, today {time}, seats {seats_en}, and pay for them",
                f"Open the film card {name} shared with me on WeChat and buy 2 tickets at {cinema} "
                f"for today {time}, seats {seats_en}; then pay",
                f"Using the mini-program card of the film {name} sent me on WeChat, buy 2 tickets: "
                f"{cinema}, today {time}, seats {seats_en}. Pay for them too"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _check_tickets(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["name"], params["friend"])
        yield from ui.scroll_to(text=params["card"], scroll="messages")
        yield ui.tap(text=params["card"])
        yield from _buy_from_film_page(ui, params)


class MovieShowtimes(MessengerTemplate):
    id = "mini.movies.showtimes"
    category = Category.MINI_PROGRAM
    difficulty = 11
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        movies = _mini_content(world, "movies")
        showtime = rng.choice(list(movies["showtimes"]))
        times = [
            s["time"]
            for s in movies["showtimes"]
            if (s["film"], s["cinema"]) == (showtime["film"], showtime["cinema"])
        ]
        film = find(movies["films"], showtime["film"])
        cinema = find(movies["cinemas"], showtime["cinema"])
        return {
            "film": str(film["id"]),
            "film_title": str(film["title"]),
            "cinema": str(cinema["id"]),
            "cinema_name": str(cinema["name"]),
            "times": times,
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        cinema, film = params["cinema_name"], params["film_title"]
        return phrased(
            zh=[f"{cinema}今天《{film}》有哪几场？用微信「喵眼电影」小程序查一下，告诉我所有场次时间",
                f"用微信「喵眼电影」小程序看看{cinema}今天放《{film}》的全部场次，把时间都告诉我",
                f"今天想去{cinema}看《{film}》，一共有哪些场次？在微信「喵眼电影」里查，列出所有开场时间"],
            en=[f"Which showtimes does {cinema} have today for 《{film}》? Check the 喵眼电影 "
                "mini-program in WeChat and list them all",
                f"In WeChat's 喵眼电影 mini-program, find every showtime of 《{film}》 at {cinema} "
                "today and tell me all of them",
                f"List all of today's showtimes for 《{film}》 at {cinema}, using the 喵眼电影 "
                "mini-program in WeChat"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return ClockTimes(map(clock, params["times"]))

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return "、".join(params["times"][:-1])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "movies")
        yield ui.tap("tab_cinemas")
        yield ui.tap(f"cinema_{params['cinema']}")
        yield from ui.scroll_to(f"film_{params['film']}")
        yield ui.tap(f"film_{params['film']}")
        shows = [
            n for n in ui.find_all() if n.resource_id.rpartition(":id/")[2].startswith("show_")
        ]
        times = [t for n in shows for t in _row_texts(ui, n.resource_id) if TIME.match(t)]
        yield Answer(text="、".join(times))


# -- parcels ---------------------------------------------------------------------------------


def track_number(ui: OracleUI, number: str) -> Iterator[Action]:
    """Look a tracking number up in 裹裹快递 and add it to My parcels."""
    yield from open_mini(ui, "parcels")
    yield from ui.type_into("number", number)
    yield ui.tap("query_submit")
    yield ui.tap("track")


def _check_tracked(diff: StateDiff, number: str) -> list[str]:
    tracked, problems = one_added(diff, mini("parcels", "tracked"), "tracked parcel")
    if tracked is not None and tracked["number"] != number:
        problems.append(f"added {tracked['number']}, expected {number}")
    return problems


class ParcelAdd(MessengerTemplate):
    id = "mini.parcels.add"
    category = Category.MINI_PROGRAM
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        parcel = rng.choice(list(_mini_content(world, "parcels")["parcels"][7:]))
        return {"number": str(parcel["id"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        number = params["number"]
        return phrased(
            zh=[f"在微信「裹裹快递」小程序里添加快递单号{number}",
                f"把快递单号{number}加到微信「裹裹快递」小程序里",
                f"帮我在微信「裹裹快递」里添加单号{number}，方便跟踪"],
            en=[f"Add the tracking number {number} to the 裹裹快递 mini-program in WeChat",
                f"In WeChat's 裹裹快递 mini-program, add the tracking number {number}",
                f"Track the parcel {number} by adding its number to the 裹裹快递 mini-program in "
                "WeChat"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _check_tracked(diff, params["number"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from track_number(ui, params["number"])


class ParcelFromChat(MessengerTemplate):
    id = "mini.parcels.from_chat"
    category = Category.MINI_PROGRAM
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        fact = rng.choice(facts(world, "parcel"))
        friend = friend_by_id(world, fact["friend"])
        return {
            "friend": str(friend["id"]),
            "name": shown_name(friend),
            "number": str(fact["number"]),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"{name}在微信上发给我一个快递单号，把它添加到「裹裹快递」小程序的我的快递里",
                f"把{name}微信发我的快递单号加到「裹裹快递」小程序的我的快递中",
                f"去微信里找{name}发来的快递单号，然后在「裹裹快递」小程序添加到我的快递"],
            en=[f"{name} sent me a tracking number on WeChat; add it to My parcels in the 裹裹快递 "
                "mini-program",
                f"Add the tracking number {name} sent me on WeChat to My parcels in the 裹裹快递 "
                "mini-program",
                f"Find the tracking number from {name} in WeChat and put it in My parcels of the "
                "裹裹快递 mini-program"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _check_tracked(diff, params["number"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["name"], params["friend"])
        yield from ui.scroll_to(text=f"单号{params['number']}", scroll="messages")
        bubble = ui.find(text=f"单号{params['number']}")
        number = bubble.text.removeprefix("单号") if bubble else ""
        yield from track_number(ui, number)


class ParcelStatus(MessengerTemplate):
    id = "mini.parcels.status"
    category = Category.MINI_PROGRAM
    difficulty = 9
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        parcel = rng.choice(list(_mini_content(world, "parcels")["parcels"][:4]))
        return {"number": str(parcel["id"]), "status": str(parcel["status"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        number = params["number"]
        return phrased(
            zh=[f"快递{number}现在是什么状态？在微信「裹裹快递」里看看",
                f"用微信「裹裹快递」查一下快递{number}的当前状态",
                f"我的快递{number}到哪一步了？去微信「裹裹快递」看下状态"],
            en=[f"What is the status of the parcel {number}? Check the 裹裹快递 mini-program in "
                "WeChat",
                f"Use the 裹裹快递 mini-program in WeChat to check the current status of the "
                f"parcel {number}",
                f"Find out the status of the parcel {number} in WeChat's 裹裹快递 mini-program"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Text([params["status"]], others=STATUSES, what="status")

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return "运输中" if params["status"] != "运输中" else "已签收"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "parcels")
        yield ui.tap(f"parcel_{params['number']}")
        yield Answer(text=_node_text(ui, "detail_status"))


class ParcelPickupCode(MessengerTemplate):
    id = "mini.parcels.pickup_code"
    category = Category.MINI_PROGRAM
    difficulty = 11
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        waiting = [p for p in _mini_content(world, "parcels")["parcels"] if p["pickup_code"]]
        parcel = rng.choice(waiting)
        return {"number": str(parcel["id"]), "code": str(parcel["pickup_code"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        number = params["number"]
        return phrased(
            zh=[f"快递{number}到驿站了，取件码是多少？用微信「裹裹快递」查",
                f"用微信「裹裹快递」查一下快递{number}的取件码，它已经到驿站了",
                f"快递{number}在驿站等着取，帮我在微信「裹裹快递」里找到取件码"],
            en=[f"The parcel {number} is waiting at the pick-up point. What is its pick-up code? "
                "Look it up in 裹裹快递 in WeChat",
                f"Look up the pick-up code of the parcel {number} in 裹裹快递 in WeChat; it's at "
                "the pick-up point",
                f"What's the pick-up code for the parcel {number}, which has arrived at the "
                "pick-up point? Check 裹裹快递 in WeChat"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return dashed_code(params["code"])

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return params["code"][:-1] + ("0" if params["code"][-1] != "0" else "1")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "parcels")
        yield from ui.type_into("number", params["number"])
        yield ui.tap("query_submit")
        yield Answer(text=_node_text(ui, "pickup_code"))


TEMPLATES: tuple[TaskTemplate, ...] = (
    CoffeeOrder(),
    CoffeePrice(),
    ParkingPay(),
    ParkingFee(),
    ParkingAddPlate(),
    BikeRide(),
    BikeLastRide(),
    MovieTickets(),
    MovieFromCard(),
    MovieShowtimes(),
    ParcelAdd(),
    ParcelFromChat(),
    ParcelStatus(),
    ParcelPickupCode(),
)
