"""The rules and content of 扫码点餐: the restaurants' menus, dish specs (辣度, 大/小份), how an
order is summed (dishes, place-setting fee per person, a coupon above its threshold), the
取餐号, and the seeded restaurants, coupons and order history."""

from __future__ import annotations

import random
from typing import Any

SPICE = ("不辣", "微辣", "中辣", "特辣")
SIZES = {"s": "小份", "l": "大份"}
MAX_PEOPLE = 10
STATUS = {
    "unpaid": "待支付",
    "cooking": "制作中",
    "served": "已上齐",
    "done": "已完成",
    "cancelled": "已取消",
}


def unit_cents(dish: Any, size: str) -> int:
    return int(dish["price_cents"]) + (int(dish["large_extra_cents"]) if size == "l" else 0)


def line_key(dish_id: str, spice: int, size: str) -> str:
    return f"{dish_id}_{spice if spice >= 0 else 'x'}_{size or 'n'}"


def parse_key(key: str) -> tuple[str, int, str]:
    dish_id, spice, size = key.split("_")
    return dish_id, -1 if spice == "x" else int(spice), "" if size == "n" else size


def spec_label(spice: int, size: str) -> str:
    parts = ([SPICE[spice]] if spice >= 0 else []) + ([SIZES[size]] if size else [])
    return "/".join(parts)


def totals(food: int, people: int, fee: int, coupon: Any) -> dict[str, int]:
    """The sums of an order: the coupon applies to the dishes only, above its threshold."""
    discount = coupon["off_cents"] if coupon and food >= coupon["threshold_cents"] else 0
    seat = people * fee
    return {
        "food_cents": food,
        "seat_cents": seat,
        "discount_cents": discount,
        "total_cents": food + seat - discount,
    }


def pickup_number(order_id: str) -> str:
    serial = int(order_id.rpartition("-")[2])
    return f"A{(serial * 37 + 11) % 900 + 100}"


def used_coupons(data: Any) -> set[str]:
    return {o["coupon"] for o in data["orders"] if o["coupon"] and o["status"] != "cancelled"}


# (name, {category: ((dish, price in cents, spicy, has sizes), ...)})
MENUS: tuple[tuple[str, dict[str, tuple[tuple[str, int, bool, bool], ...]]], ...] = (
    ("川味小馆", {
        "凉菜": (("口水鸡", 3800, True, False), ("夫妻肺片", 4200, True, False),
                 ("拍黄瓜", 1600, False, False)),
        "热菜": (("水煮鱼", 8800, True, True), ("宫保鸡丁", 4200, True, False),
                 ("麻婆豆腐", 2600, True, True), ("回锅肉", 4800, True, False)),
        "主食饮品": (("担担面", 1800, True, False), ("米饭", 300, False, False),
                     ("酸梅汤", 800, False, True)),
    }),
    ("老杭帮菜馆", {
        "招牌菜": (("西湖醋鱼", 6800, False, False), ("东坡肉", 5800, False, True),
                   ("龙井虾仁", 8800, False, False), ("叫花鸡", 7800, False, False)),
        "家常菜": (("油焖春笋", 3200, False, False), ("糖醋排骨", 4600, False, True),
                   ("蒜蓉西兰花", 2200, False, False)),
        "主食点心": (("片儿川", 2200, False, True), ("葱包桧", 1200, False, False),
                     ("桂花藕粉", 1000, False, False), ("米饭", 300, False, False)),
    }),
    ("湘里人家", {
        "招牌菜": (("剁椒鱼头", 8800, True, True), ("口味虾", 9800, True, True),
                   ("小炒黄牛肉", 5800, True, False)),
        "小炒": (("农家小炒肉", 3800, True, False), ("手撕包菜", 1800, True, False),
                 ("外婆菜炒蛋", 2200, True, False), ("清炒时蔬", 1800, False, False)),
        "主食饮品": (("米饭", 300, False, False), ("冰镇杨梅汁", 1200, False, True)),
    }),
    ("粤港茶餐厅", {
        "点心": (("虾饺皇", 3200, False, False), ("菠萝油", 1200, False, False),
                 ("咖喱鱼蛋", 2400, True, False)),
        "饭面": (("干炒牛河", 3600, False, True), ("叉烧饭", 3800, False, False),
                 ("艇仔粥", 2200, False, True)),
        "烧味饮品": (("烧鹅", 6800, False, True), ("鸳鸯奶茶", 1800, False, True),
                     ("冻柠茶", 1600, False, True)),
    }),
)  # fmt: skip


def seed(rng: random.Random) -> dict[str, Any]:
    """The restaurants with their menus (two sold-out dishes each), the coupons and the order
    history: one order still being served, the others finished."""
    restaurants, dishes = [], []
    for r, (title, menu) in enumerate(MENUS):
        rid = f"r{r + 1}"
        first = len(dishes)
        for c, items in enumerate(menu.values()):
            for name, price, spicy, sized in items:
                price += rng.choice((0, 0, 200, -200)) if price > 1000 else 0
                dishes.append(
                    {
                        "id": f"d{len(dishes) + 1}",
                        "restaurant": rid,
                        "category": f"k{c}",
                        "name": name,
                        "price_cents": price,
                        "spicy": spicy,
                        "large_extra_cents": round(price * 0.4 / 100) * 100 if sized else 0,
                        "sold_out": False,
                    }
                )
        mine = [d for d in dishes[first:] if d["name"] != "米饭"]
        for d in rng.sample(mine, 2):
            d["sold_out"] = True
        restaurants.append(
            {
                "id": rid,
                "name": title,
                "categories": list(menu),
                "tables": rng.choice((20, 24, 30, 36)),
                "fee_cents": rng.choice((100, 200, 300)),
            }
        )
    coupons = [
        {"id": "cp1", "name": "满100减10", "threshold_cents": 10000, "off_cents": 1000},
        {"id": "cp2", "name": "满200减25", "threshold_cents": 20000, "off_cents": 2500},
        {"id": "cp3", "name": "满300减40", "threshold_cents": 30000, "off_cents": 4000},
    ]
    orders = []
    for i in range(9):
        rest = restaurants[i % len(restaurants)]
        open_dishes = [d for d in dishes if d["restaurant"] == rest["id"] and not d["sold_out"]]
        lines = []
        for d in rng.sample(open_dishes, 3):
            size = "l" if d["large_extra_cents"] and rng.random() < 0.5 else ""
            size = size or ("s" if d["large_extra_cents"] else "")
            spice = rng.randrange(4) if d["spicy"] else -1
            lines.append([d["id"], spice, size, rng.randrange(1, 3), unit_cents(d, size)])
        people = rng.randrange(2, 6)
        food = sum(line[3] * line[4] for line in lines)
        order_id = f"dn-{101 + i}"
        orders.append(
            {
                "id": order_id,
                "restaurant": rest["id"],
                "table": rng.randrange(1, rest["tables"] + 1),
                "people": people,
                "lines": lines,
                "remark": "",
                "coupon": None,
                **totals(food, people, rest["fee_cents"], None),
                "status": "cooking" if i == 0 else "done",
                "number": pickup_number(order_id),
                "days_ago": 0 if i == 0 else 2 * i + 1,
                "pending": None,
                "additions": 0,
            }
        )
    return {"restaurants": restaurants, "dishes": dishes, "coupons": coupons, "orders": orders}
