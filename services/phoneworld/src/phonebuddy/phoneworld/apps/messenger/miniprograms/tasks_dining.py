"""Task templates of 扫码点餐 (category mini_program): order dishes with specs for a table and
pay, order for the table and head count a friend posted in a WeChat group, 加菜 to the open
order, a long order with a remark and coupon whose 取餐号 goes to a WeChat friend, the total of
an order with the best coupon, and what was spent at a restaurant."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.dining_rules import (
    SIZES,
    SPICE,
    pickup_number,
    unit_cents,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import find
from phonebuddy.phoneworld.apps.messenger.miniprograms.task_steps import PAYING, mini_content
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSAGES,
    MESSENGER,
    PAY_CONFIRM,
    MessengerTemplate,
    content,
    mini,
    open_group,
    open_mini,
    open_private_chat,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Text
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import friend_with_chat, sent_to_friend
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

ORDERS = mini("restaurant", "orders")
CARTS = mini("restaurant", "carts")


def dining_content(world: World) -> Any:
    return mini_content(world, "restaurant")


def _lines(world: World, rng: random.Random, restaurant: str, count: int) -> list[list[Any]]:
    """`count` distinct dishes on sale with a spice level and size where they have them."""
    dishes = [
        d
        for d in dining_content(world)["dishes"]
        if d["restaurant"] == restaurant and not d["sold_out"]
    ]
    chosen = sorted(rng.sample(dishes, count), key=lambda d: int(d["id"][1:]))
    lines = []
    for d in chosen:
        spice = rng.randrange(4) if d["spicy"] else -1
        size = rng.choice(("s", "l")) if d["large_extra_cents"] else ""
        lines.append([str(d["id"]), spice, size, rng.randrange(1, 3), unit_cents(d, size)])
    return lines


def order_params(world: World, rng: random.Random, count: int) -> Params:
    rest = rng.choice(list(dining_content(world)["restaurants"]))
    lines = _lines(world, rng, str(rest["id"]), count)
    names = {str(d["id"]): str(d["name"]) for d in dining_content(world)["dishes"]}
    cats = {str(d["id"]): str(d["category"]) for d in dining_content(world)["dishes"]}
    return {
        "restaurant": str(rest["id"]),
        "restaurant_name": str(rest["name"]),
        "fee_cents": int(rest["fee_cents"]),
        "table": rng.randrange(1, int(rest["tables"]) + 1),
        "people": rng.randrange(2, 7),
        "lines": lines,
        "names": {line[0]: names[line[0]] for line in lines},
        "cats": {line[0]: cats[line[0]] for line in lines},
    }


def describe(params: Params, en: bool = False) -> str:
    """'水煮鱼（微辣、大份）2份、米饭1份'."""
    out = []
    for dish, spice, size, qty, _ in params["lines"]:
        spec = [SPICE[spice]] if spice >= 0 else []
        spec += [SIZES[size]] if size else []
        name = params["names"][dish]
        if en:
            out.append(f"{qty} × {name}" + (f" ({', '.join(spec)})" if spec else ""))
        else:
            out.append(f"{name}" + (f"（{'、'.join(spec)}）" if spec else "") + f"{qty}份")
    return (", " if en else "、").join(out)


def check_order(
    diff: StateDiff, params: Params, coupon: str | None = None, remark: str = ""
) -> tuple[Any, list[str]]:
    """One new paid order at the restaurant, table and head count, of these lines."""
    order, problems = one_added(diff, ORDERS, "dining order")
    if order is None:
        return None, problems
    got = (order["restaurant"], order["table"], order["people"], order["coupon"])
    want = (params["restaurant"], params["table"], params["people"], coupon)
    if got != want:
        problems.append(f"ordered (restaurant, table, people, coupon) {got}, expected {want}")
    if [list(x) for x in order["lines"]] != params["lines"]:
        problems.append(f"ordered {order['lines']}, expected {params['lines']}")
    if remark and remark not in order["remark"]:
        problems.append(f"the remark is {order['remark']!r}, expected {remark!r}")
    if order["status"] != "cooking":
        return order, [*problems, f"the order is {order['status']}, not paid"]
    problems += cart_problems(diff)
    return order, problems + wallet_payment_problems(
        diff, amount_cents=order["total_cents"], reference=f"restaurant:{order['id']}"
    )


def cart_problems(diff: StateDiff) -> list[str]:
    """Paying empties the cart it paid for: no cart may be left with dishes in it."""
    diff.touched(CARTS)
    left = diff.value_after(CARTS)
    return [f"dishes left in the carts: {left}"] if left != diff.value_before(CARTS) else []


def add_lines(ui: OracleUI, params: Params) -> Iterator[Action]:
    for dish, spice, size, qty, _ in params["lines"]:
        for _ in range(qty):
            yield ui.tap(f"tab_{params['cats'][dish]}")
            yield from ui.scroll_to(f"dish_{dish}")
            yield ui.tap(f"dish_{dish}")
            if spice >= 0:
                yield ui.tap(f"spice_{spice}")
            if size:
                yield ui.tap(f"size_{size}")
            yield from ui.scroll_to("add_to_cart")
            yield ui.tap("add_to_cart")


def place(
    ui: OracleUI, params: Params, coupon: str | None = None, remark: str = ""
) -> Iterator[Action]:
    yield from open_mini(ui, "restaurant")
    yield from ui.scroll_to(f"restaurant_{params['restaurant']}")
    yield ui.tap(f"restaurant_{params['restaurant']}")
    yield from add_lines(ui, params)
    yield from ui.scroll_to("open_cart")
    yield ui.tap("open_cart")
    yield from ui.scroll_to("table")
    yield from ui.type_into("table", str(params["table"]))
    yield from ui.scroll_to(f"people_{params['people']}")
    yield ui.tap(f"people_{params['people']}")
    if remark:
        yield from ui.scroll_to("remark")
        yield from ui.type_into("remark", remark)
    if coupon:
        yield from ui.scroll_to(f"coupon_{coupon}")
        yield ui.tap(f"coupon_{coupon}")
    yield from ui.scroll_to("place_order")
    yield ui.tap("place_order")
    yield ui.tap(PAY_CONFIRM)


class DiningOrder(MessengerTemplate):
    id = "messenger.mini_restaurant.order"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 20

    def sample(self, world: World, rng: random.Random) -> Params:
        return order_params(world, rng, 2)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        r, t, n = params["restaurant_name"], params["table"], params["people"]
        zh, en = describe(params), describe(params, en=True)
        return phrased(
            zh=[f"用微信「扫码点餐」在{r}{t}号桌点{zh}，{n}人用餐，不用优惠券，下单付款",
                f"我们{n}个人坐在{r}的{t}号桌，帮我在微信「扫码点餐」点{zh}并支付（不用券）",
                f"微信「扫码点餐」：{r}，{t}号桌，{n}人，点{zh}，不使用优惠券，付款"],
            en=[f"In WeChat's 扫码点餐, order {en} at table {t} of {r} for {n} people, no "
                "coupon, and pay",
                f"{n} of us sit at table {t} in {r}: order {en} in the 扫码点餐 mini-program in "
                "WeChat and pay (no coupon)",
                f"WeChat 扫码点餐: {r}, table {t}, {n} people, {en}, no coupon, pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_order(diff, params)[1]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from place(ui, params)


class DiningFromGroup(MessengerTemplate):
    """WeChat group → 扫码点餐: the head count and table a friend posted decide the order."""

    id = "messenger.mini_restaurant.from_group"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 22

    def sample(self, world: World, rng: random.Random) -> Params:
        chats = content(world)["chats"]
        group = rng.choice([c for c in chats if c["kind"] == "group"])
        friends = content(world)["friends"]
        member = find(friends, group["members"][0])
        return {**order_params(world, rng, 1), "group": str(group["id"]),
                "group_title": str(group["title"]), "member": str(member["id"]),
                "member_name": str(member["remark"] or member["nickname"])}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        text = (f"我们到{params['restaurant_name']}了，坐{params['table']}号桌，"
                f"今天一共{params['people']}个人，你到了直接扫码点菜吧")  # fmt: skip
        it.app_data(MESSENGER)["messages"].append(
            {
                "id": "task-dining-1",
                "chat": params["group"],
                "from": params["member"],
                "kind": "text",
                "text": text,
                "time": it.clock - 300,
            }
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        g, r = params["group_title"], params["restaurant_name"]
        zh, en = describe(params), describe(params, en=True)
        return phrased(
            zh=[f"微信群“{g}”里有人说了在{r}的桌号和人数，按群里说的桌号和人数用微信「扫码点餐」点{zh}并付款，不用券",
                f"看微信群“{g}”的最新消息，用「扫码点餐」给{r}那桌点{zh}，人数和桌号照群里的填，不用优惠券",
                f"群“{g}”的朋友已经在{r}坐下了，帮我在微信「扫码点餐」按群里说的桌号、人数点{zh}，付款（不用券）"],
            en=[f"Someone in the WeChat group '{g}' gave the table and head count at {r}: order "
                f"{en} in WeChat's 扫码点餐 with that table and number of people, no coupon, "
                "and pay",
                f"Read the latest message in the WeChat group '{g}' and order {en} for that table "
                f"at {r} in 扫码点餐, table and head count as said there, no coupon",
                f"Friends from the group '{g}' are seated at {r}: order {en} in WeChat's 扫码点餐 "
                "with the table and number of people from the group, and pay (no coupon)"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_order(diff, params)[1]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_group(ui, params["group"])
        said = next((n.text for n in ui.find_all() if "号桌" in n.text and "个人" in n.text), "")
        found = re.search(r"坐(\d+)号桌.*一共(\d+)个人", said)
        if found is None:
            raise OracleError("no table in the group")
        chosen = {**params, "table": int(found[1]), "people": int(found[2])}
        yield from place(ui, chosen)


class DiningAddDishes(MessengerTemplate):
    """加菜: dishes added to the order being served, paid on their own."""

    id = "messenger.mini_restaurant.add_dishes"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 16

    def sample(self, world: World, rng: random.Random) -> Params:
        order = next(o for o in dining_content(world)["orders"] if o["status"] == "cooking")
        rest = find(dining_content(world)["restaurants"], order["restaurant"])
        params = order_params(world, rng, 1)
        lines = _lines(world, rng, str(rest["id"]), 1)
        dish = find(dining_content(world)["dishes"], lines[0][0])
        return {**params, "restaurant": str(rest["id"]), "restaurant_name": str(rest["name"]),
                "order": str(order["id"]), "table": int(order["table"]), "lines": lines,
                "names": {lines[0][0]: str(dish["name"])},
                "cats": {lines[0][0]: str(dish["category"])},
                "old_lines": [list(x) for x in order["lines"]],
                "old_total": int(order["total_cents"])}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        r, t = params["restaurant_name"], params["table"]
        zh, en = describe(params), describe(params, en=True)
        return phrased(
            zh=[f"我在{r}{t}号桌还在吃，用微信「扫码点餐」给正在进行的订单加菜：{zh}，并付款",
                f"在微信「扫码点餐」里找到{r}{t}号桌那笔制作中的订单，加菜{zh}，付款",
                f"给{r}{t}号桌的当前订单加点菜：{zh}（用微信「扫码点餐」加菜并支付）"],
            en=[f"I'm still eating at table {t} in {r}: in WeChat's 扫码点餐, add {en} to the "
                "open order (加菜) and pay",
                f"Find the order being served at table {t} of {r} in WeChat's 扫码点餐, add "
                f"{en} to it, then pay",
                f"Add {en} to the current order of table {t} at {r} (加菜 in WeChat's 扫码点餐) "
                "and pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{ORDERS}[{params['order']}]"
        problems = cart_problems(diff)
        order = diff.value_after(path)
        changes = diff.touched(path)
        extra = sum(line[3] * line[4] for line in params["lines"])
        if [list(x) for x in order["lines"]] != params["old_lines"] + params["lines"]:
            problems.append(f"the order holds {order['lines']}, expected {params['lines']} added")
        if order["total_cents"] != params["old_total"] + extra:
            problems.append(f"the order's total is {order['total_cents']}")
        if not changes:
            problems.append("the open order did not change")
        reference = f"restaurant:{params['order']}+{order['additions']}"
        return problems + wallet_payment_problems(diff, amount_cents=extra, reference=reference)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "restaurant")
        yield from ui.scroll_to("my_orders")
        yield ui.tap("my_orders")
        yield ui.tap(f"order_{params['order']}")
        yield from ui.scroll_to("add_dishes")
        yield ui.tap("add_dishes")
        yield from add_lines(ui, params)
        yield from ui.scroll_to("open_cart")
        yield ui.tap("open_cart")
        yield from ui.scroll_to("place_order")
        yield ui.tap("place_order")
        yield ui.tap(PAY_CONFIRM)


def best_coupon(world: World, food: int) -> Any:
    """The coupon taking most off dishes worth `food` cents, or None below every threshold."""
    usable = [c for c in dining_content(world)["coupons"] if food >= c["threshold_cents"]]
    return max(usable, key=lambda c: c["off_cents"], default=None)


def food_cents(params: Params) -> int:
    return sum(int(line[3]) * int(line[4]) for line in params["lines"])


class DiningLongToFriend(MessengerTemplate, WritesValue):
    """Long horizon: three dishes with specs, head count, a remark and the best coupon, paid,
    then the 取餐号 sent to a WeChat friend."""

    id = "messenger.mini_restaurant.long_number_to_friend"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 38
    written = f"{MESSAGES}[*]/text"
    REMARK = "不要香菜"

    def sample(self, world: World, rng: random.Random) -> Params:
        params = order_params(world, rng, 3)
        coupon = best_coupon(world, food_cents(params))
        return {**params, **friend_with_chat(world, rng),
                "coupon": str(coupon["id"]) if coupon else None,
                "coupon_name": str(coupon["name"]) if coupon else ""}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        r, t, n, f, m = (params["restaurant_name"], params["table"], params["people"],
                         params["friend"], self.REMARK)  # fmt: skip
        zh, en = describe(params), describe(params, en=True)
        return phrased(
            zh=[f"用微信「扫码点餐」在{r}{t}号桌点{zh}，{n}人，备注“{m}”，用上能用的最划算的优惠券，"
                f"付款后把取餐号微信发给{f}",
                f"帮我在{r}点餐（微信「扫码点餐」）：{t}号桌，{n}个人，{zh}，备注写“{m}”，"
                f"选减得最多的可用优惠券，付完款把取餐号用微信告诉{f}",
                f"{f}等会儿来{r}找我：用微信「扫码点餐」给{t}号桌下单{zh}，{n}人，备注“{m}”，"
                f"用最优惠的券支付，再把取餐号微信发给{f}"],
            en=[f"In WeChat's 扫码点餐, order {en} at table {t} of {r} for {n} people, remark "
                f"'{m}', with the best coupon that applies; after paying, WeChat {f} the pick-up "
                "number (取餐号)",
                f"Order at {r} with WeChat's 扫码点餐: table {t}, {n} people, {en}, remark '{m}', "
                f"the usable coupon that saves most; pay, then tell {f} the 取餐号 on WeChat",
                f"{f} will join me at {r}: order {en} for table {t}, {n} people, remark '{m}', "
                f"in WeChat's 扫码点餐 using the best coupon, pay, and WeChat {f} the 取餐号"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        order = next(iter(diff.added(ORDERS)), None)
        number = pickup_number(str(order["id"])) if order else "A000"
        others = [f"A{n}" for n in range(100, 1000) if f"A{n}" != number]
        return Text([number], others=others, what="pick-up number")

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        order, problems = check_order(diff, params, params["coupon"], self.REMARK)
        if order is None or problems:
            return problems
        texts, problems = sent_to_friend(diff, params)
        if texts:
            problems += self.writing_problems(diff, params, "\n".join(texts), what="the message")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from place(ui, params, params["coupon"], self.REMARK)
        number = ui.text_of("pickup_number").removeprefix("取餐号").strip()
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from ui.type_into("input", f"取餐号：{number}")
        yield ui.tap("send")


TEMPLATES: tuple[TaskTemplate, ...] = (
    DiningOrder(),
    DiningFromGroup(),
    DiningAddDishes(),
    DiningLongToFriend(),
)
