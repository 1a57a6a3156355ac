"""What the Shop's templates share: paths in the state, reading the catalogue, checking cart
lines, orders, coupons and payments in a diff, and the oracle's ways through the app."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.apps.shop import content as catalogue
from phonebuddy.phoneworld.apps.shop.base import in_band, sort_products
from phonebuddy.phoneworld.apps.shop.content import ORDER_STATUS, sku_price
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Type

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
def shop_content(world: World) -> Mapping[str, Any]:
    return world.content(SHOP)


def product_by_id(world: World, product_id: str) -> Product:
    return next(p for p in shop_content(world)["products"] if p["id"] == product_id)


def busy_product_ids(world: World) -> set[str]:
    """Products already in the seeded cart or favourites: adding them would merge or no-op."""
    account = shop_content(world)["account"]
    return {line["product_id"] for line in account["cart"]} | {
        f["id"] for f in account["favorites"]
    }


def free_products(world: World, max_cents: int | None = None) -> list[Product]:
    busy = busy_product_ids(world)
    return [
        p
        for p in shop_content(world)["products"]
        if p["id"] not in busy and (max_cents is None or p["price_cents"] <= max_cents)
    ]


def random_options(rng: random.Random, product: Product) -> dict[str, str]:
    return {g["name"]: rng.choice(g["options"])["label"] for g in product["skus"]}


def options_zh(options: Mapping[str, str]) -> str:
    if not options:
        return "默认规格"
    return "、".join(f"{group}选“{label}”" for group, label in options.items())


def options_en(options: Mapping[str, str]) -> str:
    if not options:
        return "the default options"
    return ", ".join(f"{group} '{label}'" for group, label in options.items())


def item_params(product: Product, options: Mapping[str, str], quantity: int) -> dict[str, Any]:
    return {
        "product_id": product["id"],
        "name": product["name"],
        "options": dict(options),
        "quantity": quantity,
        "unit_cents": sku_price(product, options),
    }


def queries_with_unique(
    world: World,
    best: Callable[[Sequence[Product]], Product | None],
    qualifies: Callable[[Product], bool] = lambda product: True,
) -> list[tuple[str, Product]]:
    """(query, product) pairs where `best(matches)` picks one product without a tie."""
    pairs = []
    for category_items in catalogue.ITEMS.values():
        for item, *_ in category_items:
            found = [
                p for p in catalogue.search(shop_content(world)["products"], item) if qualifies(p)
            ]
            if len(found) >= 2:
                winner = best(found)
                if winner is not None:
                    pairs.append((item, winner))
    return pairs


def cheapest(products: Sequence[Product]) -> Product | None:
    ranked = sort_products(products, "price_asc")
    tie = ranked[0]["price_cents"] == ranked[1]["price_cents"]
    return None if tie else ranked[0]


def best_seller_in(band: str, products: Sequence[Product]) -> Product | None:
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


def new_cart_line_problems(diff: StateDiff, params: Params) -> list[str]:
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


def paid_new_order_problems(
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


def status_change_problems(
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
