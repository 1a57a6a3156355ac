"""The bank's seeded content: the owner's two cards, two and a half months of transactions
(January, February and the first half of March, before any episode's clock), saved payees, the
credit card's bill; and the card-number rules (Luhn check, issuer by BIN, masking)."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

from phonebuddy.phoneworld.ui.format import BEIJING, local_time

BANK = "com.pw.bank"
BANK_NAME = "招商银行"
SMS_SENDER = ("95555", "招商银行")
DEBIT, CREDIT = "debit", "credit"
EXPENSE, INCOME = "expense", "income"
# Issuer by the first four digits (BIN) of a card number.
ISSUERS = {
    "6222": "工商银行", "6217": "建设银行", "6228": "农业银行", "6216": "中国银行",
    "6225": "招商银行", "6230": "交通银行", "6226": "光大银行", "6214": "招商银行",
}  # fmt: skip
PAYEE_BINS = ("6222", "6217", "6228", "6216", "6225", "6230", "6226")
MERCHANTS = {
    "餐饮": ("肯德基", "麦当劳", "海底捞火锅", "星巴克", "瑞幸咖啡", "喜茶", "沙县小吃", "必胜客",
             "西贝莜面村", "外婆家", "老乡鸡", "美团外卖"),
    "购物": ("京东商城", "淘宝", "盒马鲜生", "永辉超市", "优衣库", "屈臣氏", "名创优品",
             "天猫超市"),
    "交通": ("滴滴出行", "中国石化加油站", "中国铁路", "杭州地铁", "哈啰单车", "东方航空"),
    "娱乐": ("万达影城", "网易云音乐", "腾讯视频", "大麦网", "KTV欢乐迪", "健身房月卡"),
    "生活缴费": ("国家电网", "中国移动话费", "杭州水务", "杭州燃气"),
    "医疗": ("老百姓大药房", "浙一医院门诊"),
}  # fmt: skip
CATEGORIES = tuple(MERCHANTS)
# (category, lowest and highest amount in yuan, weight)
SPENDING = {"餐饮": (18, 320, 9), "购物": (30, 1200, 5), "交通": (4, 800, 4), "娱乐": (15, 400, 2),
            "生活缴费": (50, 300, 2), "医疗": (20, 600, 1)}  # fmt: skip
EMPLOYER = "杭州云帆科技有限公司"
PAYEE_NAMES = ("张伟", "王芳", "李娜", "刘洋", "陈静", "杨帆", "赵磊", "黄丽", "周杰", "吴敏",
               "孙浩", "马超", "朱琳", "胡军", "郭婷", "何平")  # fmt: skip
SAVED_PAYEES = 5
MONTHS = ((2026, 1, 31, 21), (2026, 2, 28, 21), (2026, 3, 15, 12))  # year, month, days, rows


def luhn_digit(body: str) -> str:
    """The check digit that makes `body` + it pass the Luhn check."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d * 2 > 9 else d * 2
        total += d
    return str((10 - total % 10) % 10)


def luhn_ok(number: str) -> bool:
    return len(number) > 1 and number.isdigit() and luhn_digit(number[:-1]) == number[-1]


def card_number(rng: random.Random, bin_: str, length: int = 16) -> str:
    body = bin_ + "".join(rng.choice("0123456789") for _ in range(length - len(bin_) - 1))
    return body + luhn_digit(body)


def issuer(number: str) -> str:
    return ISSUERS.get(number[:4], "其他银行")


def spaced(number: str) -> str:
    """'6222 0212 3456 7890 123': groups of four."""
    return " ".join(number[i : i + 4] for i in range(0, len(number), 4))


def masked(number: str) -> str:
    """'6222 **** **** 7890'."""
    return f"{number[:4]} **** **** {number[-4:]}"


def tail(number: str) -> str:
    return number[-4:]


def money(cents: int) -> str:
    """'1,234.50'."""
    return f"{cents / 100:,.2f}"


def month_of(epoch: int) -> int:
    return local_time(epoch).month


def _moment(rng: random.Random, year: int, month: int, day: int) -> int:
    hour = rng.randrange(8, 22)
    at = dt.datetime(year, month, day, hour, rng.randrange(60), tzinfo=BEIJING)
    return int(at.timestamp())


def _cents(rng: random.Random, low: int, high: int) -> int:
    return rng.randrange(low * 100, high * 100) + rng.choice((0, 0, 50, rng.randrange(1, 100)))


def _month_rows(rng: random.Random, year: int, month: int, days: int, count: int) -> list[Any]:
    rows: list[dict[str, Any]] = []
    weights = [SPENDING[c][2] for c in CATEGORIES]
    for _ in range(count):
        category = rng.choices(CATEGORIES, weights=weights)[0]
        low, high, _ = SPENDING[category]
        rows.append({"kind": EXPENSE, "category": category,
                     "merchant": rng.choice(MERCHANTS[category]),
                     "amount_cents": _cents(rng, low, high),
                     "card": CREDIT if rng.random() < 0.4 else DEBIT,
                     "time": _moment(rng, year, month, rng.randrange(1, days + 1))})  # fmt: skip
    rows.append({"kind": INCOME, "category": "工资", "merchant": f"{EMPLOYER} 代发工资",
                 "amount_cents": rng.randrange(80, 110) * 10000, "card": DEBIT,
                 "time": _moment(rng, year, month, 10)})  # fmt: skip
    if rng.random() < 0.8:
        sender = rng.choice(PAYEE_NAMES)
        rows.append({"kind": INCOME, "category": "转账", "merchant": f"{sender} 转入",
                     "amount_cents": rng.randrange(2, 30) * 5000, "card": DEBIT,
                     "time": _moment(rng, year, month, rng.randrange(1, days + 1))})  # fmt: skip
    return rows


def extra_expense(rng: random.Random, month: int, category: str = "") -> dict[str, Any]:
    """One more expense in `month` (of `category`, else a random one), drawn the way the
    history's are (a task's own record), on the debit card (the credit card's bill sums the
    history's February)."""
    year, _, days, _ = next(m for m in MONTHS if m[1] == month)
    if not category:
        category = rng.choices(CATEGORIES, weights=[SPENDING[c][2] for c in CATEGORIES])[0]
    low, high, _ = SPENDING[category]
    return {"kind": EXPENSE, "category": category, "merchant": rng.choice(MERCHANTS[category]),
            "amount_cents": _cents(rng, low, high), "card": DEBIT,
            "time": _moment(rng, year, month, rng.randrange(1, days + 1))}  # fmt: skip


def build(rng: random.Random) -> dict[str, Any]:
    rows: list[dict[str, Any]] = []
    for year, month, days, count in MONTHS:
        rows += _month_rows(rng, year, month, days, count)
    rows.sort(key=lambda r: r["time"], reverse=True)
    transactions = [
        {"id": f"t-{i + 1:03d}", "serial": f"{rng.randrange(10**11, 10**12)}", **row}
        for i, row in enumerate(rows)
    ]
    names = rng.sample(PAYEE_NAMES, len(PAYEE_NAMES))
    people = [
        {"name": name, "card": card_number(rng, rng.choice(PAYEE_BINS), rng.choice((16, 19)))}
        for name in names
    ]
    february_credit = sum(
        t["amount_cents"]
        for t in transactions
        if t["card"] == CREDIT and t["kind"] == EXPENSE and month_of(t["time"]) == 2
    )
    return {
        "debit": {"number": card_number(rng, "6214"), "name": "一卡通（储蓄卡）"},
        "credit": {
            "number": card_number(rng, "6225"),
            "name": "信用卡（金卡）",
            "limit_cents": 5000000,
        },
        "transactions": transactions,
        "people": people,  # the first SAVED_PAYEES are saved payees on a new phone
        "balance_cents": rng.randrange(30000, 60000) * 100,
        "bill_cents": february_credit,
    }


def minimum(bill_cents: int) -> int:
    """The minimum repayment: a tenth of the bill, rounded up to the cent."""
    return -(-bill_cents // 10)
