"""The seeded content of 航班管家: airports, the daily schedule of flights for the next seven days
(fares, seats left, on-time rates), today's flight status, the frequent passengers and the
bookings a fresh phone already holds."""

from __future__ import annotations

import random
from typing import Any

# (city, airport, code)
AIRPORTS = (
    ("北京", "首都", "PEK"), ("上海", "虹桥", "SHA"), ("广州", "白云", "CAN"),
    ("成都", "天府", "TFU"), ("深圳", "宝安", "SZX"), ("杭州", "萧山", "HGH"),
    ("西安", "咸阳", "XIY"), ("重庆", "江北", "CKG"), ("昆明", "长水", "KMG"),
    ("武汉", "天河", "WUH"), ("厦门", "高崎", "XMN"), ("三亚", "凤凰", "SYX"),
)  # fmt: skip
AIRLINES = (
    ("CA", "中国国航"), ("MU", "东方航空"), ("CZ", "南方航空"),
    ("HU", "海南航空"), ("ZH", "深圳航空"), ("MF", "厦门航空"),
)  # fmt: skip
AIRCRAFT = ("空客A320", "空客A321", "空客A330", "波音737", "波音787", "C919")
# (from, to, minutes of flying, daily flights each way, cheapest economy fare in yuan)
ROUTES = (
    ("PEK", "SHA", 135, 5, 420), ("PEK", "CAN", 190, 2, 560), ("SHA", "TFU", 180, 2, 530),
    ("PEK", "TFU", 170, 1, 540), ("SHA", "SZX", 150, 2, 450), ("PEK", "XIY", 125, 1, 380),
    ("HGH", "CKG", 160, 1, 430), ("CAN", "KMG", 135, 1, 390), ("WUH", "XMN", 105, 1, 330),
    ("PEK", "SYX", 240, 1, 690),
)  # fmt: skip
CABINS = (("economy", "经济舱"), ("business", "公务舱"))
DAYS = 7
STOPS = ("武汉", "郑州", "长沙", "南京")
GATES = "ABCE"
FEE_CENTS = 5000  # 机建费 per passenger
INSURANCE_CENTS = 3000  # 航空意外险 per passenger
ACCOUNT_PHONE = "13812345678"
USER_NAME = "林晓"
AREAS = ("110105", "310104", "440106", "510107", "330106", "420106", "610113", "350203")
CHECK_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
CHECK_CODES = "10X98765432"
PASSENGERS = (USER_NAME, "林建国", "王秀兰", "林小雨")
NEW_PASSENGERS = ("周子涵", "陈思远", "许嘉怡", "高明轩", "宋雨桐", "韩志强")


def id_check(first17: str) -> str:
    """The GB 11643 check character of the first 17 digits of an ID number."""
    return CHECK_CODES[sum(int(d) * w for d, w in zip(first17, CHECK_WEIGHTS, strict=True)) % 11]


def valid_id(number: str) -> bool:
    number = number.strip().upper()
    return (
        len(number) == 18
        and number[:17].isdigit()
        and number[17] in "0123456789X"
        and id_check(number[:17]) == number[17]
    )


def make_id(rng: random.Random) -> str:
    first17 = (
        rng.choice(AREAS)
        + f"{rng.randrange(1960, 2005)}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}"
        + f"{rng.randrange(1000):03d}"
    )
    return first17 + id_check(first17)


def hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _status(rng: random.Random, depart: int, arrive: int) -> dict[str, Any]:
    """Today's status; the day starts at 09:00, so earlier flights have landed or left."""
    gate = f"{rng.choice(GATES)}{rng.randrange(1, 40)}"
    if arrive <= 9 * 60:
        return {"state": "到达", "delay": 0, "gate": gate}
    roll = rng.random()
    if roll < 0.08:
        return {"state": "取消", "delay": 0, "gate": ""}
    if roll < 0.45:
        return {"state": "延误", "delay": rng.choice((15, 20, 25, 35, 40, 50, 65, 80, 95, 120)),
                "gate": gate}  # fmt: skip
    return {"state": "计划", "delay": 0, "gate": gate}


def _slots(rng: random.Random) -> list[dict[str, Any]]:
    """Every daily flight: a route direction, a number, a time, an airline and an aircraft."""
    numbers: set[str] = set()
    slots = []
    for origin, dest, minutes, count, fare in ROUTES:
        for a, b in ((origin, dest), (dest, origin)):
            # Half-hourly from 06:30, landing by 21:30 (a delay never passes midnight).
            times = sorted(rng.sample(range(13, (1180 - minutes) // 30 + 1), count))
            for t in times:
                code, airline = rng.choice(AIRLINES)
                number = f"{code}{rng.randrange(1000, 9000)}"
                while number in numbers:
                    number = f"{code}{rng.randrange(1000, 9000)}"
                numbers.add(number)
                stop = rng.choice(STOPS) if rng.random() < 0.2 else None
                slots.append({
                    "number": number, "airline": airline, "code": code, "from": a, "to": b,
                    "depart": t * 30 + rng.choice((0, 5, 10, 15, 20)),
                    "duration": minutes + rng.randrange(0, 25, 5) + (70 if stop else 0),
                    "aircraft": rng.choice(AIRCRAFT), "stop": stop, "fare": fare,
                    "on_time": rng.randrange(62, 98),
                })  # fmt: skip
    return slots


def build(rng: random.Random) -> dict[str, Any]:
    flights = []
    fares: set[tuple[str, str, int, int]] = set()  # distinct on a route and day: one cheapest
    for slot in _slots(rng):
        for day in range(DAYS):
            economy = slot["fare"] + rng.randrange(0, 60) * 10
            while (slot["from"], slot["to"], day, economy) in fares:
                economy += 10
            fares.add((slot["from"], slot["to"], day, economy))
            depart, duration = slot["depart"], slot["duration"]
            flight = {
                "id": f"d{day}-{slot['number']}",
                "day": day,
                "number": slot["number"],
                "airline": slot["airline"],
                "code": slot["code"],
                "from": slot["from"],
                "to": slot["to"],
                "depart": hhmm(depart),
                "arrive": hhmm(depart + duration),
                "duration": duration,
                "aircraft": slot["aircraft"],
                "stop": slot["stop"],
                "on_time": slot["on_time"],
                "prices": {"economy": economy * 100,
                           "business": (economy * 3 + rng.randrange(0, 50) * 10) * 100},
                "seats": {"economy": 0 if rng.random() < 0.12 else rng.randrange(1, 40),
                          "business": 0 if rng.random() < 0.25 else rng.randrange(1, 9)},
                "status": _status(rng, depart, depart + duration) if day == 0 else None,
            }  # fmt: skip
            flights.append(flight)
    passengers = [
        {"id": f"pax-{i + 1}", "name": name, "id_number": make_id(rng)}
        for i, name in enumerate(PASSENGERS)
    ]
    return {"flights": flights, "passengers": passengers,
            "bookings": _bookings(rng, flights, passengers[0])}  # fmt: skip


def _bookings(rng: random.Random, flights: list[Any], me: Any) -> list[dict[str, Any]]:
    """The trips a fresh phone holds: one flying today after noon, one in two to four days."""
    today = [f for f in flights if f["day"] == 0 and f["status"]["state"] in ("计划", "延误")
             and f["depart"] >= "12:00" and not f["stop"]]  # fmt: skip
    later = [f for f in flights if 2 <= f["day"] <= 4 and not f["stop"]]
    bookings = []
    for i, flight in enumerate((rng.choice(today), rng.choice(later))):
        fare = flight["prices"]["economy"]
        bookings.append({
            "id": f"bk-seed-{i + 1}", "flight_id": flight["id"], "number": flight["number"],
            "cabin": "economy", "contact": ACCOUNT_PHONE, "insurance": False,
            "passengers": [{"name": me["name"], "id_number": me["id_number"], "seat": None}],
            "fare_cents": fare, "total_cents": fare + FEE_CENTS, "status": "已出票",
            "created_at": 0,
        })  # fmt: skip
    return bookings
