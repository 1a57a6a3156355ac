"""More cross-app templates of 航班管家: a colleague's mail about a flight ("delayed over 30
minutes: text someone, else follow it"), a passenger's ID number from a note added and booked
(long), a mail's booking request booked, paid and put on the Calendar (long chain), and "book it
if under a price, else note the fare"."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.calendar.tasks import fill_event, one_new_event, open_calendar
from phonebuddy.phoneworld.apps.flights.base import FLIGHTS
from phonebuddy.phoneworld.apps.flights.common import (
    CALENDAR,
    FOLLOWS,
    MAIL,
    MESSAGES,
    NOTES,
    WALLET,
    FlightsTemplate,
    bookable,
    booking_problems,
    check_new_passenger,
    choose_and_pay,
    fill_passenger,
    flight_params,
    flights,
    free_seat,
    look_up,
    new_passenger,
    open_flight,
    open_flights,
    same_day_route,
    search_route,
    start_date,
    status_of,
)
from phonebuddy.phoneworld.apps.flights.content import USER_NAME
from phonebuddy.phoneworld.apps.mail.steps import PEOPLE, add_mail, open_mail
from phonebuddy.phoneworld.apps.messages.tasks import address_book, check_one_sms, sent_messages
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Duration, Money, check_written
from phonebuddy.phoneworld.tasks.base import Params, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

DELAY_SUBJECT = "今天来开会的航班"
TRIP_SUBJECT = "出差机票请帮忙预订"
PRICE_NOTE = "机票价格"


def write_note(ui: OracleUI, title: str, body: str) -> Iterator[Action]:
    yield ui.open("备忘录")
    yield ui.tap("new_note")
    yield from ui.type_into("title", title)
    yield from ui.type_into("body", body)
    yield ui.tap("save")


def add_note(it: Interaction, title: str, body: str) -> None:
    it.app_data(NOTES)["notes"].insert(0, {"id": "note-task", "title": title, "body": body,
                                           "pinned": False})  # fmt: skip


class DelayedMail(FlightsTemplate):
    """Conditional, Mail → 航班管家 → Messages: a colleague's flight, delayed over 30 minutes →
    text the delay to a contact, otherwise follow the flight."""

    id = "flights.delayed_mail"
    category = Category.CROSS_APP
    apps = (MAIL, FLIGHTS, MESSAGES)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        flight = pick(rng, [f for f in flights(world) if f["status"]
                            and f["status"]["state"] in ("计划", "延误")])  # fmt: skip
        sender = rng.choice(PEOPLE)
        contact = pick(rng, address_book(world))
        return {"number": flight["number"], "delay": flight["status"]["delay"],
                "sender": sender[0], "address": sender[1], "contact": contact["name"],
                "phone": contact["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        body = (f"你好，我今天乘坐{params['number']}航班过来开会，落地后直接去公司。"
                "麻烦帮我留意一下航班动态。")  # fmt: skip
        add_mail(it, "flight", (params["sender"], params["address"]), DELAY_SUBJECT, body, [],
                 ago=3600)  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, c = params["sender"], params["contact"]
        return phrased(
            zh=[f"{s}邮件里说了今天坐的航班。查一下它的动态：如果延误超过30分钟，就发短信告诉{c}延误了"
                "多少分钟；否则在航班管家关注这个航班",
                f"看{s}的邮件是哪个航班，若延误超过30分钟，短信通知{c}延误时长，不然就关注该航班",
                f"根据{s}邮件中的航班号查动态：延误30分钟以上的话给{c}发短信说明延误几分钟，"
                "否则只关注这个航班"],
            en=[f"{s}'s mail names the flight they take today. Check its status: if it is delayed "
                f"by more than 30 minutes, text {c} how many minutes; otherwise follow the flight "
                "in Flights",
                f"See which flight {s} mentions by mail; if it is over 30 minutes late, SMS {c} "
                "the delay, else follow the flight",
                f"Look up the flight from {s}'s mail: delayed more than 30 minutes means texting "
                f"{c} the minutes of delay, otherwise just follow it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["delay"] <= 30:
            follow, problems = one_added(diff, FOLLOWS, "follow")
            if follow is not None and follow["id"] != params["number"]:
                problems.append(f"followed {follow['id']}, expected {params['number']}")
            return problems
        problems = check_one_sms(diff, params["phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return check_written(text, Duration(params["delay"]), what="the SMS",
                             context=self.question_texts(params))  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", DELAY_SUBJECT)
        body = " ".join(n.text for n in ui.find_all() if "航班" in n.text)
        number = body.split("乘坐")[1].split("航班")[0]
        yield from look_up(ui, number)
        _, delay, _ = status_of(ui)
        if delay <= 30:
            yield ui.tap("follow")
            return
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["contact"])
        yield from ui.type_into("body", f"航班延误{delay}分钟")
        yield ui.tap("send")


class PassengerFromNote(FlightsTemplate):
    """Long horizon, Notes → 航班管家 → wallet: an ID number from a note, the passenger added,
    a flight booked for them with insurance, paid, and checked in at a seat."""

    id = "flights.passenger_from_note"
    category = Category.CROSS_APP
    apps = (NOTES, FLIGHTS, WALLET)
    difficulty = 26

    def sample(self, world: World, rng: random.Random) -> Params:
        flight = pick(rng, bookable(world, insurance=True))
        person = new_passenger(rng)
        return {**flight_params(flight), **person, "title": f"{person['name']}的证件",
                "seat": free_seat(flight["id"], rng)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_note(it, params["title"], f"{params['name']}\n身份证号：{params['id_number']}")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        n, who, t, d, de = p["number"], p["name"], p["title"], p["day_zh"], p["day_en"]
        s = p["seat"]
        return phrased(
            zh=[f"备忘录“{t}”里有{who}的身份证号。把他加为乘机人，给他订{d}的{n}经济舱，"
                f"加购航意险，用钱包付款，再帮他值机选{s}座",
                f"用备忘录“{t}”中的身份证号添加乘机人{who}，然后预订{d}的{n}经济舱（含航空意外险）"
                f"并支付，最后在线值机，座位{s}",
                f"帮{who}买{d}{n}的经济舱机票，要买航意险；他的身份证号在备忘录“{t}”里，"
                f"先添加乘机人再下单付款，付完给他办值机，选{s}"],
            en=[f"The note '{t}' holds {who}'s ID number. Add them as a passenger, book economy on "
                f"{n} {de} with flight insurance, pay with the wallet, then check them in at seat "
                f"{s}",
                f"Add passenger {who} using the ID number in the note '{t}', then book economy on "
                f"{n} {de} (with insurance), pay, and finally check in online choosing seat {s}",
                f"Buy {who} an economy ticket on {n} {de} with flight insurance; their ID number "
                f"is in the note '{t}': add the passenger first, order and pay, then do the "
                f"check-in with seat {s}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_passenger(diff, params["name"], params["id_number"]) + booking_problems(
            diff, params["flight_id"], [params["name"]], insurance=True, seat=params["seat"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["title"])
        yield ui.tap(text=params["title"])
        name, id_line = ui.text_of("note_body").splitlines()[:2]
        yield from open_flight(ui, params)
        yield ui.tap("book_economy")
        yield from fill_passenger(ui, name, id_line.split("：")[1])
        yield from choose_and_pay(ui, [name], insurance=True)
        yield from ui.scroll_to("checkin_0")
        yield ui.tap("checkin_0")
        yield from ui.scroll_to(f"seat_{params['seat']}")
        yield ui.tap(f"seat_{params['seat']}")


class MailChain(FlightsTemplate):
    """Long chain, Mail → 航班管家 → wallet → Calendar: the earliest non-stop flight a mail asks
    for, booked for the user and paid, then its times put on the Calendar."""

    id = "flights.mail_chain"
    category = Category.CROSS_APP
    apps = (MAIL, FLIGHTS, WALLET, CALENDAR)
    difficulty = 26
    title = "出差航班"

    def sample(self, world: World, rng: random.Random) -> Params:
        pool = {f["id"] for f in bookable(world)}
        while True:
            flight = pick(rng, [f for f in flights(world) if f["day"] >= 1])
            direct = sorted((f for f in same_day_route(world, flight) if not f["stop"]),
                            key=lambda f: f["depart"])  # fmt: skip
            if direct and direct[0]["id"] in pool:
                break
        sender = rng.choice(PEOPLE)
        return {**flight_params(direct[0]), "sender": sender[0], "address": sender[1]}

    def setup(self, it: Interaction, params: Params) -> None:
        p = params
        body = (f"{USER_NAME}你好：项目需要你去一趟{p['to_zh']}。请订{p['day_zh']}从"
                f"{p['from_zh']}出发去{p['to_zh']}的最早一班直飞航班，经济舱，乘机人写你自己，"
                "费用回来报销。")  # fmt: skip
        add_mail(it, "trip", (p["sender"], p["address"]), TRIP_SUBJECT, body, [], ago=5400)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, t = params["sender"], self.title
        return phrased(
            zh=[f"按{s}邮件里的要求订好机票并用钱包付款，然后在日历里新建日程“{t}”，时间从起飞到到达",
                f"{s}发邮件让我订出差的航班：照邮件订票付款，再把这班飞机记到日历，标题“{t}”，"
                "起止时间为起飞和到达时间",
                f"先看{s}的邮件，按要求订机票（钱包支付），之后在日历加“{t}”日程，覆盖航班起飞到落地"],
            en=[f"Book the flight {s}'s mail asks for and pay with the wallet, then create the "
                f"calendar event '{t}' from take-off to arrival",
                f"{s} mailed me to book a business-trip flight: book and pay as the mail says, "
                f"then put the flight on my calendar as '{t}', from departure to arrival",
                f"Read {s}'s mail, book the ticket it asks for (paying in the wallet), then add "
                f"the event '{t}' to my calendar covering take-off to landing"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        event = {"title": self.title, "date": start_date(diff, params["day"]),
                 "start": params["depart"], "end": params["arrive"]}  # fmt: skip
        return booking_problems(diff, params["flight_id"], [USER_NAME]) + one_new_event(diff, event)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", TRIP_SUBJECT)
        yield from open_flights(ui)
        yield from search_route(ui, params)
        yield ui.tap("filter_direct")
        prefix = f"{ui.package}:id/flight_"
        first = next(n for n in ui.device.ui_tree().walk() if n.resource_id.startswith(prefix))
        yield ui.tap(first.resource_id)
        date = ui.text_of("date").split()[0]
        start, end = ui.text_of("depart").split()[0], ui.text_of("arrive").split()[0]
        yield ui.tap("book_economy")
        yield from choose_and_pay(ui, [USER_NAME])
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, {"title": self.title, "date": date, "start": start, "end": end})


class CheapOrNote(FlightsTemplate):
    """Conditional: under the price → book it and pay; otherwise note the fare in Notes."""

    id = "flights.cheap_or_note"
    category = Category.CROSS_APP
    apps = (FLIGHTS, WALLET, NOTES)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        flight = pick(rng, bookable(world))
        fare = flight["prices"]["economy"] // 100
        limit = fare + rng.choice((-1, 1)) * rng.choice((50, 80, 100))
        return {**flight_params(flight), "fare": fare, "limit": limit}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        n, lim, d, de, t = p["number"], p["limit"], p["day_zh"], p["day_en"], PRICE_NOTE
        return phrased(
            zh=[f"看看{d}{n}的经济舱票价：低于{lim}元就给我订一张并付款，否则新建备忘录“{t}”写下票价",
                f"如果{d}的{n}经济舱比{lim}元便宜，帮我订票并用钱包支付；不然就把票价记到新备忘录“{t}”",
                f"{d}{n}经济舱要是不到{lim}元就订（乘机人是我），否则建个备忘录“{t}”记下价格"],
            en=[f"Check the economy fare of {n} {de}: under {lim} yuan, book me a ticket and pay; "
                f"otherwise create a note '{t}' with the fare",
                f"If economy on {n} {de} costs less than {lim} yuan, book it for me and pay with "
                f"the wallet; if not, write the fare in a new note '{t}'",
                f"Book {n} {de} in economy for me if it's below {lim} yuan, else make a note '{t}' "
                "recording the price"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["fare"] < params["limit"]:
            return booking_problems(diff, params["flight_id"], [USER_NAME])
        note, problems = one_new_note(diff, PRICE_NOTE)
        if note is not None:
            problems += check_written(note["body"], Money(params["fare"]), what="the note",
                                      context=self.question_texts(params))  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_flight(ui, params)
        fare = int(next(t for t in ui.texts_in("cabin_economy") if t.startswith("¥"))[1:])
        if fare < params["limit"]:
            yield ui.tap("book_economy")
            yield from choose_and_pay(ui, [USER_NAME])
        else:
            yield from write_note(ui, PRICE_NOTE, f"经济舱票价{fare}元")
