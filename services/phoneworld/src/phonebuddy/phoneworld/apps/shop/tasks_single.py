"""Shop templates that stay in the catalogue, the cart and the orders list: add to the cart,
the cheapest or best-selling product, remove, quantity, favourites, cancel or confirm an order,
price and status questions."""

from __future__ import annotations

import functools
import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.shop.base import PRICE_BANDS
from phonebuddy.phoneworld.apps.shop.content import (
    CHEAP_LIMIT_CENTS,
    ORDER_STATUS,
    STATUS_SYNONYMS,
    sku_price,
)
from phonebuddy.phoneworld.apps.shop.steps import (
    CART,
    FAVORITES,
    SHOP,
    ShopTemplate,
    best_seller_in,
    busy_product_ids,
    cheapest,
    fill_sku_sheet,
    free_products,
    item_params,
    new_cart_line_problems,
    open_order,
    open_orders,
    open_result,
    open_shop,
    options_en,
    options_zh,
    pick_options,
    product_by_id,
    queries_with_unique,
    random_options,
    search_for,
    shop_content,
    status_change_problems,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction


# -- cart -----------------------------------------------------------------------------------------
class AddToCart(ShopTemplate):
    id = "shop.add_to_cart"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        product = pick(rng, free_products(world))
        return item_params(product, random_options(rng, product), rng.randint(1, 3))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, quantity = params["name"], params["quantity"]
        opts_zh, opts_en = options_zh(params["options"]), options_en(params["options"])
        return phrased(
            zh=[f"在购物App里搜索“{name}”，{opts_zh}，把{quantity}件加入购物车",
                f"帮我把“{name}”加到购物App的购物车里：{opts_zh}，数量{quantity}件",
                f"我想买“{name}”，在购物App里选好规格（{opts_zh}），往购物车里加{quantity}件"],
            en=[f"In Shop, find '{name}', choose {opts_en} and add {quantity} to the cart",
                f"Please add {quantity} of '{name}' to my Shop cart, with {opts_en}",
                f"I want '{name}' from Shop: pick {opts_en} and put {quantity} in the cart"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return new_cart_line_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        product = product_by_id(ui.device.world, params["product_id"])
        yield from open_shop(ui)
        yield from search_for(ui, params["name"])
        yield from open_result(ui, params["product_id"])
        yield from fill_sku_sheet(ui, product, params["options"], params["quantity"], "add_to_cart")


class AddCheapest(ShopTemplate):
    id = "shop.add_cheapest"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        busy = busy_product_ids(world)
        pairs = [(q, p) for q, p in queries_with_unique(world, cheapest) if p["id"] not in busy]
        query, product = pick(rng, pairs)
        return {
            "query": query,
            **item_params(product, random_options(rng, product), rng.randint(1, 2)),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        query, quantity = params["query"], params["quantity"]
        opts_zh, opts_en = options_zh(params["options"]), options_en(params["options"])
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
        return new_cart_line_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        product = product_by_id(ui.device.world, params["product_id"])
        yield from open_shop(ui)
        yield from search_for(ui, params["query"])
        yield ui.tap("sort_price_asc")
        yield from open_result(ui, params["product_id"])
        yield from fill_sku_sheet(ui, product, params["options"], params["quantity"], "add_to_cart")


class AddBestSellerInBand(ShopTemplate):
    id = "shop.add_best_seller_in_band"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        busy = busy_product_ids(world)
        candidates = []
        for band, _, low, high in PRICE_BANDS[1:]:
            best_seller = functools.partial(best_seller_in, band)
            for query, product in queries_with_unique(world, best_seller):
                if product["id"] not in busy:
                    candidates.append((query, band, low, high, product))
        query, band, low, high, product = pick(rng, candidates)
        item = item_params(product, random_options(rng, product), 1)
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
        opts_zh, opts_en = options_zh(params["options"]), options_en(params["options"])
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
        return new_cart_line_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        product = product_by_id(ui.device.world, params["product_id"])
        yield from open_shop(ui)
        yield from search_for(ui, params["query"])
        yield ui.tap(f"price_{params['band']}")
        yield ui.tap("sort_sales")
        yield from open_result(ui, params["product_id"])
        yield from fill_sku_sheet(ui, product, params["options"], 1, "add_to_cart")


def _seeded_line(world: World, rng: random.Random) -> Params:
    line = pick(rng, shop_content(world)["account"]["cart"])
    product = product_by_id(world, line["product_id"])
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
        product = pick(rng, free_products(world))
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
def seeded_order(world: World, rng: random.Random, status: str) -> Params:
    order = pick(
        rng, [o for o in shop_content(world)["account"]["orders"] if o["status"] == status]
    )
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
        return seeded_order(world, rng, "unpaid")

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
        return status_change_problems(
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
        return seeded_order(world, rng, "to_receive")

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
        return status_change_problems(
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
            for p in shop_content(world)["products"]
            if any(o["delta_cents"] for g in p["skus"] for o in g["options"])
        ]
        product = pick(rng, priced)
        options = random_options(rng, product)
        while sku_price(product, options) == product["price_cents"]:
            options = random_options(rng, product)
        return {**item_params(product, options, 1), "base_cents": product["price_cents"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        opts_zh, opts_en = options_zh(params["options"]), options_en(params["options"])
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
        product = product_by_id(ui.device.world, params["product_id"])
        yield from open_shop(ui)
        yield from search_for(ui, params["name"])
        yield from open_result(ui, params["product_id"])
        yield ui.tap("choose_sku")
        yield from pick_options(ui, product, params["options"])
        node = ui.find("sheet_price")
        yield Answer(text=node.text if node else "")


class OrderStatus(ShopTemplate):
    """The status of one order, and what was paid for it (this task's own status: a seeded
    one of those the order can be in)."""

    id = "shop.order_status"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        order = pick(rng, shop_content(world)["account"]["orders"])
        # only a cheap order may wait for payment (any seeded wallet balance pays it)
        cheap = order["total_cents"] <= CHEAP_LIMIT_CENTS
        status = rng.choice([s for s in ORDER_STATUS if cheap or s != "unpaid"])
        return {"order_id": order["id"], "number": order["number"], "status": status,
                "total_cents": order["total_cents"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        for order in it.data["orders"]:
            if order["id"] == params["order_id"]:
                order["status"] = params["status"]
                unpaid = params["status"] in ("unpaid", "cancelled")
                order["paid_at"] = None if unpaid else order["created_at"] + 120

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        number = params["number"]
        return phrased(
            zh=[f"购物App里订单号为{number}的订单现在是什么状态？实付了多少钱？",
                f"帮我看看购物App里订单{number}现在到哪一步了，是什么状态，实付款多少？",
                f"查一下订单号{number}在购物App里的当前状态和实付金额"],
            en=[f"What is the status of order {number} in Shop, and how much was paid for it?",
                f"Check the current status of my Shop order {number} and the amount paid",
                f"Where does order {number} stand in Shop? Tell me its status and what it cost"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        orders = {o["id"]: o for o in diff.before["apps"][SHOP]["orders"]}
        order = orders[params["order_id"]]
        expected = order["status"]
        others = [f for s, forms in STATUS_SYNONYMS.items() if s != expected for f in forms]
        forms = (ORDER_STATUS[expected], *STATUS_SYNONYMS[expected])
        return Together(Text(forms, others=others, what="order status"),
                        Money(order["total_cents"] / 100))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        status = "已完成" if params["status"] != "completed" else "待收货"
        return f"{status}，实付款{yuan(params['total_cents'])}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_shop(ui)
        yield from open_orders(ui, "all")
        yield from ui.scroll_to(text=f"订单号 {params['number']}")
        node = ui.find(f"status_{params['order_id']}")
        paid = [t for t in ui.texts_in(f"order_{params['order_id']}") if t.startswith("实付款")]
        status = node.text if node else ""
        yield Answer(text=f"{status}，{paid[0] if paid else ''}")
