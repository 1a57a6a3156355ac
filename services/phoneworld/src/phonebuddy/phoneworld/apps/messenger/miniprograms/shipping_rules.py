"""The rules of 快递寄件: destination provinces and their zones, couriers with their 首重/续重
rates per zone, item types, pick-up slots, the sender addresses, and how a parcel is priced."""

from __future__ import annotations

import random
import re
from typing import Any

from phonebuddy.phoneworld.apps.contacts.app import roster

# Province -> zone from Hangzhou (0 same province ... 3 far).
PROVINCES = {
    "浙江": 0, "江苏": 1, "上海": 1, "安徽": 1, "福建": 2, "广东": 2,
    "北京": 2, "山东": 2, "湖北": 2, "四川": 3, "云南": 3, "黑龙江": 3,
}  # fmt: skip
STREETS = {
    "浙江": ("宁波市鄞州区天童南路588号", "温州市鹿城区车站大道66号"),
    "江苏": ("南京市鼓楼区中山北路105号", "苏州市姑苏区人民路1208号"),
    "上海": ("浦东新区世纪大道88号", "徐汇区漕溪北路333号"),
    "安徽": ("合肥市蜀山区长江西路200号",),
    "福建": ("厦门市思明区湖滨南路90号", "福州市鼓楼区五四路158号"),
    "广东": ("广州市天河区体育西路191号", "深圳市南山区科技园南路18号"),
    "北京": ("海淀区中关村大街27号", "朝阳区建国路93号"),
    "山东": ("济南市历下区泉城路180号", "青岛市市南区香港中路76号"),
    "湖北": ("武汉市洪山区珞喻路129号",),
    "四川": ("成都市武侯区人民南路四段12号", "成都市锦江区春熙路68号"),
    "云南": ("昆明市五华区东风西路11号",),
    "黑龙江": ("哈尔滨市南岗区西大直街92号",),
}
# Courier -> (name, waybill prefix, premium on the first kilo in cents).
COURIERS = {
    "sf": ("顺丰速运", "SF", 1000),
    "zto": ("中通快递", "ZT", 0),
    "yto": ("圆通速递", "YT", 100),
    "jd": ("京东快递", "JD", 600),
}
ITEMS = {"doc": "文件", "daily": "日用品", "digital": "数码产品", "clothes": "衣物", "food": "食品"}
SLOTS = (
    "今天 14:00-16:00",
    "今天 16:00-18:00",
    "今天 18:00-20:00",
    "明天 09:00-11:00",
    "明天 11:00-13:00",
    "明天 14:00-16:00",
    "明天 16:00-18:00",
)
SENDERS = (
    {"id": "home", "label": "家", "address": "浙江省杭州市西湖区文三路90号东部软件园3幢"},
    {"id": "work", "label": "公司", "address": "浙江省杭州市滨江区网商路699号5号楼"},
)
WEIGHT = re.compile(r"^\d+(\.\d)?$")
MOBILE = re.compile(r"^1[3-9]\d{9}$")
MAX_TENTHS = 500
MAX_INSURED_CENTS = 3_000_000
STATUS = {"unpaid": "待支付", "waiting": "待取件", "picked": "运输中",
          "delivered": "已签收", "cancelled": "已取消"}  # fmt: skip


def parse_weight(text: str) -> int | None:
    """'2.5' (kg) -> 25 tenths; None unless a number with at most one decimal."""
    text = text.strip().lower().removesuffix("kg").removesuffix("公斤").strip()
    if not WEIGHT.match(text):
        return None
    whole, _, part = text.partition(".")
    return int(whole) * 10 + int(part or 0)


def billed_kilos(tenths: int) -> int:
    """Weight is billed by the started kilogram."""
    return max(1, -(-tenths // 10))


def freight(rate: Any, tenths: int) -> int:
    return int(rate["first_cents"]) + (billed_kilos(tenths) - 1) * int(rate["extra_cents"])


def insure_fee(insured_cents: int) -> int:
    """保价费: 1% of the declared value, rounded up to the yuan, at least ¥1 when insured."""
    if insured_cents <= 0:
        return 0
    return max(100, -(-insured_cents // 10000) * 100)


def waybill(courier: str, order_id: str) -> str:
    serial = int(order_id.rpartition("-")[2])
    return f"{COURIERS[courier][1]}{(serial * 7919 + 104729) % 10**12:012d}"


def rate_for(content: Any, courier: str, province: str) -> Any:
    return content["rates"][courier][str(PROVINCES[province])]


def seed(rng: random.Random) -> dict[str, Any]:
    """Every courier's rates per zone, eight recipients from the address book, the pick-up
    slots (three full) and the shipments so far: one waiting for pick-up."""
    rates: dict[str, dict[str, dict[str, int]]] = {}
    for courier, (_, _, premium) in COURIERS.items():
        rates[courier] = {
            str(zone): {
                "first_cents": 800 + zone * 300 + premium + rng.randrange(0, 5) * 100,
                "extra_cents": 200 + zone * 250 + rng.randrange(0, 6) * 50,
            }
            for zone in range(4)
        }
    people = [p for p in roster() if p["group"] != "家人"]
    recipients = []
    for i, person in enumerate(rng.sample(people, 8)):
        province = rng.choice(sorted(PROVINCES))
        recipients.append(
            {
                "id": f"rc{i + 1}",
                "name": person["name"],
                "phone": person["phone"],
                "province": province,
                "address": rng.choice(STREETS[province]),
            }
        )
    full = set(rng.sample(range(len(SLOTS)), 3))
    slots = [{"id": f"t{i}", "label": s, "full": i in full} for i, s in enumerate(SLOTS)]
    orders = []
    for i in range(3):
        rc, courier = recipients[i], rng.choice(sorted(COURIERS))
        tenths = rng.randrange(3, 80)
        order_id = f"sh-{201 + i}"
        cost = freight(rates[courier][str(PROVINCES[rc["province"]])], tenths)
        orders.append(
            {
                "id": order_id,
                "sender": "home",
                "recipient": {k: rc[k] for k in ("name", "phone", "province", "address")},
                "item": rng.choice(sorted(ITEMS)),
                "tenths": tenths,
                "courier": courier,
                "slot": next(s["id"] for s in slots if not s["full"]),
                "insured_cents": 0,
                "freight_cents": cost,
                "insure_fee_cents": 0,
                "total_cents": cost,
                "status": "waiting" if i == 0 else "delivered",
                "waybill": waybill(courier, order_id),
            }
        )
    return {"rates": rates, "recipients": recipients, "slots": slots, "orders": orders}
