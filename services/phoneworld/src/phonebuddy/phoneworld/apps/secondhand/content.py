"""The seeded market of 闲置: sellers, ~50 listings (some sold), the user's own listings,
addresses, past orders and chats with sellers."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

CATEGORIES = ("手机", "数码", "图书", "自行车", "家具", "服饰", "相机", "家电")
CONDITIONS = ("全新", "九成新", "八成新", "七成新")
CITIES = ("杭州", "上海", "北京", "深圳", "成都", "南京")
CREDITS = ("信用极好", "信用优秀", "信用良好")
DAY = 86400
ME = "me"
# (title, category, price in yuan around which the seed draws)
ITEMS = (
    ("苹果手机十三代 128G", "手机", 2300), ("华为Mate手机 256G", "手机", 2600),
    ("小米手机 红米款", "手机", 650), ("荣耀手机 青春版", "手机", 520),
    ("OPPO手机 拍照版", "手机", 900), ("一加手机 旗舰款", "手机", 1500),
    ("蓝牙降噪耳机", "数码", 420), ("平板电脑 学习版", "数码", 1300),
    ("机械键盘 青轴", "数码", 160), ("智能手表 运动款", "数码", 380),
    ("移动硬盘 两T", "数码", 260), ("游戏手柄 无线款", "数码", 140),
    ("考研英语真题全套", "图书", 45), ("经典名著套装", "图书", 80),
    ("编程入门教材", "图书", 35), ("儿童绘本一箱", "图书", 60),
    ("考公申论资料", "图书", 30), ("摄影构图指南", "图书", 25),
    ("山地自行车 禧玛诺变速", "自行车", 680), ("公路自行车 碳架", "自行车", 2200),
    ("折叠自行车 轻便款", "自行车", 420), ("城市通勤自行车", "自行车", 330),
    ("儿童自行车 辅助轮", "自行车", 150), ("复古淑女自行车", "自行车", 280),
    ("实木书桌", "家具", 360), ("布艺沙发 三人位", "家具", 900),
    ("人体工学椅", "家具", 520), ("宜家书架 白色", "家具", 150),
    ("折叠餐桌", "家具", 200), ("床头柜 两个", "家具", 90),
    ("羽绒服 黑色L码", "服饰", 260), ("运动鞋 四十二码", "服饰", 300),
    ("羊毛大衣 驼色", "服饰", 420), ("真皮双肩包", "服饰", 350),
    ("牛仔外套", "服饰", 120), ("汉服 齐胸襦裙", "服饰", 180),
    ("微单相机 套机", "相机", 3800), ("胶片相机 旁轴", "相机", 900),
    ("拍立得相机", "相机", 420), ("运动相机 防水款", "相机", 1100),
    ("定焦镜头 大光圈", "相机", 1600), ("单反相机 入门款", "相机", 2100),
    ("空气炸锅", "家电", 160), ("扫地机器人", "家电", 700),
    ("咖啡机 半自动", "家电", 850), ("电饭煲 智能款", "家电", 180),
    ("加湿器", "家电", 70), ("吸尘器 无线款", "家电", 500),
)  # fmt: skip
NICKS = (
    "小鱼干", "阿杰的闲置", "晴天娃娃", "老王二手", "芒果布丁", "清风徐来", "数码控小陈",
    "爱骑车的猫", "书虫一枚", "搬家清仓", "咸鱼翻身", "南山南", "橘子汽水", "摄影老李",
    "温柔的风", "极简生活家",
)  # fmt: skip
OWN = (
    ("九成新电动牙刷", "家电", 120, "用了三个月，刷头全新两个。"),
    ("瑜伽垫 加厚款", "服饰", 50, "买来只用过几次，无异味。"),
    ("考研数学全家桶", "图书", 90, "笔记不多，适合二刷。"),
    ("小米台灯", "家电", 60, "护眼台灯，功能正常。"),
)  # fmt: skip
DESCRIPTIONS = (
    "自用闲置，功能一切正常，有轻微使用痕迹。", "搬家出，能自提最好，同城可面交。",
    "买来没怎么用，配件齐全，支持验货。", "外观完好，无磕碰，诚心要的来。",
    "换新了所以出掉，价格可小刀。", "成色看图，非诚勿扰，不退不换。",
)  # fmt: skip
ADDRESSES = (
    ("家", "林小北", "13812345678", "浙江省杭州市西湖区", "文三路138号东方花园3幢502"),
    ("公司", "林小北", "13812345678", "浙江省杭州市滨江区", "网商路699号科技园B座12楼"),
    ("父母家", "林国栋", "13905716688", "浙江省宁波市鄞州区", "天童南路88号金色家园8幢"),
)  # fmt: skip
STREETS = ("文三路", "中山北路", "建国路", "人民路", "解放大道", "天府大道")


def _seller(i: int, nick: str, rng: random.Random) -> dict[str, Any]:
    city = CITIES[i % len(CITIES)]
    return {
        "id": f"s-{i + 1:02d}",
        "nick": nick,
        "city": city,
        "credit": rng.choice(CREDITS),
        "phone": rng.choice(("135", "138", "139", "186", "187")) + f"{rng.randrange(10**8):08d}",
        "address": f"{city}市{rng.choice(STREETS)}{rng.randrange(10, 400)}号",
    }


def _listing(i: int, item: tuple[str, str, int], rng: random.Random,
             seller: str, condition: str, shipping: int) -> dict[str, Any]:  # fmt: skip
    title, category, base = item
    price = max(10, base + rng.randrange(-base // 5, base // 5 + 1)) // 5 * 5
    return {
        "id": f"l-{i + 1:02d}",
        "title": title,
        "category": category,
        "price": price * 100,
        "original": (price * 2 + rng.randrange(1, 20) * 10) * 100,
        "condition": condition,
        "seller": seller,
        "desc": rng.choice(DESCRIPTIONS),
        "wants": rng.randrange(0, 80),
        "posted": EPOCH_START - rng.randrange(1, 40) * DAY - rng.randrange(0, DAY),
        "shipping": shipping,
        "sold": False,
    }


def build(rng: random.Random) -> dict[str, Any]:
    sellers = [_seller(i, nick, rng) for i, nick in enumerate(NICKS)]
    listings = []
    # Bikes get a fixed spread of conditions so "the cheapest 九成新 bike with 包邮" always has
    # several candidates.
    bike_conditions = ["九成新", "九成新", "九成新", "八成新", "全新", "七成新"]
    rng.shuffle(bike_conditions)
    nine = 0
    for i, item in enumerate(ITEMS):
        if item[1] == "自行车":
            condition = bike_conditions.pop()
            free = condition != "九成新" or nine < 2 or rng.random() < 0.5
            nine += condition == "九成新"
        else:
            condition = rng.choice(CONDITIONS)
            free = rng.random() < 0.55
        shipping = 0 if free else rng.choice((8, 10, 12, 15, 20)) * 100
        seller = sellers[rng.randrange(len(sellers))]["id"]
        listings.append(_listing(i, item, rng, seller, condition, shipping))
    # A few are sold already, never the bikes' 九成新 ones the questions rely on.
    sold = rng.sample([x for x in listings if x["category"] != "自行车"], 6)
    for listing in sold:
        listing["sold"] = True
    for j, (title, category, price, desc) in enumerate(OWN):
        listings.append({
            "id": f"m-{j + 1}", "title": title, "category": category, "price": price * 100,
            "original": price * 300, "condition": "九成新", "seller": ME, "desc": desc,
            "wants": rng.randrange(0, 15), "posted": EPOCH_START - (j + 2) * DAY,
            "shipping": 0 if j % 2 == 0 else 800, "sold": False,
        })  # fmt: skip
    on_sale = [x for x in listings if not x["sold"] and x["seller"] != ME]
    favourites = [x["id"] for x in rng.sample(on_sale, 3)]
    orders = [
        _order(f"o-{k + 1}", listing, status)
        for k, (listing, status) in enumerate(zip(sold[:3], ("to_receive", "to_receive", "done"),
                                                  strict=True))
    ]  # fmt: skip
    threads = _threads(rng, sellers, on_sale)
    addresses = [
        {"id": f"a-{k + 1}", "tag": tag, "name": name, "phone": phone, "region": region,
         "detail": detail, "default": k == 0}
        for k, (tag, name, phone, region, detail) in enumerate(ADDRESSES)
    ]  # fmt: skip
    return {
        "sellers": sellers,
        "listings": listings,
        "favourites": favourites,
        "orders": orders,
        "threads": threads,
        "addresses": addresses,
    }


def _order(order_id: str, listing: dict[str, Any], status: str) -> dict[str, Any]:
    return {
        "id": order_id,
        "listing": listing["id"],
        "title": listing["title"],
        "price": listing["price"],
        "shipping": listing["shipping"],
        "total": listing["price"] + listing["shipping"],
        "address_id": "a-1",
        "status": status,
        "created_at": EPOCH_START - 5 * DAY,
        "paid_at": EPOCH_START - 5 * DAY,
    }


def _threads(rng: random.Random, sellers: list[dict[str, Any]],
             on_sale: list[dict[str, Any]]) -> list[dict[str, Any]]:  # fmt: skip
    """Chats about five listings of five sellers; the sellers of the first three gave their
    phone number and pick-up address."""
    by_id = {s["id"]: s for s in sellers}
    chosen: list[dict[str, Any]] = []
    for listing in rng.sample(on_sale, len(on_sale)):
        if all(listing["seller"] != c["seller"] for c in chosen):
            chosen.append(listing)
        if len(chosen) == 5:
            break
    threads = []
    for k, listing in enumerate(chosen):
        seller = by_id[listing["seller"]]
        t0 = EPOCH_START - (k + 1) * 7200
        said = [(True, "你好，这个还在吗？"), (False, "在的，东西没问题。")]
        if k < 3:
            reply = f"可以，我电话{seller['phone']}，自提地址：{seller['address']}"
            said += [(True, "方便的话能当面看看吗？"), (False, reply)]
        messages = [
            {"id": f"msg-{k}-{n}", "mine": mine, "text": text, "time": t0 + n * 300, "offer": None}
            for n, (mine, text) in enumerate(said)
        ]
        threads.append({"id": f"t-{listing['id']}", "listing": listing["id"],
                        "seller": seller["id"], "messages": messages})  # fmt: skip
    return threads


def yuan(cents: int) -> str:
    return f"¥{cents // 100}" if cents % 100 == 0 else f"¥{cents / 100:.2f}"


def shipping_label(cents: int) -> str:
    return "包邮" if cents == 0 else f"运费{cents // 100}元"
