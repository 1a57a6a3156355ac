"""Templates of 电影票 (tickets, a card from a chat, showtimes) and 裹裹快递 (add, from a chat,
status, pick-up code)."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import find
from phonebuddy.phoneworld.apps.messenger.miniprograms.parcels import STATUSES, task_parcel
from phonebuddy.phoneworld.apps.messenger.miniprograms.task_steps import (
    PAYING,
    TIME,
    mini_content,
    node_text,
    row_texts,
)
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSENGER,
    PAY_CONFIRM,
    MessengerTemplate,
    facts,
    friend_by_id,
    mini,
    open_mini,
    open_private_chat,
    shown_name,
)
from phonebuddy.phoneworld.apps.messenger.timeline import hhmm, seeded_time
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    ClockTime,
    ClockTimes,
    Expectation,
    Text,
    Together,
    clock,
    dashed_code,
)
from phonebuddy.phoneworld.tasks.base import Params, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction


def _seats_for(showtime: Any, rng: random.Random) -> list[str]:
    """Two free seats side by side in the middle rows."""
    sold = set(showtime["sold"])
    pairs = [(f"{r}排{c}座", f"{r}排{c + 1}座") for r in range(3, 8) for c in range(2, 9)]
    free = [p for p in pairs if not sold & set(p)]
    return list(rng.choice(free))


def _ticket_params(world: World, showtime: Any, rng: random.Random) -> Params:
    movies = mini_content(world, "movies")
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
        showtime = rng.choice(list(mini_content(world, "movies")["showtimes"]))
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
        movies = mini_content(world, "movies")
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
        movies = mini_content(world, "movies")
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
        times = [t for n in shows for t in row_texts(ui, n.resource_id) if TIME.match(t)]
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
        parcel = rng.choice(list(mini_content(world, "parcels")["parcels"][7:]))
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


def _own_parcel(world: World, rng: random.Random, status: str) -> Params:
    taken = {p["id"] for p in mini_content(world, "parcels")["parcels"]}
    parcel = task_parcel(rng, status, taken)
    return {"number": str(parcel["id"]), "parcel": parcel}


def _add_record(it: Interaction, params: Params, *, tracked: bool) -> None:
    data = it.for_app(MESSENGER).data["mini"]["parcels"]
    data["records"] = [copy.deepcopy(params["parcel"]), *data.get("records", ())]
    if tracked:
        entry = {"id": "tr-task", "number": params["number"], "remark": params["parcel"]["item"]}
        data["tracked"].insert(0, entry)


def _record(diff: StateDiff, number: str) -> Any:
    return find(diff.value_before(mini("parcels", "records")), number)


class ParcelStatus(MessengerTemplate):
    """The status of a tracked parcel and when its last update came (this task's own parcel,
    a seeded status and time)."""

    id = "mini.parcels.status"
    category = Category.MINI_PROGRAM
    difficulty = 9
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        status = rng.choice(STATUSES)
        params = _own_parcel(world, rng, status)
        return {**params, "status": status}

    def setup(self, it: Interaction, params: Params) -> None:
        _add_record(it, params, tracked=True)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        number = params["number"]
        return phrased(
            zh=[f"快递{number}现在是什么状态？最新一条物流是几点更新的？在微信「裹裹快递」里看看",
                f"用微信「裹裹快递」查一下快递{number}的当前状态，以及最近一次更新的时间",
                f"我的快递{number}到哪一步了？最新物流是几点的？去微信「裹裹快递」看下"],
            en=[f"What is the status of the parcel {number}, and at what time was its latest "
                "update? Check the 裹裹快递 mini-program in WeChat",
                f"Use the 裹裹快递 mini-program in WeChat to check the current status of the "
                f"parcel {number} and the time of its latest update",
                f"Find out the status of the parcel {number} in WeChat's 裹裹快递 mini-program, "
                "and when (what time) it was last updated"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        parcel = _record(diff, params["number"])
        last = seeded_time(parcel["events"][-1]["ago"], diff.before["os"]["clock"])
        return Together(Text([parcel["status"]], others=STATUSES, what="status"),
                        ClockTime(*clock(hhmm(last))))  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return "运输中" if params["status"] != "运输中" else "已签收"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "parcels")
        yield ui.tap(f"parcel_{params['number']}")
        latest = node_text(ui, "event_0").split("\n")[0]
        yield Answer(text=f"{node_text(ui, 'detail_status')}，最新更新 {latest}")


class ParcelPickupCode(MessengerTemplate):
    """The pick-up code of a parcel waiting at the pick-up point (this task's own parcel and
    code)."""

    id = "mini.parcels.pickup_code"
    category = Category.MINI_PROGRAM
    difficulty = 11
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _own_parcel(world, rng, "待取件")
        return {**params, "code": str(params["parcel"]["pickup_code"])}

    def setup(self, it: Interaction, params: Params) -> None:
        _add_record(it, params, tracked=False)

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
        return dashed_code(_record(diff, params["number"])["pickup_code"])

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return params["code"][:-1] + ("0" if params["code"][-1] != "0" else "1")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "parcels")
        yield from ui.type_into("number", params["number"])
        yield ui.tap("query_submit")
        yield Answer(text=node_text(ui, "pickup_code"))
