"""Seeded content of the Ride app: places of Beijing on a kilometre grid, drivers, car types and
the fare rules that turn a distance into a price. Prices depend only on the route, so a task can
compute them from content alone."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

# (name, district, street address, x km east, y km north of Tiananmen)
PLACES: tuple[tuple[str, str, str, float, float], ...] = (
    ("天安门广场", "东城区", "东长安街", 0, 0),
    ("故宫博物院", "东城区", "景山前街4号", 0, 1),
    ("王府井步行街", "东城区", "王府井大街", 1.5, 0.5),
    ("南锣鼓巷", "东城区", "交道口南大街", 1, 3),
    ("雍和宫", "东城区", "雍和宫大街12号", 1.8, 4.5),
    ("北京站", "东城区", "毛家湾胡同甲13号", 2.5, -0.5),
    ("天坛公园", "东城区", "天坛东里甲1号", 1.5, -3.5),
    ("北京协和医院", "东城区", "帅府园1号", 1.6, 0.8),
    ("国贸商城", "朝阳区", "建国门外大街1号", 6, 0),
    ("三里屯太古里", "朝阳区", "三里屯路19号", 5.5, 2.5),
    ("朝阳公园", "朝阳区", "朝阳公园南路1号", 8, 3),
    ("蓝色港湾", "朝阳区", "朝阳公园路6号", 8.5, 4),
    ("望京SOHO", "朝阳区", "阜通东大街1号", 8, 10),
    ("798艺术区", "朝阳区", "酒仙桥路4号", 10, 7),
    ("奥林匹克森林公园", "朝阳区", "科荟路33号", 2, 13),
    ("国家体育场", "朝阳区", "国家体育场南路1号", 1.5, 9),
    ("北京朝阳医院", "朝阳区", "工人体育场南路8号", 4.5, 1.5),
    ("首都机场T3航站楼", "顺义区", "首都国际机场", 22, 18),
    ("北京南站", "丰台区", "永外大街车站路12号", 0, -5.5),
    ("北京西站", "丰台区", "莲花池东路118号", -6, -1),
    ("丽泽商务区", "丰台区", "丽泽路18号", -7, -4),
    ("大兴国际机场", "大兴区", "大兴国际机场", -2, -45),
    ("亦庄万达广场", "大兴区", "荣华南路2号", 10, -14),
    ("中关村创业大街", "海淀区", "海淀西大街48号", -8, 10),
    ("北京大学", "海淀区", "颐和园路5号", -9, 11.5),
    ("清华大学", "海淀区", "双清路30号", -6, 12.5),
    ("五道口购物中心", "海淀区", "成府路28号", -6.5, 12),
    ("颐和园", "海淀区", "新建宫门路19号", -12, 14),
    ("西二旗地铁站", "海淀区", "西二旗大街", -7, 20),
    ("上地华联", "海淀区", "上地信息路1号", -9, 17),
    ("国家图书馆", "海淀区", "中关村南大街33号", -7, 5),
    ("西单大悦城", "西城区", "西单北大街131号", -2, 0.5),
    ("金融街购物中心", "西城区", "金城坊街2号", -3.5, 1),
    ("什刹海", "西城区", "地安门西大街", -0.5, 3.5),
    ("北京动物园", "西城区", "西直门外大街137号", -5, 4.5),
    ("首都博物馆", "西城区", "复兴门外大街16号", -5, -0.3),
    ("回龙观龙泽苑", "昌平区", "回龙观东大街", -4, 24),
    ("天通苑", "昌平区", "立汤路", 3, 22),
    ("通州万达广场", "通州区", "新华西街58号", 22, -2),
    ("北京环球度假区", "通州区", "环球大道1号", 20, -8),
    ("石景山万达广场", "石景山区", "石景山路乙18号", -16, 0),
)
# Where the user stands when opening the app (one of these, fixed per world).
STARTS = ("望京SOHO", "国贸商城", "中关村创业大街", "西二旗地铁站", "三里屯太古里")
ROAD_FACTOR = 1.35
AVERAGE_KMH = 28
SURNAMES = ("王", "李", "张", "刘", "陈", "杨", "赵", "黄", "周", "吴", "徐", "孙", "马", "朱")
CARS = (
    ("比亚迪秦PLUS", "白色"),
    ("丰田卡罗拉", "银色"),
    ("大众朗逸", "黑色"),
    ("日产轩逸", "白色"),
    ("广汽埃安S", "蓝色"),
    ("别克君越", "黑色"),
    ("奥迪A6L", "黑色"),
    ("红旗H5", "灰色"),
)


@dataclass(frozen=True, slots=True)
class CarType:
    key: str
    name: str
    base_cents: int  # covers the first 3 km
    per_km_cents: int
    per_minute_cents: int
    factor: float = 1.0  # carpooling is a share of the express fare
    slogan: str = ""


CAR_TYPES = (
    CarType("express", "快车", 1300, 230, 40, slogan="经济实惠 · 快速应答"),
    CarType("premium", "专车", 2000, 360, 90, slogan="舒适车型 · 专业服务"),
    CarType("pool", "拼车", 1300, 230, 40, factor=0.72, slogan="拼成更省 · 一口价"),
)
CAR_BY_NAME = {car.name: car for car in CAR_TYPES}
CAR_BY_KEY = {car.key: car for car in CAR_TYPES}


def distance_km(a: Any, b: Any) -> float:
    """Road distance between two places, at least one kilometre."""
    straight = math.hypot(a["x"] - b["x"], a["y"] - b["y"])
    return max(1.0, round(straight * ROAD_FACTOR, 1))


def minutes_for(km: float) -> int:
    return round(km / AVERAGE_KMH * 60) + 3


def fare_cents(car: CarType, km: float) -> int:
    """The estimate (and the fare: traffic never changes in this city), rounded to 10 fen."""
    express = car.base_cents + max(0.0, km - 3) * car.per_km_cents
    raw = (express + minutes_for(km) * car.per_minute_cents) * car.factor
    return int(round(raw / 10) * 10)


def build_content(rng: random.Random) -> dict[str, Any]:
    places = [
        {
            "id": f"p{i + 1:02d}",
            "name": name,
            "district": district,
            "address": address,
            "x": x,
            "y": y,
        }
        for i, (name, district, address, x, y) in enumerate(PLACES)
    ]
    start = rng.choice(STARTS)
    here = next(p for p in places if p["name"] == start)
    drivers = []
    for i, surname in enumerate(SURNAMES):
        model, colour = CARS[i % len(CARS)]
        plate = (
            "京"
            + rng.choice("ABEFHJKNPQ")
            + "·"
            + "".join(rng.choice("0123456789DF") for _ in range(5))
        )
        drivers.append(
            {
                "name": f"{surname}师傅",
                "plate": plate,
                "car": f"{colour}·{model}",
                "rating": round(rng.uniform(4.7, 5.0), 1),
                "trips": rng.randrange(800, 9000),
            }
        )
    return {
        "places": places,
        "by_id": {p["id"]: p for p in places},
        "here": here,
        "drivers": drivers,
    }
