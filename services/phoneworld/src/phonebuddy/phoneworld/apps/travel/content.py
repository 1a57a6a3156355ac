"""Seeded content of the Travel app: cities with stations, a timetable of high-speed (G) and
bullet (D) trains between every pair of cities up to 1,400 km apart, seat prices by distance,
and hotels with room types. Seat availability is a pure function of (train, seat class, days
ahead), so tasks can predict it without a device."""

from __future__ import annotations

import math
import random
import zlib
from dataclasses import dataclass
from typing import Any

# (city, main high-speed station, longitude, latitude)
CITIES: tuple[tuple[str, str, float, float], ...] = (
    ("北京", "北京南", 116.38, 39.87),
    ("上海", "上海虹桥", 121.32, 31.19),
    ("广州", "广州南", 113.27, 22.99),
    ("深圳", "深圳北", 114.03, 22.61),
    ("杭州", "杭州东", 120.21, 30.29),
    ("南京", "南京南", 118.80, 31.97),
    ("武汉", "武汉", 114.42, 30.61),
    ("成都", "成都东", 104.14, 30.63),
    ("重庆", "重庆北", 106.55, 29.61),
    ("西安", "西安北", 108.94, 34.38),
    ("长沙", "长沙南", 113.07, 28.15),
    ("天津", "天津西", 117.16, 39.16),
    ("苏州", "苏州北", 120.64, 31.42),
    ("郑州", "郑州东", 113.77, 34.76),
    ("厦门", "厦门北", 118.07, 24.64),
)
MAX_ROUTE_KM = 1400
RAIL_FACTOR = 1.18


@dataclass(frozen=True, slots=True)
class SeatClass:
    key: str
    name: str
    # Yuan per km on G trains and on D trains (None: that train type has no such seat).
    g_rate: float
    d_rate: float | None
    sold_out_percent: int


SEATS = (
    SeatClass("second", "二等座", 0.46, 0.31, 12),
    SeatClass("first", "一等座", 0.74, 0.50, 20),
    SeatClass("business", "商务座", 1.45, None, 30),
)
SEAT_BY_NAME = {seat.name: seat for seat in SEATS}
SEAT_BY_KEY = {seat.key: seat for seat in SEATS}

HOTEL_BRANDS = (
    ("全季酒店", "舒适型", 3, 1.0),
    ("汉庭酒店", "经济型", 2, 0.7),
    ("亚朵酒店", "高档型", 4, 1.4),
    ("如家精选酒店", "经济型", 2, 0.8),
    ("希尔顿酒店", "豪华型", 5, 2.6),
    ("维也纳国际酒店", "舒适型", 3, 1.1),
)
HOTEL_AREAS = {
    "北京": ("国贸", "王府井", "中关村", "三里屯", "北京南站"),
    "上海": ("外滩", "人民广场", "陆家嘴", "虹桥枢纽", "徐家汇"),
    "广州": ("珠江新城", "北京路", "天河体育中心", "广州南站"),
    "深圳": ("福田CBD", "南山科技园", "深圳北站", "华强北"),
    "杭州": ("西湖", "武林广场", "钱江新城", "杭州东站"),
    "南京": ("新街口", "夫子庙", "南京南站", "河西万达"),
    "武汉": ("江汉路", "光谷", "武昌火车站", "楚河汉街"),
    "成都": ("春熙路", "宽窄巷子", "天府广场", "成都东站"),
    "重庆": ("解放碑", "观音桥", "洪崖洞", "重庆北站"),
    "西安": ("钟楼", "大雁塔", "小寨", "西安北站"),
    "长沙": ("五一广场", "橘子洲", "长沙南站", "梅溪湖"),
    "天津": ("五大道", "天津站", "滨江道", "天津西站"),
    "苏州": ("观前街", "金鸡湖", "苏州站", "石路"),
    "郑州": ("二七广场", "郑东新区", "郑州东站", "CBD"),
    "厦门": ("中山路", "鼓浪屿", "厦门北站", "环岛路"),
}
# (room type, description, base price in yuan for a 1.0 brand)
ROOMS = (
    ("大床房", "20㎡ · 1.8米大床 · 无早", 299),
    ("双床房", "22㎡ · 两张1.2米床 · 无早", 319),
    ("高级大床房", "28㎡ · 1.8米大床 · 含双早", 389),
    ("行政套房", "45㎡ · 2米大床 · 含双早 · 行政酒廊", 659),
)


def rail_km(a: Any, b: Any) -> int:
    """Distance along the tracks between two cities (great circle times a detour factor)."""
    lat1, lat2 = math.radians(a["lat"]), math.radians(b["lat"])
    dlat, dlon = lat2 - lat1, math.radians(b["lon"] - a["lon"])
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return round(2 * 6371 * math.asin(math.sqrt(h)) * RAIL_FACTOR)


def seat_price_cents(seat: SeatClass, km: int, train_number: str) -> int | None:
    rate = seat.g_rate if train_number.startswith("G") else seat.d_rate
    if rate is None:
        return None
    return max(1000, round(km * rate * 2) * 50)  # 12306 prices step by half a yuan


def seats_left(train_number: str, seat_key: str, days_ahead: int) -> int:
    """Tickets left: 0 means sold out. Depends on how far ahead one books, not on who asks."""
    seat = SEAT_BY_KEY[seat_key]
    roll = zlib.crc32(f"{train_number}|{seat_key}|{days_ahead}".encode()) % 1000
    if roll % 100 < seat.sold_out_percent:
        return 0
    return 1 + roll // 10 % 60


def _clock(minutes: int) -> str:
    return f"{minutes // 60 % 24:02d}:{minutes % 60:02d}"


def _trains(
    origin: Any, destination: Any, km: int, rng: random.Random, numbers: set[str]
) -> list[dict[str, Any]]:
    count = rng.randint(5, 9)
    departures = sorted(rng.sample(range(6 * 12, 20 * 12 + 6), k=count))  # 06:00-20:25, 5 min
    trains = []
    for slot in departures:
        kind = "G" if rng.random() < 0.75 else "D"
        number = kind + str(rng.randrange(1, 9999 if kind == "G" else 3999))
        while number in numbers:
            number = kind + str(rng.randrange(1, 9999))
        numbers.add(number)
        speed = 250 if kind == "G" else 175
        minutes = round(km / speed * 60) + rng.randrange(10, 40)
        depart = slot * 5
        trains.append(
            {
                "number": number,
                "from": origin["name"],
                "to": destination["name"],
                "from_station": origin["station"],
                "to_station": destination["station"],
                "depart": _clock(depart),
                "arrive": _clock(depart + minutes),
                "minutes": minutes,
                "next_day": depart + minutes >= 24 * 60,
                "km": km,
                "prices": {s.key: seat_price_cents(s, km, number) for s in SEATS},
            }
        )
    return trains


def _hotels(city: str, rng: random.Random) -> list[dict[str, Any]]:
    hotels = []
    for area, (brand, grade, stars, factor) in zip(
        HOTEL_AREAS[city], rng.sample(HOTEL_BRANDS, k=len(HOTEL_AREAS[city])), strict=True
    ):
        city_factor = 1.25 if city in ("北京", "上海", "深圳") else 1.0
        rooms = [
            {
                "key": f"room{i}",
                "name": name,
                "desc": desc,
                "price_cents": round(base * factor * city_factor * rng.uniform(0.9, 1.1)) * 100,
            }
            for i, (name, desc, base) in enumerate(ROOMS[: 3 if stars < 4 else 4])
        ]
        hotels.append(
            {
                "name": f"{brand}({city}{area}店)",
                "city": city,
                "area": area,
                "grade": grade,
                "stars": stars,
                "rating": round(rng.uniform(4.3, 4.9), 1),
                "reviews": rng.randrange(300, 9000),
                "rooms": rooms,
            }
        )
    return hotels


def build_content(rng: random.Random) -> dict[str, Any]:
    cities = [{"name": n, "station": s, "lon": lon, "lat": lat} for n, s, lon, lat in CITIES]
    routes: dict[str, list[dict[str, Any]]] = {}
    numbers: set[str] = set()
    for origin in cities:
        for destination in cities:
            km = rail_km(origin, destination)
            if origin is not destination and km <= MAX_ROUTE_KM:
                key = route_key(origin["name"], destination["name"])
                routes[key] = _trains(origin, destination, km, rng, numbers)
    hotels = [hotel for city in cities for hotel in _hotels(city["name"], rng)]
    for index, hotel in enumerate(hotels):
        hotel["id"] = f"h{index + 1:02d}"
    return {
        "cities": cities,
        "city_names": [c["name"] for c in cities],
        "routes": routes,
        "hotels": hotels,
        "hotel_by_id": {h["id"]: h for h in hotels},
    }


def route_key(origin: str, destination: str) -> str:
    return f"{origin}-{destination}"
