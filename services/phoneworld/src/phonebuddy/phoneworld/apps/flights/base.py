"""What 航班管家's screens share: constants, dates, fares and refund fees, seat maps, look-ups,
and the handlers of booking, paying, check-in, refunds, passengers and follows."""

from __future__ import annotations

import datetime as dt
import random
import zlib
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View
from phonebuddy.phoneworld.apps.flights import content
from phonebuddy.phoneworld.apps.flights.content import (
    ACCOUNT_PHONE,
    AIRPORTS,
    CABINS,
    FEE_CENTS,
    INSURANCE_CENTS,
    valid_id,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.format import local_date, minute_of_day, yuan_short
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

FLIGHTS = "com.pw.flights"
SKY: Color = (0, 122, 204)
ORANGE: Color = (255, 110, 20)
RED: Color = (220, 50, 50)
GREEN: Color = (30, 150, 80)
GREY: Color = (170, 170, 170)
WEEKDAYS = "一二三四五六日"
CABIN_NAME = dict(CABINS)
AIRPORT_NAME = {code: f"{city}{airport}" for city, airport, code in AIRPORTS}
CITY_OF = {code: city for city, _, code in AIRPORTS}
SEAT_ROWS = range(31, 39)
SEAT_LETTERS = "ABCDEF"
SORTS = (("depart", "起飞最早"), ("price", "价格最低"), ("duration", "耗时最短"))
PAID, UNPAID, CHECKED, REFUNDED = "已出票", "待支付", "已值机", "已退票"


def date_label(day: int, clock: int) -> str:
    """'3月18日 周三', with 今天/明天/后天 for the first three days."""
    date = local_date(clock) + dt.timedelta(days=day)
    relative = {0: "今天", 1: "明天", 2: "后天"}.get(day, f"周{WEEKDAYS[date.weekday()]}")
    return f"{date.month}月{date.day}日 {relative}"


def iso_date(day: int, clock: int) -> str:
    return (local_date(clock) + dt.timedelta(days=day)).isoformat()


def minutes(text: str) -> int:
    return int(text[:2]) * 60 + int(text[3:])


def duration_text(total: int) -> str:
    return f"{total // 60}小时{total % 60}分"


def per_person_cents(flight: Any, cabin: str, insurance: bool) -> int:
    return flight["prices"][cabin] + FEE_CENTS + (INSURANCE_CENTS if insurance else 0)


def hours_before(flight: Any, clock: int) -> float:
    return (flight["day"] * 1440 + minutes(flight["depart"]) - minute_of_day(clock)) / 60


def refund_rate(hours: float) -> int:
    """The share of the fare kept on a refund, in percent: the earlier, the cheaper."""
    if hours >= 72:
        return 10
    if hours >= 24:
        return 20
    if hours >= 4:
        return 30
    return 50


def refund_fee_cents(fare_cents: int, hours: float) -> int:
    return fare_cents * refund_rate(hours) // 100


def seat_taken(flight_id: str, seat: str) -> bool:
    """About a third of the seats are taken by other travellers (fixed per flight)."""
    return zlib.crc32(f"{flight_id}/{seat}".encode()) % 3 == 0


def live(flight: Any, data: Any) -> Any:
    """A flight as this phone last loaded it: the shared one with the fields this device's
    `live` update replaces (today's status, today's fares), if any."""
    update = data.get("live", {}).get(flight["id"])
    return flight if update is None else {**flight, **update}


def delayed_arrival(flight: Any) -> str:
    return content.hhmm(minutes(flight["arrive"]) + (flight["status"] or {}).get("delay", 0))


def status_text(flight: Any) -> str:
    status = flight["status"]
    if status is None:
        return "计划"
    if status["state"] == "延误":
        return f"延误 {status['delay']} 分钟"
    return str(status["state"])


class FlightsBase(App):
    package = FLIGHTS
    label = Label(zh="航班管家", en="Flights")
    domain = "flights"
    theme = AppTheme(primary=SKY)
    icon_text = "航"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "passengers": [clone(p) for p in content["passengers"]],
            "bookings": [clone(b) for b in content["bookings"]],
            "follows": [],
        }

    # -- look-ups ---------------------------------------------------------------------------
    @staticmethod
    def flight(v: View | Interaction, flight_id: str) -> Any:
        return live(next(f for f in v.content["flights"] if f["id"] == flight_id), v.data)

    @staticmethod
    def today(v: View | Interaction, number: str) -> Any | None:
        number = number.strip().upper()
        found = next((f for f in v.content["flights"] if f["day"] == 0 and f["number"] == number),
                     None)  # fmt: skip
        return None if found is None else live(found, v.data)

    @staticmethod
    def booking(data: dict[str, Any], booking_id: str) -> dict[str, Any]:
        return next(b for b in data["bookings"] if b["id"] == booking_id)

    @staticmethod
    def seats_left(v: View | Interaction, flight: Any, cabin: str) -> int:
        booked = sum(len(b["passengers"]) for b in v.data["bookings"]
                     if b["flight_id"] == flight["id"] and b["cabin"] == cabin
                     and b["status"] != REFUNDED)  # fmt: skip
        return max(0, flight["seats"][cabin] - booked)

    @staticmethod
    def departed(flight: Any, clock: int) -> bool:
        return flight["day"] == 0 and minutes(flight["depart"]) <= minute_of_day(clock)

    # -- handlers: search -------------------------------------------------------------------
    @staticmethod
    def choose_city(it: Interaction, target: str, code: str) -> None:
        it.pop()
        it.set_ui(target, code)

    @staticmethod
    def swap(it: Interaction) -> None:
        origin, dest = it.ui("from", "PEK"), it.ui("to", "SHA")
        it.set_ui("from", dest)
        it.set_ui("to", origin)

    @staticmethod
    def search(it: Interaction) -> None:
        origin, dest = it.ui("from", "PEK"), it.ui("to", "SHA")
        if origin == dest:
            it.toast("出发地和目的地不能相同")
            it.no_op("same origin and destination")
        it.push("results", origin=origin, dest=dest, day=int(it.ui("day", 0)))

    @staticmethod
    def shift_day(it: Interaction, day: int) -> None:
        params = it.entry["params"]
        if params["day"] == day:
            it.no_op("that day is shown")
        it.replace("results", origin=params["origin"], dest=params["dest"], day=day)

    def start_booking(self, it: Interaction, flight_id: str, cabin: str) -> None:
        flight = self.flight(it, flight_id)
        if self.departed(flight, it.clock):
            it.toast("该航班已起飞，无法预订")
            it.no_op("the flight has left")
        if self.seats_left(it, flight, cabin) == 0:
            it.toast(f"{CABIN_NAME[cabin]}已售罄")
            it.no_op(f"{cabin} is sold out")
        it.push("book", flight_id=flight_id, cabin=cabin)

    # -- handlers: booking ------------------------------------------------------------------
    @staticmethod
    def toggle_passenger(it: Interaction, passenger_id: str) -> None:
        chosen = list(it.ui("chosen", []))
        if passenger_id in chosen:
            chosen.remove(passenger_id)
        else:
            chosen.append(passenger_id)
        it.set_ui("chosen", chosen)

    @staticmethod
    def save_passenger(it: Interaction) -> None:
        name, number = it.field("pax_name").strip(), it.field("pax_id").strip().upper()
        if not name:
            it.toast("请输入乘机人姓名")
            it.no_op("no name")
        if not valid_id(number):
            it.toast("身份证号码有误，请核对")
            it.no_op(f"bad ID number {number!r}")
        if any(p["id_number"] == number for p in it.data["passengers"]):
            it.toast("该乘机人已存在")
            it.no_op("the passenger exists")
        it.data["passengers"].append({"id": it.new_id("pax"), "name": name, "id_number": number})
        it.pop()
        it.toast("已添加乘机人")

    def ask_submit(self, it: Interaction, flight_id: str, cabin: str) -> None:
        chosen = it.ui("chosen", [])
        phone = it.field("contact").strip()
        if not chosen:
            it.toast("请选择乘机人")
            it.no_op("no passenger")
        if phone and not (len(phone) == 11 and phone.isdigit() and phone[0] == "1"):
            it.toast("请输入正确的手机号")
            it.no_op(f"bad phone {phone!r}")
        if len(chosen) > self.seats_left(it, self.flight(it, flight_id), cabin):
            it.toast("余票不足")
            it.no_op("not enough seats")
        it.set_ui("dialog", "pay")

    def submit(self, it: Interaction, flight_id: str, cabin: str) -> None:
        flight = self.flight(it, flight_id)
        insurance = bool(it.ui("insurance", False))
        people = [p for p in it.data["passengers"] if p["id"] in it.ui("chosen", [])]
        total = per_person_cents(flight, cabin, insurance) * len(people)
        booking = {
            "id": it.new_id("bk"), "flight_id": flight_id, "number": flight["number"],
            "cabin": cabin, "contact": it.field("contact").strip() or ACCOUNT_PHONE,
            "insurance": insurance,
            "passengers": [{"name": p["name"], "id_number": p["id_number"], "seat": None}
                           for p in people],
            "fare_cents": flight["prices"][cabin] * len(people), "total_cents": total,
            "status": UNPAID, "created_at": it.clock,
        }  # fmt: skip
        it.data["bookings"].append(booking)
        it.set_ui("dialog", None)
        self.request_pay(it, booking)

    def request_pay(self, it: Interaction, booking: dict[str, Any]) -> None:
        flight = self.flight(it, booking["flight_id"])
        it.request_payment(
            amount_cents=booking["total_cents"],
            merchant="航班管家",
            reference=booking["id"],
            description=f"{flight['number']} {CITY_OF[flight['from']]}-{CITY_OF[flight['to']]} "
            f"{len(booking['passengers'])}人",
        )

    def pay_booking(self, it: Interaction, booking_id: str) -> None:
        booking = self.booking(it.data, booking_id)
        if booking["status"] != UNPAID:
            it.no_op("nothing to pay")
        self.request_pay(it, booking)

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        booking = next((b for b in it.data["bookings"] if b["id"] == reference), None)
        if booking is None:
            return
        if paid:
            booking["status"] = PAID
            booking["paid_at"] = it.clock
            it.toast(f"支付成功，已出票 {yuan_short(booking['total_cents'])}")
        it.reset_to("home", tab="trips")
        it.push("trip", booking_id=booking["id"])

    # -- handlers: trips --------------------------------------------------------------------
    def check_in(self, it: Interaction, booking_id: str, index: int, seat: str) -> None:
        booking = self.booking(it.data, booking_id)
        passenger = booking["passengers"][index]
        if booking["status"] not in (PAID, CHECKED) or passenger["seat"]:
            it.no_op("cannot check in")
        others = {p["seat"] for p in booking["passengers"]}
        if seat_taken(booking["flight_id"], seat) or seat in others:
            it.toast("该座位已被占用，请选择其他座位")
            it.no_op(f"seat {seat} is taken")
        passenger["seat"] = seat
        if all(p["seat"] for p in booking["passengers"]):
            booking["status"] = CHECKED
        it.pop()
        it.toast(f"值机成功，座位 {seat}")

    def cancel(self, it: Interaction, booking_id: str) -> None:
        booking = self.booking(it.data, booking_id)
        it.set_ui("dialog", None)
        flight = self.flight(it, booking["flight_id"])
        if booking["status"] not in (PAID, CHECKED) or self.departed(flight, it.clock):
            it.no_op("cannot refund")
        fee = refund_fee_cents(booking["fare_cents"], hours_before(flight, it.clock))
        booking.update(status=REFUNDED, refund_fee_cents=fee,
                       refund_cents=booking["total_cents"] - fee, refunded_at=it.clock)  # fmt: skip
        it.toast("退票成功，退款将原路返回")

    def share_trip(self, it: Interaction, booking_id: str) -> None:
        it.share({"kind": "text", "text": self.itinerary(it, self.booking(it.data, booking_id))})

    def itinerary(self, v: View | Interaction, booking: dict[str, Any]) -> str:
        flight = self.flight(v, booking["flight_id"])
        names = "、".join(p["name"] for p in booking["passengers"])
        day = date_label(flight["day"], int(v.os["clock"])).split()[0]
        return (f"【航班行程】{flight['number']} {day} {flight['depart']}"
                f"{AIRPORT_NAME[flight['from']]}起飞，{flight['arrive']}到达"
                f"{AIRPORT_NAME[flight['to']]}，{CABIN_NAME[booking['cabin']]}，"
                f"乘机人：{names}")  # fmt: skip

    # -- handlers: status -------------------------------------------------------------------
    def look_up(self, it: Interaction) -> None:
        query = it.field("query").strip().upper()
        if not query:
            it.toast("请输入航班号")
            it.no_op("empty query")
        if self.today(it, query) is None:
            it.toast(f"未找到今日航班 {query}")
            it.no_op(f"no flight {query}")
        it.push("status", number=query)

    def toggle_follow(self, it: Interaction, number: str) -> None:
        follows = it.data["follows"]
        if any(f["id"] == number for f in follows):
            it.data["follows"] = [f for f in follows if f["id"] != number]
            it.toast("已取消关注")
        else:
            follows.append({"id": number, "time": it.clock})
            it.toast("已关注，航班动态将及时通知您")
