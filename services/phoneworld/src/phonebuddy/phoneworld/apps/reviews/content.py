"""The seeded shops of 点评: names, districts, ratings, 人均, addresses, tags, reviews and the
booking slots already full on each of the next seven days."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.ui.format import local_date

REVIEWS = "com.pw.reviews"
BOOKED, CANCELLED = "待到店", "已取消"
MY_PHONE = "13812345678"
MIN_REVIEW_CHARS = 10
MAX_PEOPLE = 10

CATEGORIES = ("美食", "火锅", "咖啡", "丽人", "休闲娱乐", "酒店")
DISTRICTS = ("朝阳区", "海淀区", "东城区", "西城区", "丰台区")
STREETS = {
    "朝阳区": ("三里屯路", "建国路", "望京街", "朝阳北路", "工体北路"),
    "海淀区": ("中关村大街", "学院路", "五道口成府路", "西土城路", "知春路"),
    "东城区": ("王府井大街", "东直门内大街", "南锣鼓巷", "东四北大街", "崇文门外大街"),
    "西城区": ("西单北大街", "金融大街", "新街口外大街", "阜成门内大街", "德胜门外大街"),
    "丰台区": ("丽泽路", "方庄路", "草桥东路", "丰台北路", "科技园路"),
}  # fmt: skip
# (name, 人均 range in yuan) per category; every name is unique.
SHOP_NAMES = {
    "美食": (("南京大牌档", (70, 110)), ("西贝莜面村", (80, 120)), ("外婆家", (60, 90)),
             ("绿茶餐厅", (60, 100)), ("太二酸菜鱼", (70, 100)), ("眉州东坡", (90, 140)),
             ("四季民福烤鸭", (150, 220)), ("新荣记", (500, 800))),
    "火锅": (("海底捞火锅", (110, 150)), ("巴奴毛肚火锅", (130, 170)), ("小龙坎老火锅", (90, 130)),
             ("大龙燚火锅", (100, 140)), ("凑凑火锅", (140, 190)), ("蜀大侠火锅", (100, 140)),
             ("东来顺涮肉", (110, 160)), ("呷哺呷哺", (60, 90))),
    "咖啡": (("星巴克臻选", (40, 60)), ("瑞幸咖啡", (20, 30)), ("Manner Coffee", (20, 35)),
             ("% Arabica", (40, 55)), ("Seesaw Coffee", (35, 50)), ("M Stand", (35, 50))),
    "丽人": (("奈瑞儿美容", (300, 500)), ("丝域养发", (200, 300)), ("美甲小铺", (120, 200)),
             ("TONI&GUY美发", (250, 400)), ("悦容庄SPA", (350, 600)),
             ("Nail Studio美甲", (150, 260))),
    "休闲娱乐": (("好乐迪KTV", (80, 130)), ("唱吧麦颂KTV", (70, 120)), ("万达影城", (50, 80)),
                 ("密室逃脱·迷城", (120, 180)), ("星际保龄球馆", (90, 140)),
                 ("桌游吧·狼人杀", (60, 90))),
    "酒店": (("全季酒店", (380, 480)), ("亚朵酒店", (450, 600)), ("汉庭酒店", (230, 320)),
             ("如家精选", (260, 350)), ("北京饭店", (900, 1300)), ("桔子水晶酒店", (500, 680))),
}  # fmt: skip
HOURS = ("10:00-22:00", "11:00-21:30", "09:00-23:00", "10:30-22:30", "24小时营业", "11:00-02:00")
TAGS = ("可订座", "有包间", "免费停车", "可带宠物", "景观位", "团购", "无线WiFi", "儿童友好")
SLOTS = ("11:00", "11:30", "12:00", "12:30", "13:00", "17:00", "17:30", "18:00", "18:30",
         "19:00", "19:30", "20:00", "20:30")  # fmt: skip
DAYS = 7
REVIEWERS = ("吃货小王", "北京胡同串子", "爱喝咖啡的猫", "周末探店", "小鱼儿", "美食侦探", "阿杰",
             "Lily", "大胃王老张", "不吃香菜", "晴天", "路人甲", "米粒",
             "快乐的胖子", "慢慢")  # fmt: skip
GOOD = ("味道很好，服务也热情，下次还会再来。", "环境干净整洁，性价比很高，推荐！",
        "朋友推荐来的，果然没让人失望。", "排队有点久，但是值得等待。", "招牌必点，分量足，好评。",
        "装修很有格调，适合约会和聚会。")  # fmt: skip
MIXED = ("整体还行，就是人有点多，上菜稍慢。", "中规中矩，价格略贵，位置好找。",
         "味道一般般，服务态度不错。")  # fmt: skip
DEALS = (("单人套餐", 1, 0.85), ("双人套餐", 2, 0.8), ("四人套餐", 4, 0.75))
DEAL_CATEGORIES = ("美食", "火锅", "咖啡", "休闲娱乐")
PAID, UNPAID = "未使用", "待付款"
BAD = ("等了四十分钟，体验很差。", "性价比不高，不会再来了。")


def _review(rng: random.Random, rating: float, index: int) -> dict[str, Any]:
    stars = max(1, min(5, round(rating + rng.choice((-2, -1, 0, 0, 0, 1)))))
    text = rng.choice(GOOD if stars >= 4 else MIXED if stars == 3 else BAD)
    return {
        "id": f"r{index}",
        "user": rng.choice(REVIEWERS),
        "stars": stars,
        "text": text,
        "time": EPOCH_START - rng.randrange(1, 120) * 86400 - rng.randrange(86400),
    }


def _deals(rng: random.Random, number: int, category: str, price: int) -> list[dict[str, Any]]:
    """The group-buy vouchers (团购券) a shop sells: a set meal for 1, 2 or 4 below its value."""
    chosen = sorted(rng.sample(range(len(DEALS)), 2))
    deals = []
    for k in chosen:
        title, people, rate = DEALS[k]
        value = price * people * 100
        deals.append(
            {
                "id": f"d{number:02d}{k}",
                "title": title,
                "value_cents": value,
                "price_cents": int(value * rate) // 100 * 100,
            }
        )
    return deals


def build_shops(rng: random.Random) -> list[dict[str, Any]]:
    shops = []
    for category in CATEGORIES:
        names = SHOP_NAMES[category]
        districts = list(DISTRICTS)
        rng.shuffle(districts)
        ratings = rng.sample(range(36, 50), len(names))  # distinct within a category
        for i, (name, (low, high)) in enumerate(names):
            district = districts[i % len(districts)]
            street = rng.choice(STREETS[district])
            rating = ratings[i] / 10
            price = rng.randrange(low, high + 1)
            full = sorted(f"{day}|{slot}" for day in range(DAYS) for slot in rng.sample(SLOTS, 3))
            shops.append(
                {
                    "id": f"s{len(shops) + 1:02d}",
                    "name": f"{name}({street.removesuffix('路').removesuffix('大街')[:4]}店)",
                    "category": category,
                    "district": district,
                    "rating": rating,
                    "price": price,
                    "distance_m": rng.randrange(2, 90) * 100,
                    "address": f"北京市{district}{street}{rng.randrange(1, 200)}号",
                    "phone": f"010-{rng.randrange(6000, 9000)}{rng.randrange(1000, 10000)}",
                    "hours": rng.choice(HOURS),
                    "tags": ["可订座", *rng.sample(TAGS[1:], 2)],
                    "reviews": [_review(rng, rating, k) for k in range(rng.randrange(6, 10))],
                    "full": full,
                    "deals": _deals(rng, len(shops) + 1, category, price)
                    if category in DEAL_CATEGORIES and price <= 200
                    else [],
                }
            )
    return shops


def day_offset(iso: str, clock: int) -> int:
    """How many days after the phone's today the date `iso` is."""
    return (dt.date.fromisoformat(iso) - local_date(clock)).days


def is_full(shop: Any, offset: int, slot: str) -> bool:
    """Whether the slot of the day `offset` days from today is fully booked."""
    return f"{offset}|{slot}" in shop["full"]


def distance_text(metres: int) -> str:
    return f"{metres / 1000:.1f}km" if metres >= 1000 else f"{metres}m"
