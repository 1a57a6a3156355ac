"""What the Travel app's screens share: dates and durations, train timetables, seats and
availability, refund fees, order states, passengers' ID numbers, and the look-ups of trains and
orders.
"""

from __future__ import annotations

import datetime as dt
import random
import zlib
from collections.abc import Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, View
from phonebuddy.phoneworld.apps.travel.content import route_key, seats_left
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui.format import BEIJING, local_date, minute_of_day
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import Chip, Widget, Wrap

TRAVEL_PACKAGE = "com.pw.travel"
BLUE: Color = (27, 110, 214)
PALE_BLUE: Color = (228, 239, 252)
PRICE_ORANGE: Color = (255, 102, 0)
SOLD_OUT: Color = (189, 189, 189)
BOOKING_DAYS = 14
MAX_NIGHTS = 7
WEEKDAYS = "一二三四五六日"
PASSENGER_NAMES = ("张伟", "王芳", "李娜", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴婷")
KINDS = ("成人", "学生")
SORTS = (("depart", "出发最早"), ("duration", "耗时最短"), ("price", "价格最低"))


# -- dates and money ---------------------------------------------------------------------------
def travel_date(clock: int, days_ahead: int) -> str:
    return (local_date(clock) + dt.timedelta(days=days_ahead)).isoformat()


def date_label(iso: str, clock: int | None = None) -> str:
    """'3月18日 周三', or '3月18日 明天' when `clock` says tomorrow."""
    day = dt.date.fromisoformat(iso)
    relative = ""
    if clock is not None:
        relative = {0: "今天", 1: "明天", 2: "后天"}.get((day - local_date(clock)).days, "")
    return f"{day.month}月{day.day}日 {relative or '周' + WEEKDAYS[day.weekday()]}"


def departure_epoch(iso: str, hhmm: str) -> int:
    day = dt.date.fromisoformat(iso)
    hours, minutes = map(int, hhmm.split(":"))
    return int(
        dt.datetime(day.year, day.month, day.day, hours, minutes, tzinfo=BEIJING).timestamp()
    )


def duration_text(minutes: int) -> str:
    return f"{minutes // 60}时{minutes % 60:02d}分"


def refund_fee_cents(total_cents: int, hours_before: float) -> int:
    """12306's rule: free 8+ days ahead, then 5% / 10% / 20%, rounded to half a yuan."""
    if hours_before >= 8 * 24:
        rate = 0.0
    elif hours_before >= 48:
        rate = 0.05
    elif hours_before >= 24:
        rate = 0.10
    else:
        rate = 0.20
    return round(total_cents * rate / 50) * 50


# -- trains ------------------------------------------------------------------------------------
def trains_between(content: Any, origin: str, destination: str) -> Sequence[Any]:
    return content["routes"].get(route_key(origin, destination), ())


def departed(train: Any, clock: int, days_ahead: int) -> bool:
    return days_ahead == 0 and minute_of_day(clock) >= _minutes(train["depart"])


def availability(train: Any, seat_key: str, days_ahead: int) -> int | None:
    """Tickets left for a seat class on a day; None when the train has no such seats."""
    if train["prices"][seat_key] is None:
        return None
    return seats_left(train["number"], seat_key, days_ahead)


def availability_text(left: int | None) -> str:
    if left is None:
        return "--"
    if left == 0:
        return "无"
    return "有" if left >= 20 else f"{left}张"


def seat_numbers(order_id: str, seat_key: str, count: int) -> list[str]:
    """Carriage and seat for each passenger, side by side as 12306 assigns them."""
    crc = zlib.crc32(order_id.encode())
    letters = {"second": "ABCDF", "first": "ACDF", "business": "ACF"}[seat_key]
    carriage = {"business": 1, "first": 2 + crc % 2}.get(seat_key, 4 + crc % 12)
    row, start = 1 + crc // 16 % 17, crc // 7 % len(letters)
    places = [divmod(start + i, len(letters)) for i in range(count)]
    return [f"{carriage:02d}车{row + extra:02d}{letters[col]}号" for extra, col in places]


def _minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def train_sort_key(train: Any, sort: str) -> Any:
    if sort == "duration":
        return (train["minutes"], train["depart"])
    if sort == "price":
        return (train["prices"]["second"], train["depart"])
    return train["depart"]


def train_order_status(order: Any, clock: int) -> str:
    if order["status"] == "unpaid":
        return "待支付"
    if order["status"] == "refunded":
        return "已退票"
    gone = departure_epoch(order["date"], order["depart"]) <= clock
    return "已出行" if gone else "待出行"


def hotel_order_status(order: Any, clock: int) -> str:
    if order["status"] == "unpaid":
        return "待支付"
    return "已离店" if local_date(clock).isoformat() >= order["checkout"] else "待入住"


class TravelBase(App):
    # -- lookups ------------------------------------------------------------------------------
    @staticmethod
    def find_train(content: Any, origin: str, destination: str, number: str) -> Any:
        return next(
            (t for t in trains_between(content, origin, destination) if t["number"] == number),
            None,
        )

    @staticmethod
    def find_order(it: Interaction, order_id: str) -> dict[str, Any]:
        order = next((o for o in it.data["orders"] if o["id"] == order_id), None)
        if order is None:
            it.no_op(f"no order {order_id}")
        return order  # type: ignore[return-value]

    def _date_chips(self, v: View, key: str, prefix: str) -> Widget:
        clock = int(v.os["clock"])
        chosen = int(v.ui(key, 0))
        chips = []
        for days in range(BOOKING_DAYS):
            label = date_label(travel_date(clock, days), clock)
            chips.append(
                Chip(label, v.set_ui(key, days), selected=days == chosen, id=f"{prefix}_{days}")
            )
        return Wrap(chips, spacing=16, id=f"{prefix}s")


def id_number(rng: random.Random) -> str:
    region = rng.choice(("110105", "310104", "440106", "330106", "420106", "510107"))
    birthday = f"{rng.randrange(1965, 2004)}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}"
    return (
        region
        + birthday
        + "".join(str(rng.randrange(10)) for _ in range(3))
        + rng.choice("0123456789X")
    )


def mask_id(number: str) -> str:
    return number[:4] + "*" * 10 + number[-4:]


def hours_until(order: Any, clock: int) -> float:
    return (departure_epoch(order["date"], order["depart"]) - clock) / 3600


def new_train_order(
    order_id: str,
    train: Any,
    seat_key: str,
    date: str,
    passengers: Sequence[Any],
    created_at: int,
) -> dict[str, Any]:
    price = int(train["prices"][seat_key])
    return {
        "id": order_id,
        "kind": "train",
        "train": train["number"],
        "from": train["from"],
        "to": train["to"],
        "from_station": train["from_station"],
        "to_station": train["to_station"],
        "date": date,
        "depart": train["depart"],
        "arrive": train["arrive"],
        "seat": seat_key,
        "passengers": [{"id": p["id"], "name": p["name"]} for p in passengers],
        "seats": seat_numbers(order_id, seat_key, len(passengers)),
        "price_cents": price,
        "total_cents": price * len(passengers),
        "status": "unpaid",
        "created_at": created_at,
        "paid_at": None,
    }
