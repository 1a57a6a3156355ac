"""Task templates of the Food app: order and pay, add an address, re-order, cancel an unpaid
order, read a delivery fee, and deliver to an address kept in Notes."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from phonebuddy.phoneworld.apps.food.base import (
    FOOD_PACKAGE,
    WELCOME_COUPON,
    cart_key,
    category_tab,
    is_open,
    items_cents,
    money,
    new_order,
    order_item,
    spec_of,
)
from phonebuddy.phoneworld.apps.food.content import ADDRESSES, PEOPLE, REMARKS, TAGS, phone_number
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.tasks.answers import Expectation, Money
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

WALLET = "com.pw.wallet"
NOTES = "com.pw.notes"
FOOD_DATA = f"apps/{FOOD_PACKAGE}"
ORDERS = f"{FOOD_DATA}/orders"
ADDRESS_LIST = f"{FOOD_DATA}/addresses"
COUPONS = f"{FOOD_DATA}/coupons"
MAX_ORDER_CENTS = 40000  # stays well below the smallest seeded wallet balance
# Every episode starts at 09:00 and lasts minutes; these shops stay open throughout.
EPISODE_HOURS = (EPOCH_START, EPOCH_START + 3 * 3600)


# -- parameters ------------------------------------------------------------------------------
def _open_restaurants(world: World) -> list[Any]:
    shops = world.content(FOOD_PACKAGE)["restaurants"]
    return [r for r in shops if all(is_open(r, moment) for moment in EPISODE_HOURS)]


def _sample_items(rng: random.Random, restaurant: Any) -> list[dict[str, Any]]:
    """One to three dishes (options chosen) whose total reaches the minimum order."""
    dishes = rng.sample(list(restaurant["dishes"]), k=rng.randint(1, 3))
    items = []
    for dish in dishes:
        choices = [rng.randrange(len(group["choices"])) for group in dish["options"]]
        spec, unit = spec_of(dish, choices)
        tab = category_tab(restaurant, dish["category"])
        items.append(
            {
                "dish_id": dish["id"],
                "name": dish["name"],
                "tab": tab,
                "choices": choices,
                "spec": spec,
                "unit_cents": unit,
                "quantity": rng.randint(1, 2 if dish["options"] else 3),
            }
        )
    dearest = max(items, key=lambda item: item["unit_cents"])
    while items_cents(items) < restaurant["min_order_cents"]:
        dearest["quantity"] += 1
    return items


def _sample_address(rng: random.Random) -> dict[str, str]:
    text, tag = rng.choice(ADDRESSES)
    return {"name": rng.choice(PEOPLE), "phone": phone_number(rng), "text": text, "tag": tag}


def _sample_order(rng: random.Random, world: World) -> Params:
    while True:
        restaurant = rng.choice(_open_restaurants(world))
        items = _sample_items(rng, restaurant)
        if items_cents(items) <= MAX_ORDER_CENTS:
            return {
                "restaurant_id": restaurant["id"],
                "restaurant": restaurant["name"],
                "items": items,
            }


def describe_items(items: Sequence[Any], *, english: bool = False) -> str:
    parts = []
    for item in items:
        if english:
            spec = f" ({item['spec']})" if item["spec"] else ""
            parts.append(f"{item['quantity']} x {item['name']}{spec}")
        else:
            spec = f"（{item['spec'].replace('/', '、')}）" if item["spec"] else ""
            parts.append(f"{item['quantity']}份{item['name']}{spec}")
    return (", " if english else "、").join(parts)


def tableware_words(count: int) -> tuple[str, str]:
    if count == 0:
        return "不要餐具", "no tableware"
    return f"餐具{count}份", f"{count} set{'s' if count > 1 else ''} of tableware"


# -- verification helpers ----------------------------------------------------------------------
def check_coupons(diff: StateDiff, new_orders: Sequence[Any]) -> list[str]:
    """The welcome red packet may be accepted on the way; a coupon may only be used up by the
    new order that applied it."""
    problems = [
        f"unexpected coupon {c['id']}"
        for c in diff.added(COUPONS)
        if c["id"] != WELCOME_COUPON["id"]
    ]
    diff.touched(COUPONS)
    used_before = {c["id"] for c in diff.value_before(COUPONS) if c["used"]}
    used_now = {c["id"] for c in diff.value_after(COUPONS) if c["used"]} - used_before
    applied = {o["coupon_id"] for o in new_orders if o["coupon_id"] and o["status"] == "paid"}
    if used_now != applied:
        problems.append(f"coupons used {sorted(used_now)}, orders applied {sorted(applied)}")
    return problems


def check_order(order: Any, params: Params, address_text: str) -> list[str]:
    """A placed and paid order of exactly the wanted dishes, to `address_text`."""
    problems = []
    if order["restaurant_id"] != params["restaurant_id"]:
        problems.append(f"ordered from {order['restaurant']}, expected {params['restaurant']}")
    wanted = {cart_key(i["dish_id"], i["choices"]): i["quantity"] for i in params["items"]}
    got: dict[str, int] = {}
    for item in order["items"]:
        got[item["id"]] = got.get(item["id"], 0) + item["quantity"]
    if got != wanted:
        problems.append(f"items {got}, expected {wanted}")
    if order["address"]["text"] != address_text:
        problems.append(f"delivered to {order['address']['text']!r}, expected {address_text!r}")
    if order["status"] != "paid":
        problems.append(f"order status is {order['status']}, expected paid")
    if order["tableware"] != params["tableware"]:
        problems.append(f"tableware {order['tableware']}, expected {params['tableware']}")
    if params.get("remark") and order["remark"] != params["remark"]:
        problems.append(f"remark {order['remark']!r}, expected {params['remark']!r}")
    return problems


def check_one_paid_order(diff: StateDiff, params: Params, address_text: str) -> list[str]:
    added = diff.added(ORDERS)
    if len(added) != 1:
        return [f"expected one new order, found {len(added)}"]
    order = added[0]
    return (
        check_order(order, params, address_text)
        + wallet_payment_problems(diff, amount_cents=order["total_cents"], reference=order["id"])
        + check_coupons(diff, added)
    )


# -- oracle helpers ----------------------------------------------------------------------------
def open_food(ui: OracleUI) -> Iterator[Action]:
    yield ui.open("外卖")
    if ui.visible("promo_close"):
        yield ui.tap("promo_close")


def open_restaurant(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from ui.type_into("search", params["restaurant"])
    yield from ui.scroll_to(f"shop_{params['restaurant_id']}")
    yield ui.tap(f"shop_{params['restaurant_id']}")


def add_items(ui: OracleUI, params: Params) -> Iterator[Action]:
    """On the restaurant page: pick each dish's category, options and quantity."""
    for item in params["items"]:
        tab = f"tab_{item['tab']}"
        node = ui.find(tab)
        if node is not None and not node.selected:
            yield ui.tap(tab)
        yield from ui.scroll_to(f"dish_{item['dish_id']}")
        for _ in range(item["quantity"]):
            if not item["choices"]:
                yield ui.tap(f"add_{item['dish_id']}")
                continue
            yield ui.tap(f"spec_{item['dish_id']}")
            for group, choice in enumerate(item["choices"]):
                if choice:
                    yield ui.tap(f"option_{group}_{choice}")
            yield ui.tap("spec_add")


def checkout(ui: OracleUI, params: Params, address_text: str | None) -> Iterator[Action]:
    """From the restaurant page to the wallet: address, tableware, remark, submit, pay."""
    yield ui.tap("checkout")
    if address_text is not None:
        yield ui.tap("address_card")
        yield from ui.scroll_to(text=address_text)
        yield ui.tap(text=address_text)
    yield ui.tap("tableware")
    yield ui.tap(f"tableware_{params['tableware']}")
    if params.get("remark"):
        yield from ui.type_into("remark", params["remark"])
    yield ui.tap("submit_order")
    yield ui.tap(f"{WALLET}:id/pay_confirm")


def fill_address(ui: OracleUI, address: Params) -> Iterator[Action]:
    """On the address list: add one and save it."""
    yield ui.tap("add_address")
    yield from ui.type_into("name", address["name"])
    yield from ui.type_into("phone", address["phone"])
    yield from ui.type_into("text", address["text"])
    yield ui.tap(f"tag_{TAGS.index(address['tag'])}")
    yield ui.tap("save_address")


def address_problems(diff: StateDiff, address: Params) -> list[str]:
    """Exactly one new saved address, with these details."""
    added = diff.added(ADDRESS_LIST)
    if len(added) != 1:
        return [f"expected one new address, found {len(added)}"]
    return [
        f"{key} is {added[0][key]!r}, expected {address[key]!r}"
        for key in ("name", "phone", "text", "tag")
        if added[0][key] != address[key]
    ]


# -- templates ---------------------------------------------------------------------------------
class OrderAndPay(TaskTemplate):
    id = "food.order"
    category = Category.CROSS_APP
    apps = (FOOD_PACKAGE, WALLET)
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _sample_order(rng, world)
        params["address"] = _sample_address(rng)
        params["tableware"] = rng.randrange(0, 4)
        params["remark"] = rng.choice(REMARKS) if rng.random() < 0.5 else ""
        return params

    def setup(self, it: Any, params: Params) -> None:
        addresses = it.data["addresses"]
        if not any(a["text"] == params["address"]["text"] for a in addresses):
            addresses.append({"id": "addr-task", **params["address"]})

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        ware_zh, ware_en = tableware_words(params["tableware"])
        remark_zh = f"，备注“{params['remark']}”" if params["remark"] else ""
        remark_en = f", with the note '{params['remark']}'" if params["remark"] else ""
        shop, address = params["restaurant"], params["address"]["text"]
        items_zh = describe_items(params["items"])
        items_en = describe_items(params["items"], english=True)
        return phrased(
            zh=[f"在外卖上从“{shop}”点{items_zh}，送到我保存的地址“{address}”，"
                f"{ware_zh}{remark_zh}，并用钱包付款",
                f"帮我在外卖上从“{shop}”订{items_zh}，{ware_zh}{remark_zh}，"
                f"送到我保存过的地址“{address}”，用钱包付款",
                f"想吃“{shop}”了：在外卖上点{items_zh}，送到已保存的地址“{address}”，"
                f"{ware_zh}{remark_zh}，最后用钱包把钱付了"],
            en=[f"Order {items_en} from '{shop}' in Food, delivered to my saved address "
                f"'{address}', {ware_en}{remark_en}, and pay with the wallet",
                f"Please get {items_en} from '{shop}' on Food, sent to my saved address "
                f"'{address}', {ware_en}{remark_en}, paid with the wallet",
                f"I feel like eating from '{shop}': in Food, order {items_en} to my saved "
                f"address '{address}', {ware_en}{remark_en}, then pay with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_one_paid_order(diff, params, params["address"]["text"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_food(ui)
        yield from open_restaurant(ui, params)
        yield from add_items(ui, params)
        yield from checkout(ui, params, params["address"]["text"])


class FoodTemplate(TaskTemplate):
    """A template of the Food app alone."""

    category = Category.SINGLE_APP
    apps = (FOOD_PACKAGE,)


class AddAddress(FoodTemplate):
    id = "food.add_address"
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        return _sample_address(rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, phone, text, tag = params["name"], params["phone"], params["text"], params["tag"]
        return phrased(
            zh=[f"在外卖里新增一个收货地址：联系人{name}，手机{phone}，地址“{text}”，标签选“{tag}”",
                f"帮我在外卖里加个收货地址，联系人是{name}，电话{phone}，地址填“{text}”，"
                f"标签用“{tag}”",
                f"外卖要添加一个新的收货地址：地址“{text}”，收货人{name}，手机号{phone}，"
                f"标签“{tag}”"],
            en=[f"Add a delivery address in Food: contact {name}, phone {phone}, address "
                f"'{text}', tagged '{tag}'",
                f"Please save a new delivery address in Food with contact {name}, phone "
                f"{phone}, address '{text}' and the tag '{tag}'",
                f"In Food, I need a new delivery address: '{text}', for {name} (phone "
                f"{phone}), tagged '{tag}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return address_problems(diff, params) + check_coupons(diff, [])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_food(ui)
        yield ui.tap("tab_mine")
        yield ui.tap("my_addresses")
        yield from fill_address(ui, params)


class Reorder(TaskTemplate):
    id = "food.reorder"
    category = Category.CROSS_APP
    apps = (FOOD_PACKAGE, WALLET)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _sample_order(rng, world)
        params["tableware"] = rng.randrange(0, 3)
        params["order_id"] = f"order-last-{params['restaurant_id']}"
        return params

    def setup(self, it: Any, params: Params) -> None:
        restaurant = it.content["by_id"][params["restaurant_id"]]
        dishes = it.content["dishes"]
        items = [
            order_item(dishes[i["dish_id"]], i["choices"], i["quantity"]) for i in params["items"]
        ]
        placed = it.clock - 86400 + 3 * 3600
        order = new_order(
            params["order_id"], restaurant, items, it.data["addresses"][0], placed, None
        )
        order.update(status="paid", paid_at=placed + 30, tableware=1)
        it.data["orders"].append(order)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        ware_zh, ware_en = tableware_words(params["tableware"])
        shop = params["restaurant"]
        return phrased(
            zh=[f"把我昨天在“{shop}”点的外卖再来一单（菜品和数量都一样），送到默认地址，{ware_zh}，"
                "并付款",
                f"照着昨天在“{shop}”点的外卖再下一单，菜和数量都跟上次一样，送到默认地址，"
                f"{ware_zh}，付好款",
                f"昨天“{shop}”那单外卖挺好吃，帮我原样再点一次（同样的菜、同样的数量），"
                f"送默认地址，{ware_zh}，并完成付款"],
            en=[f"Re-order yesterday's Food order from '{shop}' (same dishes and quantities) to "
                f"my default address, {ware_en}, and pay",
                f"Order the same as yesterday from '{shop}' in Food again, with the same dishes "
                f"and quantities, to my default address, {ware_en}, and pay",
                f"Yesterday's order from '{shop}' was great. Please place it again in Food "
                f"(identical dishes and quantities) to my default address, {ware_en}, and pay"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        default_text = diff.value_before(ADDRESS_LIST)[0]["text"]
        return check_one_paid_order(diff, params, default_text)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_food(ui)
        yield ui.tap("tab_orders")
        yield from ui.scroll_to(f"order_{params['order_id']}")
        yield ui.tap(f"order_{params['order_id']}")
        yield ui.tap("reorder")
        yield from checkout(ui, params, None)


class CancelUnpaid(FoodTemplate):
    id = "food.cancel_unpaid"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        target, decoy = rng.sample(_open_restaurants(world), k=2)
        return {
            "restaurant": target["name"],
            "order_id": f"order-unpaid-{target['id']}",
            "decoy_id": decoy["id"],
            "target_id": target["id"],
        }

    def setup(self, it: Any, params: Params) -> None:
        address = it.data["addresses"][0]
        for minutes, restaurant_id in ((8, params["decoy_id"]), (3, params["target_id"])):
            restaurant = it.content["by_id"][restaurant_id]
            dish = restaurant["dishes"][0]
            quantity = -(-restaurant["min_order_cents"] // dish["price_cents"])
            item = order_item(dish, [0] * len(dish["options"]), quantity)
            order_id = f"order-unpaid-{restaurant_id}"
            order = new_order(order_id, restaurant, [item], address, it.clock - minutes * 60, None)
            order["tableware"] = 1
            it.data["orders"].append(order)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop = params["restaurant"]
        return phrased(
            zh=[f"取消我在“{shop}”下的那笔还没付款的外卖订单",
                f"“{shop}”那笔外卖订单还没付款，帮我取消掉",
                f"我不想要在“{shop}”下的那单未付款的外卖了，请把它取消"],
            en=[f"Cancel my unpaid Food order from '{shop}'",
                f"Please cancel the Food order from '{shop}' that I haven't paid for yet",
                f"I don't want my unpaid order from '{shop}' in Food anymore; cancel it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        changes = diff.touched(ORDERS)
        wanted = f"{ORDERS}[{params['order_id']}]/status"
        paths = [(c.path, c.after) for c in changes]
        problems = check_coupons(diff, [])
        if paths != [(wanted, "cancelled")]:
            problems.append(f"changes {paths}, expected only {wanted} -> cancelled")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_food(ui)
        yield ui.tap("tab_orders")
        yield from ui.scroll_to(f"order_{params['order_id']}")
        yield ui.tap(f"order_{params['order_id']}")
        yield ui.tap("cancel_order")
        yield ui.tap("confirm_cancel")


class DeliveryFee(FoodTemplate):
    id = "food.delivery_fee"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        shops = [r for r in world.content(FOOD_PACKAGE)["restaurants"] if r["delivery_fee_cents"]]
        shop = rng.choice(shops)
        return {
            "restaurant_id": shop["id"],
            "restaurant": shop["name"],
            "fee_cents": shop["delivery_fee_cents"],
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shop = params["restaurant"]
        return phrased(
            zh=[f"外卖上“{shop}”的配送费是多少钱？",
                f"查一下外卖里“{shop}”收多少配送费",
                f"从“{shop}”点外卖的话，配送费要多少？"],
            en=[f"What is the delivery fee of '{shop}' in Food?",
                f"How much does '{shop}' charge for delivery in Food?",
                f"Check in Food: what delivery fee does '{shop}' charge?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["fee_cents"] / 100)

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_coupons(diff, []) + self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return money(params["fee_cents"] + 100)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_food(ui)
        yield from open_restaurant(ui, params)
        node = ui.find("delivery_fee")
        yield Answer(text=node.text.removeprefix("配送费") if node else "")


class DeliverToNoteAddress(TaskTemplate):
    id = "food.note_address"
    category = Category.CROSS_APP
    apps = (NOTES, FOOD_PACKAGE, WALLET)
    difficulty = 34
    NOTE_TITLES = ("妈妈家地址", "朋友的地址", "新家地址", "同事收货信息")

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _sample_order(rng, world)
        params["address"] = _sample_address(rng)
        params["note_title"] = rng.choice(self.NOTE_TITLES)
        params["tableware"] = rng.randrange(0, 3)
        return params

    def setup(self, it: Any, params: Params) -> None:
        address = params["address"]
        body = f"收货人：{address['name']}\n电话：{address['phone']}\n地址：{address['text']}"
        it.app_data(NOTES)["notes"].insert(
            0, {"id": "note-address", "title": params["note_title"], "body": body, "pinned": False}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        ware_zh, ware_en = tableware_words(params["tableware"])
        tag, title, shop = params["address"]["tag"], params["note_title"], params["restaurant"]
        items_zh = describe_items(params["items"])
        items_en = describe_items(params["items"], english=True)
        return phrased(
            zh=[f"备忘录“{title}”里记着收货人、电话和地址。把它添加为外卖的新收货地址"
                f"（标签选“{tag}”），然后从“{shop}”点{items_zh}送到这个地址，{ware_zh}，并付款",
                f"先把备忘录“{title}”里记的收货人、电话和地址存成外卖的新收货地址，标签选“{tag}”；"
                f"再从“{shop}”点{items_zh}送到这个新地址，{ware_zh}，然后付款",
                f"我想给备忘录“{title}”里的那个人点外卖：照备忘录里的收货人、电话和地址在外卖里"
                f"新建收货地址（标签“{tag}”），再从“{shop}”点{items_zh}送过去，{ware_zh}，付好款"],
            en=[f"The note '{title}' holds a recipient, phone and address. Add it as a new "
                f"delivery address in Food (tag '{tag}'), then order {items_en} from '{shop}' "
                f"to that address, {ware_en}, and pay",
                f"First save the recipient, phone and address from the note '{title}' as a new "
                f"Food delivery address tagged '{tag}', then order {items_en} from '{shop}' to "
                f"it, {ware_en}, and pay",
                f"I want to send food to the person in the note '{title}'. Use the recipient, "
                f"phone and address written there to add a new delivery address in Food (tag "
                f"'{tag}'), order {items_en} from '{shop}' to it, {ware_en}, and pay"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return address_problems(diff, params["address"]) + check_one_paid_order(
            diff, params, params["address"]["text"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["note_title"])
        yield ui.tap(text=params["note_title"])
        yield from open_food(ui)
        yield from open_restaurant(ui, params)
        yield from add_items(ui, params)
        yield ui.tap("checkout")
        yield ui.tap("address_card")
        yield from fill_address(ui, params["address"])
        yield from ui.scroll_to(text=params["address"]["text"])
        yield ui.tap(text=params["address"]["text"])
        yield ui.tap("tableware")
        yield ui.tap(f"tableware_{params['tableware']}")
        yield ui.tap("submit_order")
        yield ui.tap(f"{WALLET}:id/pay_confirm")


TEMPLATES: tuple[TaskTemplate, ...] = (
    OrderAndPay(),
    AddAddress(),
    Reorder(),
    CancelUnpaid(),
    DeliveryFee(),
    DeliverToNoteAddress(),
)
