"""The seeded content of 充电桩: charging stations with their piles and time-of-use prices,
the user's vehicles, the 充电余额, coupons, recharge packages and past charging sessions."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

# (name, address)
STATIONS = (
    ("西湖文化广场充电站", "杭州市下城区中山北路580号"),
    ("黄龙体育中心超充站", "杭州市西湖区黄龙路1号"),
    ("武林银泰地下停车场", "杭州市下城区武林广场1号B2层"),
    ("湖滨银泰in77充电站", "杭州市上城区东坡路7号"),
    ("城西银泰快充站", "杭州市拱墅区丰潭路380号"),
    ("西溪湿地南门充电站", "杭州市西湖区天目山路518号"),
    ("滨江宝龙城充电站", "杭州市滨江区滨盛路3867号"),
    ("钱江新城市民中心站", "杭州市江干区市民街200号"),
    ("来福士广场充电站", "杭州市江干区新业路228号"),
    ("萧山万象汇充电站", "杭州市萧山区市心北路99号"),
    ("杭州东站P2停车场", "杭州市江干区天城路1号"),
    ("龙湖天街充电站", "杭州市滨江区江汉路1515号"),
    ("紫金港地铁站充电站", "杭州市西湖区三墩路78号"),
    ("未来科技城超充站", "杭州市余杭区文一西路1500号"),
    ("九堡客运中心充电站", "杭州市江干区德胜东路3339号"),
    ("北部软件园充电站", "杭州市拱墅区祥园路88号"),
    ("西城广场充电站", "杭州市西湖区文二西路551号"),
    ("闸弄口公交充电站", "杭州市江干区机场路308号"),
    ("运河天地充电站", "杭州市拱墅区小河路488号"),
    ("之江文化中心充电站", "杭州市西湖区之江路1088号"),
    ("良渚文化村充电站", "杭州市余杭区良渚街道玉鸟路1号"),
    ("下沙金沙湖充电站", "杭州市钱塘区金沙大道560号"),
    ("奥体中心超充站", "杭州市滨江区飞虹路3号"),
    ("古荡新村充电站", "杭州市西湖区古墩路83号"),
    ("火车东站南广场充电站", "杭州市上城区全福桥路2号"),
)  # fmt: skip
OPERATORS = ("特来电", "星星充电", "国家电网", "小桔充电", "蔚来能源")
PARKING = (
    "充电期间免费停车2小时",
    "停车费另计，5元/小时",
    "充电免停车费",
    "凭充电订单减免停车费1小时",
)
# Time-of-use bands; every station follows the same provincial schedule.
BANDS = (
    ("峰", "08:00-11:00、18:00-21:00"),
    ("平", "11:00-18:00、21:00-23:00"),
    ("谷", "23:00-次日08:00"),
)
BAND_HOURS = {"峰": (8, 9, 10, 18, 19, 20), "平": (11, 12, 13, 14, 15, 16, 17, 21, 22)}
FAST_POWER = (60, 120, 160, 180)
SLOW_POWER = (7, 11)
STATUSES = ("空闲", "充电中", "故障")
PACKAGES = (5000, 10000, 20000, 50000)  # recharge amounts in cents
BONUS = {10000: 500, 20000: 1500, 50000: 5000}  # 充值赠送
PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼"
VEHICLES = (("浙A·D12345", "比亚迪 汉EV", 76, 35), ("浙A·F87K21", "特斯拉 Model 3", 60, 62))


def band_of(hour: int) -> str:
    for band, hours in BAND_HOURS.items():
        if hour in hours:
            return band
    return "谷"


def _piles(rng: random.Random, number: int) -> list[dict[str, Any]]:
    piles = []
    fast = rng.choice((0, 2, 3, 4, 5, 6))
    slow = rng.randrange(2, 6) if fast == 0 else rng.randrange(0, 5)
    fast_power, slow_power = rng.choice(FAST_POWER), rng.choice(SLOW_POWER)
    for i in range(fast + slow):
        kind = "快充" if i < fast else "慢充"
        status = rng.choices(STATUSES, weights=(5, 4, 1))[0]
        piles.append({"id": f"{number:03d}{i + 1:02d}{rng.randrange(100, 1000)}", "kind": kind,
                      "power": fast_power if kind == "快充" else slow_power,
                      "status": status})  # fmt: skip
    return piles


def build(rng: random.Random) -> dict[str, Any]:
    stations = []
    distances = rng.sample(range(3, 150), len(STATIONS))
    for i, ((name, address), dist) in enumerate(zip(STATIONS, distances, strict=True)):
        valley = rng.randrange(30, 60)
        flat = valley + rng.randrange(30, 50)
        stations.append(
            {
                "id": f"st-{i + 1:02d}",
                "name": name,
                "address": address,
                "distance": dist / 10,
                "operator": rng.choice(OPERATORS),
                "parking": rng.choice(PARKING),
                "rating": rng.randrange(38, 50) / 10,
                # fen per kWh; the service fee is charged on top of the electricity price
                "prices": {"峰": flat + rng.randrange(30, 50), "平": flat, "谷": valley},
                "fee": rng.choice((40, 50, 60, 70, 80)),
                "piles": _piles(rng, i + 1),
            }
        )
    history = []
    for _ in range(18):
        station = rng.choice(stations)
        band = rng.choice(("峰", "平", "谷"))
        kwh = rng.randrange(800, 5500)  # hundredths of a kWh
        start = EPOCH_START - rng.randrange(2, 44) * 86400 - rng.randrange(0, 12) * 3600
        history.append(bill(station, band, kwh, 0, start=start,
                            minutes=rng.randrange(25, 90), plate=rng.choice(VEHICLES)[0],
                            pile=station["piles"][0]["id"], paid_by="余额"))  # fmt: skip
    history.sort(key=lambda h: h["start"])
    for i, entry in enumerate(history):
        entry["id"] = f"h-{i + 1:02d}"
    coupons = [
        {"id": "cp-1", "title": "服务费满10减3", "min": 1000, "off": 300},
        {"id": "cp-2", "title": "服务费满20减8", "min": 2000, "off": 800},
        {"id": "cp-3", "title": "服务费满5减1", "min": 500, "off": 100},
    ]
    vehicles = [
        {"id": f"v-{i + 1}", "plate": plate, "model": model, "battery": battery, "soc": soc}
        for i, (plate, model, battery, soc) in enumerate(VEHICLES)
    ]
    return {
        "stations": stations,
        "history": history,
        "coupons": coupons,
        "vehicles": vehicles,
        "balance": rng.randrange(1500, 6000),
    }


def bill(
    station: Any,
    band: str,
    kwh: int,
    off: int,
    *,
    start: int,
    minutes: int,
    plate: str,
    pile: str,
    paid_by: str,
) -> dict[str, Any]:
    """A finished session's record; `kwh` in hundredths of a kWh, money in cents."""
    price, fee = station["prices"][band], station["fee"]
    energy, service = round(kwh * price / 100), round(kwh * fee / 100)
    return {"id": "", "station": station["id"], "name": station["name"], "pile": pile,
            "plate": plate, "band": band, "kwh": kwh, "price": price, "fee": fee,
            "energy": energy, "service": service, "off": off,
            "total": energy + service - off, "start": start, "end": start + minutes * 60,
            "paid_by": paid_by}  # fmt: skip


def yuan(cents: int) -> str:
    return f"¥{cents // 100}.{cents % 100:02d}"


def kwh_label(hundredths: int) -> str:
    return f"{hundredths // 100}.{hundredths % 100:02d}度"
