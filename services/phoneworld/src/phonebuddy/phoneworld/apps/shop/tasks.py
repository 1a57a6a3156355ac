"""Task templates of the Shop app, including the ones that pay in the wallet or read a note."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.apps.shop import content as catalogue
from phonebuddy.phoneworld.apps.shop.base import PRICE_BANDS, in_band, sort_products
from phonebuddy.phoneworld.apps.shop.content import (
    ORDER_STATUS,
    STATUS_SYNONYMS,
    default_options,
    sku_price,
)
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Text
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction, Type

SHOP = "com.pw.shop"
WALLET = "com.pw.wallet"
NOTES = "com.pw.notes"
CART = f"apps/{SHOP}/cart"
ORDERS = f"apps/{SHOP}/orders"
FAVORITES = f"apps/{SHOP}/favorites"
COUPONS = f"apps/{SHOP}/coupons"
PAY_CONFIRM = "com.pw.wallet:id/pay_confirm"
# Every seeded wallet starts with at least ¥800; purchases stay below it.
AFFORDABLE_CENTS = 75000
Product = Mapping[str, Any]


# -- sampling helpers -----------------------------------------------------------------------------
def _shop(world: World) -> Mapping[str, Any]:
    return world.content(SHOP)


def _product(world: World, product_id: str) -> Product:
    return next(p for p in _shop(world)["products"] if p["id"] == product_id)


def _busy_product_ids(world: World) -> set[str]:
    """Products already in the seeded cart or favourites: adding them would merge or no-op."""
    account = _shop(world)["account"]
    return {line["product_id"] for line in account["cart"]} | {
        f["id"] for f in account["favorites"]
    }


def _free_products(world: World, max_cents: int | None = None) -> list[Product]:
    busy = _busy_product_ids(world)
    return [
        p
        for p in _shop(world)["products"]
        if p["id"] not in busy and (max_cents is None or p["price_cents"] <= max_cents)
    ]


def _random_options(rng: random.Random, product: Product) -> dict[str, str]:
    return {g["name"]: rng.choice(g["options"])["label"] for g in product["skus"]}


def _options_zh(options: Mapping[str, str]) -> str:
    if not options:
        return "默认规格"
    return "、".join(f"{group}选“{label}”" for group, label in options.items())


def _options_en(options: Mapping[str, str]) -> str:
    if not options:
        return "the default options"
    return ", ".join(f"{group} '{label}'" for group, label in options.items())


def _item(product: Product, options: Mapping[str, str], quantity: int) -> dict[str, Any]:
    return {
        "product_id": product["id"],
        "name": product["name"],
        "options": dict(options),
        "quantity": quantity,
        "unit_cents": sku_price(product, options),
    }


def _queries_with_unique(
    world: World,
    best: Callable[[Sequence[Product]], Product | None],
    qualifies: Callable[[Product], bool] = lambda product: True,
) -> list[tuple[str, Product]]:
    """(query, product) pairs where `best(matches)` picks one product without a tie."""
    pairs = []
    for category_items in catalogue.ITEMS.values():
        for item, *_ in category_items:
            found = [p for p in catalogue.search(_shop(world)["products"], item) if qualifies(p)]
            if len(found) >= 2:
                winner = best(found)
                if winner is not None:
                    pairs.append((item, winner))
    return pairs


def _cheapest(products: Sequence[Product]) -> Product | None:
    ranked = sort_products(products, "price_asc")
    tie = ranked[0]["price_cents"] == ranked[1]["price_cents"]
    return None if tie else ranked[0]


def _best_seller_in(band: str, products: Sequence[Product]) -> Product | None:
    ranked = sort_products([p for p in products if in_band(p, band)], "sales")
    if len(ranked) < 2 or ranked[0]["sales"] == ranked[1]["sales"]:
        return None
    return ranked[0]


# -- verification helpers -------------------------------------------------------------------------
def _line_problems(line: Mapping[str, Any], params: Params) -> list[str]:
    problems = []
    if line["product_id"] != params["product_id"]:
        problems.append(f"added {line['product_id']}, expected {params['product_id']}")
    if line["options"] != params["options"]:
        problems.append(f"options are {line['options']}, expected {params['options']}")
    if line["quantity"] != params["quantity"]:
        problems.append(f"quantity is {line['quantity']}, expected {params['quantity']}")
    return problems


def _new_cart_line_problems(diff: StateDiff, params: Params) -> list[str]:
    added = diff.added(CART)
    if len(added) != 1:
        return [f"expected one new cart line, found {len(added)}"]
    return _line_problems(added[0], params)


def _items_problems(order: Mapping[str, Any], expected: Sequence[Mapping[str, Any]]) -> list[str]:
    def key(item: Mapping[str, Any]) -> tuple[str, str, int]:
        return (item["product_id"], repr(sorted(item["options"].items())), item["quantity"])

    got = sorted(key(line) for line in order["items"])
    wanted = sorted(key(item) for item in expected)
    if got != wanted:
        return [f"order items are {got}, expected {wanted}"]
    prices = {item["product_id"]: item["unit_cents"] for item in expected}
    return [
        f"{line['product_id']} was charged {line['price_cents']}, expected "
        f"{prices[line['product_id']]}"
        for line in order["items"]
        if line["price_cents"] != prices[line["product_id"]]
    ]


def _coupon_problems(diff: StateDiff, order: Mapping[str, Any]) -> list[str]:
    """An order may use any coupon it qualifies for; its discount must match the coupon."""
    changes = diff.touched(COUPONS)
    coupon_id = order["coupon_id"]
    if coupon_id is None:
        if order["discount_cents"] or changes:
            return ["a discount or coupon change without a coupon on the order"]
        return []
    path = f"{COUPONS}[{coupon_id}]/used"
    if [(c.path, c.after) for c in changes] != [(path, True)]:
        return [f"expected only coupon {coupon_id} to become used, got {[c.path for c in changes]}"]
    coupon = diff.value_before(f"{COUPONS}[{coupon_id}]")
    problems = []
    if coupon["threshold_cents"] > order["subtotal_cents"]:
        problems.append(f"coupon {coupon_id} does not apply to {order['subtotal_cents']}")
    if order["discount_cents"] != coupon["discount_cents"]:
        problems.append(f"discount {order['discount_cents']} is not the coupon's")
    return problems


def _totals_problems(order: Mapping[str, Any]) -> list[str]:
    subtotal = sum(line["price_cents"] * line["quantity"] for line in order["items"])
    if order["subtotal_cents"] != subtotal:
        return [f"subtotal {order['subtotal_cents']} is not {subtotal}"]
    if order["total_cents"] != subtotal - order["discount_cents"]:
        return [f"total {order['total_cents']} is not subtotal minus discount"]
    return []


def _paid_new_order_problems(
    diff: StateDiff, expected: Sequence[Mapping[str, Any]], address_id: str | None = None
) -> list[str]:
    added = diff.added(ORDERS)
    if len(added) != 1:
        return [f"expected one new order, found {len(added)}"]
    order = added[0]
    problems = _items_problems(order, expected) + _totals_problems(order)
    problems += _coupon_problems(diff, order)
    if order["status"] != "to_ship":
        problems.append(f"the order is {ORDER_STATUS[order['status']]}, not paid")
    if address_id is not None and order["address_id"] != address_id:
        problems.append(f"shipped to {order['address_id']}, expected {address_id}")
    return problems + wallet_payment_problems(
        diff, amount_cents=order["total_cents"], reference=order["id"]
    )


def _status_change_problems(
    diff: StateDiff, order_id: str, before: str, after: str, stamp: str
) -> list[str]:
    """Only the given order changed: its status from `before` to `after`, with a timestamp."""
    prefix = f"{ORDERS}[{order_id}]"
    changed = sorted(c.path.removeprefix(prefix + "/") for c in diff.touched(prefix))
    problems = []
    if changed != sorted(["status", stamp]):
        problems.append(f"order {order_id}: changed {changed}, expected status and {stamp}")
    status = diff.value_after(f"{prefix}/status")
    if diff.value_before(f"{prefix}/status") != before or status != after:
        problems.append(f"order {order_id} is {status}, expected {after}")
    return problems


# -- oracle helpers -------------------------------------------------------------------------------
def open_shop(ui: OracleUI) -> Iterator[Action]:
    """Open the shop and get past its first-run friction: the permission, the coupon pop-up."""
    yield from ui.open_app("购物")
    if ui.visible("coupon_popup_ok"):
        yield ui.tap("coupon_popup_ok")


def search_for(ui: OracleUI, query: str, *, from_results: bool = False) -> Iterator[Action]:
    yield ui.tap("new_search" if from_results else "search_box")
    yield Type(text=query)
    yield ui.tap("search_go")


def open_result(ui: OracleUI, product_id: str) -> Iterator[Action]:
    yield from ui.scroll_to(f"product_{product_id}")
    yield ui.tap(f"product_{product_id}")


def fill_sku_sheet(
    ui: OracleUI, product: Product, options: Mapping[str, str], quantity: int, button: str
) -> Iterator[Action]:
    """On a product page: open the SKU sheet with `button`, pick options and quantity, confirm."""
    yield ui.tap(button)
    yield from pick_options(ui, product, options)
    for _ in range(quantity - 1):
        yield ui.tap("qty_plus")
    yield ui.tap("sheet_confirm")


def pick_options(ui: OracleUI, product: Product, options: Mapping[str, str]) -> Iterator[Action]:
    for g, group in enumerate(product["skus"]):
        labels = [option["label"] for option in group["options"]]
        wanted = labels.index(options[group["name"]])
        if wanted != 0:  # the first option is already chosen
            yield ui.tap(f"sku_{g}_{wanted}")


def pay_in_wallet(ui: OracleUI) -> Iterator[Action]:
    yield ui.tap(PAY_CONFIRM)


def open_orders(ui: OracleUI, tab: str) -> Iterator[Action]:
    """From the shop's home: 我的, then the order list on tab `tab` (all, unpaid, ...)."""
    yield ui.tap("tab_mine")
    yield ui.tap("all_orders" if tab == "all" else f"orders_{tab}")


def open_order(ui: OracleUI, order_id: str, tab: str) -> Iterator[Action]:
    yield from open_orders(ui, tab)
    yield from ui.scroll_to(f"order_{order_id}")
    yield ui.tap(f"order_{order_id}")


class ShopTemplate(TaskTemplate):
    """A template of the Shop app alone."""

    category = Category.SINGLE_APP
    apps = (SHOP,)


# -- cart -----------------------------------------------------------------------------------------
class AddToCart(ShopTemplate):
    id = "shop.add_to_cart"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        product = pick(rng, _free_products(world))
        return _item(product, _random_options(rng, product), rng.randint(1, 3))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, quantity = params["name"], params["quantity"]
        opts_zh, opts_en = _options_zh(params["options"]), _options_en(params["options"])
        return phrased(
            zh=[f"在购物App里搜索“{name}”，{opts_zh}，把{quantity}件加入购物车",
                f"帮我把“{name}”加到购物App的购物车里：{opts_zh}，数量{quantity}件",
                f"我想买“{name}”，在购物App里选好规格（{opts_zh}），往购物车里加{quantity}件"],
            en=[f"In Shop, find '{name}', choose {opts_en} and add {quantity} to the cart",
                f"Please add {quantity} of '{name}' to my Shop cart, with {opts_en}",
                f"I want '{name}' from Shop: pick {opts_en} and put {quantity} in the cart"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _new_cart_line_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        product = _product(ui.device.world, params["product_id"])
        yield from open_shop(ui)
        yield from search_for(ui, params["name"])
        yield from open_result(ui, params["product_id"])
        yield from fill_sku_sheet(ui, product, params["options"], params["quantity"], "add_to_cart")


class AddCheapest(ShopTemplate):
    id = "shop.add_cheapest"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        busy = _busy_product_ids(world)
        pairs = [(q, p) for q, p in _queries_with_unique(world, _cheapest) if p["id"] not in busy]
        query, product = pick(rng, pairs)
        return {"query": query, **_item(product, _random_options(rng, product), rng.randint(1, 2))}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        query, quantity = params["query"], params["quantity"]
        opts_zh, opts_en = _options_zh(params["options"]), _options_en(params["options"])
        return phrased(
            zh=[f"在购物App搜索“{query}”，把搜索结果里价格最低的那款加入购物车：{opts_zh}，"
                f"数量{quantity}件",
                f"在购物App里搜“{query}”，找出价格最低的那一款，{opts_zh}，加{quantity}件到购物车",
                f"帮我把购物App里“{query}”搜索结果中最便宜的那款加进购物车，{opts_zh}，"
                f"数量{quantity}件"],
            en=[f"In Shop, search for '{query}' and add the cheapest result to the cart with "
                f"{opts_en}, quantity {quantity}",
                f"Search Shop for '{query}', take the lowest-priced result and add {quantity} "
                f"of it to the cart with {opts_en}",
                f"Please put the cheapest '{query}' from the Shop search results in my cart: "
                f"{opts_en}, quantity {quantity}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _new_cart_line_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        product = _product(ui.device.world, params["product_id"])
        yield from open_shop(ui)
        yield from search_for(ui, params["query"])
        yield ui.tap("sort_price_asc")
        yield from open_result(ui, params["product_id"])
        yield from fill_sku_sheet(ui, product, params["options"], params["quantity"], "add_to_cart")


class AddBestSellerInBand(ShopTemplate):
    id = "shop.add_best_seller_in_band"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        busy = _busy_product_ids(world)
        candidates = []
        for band, _, low, high in PRICE_BANDS[1:]:
            best_seller = functools.partial(_best_seller_in, band)
            for query, product in _queries_with_unique(world, best_seller):
                if product["id"] not in busy:
                    candidates.append((query, band, low, high, product))
        query, band, low, high, product = pick(rng, candidates)
        item = _item(product, _random_options(rng, product), 1)
        yuan_high = high // 100 if high is not None else None
        return {"query": query, "band": band, "low": low // 100, "high": yuan_high, **item}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        low, high = params["low"], params["high"]
        band_zh = (
            f"{high}元以下" if not low else f"{low}元以上" if high is None else f"{low}到{high}元"
        )
        band_en = (
            f"under ¥{high}" if not low else f"over ¥{low}" if high is None else f"¥{low}-{high}"
        )
        query = params["query"]
        opts_zh, opts_en = _options_zh(params["options"]), _options_en(params["options"])
        return phrased(
            zh=[f"在购物App搜索“{query}”，在价格{band_zh}的宝贝里找销量最高的那款，{opts_zh}，"
                "加入购物车1件",
                f"在购物App里搜“{query}”，只看价格{band_zh}的宝贝，挑销量最高的那款，{opts_zh}，"
                "往购物车加1件",
                f"帮我在购物App“{query}”的搜索结果里，从价格{band_zh}的商品中找出卖得最好的一款，"
                f"{opts_zh}，放1件到购物车"],
            en=[f"In Shop, search for '{query}', and among the results priced {band_en} add the "
                f"best-selling one to the cart (one, with {opts_en})",
                f"Search Shop for '{query}', look only at results priced {band_en}, find the "
                f"best seller among them and add one to the cart with {opts_en}",
                f"Please put the top-selling '{query}' priced {band_en} from the Shop search "
                f"results in my cart, a single one, with {opts_en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _new_cart_line_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        product = _product(ui.device.world, params["product_id"])
        yield from open_shop(ui)
        yield from search_for(ui, params["query"])
        yield ui.tap(f"price_{params['band']}")
        yield ui.tap("sort_sales")
        yield from open_result(ui, params["product_id"])
        yield from fill_sku_sheet(ui, product, params["options"], 1, "add_to_cart")


def _seeded_line(world: World, rng: random.Random) -> Params:
    line = pick(rng, _shop(world)["account"]["cart"])
    product = _product(world, line["product_id"])
    return {
        "line_id": line["id"],
        "name": product["name"],
        "options": dict(line["options"]),
        "quantity": line["quantity"],
    }


class RemoveFromCart(ShopTemplate):
    id = "shop.remove_from_cart"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return _seeded_line(world, rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"把购物App购物车里的“{name}”删除",
                f"购物车里的“{name}”不要了，帮我在购物App里删掉",
                f"请从购物App的购物车中移除“{name}”"],
            en=[f"Remove '{name}' from the cart in Shop",
                f"I don't want '{name}' anymore; delete it from my Shop cart",
                f"Please take '{name}' out of the Shop cart"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [line["id"] for line in diff.removed(CART)]
        return (
            []
            if removed == [params["line_id"]]
            else [f"removed {removed}, expected only {params['line_id']}"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui)
        yield ui.tap("tab_cart")
        yield from ui.scroll_to(f"remove_{params['line_id']}")
        yield ui.tap(f"remove_{params['line_id']}")
        yield ui.tap("remove_confirm")


class ChangeQuantity(ShopTemplate):
    id = "shop.change_quantity"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        params = _seeded_line(world, rng)
        target = rng.choice([n for n in range(1, 6) if n != params["quantity"]])
        return {**params, "target": target}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, target = params["name"], params["target"]
        return phrased(
            zh=[f"把购物App购物车里“{name}”的数量改成{target}件",
                f"购物App购物车里的“{name}”，数量调成{target}件",
                f"我想买{target}件“{name}”，请把购物App购物车里它的数量改一下"],
            en=[f"In the Shop cart, change the quantity of '{name}' to {target}",
                f"Set the quantity of '{name}' in my Shop cart to {target}",
                f"I want {target} of '{name}'; please update its quantity in the Shop cart"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{CART}[{params['line_id']}]/quantity"
        changes = [(c.path, c.after) for c in diff.touched(CART)]
        return (
            []
            if changes == [(path, params["target"])]
            else [f"cart changes {changes}, expected only {path} -> {params['target']}"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        line_id, delta = params["line_id"], params["target"] - params["quantity"]
        yield from open_shop(ui)
        yield ui.tap("tab_cart")
        yield from ui.scroll_to(f"qty_{line_id}")
        for _ in range(abs(delta)):
            yield ui.tap(f"plus_{line_id}" if delta > 0 else f"minus_{line_id}")


class Favourite(ShopTemplate):
    id = "shop.favourite"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        product = pick(rng, _free_products(world))
        return {"product_id": product["id"], "name": product["name"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"在购物App里收藏宝贝“{name}”",
                f"帮我把购物App里的“{name}”加入收藏",
                f"我挺喜欢“{name}”的，在购物App里收藏一下"],
            en=[f"Add '{name}' to your favourites in Shop",
                f"Please favourite '{name}' in Shop",
                f"I like '{name}'. Save it to my favourites in Shop"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = [f["id"] for f in diff.added(FAVORITES)]
        return (
            []
            if added == [params["product_id"]]
            else [f"favourited {added}, expected only {params['product_id']}"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui)
        yield from search_for(ui, params["name"])
        yield from open_result(ui, params["product_id"])
        yield ui.tap("favourite")


# -- orders ---------------------------------------------------------------------------------------
def _seeded_order(world: World, rng: random.Random, status: str) -> Params:
    order = pick(rng, [o for o in _shop(world)["account"]["orders"] if o["status"] == status])
    return {
        "order_id": order["id"],
        "number": order["number"],
        "name": order["items"][0]["name"],
        "total_cents": order["total_cents"],
    }


class CancelOrder(ShopTemplate):
    id = "shop.cancel_order"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return _seeded_order(world, rng, "unpaid")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        number, name = params["number"], params["name"]
        return phrased(
            zh=[f"在购物App里取消订单号为{number}的待付款订单（{name}）",
                f"订单号{number}（{name}）还没付款，我不要了，帮我在购物App里取消",
                f"请取消购物App中那笔待付款的订单{number}（{name}）"],
            en=[f"In Shop, cancel the unpaid order {number} ({name})",
                f"Please cancel my unpaid Shop order {number} ({name})",
                f"I don't need order {number} ({name}) in Shop anymore. It is unpaid, so "
                "cancel it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _status_change_problems(
            diff, params["order_id"], "unpaid", "cancelled", "cancelled_at"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui)
        yield from open_order(ui, params["order_id"], "unpaid")
        yield ui.tap("cancel_order")
        yield ui.tap("cancel_confirm")


class ConfirmReceipt(ShopTemplate):
    id = "shop.confirm_receipt"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return _seeded_order(world, rng, "to_receive")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"购物App里买的“{name}”已经收到了，帮我确认收货",
                f"帮我在购物App里把“{name}”这单确认收货，东西已经到了",
                f"“{name}”我已经收到了，去购物App确认一下收货"],
            en=[f"The '{name}' I ordered in Shop has arrived; confirm receipt",
                f"Please confirm receipt of '{name}' in Shop, it has been delivered",
                f"My '{name}' order from Shop has been delivered. Please confirm receipt"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _status_change_problems(
            diff, params["order_id"], "to_receive", "completed", "completed_at"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui)
        yield from open_order(ui, params["order_id"], "to_receive")
        yield ui.tap("confirm_receipt")
        yield ui.tap("receipt_confirm")


# -- questions ------------------------------------------------------------------------------------
class ProductPrice(ShopTemplate):
    id = "shop.product_price"
    difficulty = 10
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        priced = [
            p
            for p in _shop(world)["products"]
            if any(o["delta_cents"] for g in p["skus"] for o in g["options"])
        ]
        product = pick(rng, priced)
        options = _random_options(rng, product)
        while sku_price(product, options) == product["price_cents"]:
            options = _random_options(rng, product)
        return {**_item(product, options, 1), "base_cents": product["price_cents"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        opts_zh, opts_en = _options_zh(params["options"]), _options_en(params["options"])
        return phrased(
            zh=[f"购物App里的“{name}”，{opts_zh}的话多少钱？",
                f"查一下购物App上“{name}”在{opts_zh}时的价格",
                f"我想买“{name}”，{opts_zh}，在购物App里要花多少钱？"],
            en=[f"In Shop, how much does '{name}' cost with {opts_en}?",
                f"What is the price of '{name}' in Shop when you choose {opts_en}?",
                f"Check in Shop: with {opts_en}, how much is '{name}'?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["unit_cents"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["base_cents"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        product = _product(ui.device.world, params["product_id"])
        yield from open_shop(ui)
        yield from search_for(ui, params["name"])
        yield from open_result(ui, params["product_id"])
        yield ui.tap("choose_sku")
        yield from pick_options(ui, product, params["options"])
        node = ui.find("sheet_price")
        yield Answer(text=node.text if node else "")


class OrderStatus(ShopTemplate):
    id = "shop.order_status"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        order = pick(rng, _shop(world)["account"]["orders"])
        return {"order_id": order["id"], "number": order["number"], "status": order["status"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        number = params["number"]
        return phrased(
            zh=[f"购物App里订单号为{number}的订单现在是什么状态？",
                f"帮我看看购物App里订单{number}现在到哪一步了，是什么状态？",
                f"查一下订单号{number}在购物App里的当前状态"],
            en=[f"What is the status of order {number} in Shop?",
                f"Check the current status of my Shop order {number}",
                f"Where does order {number} stand in Shop? Tell me its status"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        expected = params["status"]
        others = [f for s, forms in STATUS_SYNONYMS.items() if s != expected for f in forms]
        forms = (ORDER_STATUS[expected], *STATUS_SYNONYMS[expected])
        return Text(forms, others=others, what="order status")

    def wrong_answer(self, params: Params) -> str:
        return "已完成" if params["status"] != "completed" else "待收货"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui)
        yield from open_orders(ui, "all")
        yield from ui.scroll_to(text=f"订单号 {params['number']}")
        node = ui.find(f"status_{params['order_id']}")
        yield Answer(text=node.text if node else "")


# -- buying, paid in the wallet -------------------------------------------------------------------
class BuyNow(TaskTemplate):
    id = "shop.buy_now"
    category = Category.CROSS_APP
    apps = (SHOP, WALLET)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        product = pick(rng, _free_products(world, max_cents=AFFORDABLE_CENTS // 3))
        options = _random_options(rng, product)
        quantity = rng.randint(1, 2)
        default = next(a for a in _shop(world)["account"]["addresses"] if a["default"])
        return {**_item(product, options, quantity), "address_id": default["id"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, quantity = params["name"], params["quantity"]
        opts_zh, opts_en = _options_zh(params["options"]), _options_en(params["options"])
        return phrased(
            zh=[f"在购物App里直接购买“{name}”（{opts_zh}）{quantity}件，寄到默认地址，并用钱包付款",
                f"帮我在购物App上立即购买{quantity}件“{name}”，{opts_zh}，送到默认收货地址，"
                "用钱包付款",
                f"“{name}”我要直接买{quantity}件（{opts_zh}），在购物App下单寄到默认地址，"
                "并用钱包付款"],
            en=[f"In Shop, buy {quantity} of '{name}' now ({opts_en}), ship to the default "
                "address and pay with the wallet",
                f"Buy {quantity} of '{name}' right away in Shop with {opts_en}, sent to the "
                "default address, paying with the wallet",
                f"I'd like to purchase '{name}' directly in Shop: {quantity} of them, "
                f"{opts_en}, shipped to my default address, paid with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _paid_new_order_problems(diff, [params], params["address_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        product = _product(ui.device.world, params["product_id"])
        yield from open_shop(ui)
        yield from search_for(ui, params["name"])
        yield from open_result(ui, params["product_id"])
        yield from fill_sku_sheet(ui, product, params["options"], params["quantity"], "buy_now")
        yield ui.tap("submit_order")
        yield from pay_in_wallet(ui)


class BuyCheapestToAddress(TaskTemplate):
    id = "shop.buy_cheapest_to_address"
    category = Category.CROSS_APP
    apps = (SHOP, WALLET)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        affordable = _queries_with_unique(
            world, _cheapest, lambda p: p["price_cents"] <= AFFORDABLE_CENTS
        )
        query, product = pick(rng, affordable)
        address = pick(rng, [a for a in _shop(world)["account"]["addresses"] if not a["default"]])
        item = _item(product, default_options(product), 1)
        return {"query": query, **item, "address_id": address["id"], "tag": address["tag"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        query, tag = params["query"], params["tag"]
        return phrased(
            zh=[f"在购物App搜索“{query}”，买一件价格最低的（默认规格），收货地址选“{tag}”，"
                "用钱包付款",
                f"在购物App里搜“{query}”，挑最便宜的那款（默认规格）买一件，寄到“{tag}”地址，"
                "用钱包付款",
                f"帮我买一件购物App里最便宜的“{query}”，默认规格，收货地址用“{tag}”，"
                "钱包付款"],
            en=[f"In Shop, search for '{query}' and buy one of the cheapest result (default "
                f"options), delivered to the '{tag}' address, paying with the wallet",
                f"Search Shop for '{query}', buy a single unit of the lowest-priced item with "
                f"the default options, ship it to the '{tag}' address and pay with the wallet",
                f"Please buy the cheapest '{query}' in Shop (one, default options), deliver it "
                f"to my '{tag}' address and pay with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _paid_new_order_problems(diff, [params], params["address_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui)
        yield from search_for(ui, params["query"])
        yield ui.tap("sort_price_asc")
        yield from open_result(ui, params["product_id"])
        yield ui.tap("buy_now")
        yield ui.tap("sheet_confirm")
        yield ui.tap("address")
        yield ui.tap(f"address_{params['address_id']}")
        yield ui.tap("submit_order")
        yield from pay_in_wallet(ui)


class PayOrder(TaskTemplate):
    id = "shop.pay_order"
    category = Category.CROSS_APP
    apps = (SHOP, WALLET)
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        return _seeded_order(world, rng, "unpaid")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"购物App里有一笔待付款的订单（{name}），用钱包把它付了",
                f"帮我用钱包支付购物App里待付款的那笔订单（{name}）",
                f"我在购物App买的{name}还没付款，请用钱包把这笔订单付了"],
            en=[f"Pay the unpaid Shop order for '{name}' with the wallet",
                f"Use the wallet to pay for my unpaid Shop order of '{name}'",
                f"My Shop order for '{name}' is still unpaid. Please pay it with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        order_id = params["order_id"]
        problems = _status_change_problems(diff, order_id, "unpaid", "to_ship", "paid_at")
        return problems + wallet_payment_problems(
            diff, amount_cents=params["total_cents"], reference=order_id
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui)
        yield from open_order(ui, params["order_id"], "unpaid")
        yield ui.tap("pay_order")
        yield from pay_in_wallet(ui)


class CheckoutCart(TaskTemplate):
    id = "shop.checkout_cart"
    category = Category.CROSS_APP
    apps = (SHOP, WALLET)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        lines = []
        for line in _shop(world)["account"]["cart"]:
            product = _product(world, line["product_id"])
            lines.append(
                {"line_id": line["id"], **_item(product, line["options"], line["quantity"])}
            )
        pairs = [
            [a, b]
            for i, a in enumerate(lines)
            for b in lines[i + 1 :]
            if a["unit_cents"] * a["quantity"] + b["unit_cents"] * b["quantity"] <= AFFORDABLE_CENTS
        ]
        chosen = pick(rng, pairs) if pairs else [pick(rng, lines)]
        return {"lines": chosen}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        names_zh = "和".join(f"“{line['name']}”" for line in params["lines"])
        names_en = " and ".join(f"'{line['name']}'" for line in params["lines"])
        return phrased(
            zh=[f"把购物App购物车里的{names_zh}一起结算下单，并用钱包付款",
                f"购物App购物车里的{names_zh}，合成一个订单结算，用钱包付款",
                f"帮我把购物车中的{names_zh}在购物App里一起下单，然后用钱包支付"],
            en=[f"Check out {names_en} from the Shop cart in one order and pay with the wallet",
                f"In Shop, place one order for {names_en} from my cart and pay with the wallet",
                f"I'm ready to buy {names_en} sitting in my Shop cart: put everything in a "
                "single order and pay with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = sorted(line["id"] for line in diff.removed(CART))
        wanted = sorted(line["line_id"] for line in params["lines"])
        problems = [] if removed == wanted else [f"cart lines {removed} left, expected {wanted}"]
        return problems + _paid_new_order_problems(diff, params["lines"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui)
        yield ui.tap("tab_cart")
        for line in params["lines"]:
            yield from ui.scroll_to(f"select_{line['line_id']}")
            yield ui.tap(f"select_{line['line_id']}")
        yield ui.tap("checkout")
        yield ui.tap("submit_order")
        yield from pay_in_wallet(ui)


class BuyNoteList(TaskTemplate):
    """The shopping list is in a note; the agent reads it, fills the cart and pays once."""

    id = "shop.buy_note_list"
    category = Category.CROSS_APP
    apps = (SHOP, NOTES, WALLET)
    difficulty = 24
    NOTE_TITLES = ("网购清单", "要买的东西", "这周网购")

    def sample(self, world: World, rng: random.Random) -> Params:
        products = rng.sample(_free_products(world, max_cents=15000), k=2)
        items = [_item(p, default_options(p), rng.randint(1, 2)) for p in products]
        return {"title": rng.choice(self.NOTE_TITLES), "items": items}

    @staticmethod
    def note_body(params: Params) -> str:
        return "\n".join(f"{item['name']} ×{item['quantity']}" for item in params["items"])

    def setup(self, it: Any, params: Params) -> None:
        it.app_data(NOTES)["notes"].insert(
            0,
            {
                "id": "note-task",
                "title": params["title"],
                "body": self.note_body(params),
                "pinned": False,
            },
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"备忘录“{title}”里记着要买的东西，在购物App里按清单的数量把它们放进同一个订单"
                "（默认规格）并用钱包付款",
                f"按备忘录“{title}”里的购物清单，在购物App里按数量买齐（默认规格），"
                "合成一个订单并用钱包付款",
                f"帮我把备忘录“{title}”里列的东西在购物App里买了：数量照清单，默认规格，"
                "放在同一个订单里，用钱包付款"],
            en=[f"The note '{title}' lists things to buy: order them in Shop in one order, with "
                "the quantities in the note and default options, and pay with the wallet",
                f"Buy everything on the list in the note '{title}' in Shop: the quantities "
                "from the note, default options, all in one order, paid with the wallet",
                f"Check the note '{title}' for what to buy, then order those items in Shop in a "
                "single order (default options, quantities as listed) and pay with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _paid_new_order_problems(diff, params["items"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        world = ui.device.world
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["title"])
        yield ui.tap(text=params["title"])
        yield from open_shop(ui)
        for i, item in enumerate(params["items"]):
            if i:
                yield ui.back()  # from the product page to the results, to search again
            yield from search_for(ui, item["name"], from_results=i > 0)
            yield from open_result(ui, item["product_id"])
            product = _product(world, item["product_id"])
            yield from fill_sku_sheet(ui, product, item["options"], item["quantity"], "add_to_cart")
        yield ui.tap("go_cart")
        for line_id in self._new_line_ids(ui, params):
            yield from ui.scroll_to(f"select_{line_id}")
            yield ui.tap(f"select_{line_id}")
        yield ui.tap("checkout")
        yield ui.tap("submit_order")
        yield from pay_in_wallet(ui)

    @staticmethod
    def _new_line_ids(ui: OracleUI, params: Params) -> list[str]:
        """The cart lines of the listed products, as the cart screen shows them."""
        wanted = {item["name"] for item in params["items"]}
        return [
            node.resource_id.rpartition("/name_")[2]
            for node in ui.device.ui_tree().walk()
            if ":id/name_" in node.resource_id and node.text in wanted
        ]


TEMPLATES: tuple[TaskTemplate, ...] = (
    AddToCart(),
    AddCheapest(),
    AddBestSellerInBand(),
    RemoveFromCart(),
    ChangeQuantity(),
    Favourite(),
    CancelOrder(),
    ConfirmReceipt(),
    ProductPrice(),
    OrderStatus(),
    BuyNow(),
    BuyCheapestToAddress(),
    PayOrder(),
    CheckoutCart(),
    BuyNoteList(),
)
