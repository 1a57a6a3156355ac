"""The shop's seeded content: a catalogue of about 200 products in ten categories, and the
account a fresh device starts with (addresses, coupons, cart, favourites, past orders).

Everything is built from the world's RNG, so every device of a world shares it read-only.
Pure helpers here (search, SKU prices, order status names) are used by the app and its tasks.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

DAY = 86400

# key, label, glyph shown on the home grid, colour of the product pictures
CATEGORIES: tuple[tuple[str, str, str, tuple[int, int, int]], ...] = (
    ("phones", "手机", "机", (96, 125, 139)),
    ("audio", "耳机音响", "耳", (121, 134, 203)),
    ("snacks", "零食", "食", (255, 167, 38)),
    ("clothes", "服装", "衣", (236, 64, 122)),
    ("books", "图书", "书", (141, 110, 99)),
    ("home", "家居", "家", (102, 187, 106)),
    ("beauty", "美妆", "妆", (240, 98, 146)),
    ("sports", "运动", "动", (38, 166, 154)),
    ("digital", "数码配件", "数", (66, 165, 245)),
    ("appliances", "家电", "电", (126, 87, 194)),
)
CATEGORY_LABELS = {key: label for key, label, _, _ in CATEGORIES}

COLOURS = ("黑色", "白色", "灰色", "蓝色", "粉色", "绿色", "米色", "藏青")
PHONE_COLOURS = ("曜石黑", "雪域白", "雅川青", "星河银", "远峰蓝", "晨曦紫")
CLOTHES_SIZES = ("S", "M", "L", "XL", "XXL")
SHOE_SIZES = ("39", "40", "41", "42", "43", "44")

# Phones and books are listed one by one: (brand, item, base price in yuan).
PHONES = (
    ("华为", "Mate 60 Pro 5G手机", 5999), ("华为", "nova 12 轻薄拍照手机", 2599),
    ("小米", "14 Ultra 徕卡影像手机", 6499), ("小米", "Redmi K70 电竞手机", 2499),
    ("小米", "Redmi Note 13 5G手机", 1199), ("苹果", "iPhone 15 手机", 5999),
    ("苹果", "iPhone 15 Pro Max 手机", 9999), ("OPPO", "Find X7 影像旗舰手机", 4499),
    ("OPPO", "Reno 11 人像拍照手机", 2499), ("vivo", "X100 Pro 蔡司影像手机", 4999),
    ("vivo", "iQOO Neo9 性能手机", 2299), ("荣耀", "Magic6 旗舰手机", 4399),
    ("荣耀", "X50 长续航手机", 1399), ("一加", "12 哈苏影像手机", 4299),
    ("realme", "GT5 Pro 游戏手机", 3299), ("三星", "Galaxy S24 AI手机", 5999),
    ("努比亚", "Z60 Ultra 摄影手机", 3699), ("魅族", "21 Pro 旗舰手机", 4399),
)  # fmt: skip
BOOKS = (
    ("刘慈欣", "《三体》全集", 93), ("余华", "《活着》", 35),
    ("尤瓦尔·赫拉利", "《人类简史》", 68), ("马尔克斯", "《百年孤独》", 55),
    ("钱锺书", "《围城》", 39), ("路遥", "《平凡的世界》", 108),
    ("瑞·达利欧", "《原则》", 98), ("圣埃克苏佩里", "《小王子》", 29),
    ("当年明月", "《明朝那些事儿》", 258), ("迟子建", "《额尔古纳河右岸》", 36),
    ("兰小欢", "《置身事内》", 65), ("曹雪芹", "《红楼梦》", 59),
    ("埃里克·马瑟斯", "《Python编程从入门到实践》", 89),
    ("布莱恩特", "《深入理解计算机系统》", 139),
    ("岸见一郎", "《被讨厌的勇气》", 49), ("罗伯特·戴博德", "《蛤蟆先生去看心理医生》", 38),
    ("马伯庸", "《长安的荔枝》", 45), ("史铁生", "《我与地坛》", 32),
)  # fmt: skip

# Other categories: (item, brands that make it, price range in yuan, SKU kind).
ITEMS: dict[str, tuple[tuple[str, tuple[str, ...], int, int, str], ...]] = {
    "audio": (
        ("真无线蓝牙耳机", ("索尼", "漫步者", "华为", "小米", "苹果", "QCY"), 99, 1899,
         "colour+edition"),
        ("头戴式降噪耳机", ("索尼", "Bose", "森海塞尔", "漫步者"), 399, 2999, "colour"),
        ("运动蓝牙耳机", ("漫步者", "倍思", "JBL"), 79, 599, "colour"),
        ("骨传导耳机", ("韶音", "南卡"), 299, 1299, "colour"),
        ("便携蓝牙音箱", ("JBL", "小米", "漫步者", "Bose"), 99, 1499, "colour"),
    ),
    "snacks": (
        ("每日坚果", ("三只松鼠", "良品铺子", "百草味", "沃隆"), 59, 149, "pack"),
        ("猪肉脯", ("良品铺子", "来伊份", "百草味"), 29, 69, "pack"),
        ("芒果干", ("三只松鼠", "良品铺子", "百草味"), 19, 49, "pack"),
        ("辣条", ("卫龙", "麻辣王子"), 9, 29, "flavour"),
        ("薯片", ("乐事", "可比克", "上好佳"), 9, 39, "flavour"),
        ("牛肉干", ("科尔沁", "良品铺子", "三只松鼠"), 39, 99, "flavour"),
        ("夹心饼干", ("奥利奥", "好丽友"), 12, 49, "flavour"),
        ("雪饼大礼包", ("旺旺",), 29, 79, "pack"),
    ),
    "clothes": (
        ("纯棉短袖T恤", ("优衣库", "森马", "海澜之家", "李宁"), 49, 129, "colour+size"),
        ("连帽卫衣", ("李宁", "安踏", "太平鸟", "森马"), 129, 399, "colour+size"),
        ("休闲牛仔裤", ("优衣库", "太平鸟", "海澜之家"), 149, 399, "colour+size"),
        ("轻薄羽绒服", ("波司登", "优衣库", "太平鸟"), 399, 1599, "colour+size"),
        ("商务长袖衬衫", ("海澜之家", "雅戈尔"), 99, 399, "colour+size"),
        ("针织开衫", ("优衣库", "太平鸟", "ZARA"), 149, 399, "colour+size"),
    ),
    "home": (
        ("纯棉四件套", ("水星家纺", "罗莱家纺", "网易严选"), 199, 899, "colour+bedsize"),
        ("记忆棉枕头", ("网易严选", "水星家纺", "小米有品"), 79, 299, "colour"),
        ("保温杯", ("膳魔师", "象印", "乐扣乐扣", "名创优品"), 59, 299, "colour+volume"),
        ("不粘炒锅", ("苏泊尔", "爱仕达", "双立人"), 99, 499, "size_cm"),
        ("护眼台灯", ("小米", "飞利浦", "欧普"), 79, 399, "colour"),
        ("毛巾三条装", ("洁丽雅", "网易严选", "名创优品"), 29, 89, "colour"),
        ("收纳箱", ("宜家", "爱丽思", "名创优品"), 29, 129, "volume"),
    ),
    "beauty": (
        ("修护精华液", ("兰蔻", "雅诗兰黛", "珀莱雅", "欧莱雅"), 199, 1099, "ml"),
        ("保湿面霜", ("薇诺娜", "自然堂", "欧莱雅", "兰蔻"), 99, 899, "ml"),
        ("丝绒口红", ("完美日记", "花西子", "兰蔻", "雅诗兰黛"), 69, 329, "shade"),
        ("清爽防晒霜", ("安热沙", "薇诺娜", "自然堂"), 59, 299, "ml"),
        ("氨基酸洗面奶", ("珀莱雅", "芙丽芳丝", "自然堂"), 39, 199, "ml"),
    ),
    "sports": (
        ("缓震跑步鞋", ("耐克", "阿迪达斯", "李宁", "安踏", "特步"), 299, 999, "colour+shoe"),
        ("加厚瑜伽垫", ("Keep", "迪卡侬"), 59, 199, "colour"),
        ("室内外篮球", ("斯伯丁", "李宁", "摩腾"), 99, 399, "none"),
        ("速干运动T恤", ("耐克", "迪卡侬", "安踏"), 59, 199, "colour+size"),
        ("计数跳绳", ("Keep", "李宁"), 19, 79, "colour"),
        ("可调节哑铃", ("迪卡侬", "Keep"), 99, 499, "weight"),
    ),
    "digital": (
        ("氮化镓快充充电器", ("Anker", "绿联", "倍思", "小米"), 59, 199, "power"),
        ("Type-C数据线", ("绿联", "Anker", "倍思"), 19, 59, "length"),
        ("超薄充电宝", ("Anker", "小米", "罗马仕"), 79, 299, "capacity_mah"),
        ("无线鼠标", ("罗技", "小米", "雷柏"), 49, 399, "colour"),
        ("机械键盘", ("罗技", "雷柏", "阿米洛"), 199, 899, "switch"),
        ("高速U盘", ("闪迪", "金士顿", "爱国者"), 39, 199, "capacity_gb"),
    ),
    "appliances": (
        ("智能电饭煲", ("美的", "苏泊尔", "九阳", "小米"), 199, 899, "volume_l"),
        ("空气炸锅", ("美的", "小熊", "九阳", "飞利浦"), 199, 599, "volume_l"),
        ("电热水壶", ("美的", "苏泊尔", "小米"), 79, 199, "colour"),
        ("高速吹风机", ("戴森", "飞利浦", "小米", "松下"), 99, 2999, "colour"),
        ("扫地机器人", ("石头", "科沃斯", "追觅"), 1499, 3999, "edition"),
        ("声波电动牙刷", ("飞利浦", "欧乐B", "小米"), 99, 599, "colour"),
    ),
}  # fmt: skip

# SKU kinds: option groups as (group name, options as (label, extra yuan)).
SkuGroups = tuple[tuple[str, tuple[tuple[str, int], ...]], ...]
SKU_GROUPS: dict[str, SkuGroups] = {
    "none": (),
    "edition": (("版本", (("标准版", 0), ("Pro版", 500), ("Ultra版", 1000))),),
    "pack": (("规格", (("单袋装", 0), ("3袋装", 0), ("礼盒装", 0))),),
    "flavour": (("口味", (("原味", 0), ("香辣味", 0), ("烧烤味", 0), ("番茄味", 0))),),
    "bedsize": (("尺寸", (("1.5m床", 0), ("1.8m床", 100), ("2.0m床", 200))),),
    "volume": (("容量", (("350ml", 0), ("500ml", 20), ("750ml", 40))),),
    "size_cm": (("尺寸", (("28cm", 0), ("30cm", 30), ("32cm", 60))),),
    "ml": (("规格", (("30ml", 0), ("50ml", 0), ("100ml", 0))),),
    "shade": (("色号", (("#999 正红", 0), ("#196 橘红", 0), ("#888 豆沙", 0), ("#520 玫瑰", 0))),),
    "shoe": (("尺码", tuple((size, 0) for size in SHOE_SIZES)),),
    "weight": (("重量", (("10kg", 0), ("20kg", 100), ("30kg", 200))),),
    "power": (("功率", (("30W", 0), ("65W", 40), ("100W", 90))),),
    "length": (("长度", (("1m", 0), ("2m", 10))),),
    "capacity_mah": (("容量", (("10000mAh", 0), ("20000mAh", 60))),),
    "switch": (("轴体", (("青轴", 0), ("红轴", 0), ("茶轴", 20))),),
    "capacity_gb": (("容量", (("64GB", 0), ("128GB", 30), ("256GB", 80))),),
    "volume_l": (("容量", (("3L", 0), ("4L", 60), ("5L", 120))),),
    "phone_storage": (("存储", (("8GB+256GB", 0), ("12GB+256GB", 300), ("12GB+512GB", 800))),),
    "book": (("版本", (("平装", 0), ("精装", 20))),),
}

# Groups whose options are priced as a multiple of the product's base price (bigger packs).
EXTRA_FACTORS = {"pack": (0.0, 1.6, 2.2), "ml": (0.0, 0.6, 1.5)}
SHOP_SUFFIXES = ("官方旗舰店", "官方旗舰店", "官方旗舰店", "旗舰店", "专卖店", "自营店")


def _price(rng: random.Random, low: int, high: int) -> int:
    """A shop-like price in cents between low and high yuan: 299.00, 1999.00, 39.90."""
    yuan = rng.uniform(low, high)
    if yuan >= 100:
        return (int(yuan) // 10 * 10 + 9) * 100
    return int(yuan) * 100 + 90


def _colour_group(rng: random.Random, palette: Sequence[str] = COLOURS) -> tuple[str, Any]:
    chosen = rng.sample(list(palette), k=rng.randrange(2, 5))
    return ("颜色", tuple((colour, 0) for colour in chosen))


def _groups(kind: str, rng: random.Random, base_cents: int) -> SkuGroups:
    groups: list[tuple[str, Any]] = []
    for part in kind.split("+"):
        if part == "colour":
            groups.append(_colour_group(rng))
        elif part == "size":
            groups.append(("尺码", tuple((size, 0) for size in CLOTHES_SIZES)))
        elif part in EXTRA_FACTORS:
            name, options = SKU_GROUPS[part][0]
            extras = (round(base_cents * factor / 100) for factor in EXTRA_FACTORS[part])
            groups.append(
                (name, tuple((label, e) for (label, _), e in zip(options, extras, strict=True)))
            )
        else:
            groups.extend(SKU_GROUPS[part])
    return tuple(groups)


def _sku_records(groups: SkuGroups) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "options": [{"label": label, "delta_cents": extra * 100} for label, extra in options],
        }
        for name, options in groups
    ]


def _product(
    rng: random.Random,
    number: int,
    category: str,
    brand: str,
    item: str,
    price_cents: int,
    groups: SkuGroups,
) -> dict[str, Any]:
    return {
        "id": f"p{number:03d}",
        "name": f"{brand} {item}",
        "brand": brand,
        "category": category,
        "price_cents": price_cents,
        "rating": round(rng.uniform(4.5, 5.0), 1),
        "sales": int(10 ** rng.uniform(1.5, 5.3)),
        "shop": brand + rng.choice(SHOP_SUFFIXES),
        "skus": _sku_records(groups),
    }


def build_catalogue(rng: random.Random) -> list[dict[str, Any]]:
    products: list[dict[str, Any]] = []

    def add(category: str, brand: str, item: str, price_cents: int, groups: SkuGroups) -> None:
        products.append(
            _product(rng, len(products) + 1, category, brand, item, price_cents, groups)
        )

    for brand, item, yuan in PHONES:
        colours = _colour_group(rng, PHONE_COLOURS)
        add("phones", brand, item, yuan * 100, (colours, *SKU_GROUPS["phone_storage"]))
    for author, title, yuan in BOOKS:
        add("books", author, title, yuan * 100 - 10 * rng.randrange(0, 3), SKU_GROUPS["book"])
    for category, items in ITEMS.items():
        for item, brands, low, high, kind in items:
            for brand in brands:
                price = _price(rng, low, high)
                add(category, brand, item, price, _groups(kind, rng, price))
    return products


def matches(product: Mapping[str, Any], query: str) -> bool:
    """Every word of the query appears in the product's name, brand or category."""
    haystack = f"{product['name']} {product['brand']} {CATEGORY_LABELS[product['category']]}"
    haystack = haystack.lower()
    words = query.lower().split()
    return bool(words) and all(word in haystack for word in words)


def search(products: Iterable[Mapping[str, Any]], query: str) -> list[Mapping[str, Any]]:
    return [product for product in products if matches(product, query)]


def default_options(product: Mapping[str, Any]) -> dict[str, str]:
    """The SKU a product page starts with: the first option of every group."""
    return {group["name"]: group["options"][0]["label"] for group in product["skus"]}


def sku_price(product: Mapping[str, Any], options: Mapping[str, str]) -> int:
    """The unit price in cents of the product with the chosen options."""
    extra = 0
    for group in product["skus"]:
        chosen = options.get(group["name"])
        extra += next((o["delta_cents"] for o in group["options"] if o["label"] == chosen), 0)
    return int(product["price_cents"]) + extra


def options_text(options: Mapping[str, str]) -> str:
    return "；".join(options.values()) if options else "默认规格"


# -- the account a fresh device starts with ---------------------------------------------------
ORDER_STATUS = {
    "unpaid": "待付款",
    "to_ship": "待发货",
    "to_receive": "待收货",
    "completed": "已完成",
    "cancelled": "已取消",
}
# Other ways people name each status, for answer checking.
STATUS_SYNONYMS = {
    "unpaid": ("待付款", "未付款", "等待付款", "unpaid", "awaiting payment"),
    "to_ship": (
        "待发货",
        "未发货",
        "等待发货",
        "awaiting shipment",
        "to be shipped",
        "not shipped",
    ),
    "to_receive": ("待收货", "已发货", "运输中", "shipped", "in transit", "awaiting receipt"),
    "completed": ("已完成", "交易成功", "已签收", "completed", "delivered"),
    "cancelled": ("已取消", "交易关闭", "cancelled", "canceled", "closed"),
}
BUYERS = ("陈晓", "王磊", "李静", "张敏", "刘洋", "赵婷", "杨帆", "周琳")
ADDRESSES = (
    ("家", "浙江省 杭州市 西湖区", "文三路 478 号 华星时代广场 2 幢 1203 室"),
    ("公司", "浙江省 杭州市 余杭区", "文一西路 969 号 未来科技城 5 号楼 8 层"),
    ("父母家", "江苏省 苏州市 姑苏区", "人民路 1188 号 沧浪新村 12 幢 302 室"),
    ("学校", "上海市 杨浦区", "邯郸路 220 号 本部北区 6 号楼 415 室"),
)
COUPONS = (
    ("全店通用满减券", 19900, 2000),
    ("新人专享红包", 9900, 1000),
    ("大额满减券", 99900, 10000),
)
# Status of each seeded order, oldest first.
SEEDED_ORDER_STATUSES = (
    "completed", "completed", "cancelled", "completed", "to_receive",
    "to_receive", "to_ship", "unpaid", "unpaid",
)  # fmt: skip
# Unpaid orders stay cheap so that any seeded wallet balance (from ¥800) can pay them.
CHEAP_LIMIT_CENTS = 30000
CART_ITEM_LIMIT_CENTS = 18000


def _masked_phone(rng: random.Random) -> str:
    return f"1{rng.choice('3589')}{rng.randrange(10)}****{rng.randrange(10000):04d}"


def _addresses(rng: random.Random) -> list[dict[str, Any]]:
    buyer = rng.choice(BUYERS)
    phone = _masked_phone(rng)
    chosen = [ADDRESSES[0], *rng.sample(ADDRESSES[1:], k=2)]
    return [
        {"id": f"addr-{i + 1}", "tag": tag, "name": buyer, "phone": phone, "region": region,
         "detail": detail, "default": i == 0}
        for i, (tag, region, detail) in enumerate(chosen)
    ]  # fmt: skip


def _coupons() -> list[dict[str, Any]]:
    return [
        {"id": f"coupon-{i + 1}", "title": title, "threshold_cents": threshold,
         "discount_cents": discount, "used": False, "expires": "2026-04-30"}
        for i, (title, threshold, discount) in enumerate(COUPONS)
    ]  # fmt: skip


def order_line(product: Mapping[str, Any], options: Mapping[str, str], quantity: int) -> dict:
    return {
        "product_id": product["id"],
        "name": product["name"],
        "shop": product["shop"],
        "options": dict(options),
        "quantity": quantity,
        "price_cents": sku_price(product, options),
    }


def _random_options(rng: random.Random, product: Mapping[str, Any]) -> dict[str, str]:
    return {g["name"]: rng.choice(g["options"])["label"] for g in product["skus"]}


def _orders(
    rng: random.Random, products: Sequence[Mapping[str, Any]], address_ids: Sequence[str]
) -> list[dict[str, Any]]:
    cheap = [p for p in products if p["price_cents"] <= CHEAP_LIMIT_CENTS // 2]
    picked = rng.sample(list(products), k=len(SEEDED_ORDER_STATUSES))
    orders = []
    days_ago = 40
    for i, status in enumerate(SEEDED_ORDER_STATUSES):
        product = rng.choice(cheap) if status == "unpaid" else picked[i]
        line = order_line(product, _random_options(rng, product), rng.choice((1, 1, 1, 2)))
        days_ago -= rng.randrange(2, 5)
        created = EPOCH_START - max(1, days_ago) * DAY - rng.randrange(0, 36000)
        total = line["price_cents"] * line["quantity"]
        orders.append(
            {
                "id": f"order-s{i + 1}",
                "number": f"{3_000_000_000 + created % 1_000_000_000}{rng.randrange(10**6):06d}",
                "items": [line],
                "address_id": rng.choice(address_ids),
                "coupon_id": None,
                "subtotal_cents": total,
                "discount_cents": 0,
                "total_cents": total,
                "status": status,
                "created_at": created,
                "paid_at": None if status in ("unpaid", "cancelled") else created + 120,
            }
        )
    return orders


def build_account(rng: random.Random, products: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    addresses = _addresses(rng)
    orders = _orders(rng, products, [a["id"] for a in addresses])
    ordered = {line["product_id"] for order in orders for line in order["items"]}
    others = [p for p in products if p["id"] not in ordered]
    # Mostly everyday items (any two of them are affordable together), and one big-ticket wish.
    cheap = [p for p in others if p["price_cents"] <= CART_ITEM_LIMIT_CENTS]
    in_cart = rng.sample(cheap, k=3)
    in_cart.insert(rng.randrange(4), rng.choice([p for p in others if p not in in_cart]))
    cart = [
        {"id": f"line-s{i + 1}", "product_id": p["id"], "options": _random_options(rng, p),
         "quantity": rng.choice((1, 1, 2))}
        for i, p in enumerate(in_cart)
    ]  # fmt: skip
    favourites = rng.sample([p for p in others if p not in in_cart], k=3)
    return {
        "addresses": addresses,
        "coupons": _coupons(),
        "orders": orders,
        "cart": cart,
        "favorites": [{"id": p["id"], "added_at": EPOCH_START - 9 * DAY} for p in favourites],
    }


def build(rng: random.Random) -> dict[str, Any]:
    products = build_catalogue(rng)
    return {
        "categories": [
            {"key": key, "label": label, "glyph": glyph, "color": list(color)}
            for key, label, glyph, color in CATEGORIES
        ],
        "products": products,
        "account": build_account(rng, products),
    }
