"""Shop templates that place and pay orders: buy now, the cheapest to an address, pay a
pending order, check out the cart, and buy a shopping list kept in a note."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.shop.content import default_options
from phonebuddy.phoneworld.apps.shop.steps import (
    AFFORDABLE_CENTS,
    CART,
    NOTES,
    SHOP,
    WALLET,
    cheapest,
    fill_sku_sheet,
    free_products,
    item_params,
    open_order,
    open_result,
    open_shop,
    options_en,
    options_zh,
    paid_new_order_problems,
    pay_in_wallet,
    product_by_id,
    queries_with_unique,
    random_options,
    search_for,
    shop_content,
    status_change_problems,
)
from phonebuddy.phoneworld.apps.shop.tasks_single import seeded_order
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction


# -- buying, paid in the wallet -------------------------------------------------------------------
class BuyNow(TaskTemplate):
    id = "shop.buy_now"
    category = Category.CROSS_APP
    apps = (SHOP, WALLET)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        product = pick(rng, free_products(world, max_cents=AFFORDABLE_CENTS // 3))
        options = random_options(rng, product)
        quantity = rng.randint(1, 2)
        default = next(a for a in shop_content(world)["account"]["addresses"] if a["default"])
        return {**item_params(product, options, quantity), "address_id": default["id"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, quantity = params["name"], params["quantity"]
        opts_zh, opts_en = options_zh(params["options"]), options_en(params["options"])
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
        return paid_new_order_problems(diff, [params], params["address_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        product = product_by_id(ui.device.world, params["product_id"])
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
        affordable = queries_with_unique(
            world, cheapest, lambda p: p["price_cents"] <= AFFORDABLE_CENTS
        )
        query, product = pick(rng, affordable)
        address = pick(
            rng, [a for a in shop_content(world)["account"]["addresses"] if not a["default"]]
        )
        item = item_params(product, default_options(product), 1)
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
        return paid_new_order_problems(diff, [params], params["address_id"])

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
        return seeded_order(world, rng, "unpaid")

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
        problems = status_change_problems(diff, order_id, "unpaid", "to_ship", "paid_at")
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
        for line in shop_content(world)["account"]["cart"]:
            product = product_by_id(world, line["product_id"])
            lines.append(
                {"line_id": line["id"], **item_params(product, line["options"], line["quantity"])}
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
        return problems + paid_new_order_problems(diff, params["lines"])

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
        products = rng.sample(free_products(world, max_cents=15000), k=2)
        items = [item_params(p, default_options(p), rng.randint(1, 2)) for p in products]
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
        return paid_new_order_problems(diff, params["items"])

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
            product = product_by_id(world, item["product_id"])
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
