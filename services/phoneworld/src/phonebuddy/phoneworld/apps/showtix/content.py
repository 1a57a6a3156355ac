"""The seeded catalogue of 演出票: shows in six cities, their sessions (days after today and a
start time), price tiers with the ones sold out per session, and the user's 观演人 and orders.

Session days are offsets from the phone's current day, because each episode's clock starts on a
different day; the app prints the dates from the clock."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

CITIES = ("北京", "上海", "广州", "深圳", "成都", "杭州")
CATEGORIES = ("演唱会", "话剧", "音乐剧", "脱口秀", "展览", "体育")
# Price tiers in yuan per category (some cheap enough for the wallet's balance).
TIERS = {
    "演唱会": (380, 580, 880, 1280),
    "话剧": (120, 280, 480, 680),
    "音乐剧": (180, 380, 580, 880),
    "脱口秀": (80, 120, 180, 280),
    "展览": (60, 99, 160),
    "体育": (180, 380, 580, 880),
}
TIMES = {"展览": ("10:00",), "体育": ("15:00", "19:35"), "脱口秀": ("19:30", "21:00"),
         "演唱会": ("19:00", "19:30"), "话剧": ("14:00", "19:30"),
         "音乐剧": ("14:30", "19:30")}  # fmt: skip
# (title, artists) per category
SHOWS = {
    "演唱会": (("星河回响巡回演唱会", ("林夏",)), ("夏夜漫游演唱会", ("周屿", "乐队青柠")),
              ("追光者世界巡演", ("陈星野",)), ("城市民谣之夜", ("赵小雷", "马頔安")),
              ("海浪音乐会", ("苏打绿洲",)), ("经典老歌演唱会", ("韩磊声", "叶蓓蓓"))),
    "话剧": (("雷雨", ("北京人艺",)), ("茶馆", ("老舍剧社",)), ("恋爱的犀牛", ("孟京辉工作室",)),
            ("暗恋桃花源", ("表演工作坊",)), ("白鹿原", ("陕西人艺",)), ("驴得水", ("开心麻花",))),
    "音乐剧": (("猫", ("原版巡演团",)), ("剧院魅影", ("原版巡演团",)), ("蝶", ("中文版剧组",)),
              ("摇滚红与黑", ("法语原版团",)), ("阿波罗尼亚", ("中文版剧组",)),
              ("寻找初恋", ("韩国原版团",))),
    "脱口秀": (("笑果周末秀", ("呼兰然", "周奇墨安")), ("单口喜剧专场", ("鸟鸟飞",)),
              ("吐槽大会线下场", ("王建华", "李诞然")), ("深夜开放麦", ("新人演员",)),
              ("即兴喜剧之夜", ("即兴社",)), ("漫才对对碰", ("双人组合",))),
    "展览": (("梵高沉浸式艺术展", ("艺术馆策展",)), ("恐龙复原科学展", ("自然博物馆",)),
            ("敦煌数字艺术展", ("敦煌研究院",)), ("宫崎骏动画手稿展", ("动画美术馆",)),
            ("光影互动展", ("新媒体艺术团",)), ("故宫文物特展", ("故宫博物院",))),
    "体育": (("中超联赛 主场对决", ("城市足球俱乐部",)), ("CBA篮球常规赛", ("CBA",)),
            ("网球公开赛", ("ATP",)), ("城市马拉松观赛", ("田径协会",)),
            ("排球超级联赛", ("中国排协",)), ("电竞总决赛", ("KPL",))),
}  # fmt: skip
VENUES = {
    "北京": ("国家体育馆", "保利剧院", "天桥艺术中心", "北展剧场", "798艺术中心"),
    "上海": ("梅赛德斯奔驰文化中心", "上海大剧院", "上海文化广场", "西岸美术馆"),
    "广州": ("广州体育馆", "广州大剧院", "友谊剧院", "天河体育中心"),
    "深圳": ("深圳湾体育中心", "深圳保利剧院", "南山文体中心", "深圳当代艺术馆"),
    "成都": ("凤凰山体育馆", "四川大剧院", "城市音乐厅", "成都博物馆"),
    "杭州": ("黄龙体育中心", "杭州大剧院", "运河大剧院", "浙江美术馆"),
}
BLURBS = ("现场氛围热烈，每一场都是独一无二的回忆。", "口碑之作再度回归，经典值得一看再看。",
          "全新制作，舞美与灯光全面升级。", "适合与家人朋友一同观看，老少皆宜。",
          "一票难求的热门演出，建议尽早购票。", "沉浸式的体验，让你身临其境。")  # fmt: skip
LIMITS = (2, 4, 4, 6)
# The user's 观演人: (name, region code, birth date)
PEOPLE = (("王小明", "110105", "19920315"), ("李婷", "310104", "19950822"),
          ("陈浩", "440106", "19881109"))  # fmt: skip
ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
ID_CHECKS = "10X98765432"
REFUND_FEE_PERCENT = 20
REFUND_HOURS = 48


def id_check(first17: str) -> str:
    """The 18th character of a resident ID (GB 11643 checksum)."""
    total = sum(int(c) * w for c, w in zip(first17, ID_WEIGHTS, strict=True))
    return ID_CHECKS[total % 11]


def valid_id(number: str) -> bool:
    number = number.strip().upper()
    if len(number) != 18 or not number[:17].isdigit():
        return False
    try:
        dt.date(int(number[6:10]), int(number[10:12]), int(number[12:14]))
    except ValueError:
        return False
    return id_check(number[:17]) == number[17]


def make_id(region: str, birth: str, seq: int) -> str:
    first = f"{region}{birth}{seq:03d}"
    return first + id_check(first)


def _venue(rng: random.Random, city: str, category: str) -> str:
    """Each city lists its arena first, its gallery last and its theatres between."""
    venues = VENUES[city]
    if category in ("演唱会", "体育"):
        return venues[0]
    if category == "展览":
        return venues[-1]
    return rng.choice(venues[1:-1])


def _sessions(rng: random.Random, show_id: str, category: str, tiers: tuple[int, ...]) -> list[Any]:
    days = sorted(rng.sample(range(1, 31), rng.randrange(2, 5)))
    sessions = []
    for n, day in enumerate(days, start=1):
        sold = [p for p in tiers if rng.random() < 0.3]
        if len(sold) == len(tiers):
            sold = sold[1:]
        sessions.append({"id": f"{show_id}-{n}", "day": day, "time": rng.choice(TIMES[category]),
                         "sold_out": sold})  # fmt: skip
    return sessions


def build(rng: random.Random) -> dict[str, Any]:
    shows = []
    n = 0
    for k, category in enumerate(CATEGORIES):
        for i, (title, artists) in enumerate(SHOWS[category]):
            n += 1
            show_id = f"s-{n:02d}"
            city = CITIES[(i + k) % len(CITIES)]  # each city gets one show of each category
            tiers = TIERS[category]
            shows.append({
                "id": show_id, "title": title, "category": category, "city": city,
                "venue": _venue(rng, city, category), "artists": list(artists),
                "heat": rng.randrange(1000, 99000), "limit": rng.choice(LIMITS),
                "real_name": category != "展览" and rng.random() < 0.6,
                "tiers": [p * 100 for p in tiers],
                "sessions": _sessions(rng, show_id, category, tuple(p * 100 for p in tiers)),
                "intro": f"{title}，{'、'.join(artists)}倾情呈现。" + rng.choice(BLURBS),
            })  # fmt: skip
    viewers = [{"id": f"v-{i + 1}", "name": name,
                "idno": make_id(region, birth, rng.randrange(10, 999))}
               for i, (name, region, birth) in enumerate(PEOPLE)]  # fmt: skip
    return {"shows": shows, "viewers": viewers, "orders": _orders(rng, shows, viewers),
            "want": [s["id"] for s in rng.sample(shows, 4)]}  # fmt: skip


def _orders(rng: random.Random, shows: list[Any], viewers: list[Any]) -> list[Any]:
    """Two paid orders: one more than 48 hours away (refundable), one tomorrow (not)."""
    orders = []
    later = [s for s in shows if s["sessions"][-1]["day"] >= 5]
    first = rng.choice(later)
    second = rng.choice([s for s in shows if s["id"] != first["id"]])
    second["sessions"][0]["day"] = 1  # tomorrow: within 48 hours, so it cannot be refunded
    for k, (show, session) in enumerate(((first, first["sessions"][-1]),
                                          (second, second["sessions"][0])), start=1):  # fmt: skip
        tier = next(p for p in show["tiers"] if p not in session["sold_out"])
        qty = 2 if show["real_name"] else rng.randrange(1, 3)
        orders.append({
            "id": f"o-{k}", "order_no": f"{rng.randrange(10**15, 10**16)}",
            "code": f"{rng.randrange(10**7, 10**8)}", "show": show["id"],
            "session": session["id"], "tier": tier, "qty": qty,
            "viewers": [v["id"] for v in viewers[:qty]] if show["real_name"] else [],
            "total": tier * qty, "status": "已付款", "refund": 0,
        })  # fmt: skip
    return orders


def price_label(cents: int) -> str:
    return f"¥{cents // 100}"


def session_date(today: dt.date, session: Any) -> dt.date:
    return today + dt.timedelta(days=session["day"])


def date_label(day: dt.date) -> str:
    weekday = "一二三四五六日"[day.weekday()]
    return f"{day.month}月{day.day}日 周{weekday}"
