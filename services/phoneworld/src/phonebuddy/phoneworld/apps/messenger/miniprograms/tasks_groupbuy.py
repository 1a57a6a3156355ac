"""Task templates of 社区团购 (category mini_program): order items with quantities and a
pick-up point and pay, a long order whose pick-up code goes to a WeChat friend, a pick-up code
texted to a contact, the sum of the picked-up orders."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messages.tasks import address_book, check_one_sms, sent_messages
from phonebuddy.phoneworld.apps.messenger.miniprograms.groupbuy import POINTS, pickup_code
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSAGES,
    MESSENGER,
    PAY_CONFIRM,
    MessengerTemplate,
    content,
    mini,
    open_mini,
    open_private_chat,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, digit_code
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import friend_with_chat, sent_to_friend
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

WALLET = "com.pw.wallet"
SMS = "com.pw.messages"
PAYING = (MESSENGER, WALLET)
ORDERS = mini("groupbuy", "orders")
STOCK = mini("groupbuy", "stock")
POINT = mini("groupbuy", "point")


def _groupbuy(world: World) -> Any:
    return content(world)["mini"]["groupbuy"]


def _basket(world: World, rng: random.Random, count: int) -> Params:
    items = [g for g in _groupbuy(world)["items"] if g["stock"] >= 3]
    chosen = sorted(rng.sample(items, count), key=lambda g: int(g["id"][1:]))
    lines = [[str(g["id"]), rng.randrange(1, 4)] for g in chosen]
    point = rng.randrange(1, len(POINTS))
    return {
        "lines": lines,
        "names": {str(g["id"]): str(g["name"]) for g in chosen},
        "kinds": {str(g["id"]): str(g["kind"]) for g in chosen},
        "stock": {str(g["id"]): int(g["stock"]) for g in chosen},
        "total_cents": sum(
            int(g["price_cents"]) * n for g, (_, n) in zip(chosen, lines, strict=True)
        ),
        "point": point,
        "point_name": POINTS[point],
    }


def _wanted(params: Params, sep: str, en: bool = False) -> str:
    form = "{n} × '{name}'" if en else "“{name}”{n}件"
    return sep.join(form.format(name=params["names"][g], n=n) for g, n in params["lines"])


def check_order(diff: StateDiff, params: Params) -> tuple[Any, list[str]]:
    order, problems = one_added(diff, ORDERS, "group-buy order")
    if order is None:
        return None, problems
    if [list(x) for x in order["lines"]] != params["lines"]:
        problems.append(f"ordered {order['lines']}, expected {params['lines']}")
    if order["point"] != params["point_name"]:
        problems.append(f"pick-up at {order['point']}, expected {params['point_name']}")
    if order["status"] != "paid":
        return order, [*problems, f"the order is {order['status']}, not paid"]
    problems += expect_changes(diff, POINT, {POINT: params["point_name"]})
    problems += expect_changes(
        diff, STOCK, {f"{STOCK}/{g}": params["stock"][g] - n for g, n in params["lines"]}
    )
    if order["total_cents"] != params["total_cents"]:
        problems.append(f"paid {order['total_cents']} cents, expected {params['total_cents']}")
    return order, problems + wallet_payment_problems(
        diff, amount_cents=params["total_cents"], reference=f"groupbuy:{order['id']}"
    )


def place_order(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from open_mini(ui, "groupbuy")
    for g, n in params["lines"]:
        yield ui.tap(f"tab_{params['kinds'][g]}")
        yield from ui.scroll_to(f"add_{g}")
        for _ in range(n):
            yield ui.tap(f"add_{g}")
    yield from ui.scroll_to("open_cart")
    yield ui.tap("open_cart")
    yield from ui.scroll_to(f"point_{params['point']}")
    yield ui.tap(f"point_{params['point']}")
    yield from ui.scroll_to("place_order")
    yield ui.tap("place_order")
    yield ui.tap(PAY_CONFIRM)


class GroupbuyOrder(MessengerTemplate):
    id = "messenger.mini_groupbuy.order"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 16

    def sample(self, world: World, rng: random.Random) -> Params:
        return _basket(world, rng, 2)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh, en, p = _wanted(params, "和"), _wanted(params, " and ", en=True), params["point_name"]
        return phrased(
            zh=[f"在微信「社区团购」买{zh}，自提点选“{p}”，下单付款",
                f"用微信「社区团购」小程序下单：{zh}，到“{p}”自提，并完成支付",
                f"帮我在微信「社区团购」团{zh}，选“{p}”自提，付钱"],
            en=[f"In WeChat's 社区团购, buy {en}, pick-up point '{p}', and pay",
                f"Order {en} in the 社区团购 mini-program in WeChat, to collect at '{p}', and pay",
                f"Group-buy {en} in WeChat's 社区团购 with pick-up at '{p}', and pay for it"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_order(diff, params)[1]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from place_order(ui, params)


class GroupbuyCodeToFriend(MessengerTemplate, WritesValue):
    """Long horizon: a three-item order, then its pick-up code sent to a WeChat friend."""

    id = "messenger.mini_groupbuy.code_to_friend"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 35
    written = f"{MESSAGES}[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**_basket(world, rng, 3), **friend_with_chat(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh, en = _wanted(params, "、"), _wanted(params, ", ", en=True)
        p, f = params["point_name"], params["friend"]
        return phrased(
            zh=[f"在微信「社区团购」买{zh}，自提点“{p}”，付款后把提货码微信发给{f}",
                f"用微信「社区团购」下单{zh}（“{p}”自提）并支付，再把提货码用微信告诉{f}",
                f"{f}明天帮我去“{p}”提货：在微信「社区团购」买{zh}，付完款把提货码微信发给他"],
            en=[f"In WeChat's 社区团购, buy {en} for pick-up at '{p}', pay, then send the pick-up "
                f"code to {f} on WeChat",
                f"Order {en} in WeChat's 社区团购 (collect at '{p}'), pay, and tell {f} the "
                "pick-up code on WeChat",
                f"{f} will collect for me at '{p}' tomorrow: buy {en} in WeChat's 社区团购, pay, "
                "and WeChat them the pick-up code"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        order = next(iter(diff.added(ORDERS)), None)
        return digit_code(str(order["code"]) if order else "000000")

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        order, problems = check_order(diff, params)
        if order is None or problems:
            return problems
        texts, problems = sent_to_friend(diff, params)
        if texts:
            problems += self.writing_problems(diff, params, "\n".join(texts), what="the message")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from place_order(ui, params)
        if not ui.visible("open_cart"):
            yield ui.back()
        yield from ui.scroll_to("my_orders")
        yield ui.tap("my_orders")
        rows = [n.resource_id.rpartition(":id/")[2] for n in ui.find_all()]
        yield ui.tap(next(r for r in rows if r.startswith("order_")))
        code = ui.text_of("pickup_code").removeprefix("提货码").strip()
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from ui.type_into("input", f"提货码：{code}")
        yield ui.tap("send")


class GroupbuyCodeToSms(MessengerTemplate, WritesValue):
    """社区团购 → Messages: the waiting order's pick-up code texted to a contact."""

    id = "messenger.mini_groupbuy.code_to_sms"
    category = Category.MINI_PROGRAM
    apps = (MESSENGER, SMS)
    difficulty = 14
    written = f"apps/{SMS}/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        order = next(o for o in _groupbuy(world)["orders"] if o["status"] == "paid")
        person = rng.choice(address_book(world))
        return {"order": str(order["id"]), "code": str(order["code"]),
                "point_name": str(order["point"]), "to": str(person["name"]),
                "to_phone": str(person["phone"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        to, p = params["to"], params["point_name"]
        return phrased(
            zh=[f"把微信「社区团购」里待自提订单（“{p}”）的提货码发短信给{to}",
                f"{to}帮我去“{p}”取团购，把微信「社区团购」中那笔待自提订单的提货码短信发给他",
                f"查微信「社区团购」里在“{p}”待自提的订单提货码，用短信告诉{to}"],
            en=[f"Text {to} the pick-up code of my waiting order ('{p}') in WeChat's 社区团购",
                f"{to} will collect my group-buy at '{p}': SMS them the pick-up code of the "
                "waiting order in WeChat's 社区团购",
                f"Find the pick-up code of the order waiting at '{p}' in the 社区团购 mini-program "
                f"in WeChat and text it to {to}"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return digit_code(params["code"])

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["to_phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "groupbuy")
        yield from ui.scroll_to("my_orders")
        yield ui.tap("my_orders")
        yield ui.tap(f"order_{params['order']}")
        code = ui.text_of("pickup_code").removeprefix("提货码").strip()
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["to"])
        yield from ui.type_into("body", f"团购提货码：{code}")
        yield ui.tap("send")


class GroupbuyPickedTotal(MessengerTemplate):
    """QA with aggregation: what the orders already picked up cost together."""

    id = "messenger.mini_groupbuy.picked_total"
    category = Category.MINI_PROGRAM
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's own older orders, after the usual ones: the first picked up, the others
        # picked up or cancelled
        orders, items = _groupbuy(world)["orders"], _groupbuy(world)["items"][1:]
        price = {str(g["id"]): int(g["price_cents"]) for g in items}
        older = []
        for i in range(rng.randint(1, 4)):
            order_id = f"gb-{104 + i}"
            lines = [[str(g["id"]), rng.randrange(1, 3)] for g in rng.sample(items, 3)]
            older.append({"id": order_id, "lines": lines,
                          "total_cents": sum(price[g] * n for g, n in lines),
                          "point": rng.choice(POINTS),
                          "status": "picked" if not i or rng.random() < 0.7 else "cancelled",
                          "days_ago": int(orders[-1]["days_ago"]) + 2 * (i + 1),
                          "code": pickup_code(order_id)})  # fmt: skip
        picked = [o for o in [*orders, *older] if o["status"] == "picked"]
        return {"older": older, "orders": [str(o["id"]) for o in [*orders, *older]],
                "first_cents": int(picked[0]["total_cents"])}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.for_app(MESSENGER).data["mini"]["groupbuy"]
        data["orders"] += [{**o, "lines": [list(x) for x in o["lines"]]} for o in params["older"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["微信「社区团购」里已提货的订单一共花了多少钱？",
                "用微信「社区团购」看看我的订单，已经提货的那些加起来多少钱",
                "我在微信「社区团购」已提货的订单总金额是多少？"],
            en=["In WeChat's 社区团购, how much did my picked-up orders cost altogether?",
                "Use the 社区团购 mini-program in WeChat: add up the orders I have already picked "
                "up",
                "What is the total of my already-collected orders in WeChat's 社区团购?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        picked = [o for o in diff.value_before(ORDERS) if o["status"] == "picked"]
        return Money(sum(int(o["total_cents"]) for o in picked) / 100)

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["first_cents"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "groupbuy")
        yield from ui.scroll_to("my_orders")
        yield ui.tap("my_orders")
        total = 0.0
        for order in params["orders"]:
            row = f"order_{order}"
            yield from ui.scroll_to(row)
            node = ui.find(row)
            texts = [c.text for c in node.children if c.text] if node else []
            if any("已提货" in t for t in texts):
                total += float(next(t for t in texts if t.startswith("¥"))[1:])
        yield Answer(text=f"一共¥{total:.2f}")


class GroupbuyCancel(MessengerTemplate):
    """Cancel today's order before the cut-off, through the confirmation dialog."""

    id = "messenger.mini_groupbuy.cancel"
    category = Category.MINI_PROGRAM
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**_basket(world, rng, 2), "order": "gb-201", "code": pickup_code("gb-201")}

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.for_app(MESSENGER).data["mini"]["groupbuy"]
        for g, n in params["lines"]:
            data["stock"][g] -= n
        lines = [list(x) for x in params["lines"]]
        order = {"id": params["order"], "lines": lines, "total_cents": params["total_cents"],
                 "point": params["point_name"], "status": "paid", "days_ago": 0,
                 "code": params["code"]}  # fmt: skip
        data["orders"].insert(0, order)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh, en, p = _wanted(params, "和"), _wanted(params, " and ", en=True), params["point_name"]
        return phrased(
            zh=[f"把微信「社区团购」里今天下的那单（{zh}，“{p}”自提）取消掉",
                f"今天在微信「社区团购」订的{zh}（“{p}”自提）不要了，帮我取消订单",
                f"在微信「社区团购」取消今天的订单：{zh}，自提点“{p}”"],
            en=[f"Cancel today's order in WeChat's 社区团购 ({en}, pick-up at '{p}')",
                f"I no longer want today's 社区团购 order in WeChat ({en}, collect at '{p}'): "
                "cancel it",
                f"In WeChat's 社区团购, cancel today's order of {en} with pick-up point '{p}'"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = expect_changes(
            diff, ORDERS, {f"{ORDERS}[{params['order']}]/status": "cancelled"}
        )
        return problems + expect_changes(
            diff, STOCK, {f"{STOCK}/{g}": params["stock"][g] for g, _ in params["lines"]}
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "groupbuy")
        yield from ui.scroll_to("my_orders")
        yield ui.tap("my_orders")
        yield ui.tap(f"order_{params['order']}")
        yield from ui.scroll_to("cancel_order")
        yield ui.tap("cancel_order")
        yield ui.tap("confirm_cancel")


class GroupbuyBasketCost(MessengerTemplate):
    """QA with aggregation: what a basket of two items in given quantities would cost."""

    id = "messenger.mini_groupbuy.basket_cost"
    category = Category.MINI_PROGRAM
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return _basket(world, rng, 2)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh, en = _wanted(params, "加"), _wanted(params, " plus ", en=True)
        return phrased(
            zh=[f"在微信「社区团购」里买{zh}，一共要多少钱？先别下单",
                f"帮我用微信「社区团购」算一下：{zh}总价多少（只问价格，不买）",
                f"微信「社区团购」今天的团购价，{zh}合计多少钱？"],
            en=[f"In WeChat's 社区团购, how much would {en} cost in total? Don't order yet",
                f"Work out with WeChat's 社区团购 what {en} comes to (just the price, don't buy)",
                f"At today's prices in WeChat's 社区团购, what is the total for {en}?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["total_cents"] / 100)

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["total_cents"] + 100)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "groupbuy")
        total = 0.0
        for g, n in params["lines"]:
            yield ui.tap(f"tab_{params['kinds'][g]}")
            yield from ui.scroll_to(f"item_{g}")
            node = ui.find(f"item_{g}")
            texts = [c.text for c in node.children if c.text] if node else []
            total += n * float(next(t for t in texts if t.startswith("¥"))[1:])
        yield Answer(text=f"一共¥{total:.2f}")


TEMPLATES: tuple[TaskTemplate, ...] = (
    GroupbuyOrder(),
    GroupbuyCodeToFriend(),
    GroupbuyCodeToSms(),
    GroupbuyPickedTotal(),
    GroupbuyCancel(),
    GroupbuyBasketCost(),
)
