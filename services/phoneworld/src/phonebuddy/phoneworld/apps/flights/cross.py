"""Cross-app templates of 航班管家: a flight booked and paid in the wallet, a friend's SMS about a
flight answered with its gate, a booked flight put on the Calendar, and an itinerary shared to a
WeChat friend."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.calendar.tasks import fill_event, one_new_event, open_calendar
from phonebuddy.phoneworld.apps.flights.base import AIRPORT_NAME, CABIN_NAME, FLIGHTS, date_label
from phonebuddy.phoneworld.apps.flights.common import (
    CALENDAR,
    MESSAGES,
    MESSENGER,
    WALLET,
    FlightsTemplate,
    bookable,
    booking_problems,
    choose_and_pay,
    flight_by_id,
    flight_params,
    flights,
    look_up,
    open_flight,
    open_trip,
    seeded_bookings,
    start_date,
    status_of,
)
from phonebuddy.phoneworld.apps.flights.content import PASSENGERS
from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
    write_in_conversation,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    friend_with_chat,
    sent_to_friend,
    share_sheet_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction


class BookAndPay(FlightsTemplate):
    """航班管家 → the wallet's payment screen: a flight booked for a frequent passenger."""

    id = "flights.book_and_pay"
    category = Category.CROSS_APP
    apps = (FLIGHTS, WALLET)
    difficulty = 13

    def sample(self, world: World, rng: random.Random) -> Params:
        flight = pick(rng, bookable(world))
        return {**flight_params(flight), "passenger": rng.choice(PASSENGERS)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        n, who, d, de = p["number"], p["passenger"], p["day_zh"], p["day_en"]
        a, b, ae, be = p["from_zh"], p["to_zh"], p["from_en"], p["to_en"]
        return phrased(
            zh=[f"帮{who}订一张{d}{a}飞{b}的{n}经济舱机票，用钱包付款",
                f"在航班管家给乘机人{who}预订{d}的{n}（{a}→{b}）经济舱，并完成支付",
                f"{who}要{d}从{a}去{b}，订{n}经济舱，付好钱"],
            en=[f"Book an economy ticket on {n} from {ae} to {be} {de} for {who} and pay with "
                "the wallet",
                f"In Flights, book economy on {n} ({ae} to {be}) {de} for passenger {who}, and "
                "pay",
                f"{who} flies from {ae} to {be} {de}: book {n} in economy and pay for it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return booking_problems(diff, params["flight_id"], [params["passenger"]])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_flight(ui, params)
        yield ui.tap("book_economy")
        yield from choose_and_pay(ui, [params["passenger"]])


def gate_sms(number: str) -> str:
    return f"我今天坐{number}航班，你帮我查一下在哪个登机口登机？谢谢！"


class GateBySms(FlightsTemplate):
    """Messages → 航班管家 → Messages: the gate of the flight a friend texts about, replied."""

    id = "flights.gate_by_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, FLIGHTS)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        flight = pick(rng, [f for f in flights(world) if f["status"]
                            and f["status"]["state"] in ("计划", "延误")])  # fmt: skip
        friend = pick(rng, address_book(world))
        return {"number": flight["number"], "gate": flight["status"]["gate"],
                "friend": friend["name"], "phone": friend["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["friend"]), gate_sms(params["number"]),
                     ago=900, key="gate")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f = params["friend"]
        return phrased(
            zh=[f"{f}发短信问他的航班在哪个登机口，帮我查好后短信回复他",
                f"看看{f}短信里说的航班，在航班管家查出登机口，再回短信告诉他",
                f"{f}想知道他今天航班的登机口：查一下并用短信回复"],
            en=[f"{f} texted asking for his flight's gate; look it up and reply by SMS",
                f"Check the flight {f} mentions in his SMS, find its gate in Flights and text "
                "him back",
                f"{f} wants to know his gate today: look it up and answer him by SMS"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        if not re.search(rf"(?<![A-Z\d]){params['gate']}(?!\d)", text.upper()):
            problems.append(f"the SMS {text!r} does not name gate {params['gate']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["friend"])
        if ui.find(text=gate_sms(params["number"])) is None:
            raise OracleError("the question is not in the thread")
        yield from look_up(ui, params["number"])
        _, _, gate = status_of(ui)
        yield ui.open("信息")
        if not ui.visible("reply"):
            yield from open_thread(ui, params["friend"])
        yield from write_in_conversation(ui, f"{params['number']}在{gate}登机口登机")


class CalendarEvent(FlightsTemplate):
    """航班管家 → Calendar: a booked flight's day, take-off and landing as an event."""

    id = "flights.calendar_event"
    category = Category.CROSS_APP
    apps = (FLIGHTS, CALENDAR)
    difficulty = 16

    def sample(self, world: World, rng: random.Random) -> Params:
        booking = pick(rng, seeded_bookings(world))
        flight = flight_by_id(world, booking["flight_id"])
        return {**flight_params(flight), "booking_id": booking["id"],
                "title": f"航班 {flight['number']}", "start": flight["depart"],
                "end": flight["arrive"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, t, d, de = params["number"], params["title"], params["day_zh"], params["day_en"]
        return phrased(
            zh=[f"把我{d}的{n}航班加到日历：标题“{t}”，从起飞时间到到达时间",
                f"在日历新建日程“{t}”，日期和时间按航班管家里我{d}的{n}行程（起飞到落地）",
                f"我{d}要坐{n}，帮我在日历里记一个“{t}”，开始是起飞时间，结束是到达时间"],
            en=[f"Put my flight {n} {de} on the calendar: title '{t}', from take-off to landing",
                f"Create the calendar event '{t}' with the date and times of my {n} trip {de} in "
                "Flights (take-off to landing)",
                f"I'm flying {n} {de}: add '{t}' to my calendar, starting at take-off and ending "
                "at arrival"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return one_new_event(diff, {"title": params["title"], "start": params["start"],
                                    "end": params["end"],
                                    "date": start_date(diff, params["day"])})  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_trip(ui, params["booking_id"])
        date = ui.text_of("trip_date").split()[0]
        start = ui.text_of("trip_depart").split()[0]
        end = ui.text_of("trip_arrive").split()[0]
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, {"title": params["title"], "date": date, "start": start,
                                   "end": end})  # fmt: skip


class ShareToWechat(FlightsTemplate):
    """航班管家 → the share sheet → WeChat: a trip's itinerary sent to a friend."""

    id = "flights.share_wechat"
    category = Category.CROSS_APP
    apps = (FLIGHTS, MESSENGER)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        booking = pick(rng, seeded_bookings(world))
        return {**flight_params(flight_by_id(world, booking["flight_id"])),
                "booking_id": booking["id"], **friend_with_chat(world, rng)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, f, d, de = params["number"], params["friend"], params["day_zh"], params["day_en"]
        return phrased(
            zh=[f"把我{d}{n}航班的行程分享到微信发给{f}",
                f"用航班管家的分享，把{d}的{n}行程发给微信好友{f}",
                f"{f}想知道我{d}坐哪班飞机，把{n}的行程通过微信分享给他"],
            en=[f"Share my itinerary for flight {n} {de} with {f} on WeChat",
                f"Use Flights' share to send my {n} trip {de} to my WeChat friend {f}",
                f"{f} wants to know which flight I take {de}: share the {n} itinerary with them "
                "via WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        sent, problems = sent_to_friend(diff, params)
        label = date_label(params["day"], int(diff.value_before("os/clock"))).split()[0]
        text = itinerary_from(diff, params, label)
        if sent and sent.count(text) != 1:
            problems.append(f"sent {sent}, not the itinerary once")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_trip(ui, params["booking_id"])
        yield from ui.scroll_to("share")
        yield ui.tap("share")
        yield from share_sheet_to_friend(ui, params["friend_id"])


def itinerary_from(diff: StateDiff, params: Params, day_label: str) -> str:
    booking = diff.value_before(f"apps/{FLIGHTS}/bookings[{params['booking_id']}]")
    names = "、".join(p["name"] for p in booking["passengers"])
    p = params
    return (f"【航班行程】{p['number']} {day_label} {p['depart']}{AIRPORT_NAME[p['from']]}起飞，"
            f"{p['arrive']}到达{AIRPORT_NAME[p['to']]}，{CABIN_NAME[booking['cabin']]}，"
            f"乘机人：{names}")  # fmt: skip
