"""The wallet's seeded content: payees for transfers, bank cards, and about two months of bills
before the first day any device's clock can show.

Bills are kinds "payment" (money out to a merchant), "transfer" (money out to a payee) and
"income" (money in). The history is world content, so tasks can ask about it by parameters.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

DAY = 86400
HISTORY_DAYS = 60

PAYEES = (
    ("张伟", "138"), ("李娜", "139"), ("王芳", "186"), ("刘洋", "137"), ("陈静", "158"),
    ("杨磊", "135"), ("赵敏", "152"), ("黄晓明", "188"), ("周杰", "131"), ("吴婷", "177"),
    ("徐鹏", "159"), ("孙悦", "136"), ("马丽", "150"), ("朱琳", "183"),
)  # fmt: skip
BANK_CARDS = (
    ("招商银行", "储蓄卡"), ("中国工商银行", "储蓄卡"), ("中国建设银行", "信用卡"),
    ("中国银行", "储蓄卡"), ("交通银行", "信用卡"),
)  # fmt: skip
# merchant, what is bought, price range in yuan, how many bills in the history
MERCHANTS = (
    ("美团外卖", "外卖订单", 18, 68, 5), ("星巴克", "咖啡", 28, 72, 3),
    ("滴滴出行", "快车行程", 12, 86, 4), ("盒马鲜生", "生鲜超市", 45, 260, 3),
    ("中国石化", "加油", 200, 400, 2), ("铁路12306", "火车票", 73, 553, 2),
    ("瑞幸咖啡", "咖啡", 9, 32, 4), ("肯德基", "餐饮", 29, 89, 2),
    ("全家便利店", "便利店购物", 8, 46, 3), ("国家电网", "电费", 80, 260, 1),
    ("中国移动", "话费充值", 50, 100, 2), ("万达影城", "电影票", 39, 120, 1),
)  # fmt: skip
TRANSFER_NOTES = ("饭钱", "房租分摊", "还你的钱", "生日红包", "打车费", "AA聚餐", "水果钱")
TRANSFERS_IN = 2
# Refunds come from shops outside MERCHANTS, so "how much was spent at X" stays unambiguous.
REFUNDS = (("京东", 35, 199), ("唯品会", 59, 259))


def _masked_phone(rng: random.Random, prefix: str) -> str:
    return f"{prefix}****{rng.randrange(10000):04d}"


def _yuan_to_cents(rng: random.Random, low: int, high: int) -> int:
    return rng.randrange(low * 100, high * 100 + 1, 10)


def _history(rng: random.Random, payees: list[dict[str, Any]]) -> list[dict[str, Any]]:
    bills: list[dict[str, Any]] = []

    def add(kind: str, merchant: str, amount: int, description: str, **extra: Any) -> None:
        time = EPOCH_START - rng.randrange(DAY // 2, HISTORY_DAYS * DAY)
        time -= time % 60
        bills.append(
            {"kind": kind, "merchant": merchant, "amount_cents": amount, "reference": "",
             "description": description, "time": time, **extra}
        )  # fmt: skip

    for merchant, description, low, high, count in MERCHANTS:
        for _ in range(count):
            add("payment", merchant, _yuan_to_cents(rng, low, high), description)
    for payee in rng.sample(payees, k=6):
        note = rng.choice(TRANSFER_NOTES)
        add("transfer", payee["name"], _yuan_to_cents(rng, 20, 600), note,
            payee_id=payee["id"], note=note)  # fmt: skip
    for payee in rng.sample(payees, k=TRANSFERS_IN):
        add("income", payee["name"], _yuan_to_cents(rng, 50, 500), "转账收入")
    for merchant, low, high in REFUNDS:
        add("income", merchant, _yuan_to_cents(rng, low, high), "退款")
    bills.sort(key=lambda bill: bill["time"])
    return [{"id": f"bill-h{i + 1:02d}", **bill} for i, bill in enumerate(bills)]


def build(rng: random.Random) -> dict[str, Any]:
    payees = [
        {"id": f"payee-{i + 1:02d}", "name": name, "phone": _masked_phone(rng, prefix)}
        for i, (name, prefix) in enumerate(PAYEES)
    ]
    cards = [
        {"id": f"card-{i + 1}", "bank": bank, "type": kind, "last4": f"{rng.randrange(10000):04d}"}
        for i, (bank, kind) in enumerate(rng.sample(BANK_CARDS, k=3))
    ]
    return {"payees": payees, "bank_cards": cards, "history": _history(rng, payees)}
