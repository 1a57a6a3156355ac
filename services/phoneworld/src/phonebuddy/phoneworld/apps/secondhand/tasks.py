"""Task templates of 闲置: the single-app ones here, the questions in `questions`, the
cross-app ones in `cross`; `TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.secondhand.common import (
    FAVOURITES,
    LISTINGS,
    ORDERS,
    SecondhandTemplate,
    back_to,
    favourited,
    listing_params,
    offer_problems,
    on_sale,
    open_listing,
    open_mine,
    own,
    parse_price,
    seller,
    whole_yuan,
)
from phonebuddy.phoneworld.apps.secondhand.cross import CROSS_TEMPLATES
from phonebuddy.phoneworld.apps.secondhand.questions import QUESTIONS
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction

SELL_IDEAS = (
    ("闲置尤克里里", "数码", 180, "只弹过几次，送琴包和调音器。"),
    ("九阳豆浆机", "家电", 120, "功能正常，清洗干净。"),
    ("北欧风落地灯", "家具", 95, "搬家出，可自提。"),
    ("登山包 双肩", "服饰", 150, "去过一次西藏，几乎全新。"),
    ("考研政治资料", "图书", 40, "笔记清晰，适合冲刺。"),
    ("儿童平衡车", "自行车", 160, "孩子长大了用不上。"),
)  # fmt: skip


def _not_wanted(world: World) -> list[dict[str, object]]:
    wanted = set(world.content("com.pw.secondhand")["favourites"])
    return [x for x in on_sale(world) if x["id"] not in wanted]


class Want(SecondhandTemplate):
    id = "secondhand.want"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return listing_params(pick(rng, _not_wanted(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"在闲置上给“{t}”点个我想要", f"帮我把闲置里的“{t}”加到我想要",
                f"我挺喜欢“{t}”的，在闲置里标记想要"],
            en=[f"On Secondhand, tap 我想要 on '{t}'",
                f"Please add '{t}' to my wants in Secondhand",
                f"I like '{t}': mark it as wanted in Secondhand"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return favourited(diff, params["listing_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_listing(ui, params["title"], params["listing_id"])
        yield ui.tap("want")


class Offer(SecondhandTemplate):
    id = "secondhand.offer"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        listing = pick(rng, [x for x in on_sale(world) if x["price"] >= 5000])
        offer = listing["price"] * rng.choice((70, 80, 90)) // 100 // 500 * 500
        return {**listing_params(listing), "offer": offer}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, o = params["title"], whole_yuan(params["offer"])
        return phrased(
            zh=[f"在闲置上给“{t}”的卖家出价{o}元", f"帮我跟“{t}”的卖家砍价，出价{o}元",
                f"“{t}”太贵了，在聊天里向卖家出价{o}元"],
            en=[f"On Secondhand, make the seller of '{t}' an offer of {o} yuan",
                f"Haggle with the seller of '{t}' for me: offer {o} yuan",
                f"'{t}' is too pricey: offer the seller {o} yuan in the chat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return offer_problems(diff, params["listing_id"], params["offer"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_listing(ui, params["title"], params["listing_id"])
        yield ui.tap("chat")
        yield from ui.scroll_to("offer")
        yield ui.tap("offer")
        yield from ui.type_into("offer_price", whole_yuan(params["offer"]))
        yield ui.tap("offer_send")


class CityOfferOrWant(Offer):
    """Conditional: a seller in 杭州 gets an offer, any other seller's listing a 我想要."""

    id = "secondhand.city_offer_or_want"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        local = rng.random() < 0.5
        pool = [x for x in _not_wanted(world) if x["price"] >= 5000
                and (seller(world, x["seller"])["city"] == "杭州") == local]  # fmt: skip
        listing = pick(rng, pool)
        offer = listing["price"] * rng.choice((70, 80, 90)) // 100 // 500 * 500
        return {**listing_params(listing), "offer": offer, "local": local}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, o = params["title"], whole_yuan(params["offer"])
        return phrased(
            zh=[f"看看闲置上“{t}”的卖家在哪：如果在杭州，就出价{o}元；否则点我想要",
                f"“{t}”的卖家要是在杭州，帮我向他出价{o}元，不在杭州的话就加到我想要",
                f"如果“{t}”是杭州的卖家发布的，出价{o}元；否则把它标记为我想要"],
            en=[f"Check where the seller of '{t}' is: if in 杭州, offer {o} yuan; otherwise tap "
                "我想要 on it",
                f"If the seller of '{t}' is in 杭州, make them an offer of {o} yuan; if not, add "
                "it to my wants",
                f"Offer {o} yuan for '{t}' if its seller is based in 杭州, otherwise mark it as "
                "wanted"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["local"]:
            return offer_problems(diff, params["listing_id"], params["offer"])
        return favourited(diff, params["listing_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_listing(ui, params["title"], params["listing_id"])
        if ui.text_of("seller_city").startswith("杭州"):
            yield ui.tap("chat")
            yield from ui.scroll_to("offer")
            yield ui.tap("offer")
            yield from ui.type_into("offer_price", whole_yuan(params["offer"]))
            yield ui.tap("offer_send")
        else:
            yield ui.tap("want")


class Reprice(SecondhandTemplate):
    id = "secondhand.reprice"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        listing = pick(rng, own(world))
        return {**listing_params(listing),
                "new_price": listing["price"] - rng.randrange(1, 4) * 1000}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, p = params["title"], whole_yuan(params["new_price"])
        return phrased(
            zh=[f"把我在闲置上发布的“{t}”降价到{p}元", f"我的“{t}”一直没卖掉，价格改成{p}元",
                f"在闲置的我发布的列表里，把“{t}”的价格调为{p}元"],
            en=[f"Lower the price of my Secondhand listing '{t}' to {p} yuan",
                f"My '{t}' hasn't sold: change its price to {p} yuan",
                f"In Secondhand's 我发布的, set the price of '{t}' to {p} yuan"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{LISTINGS}[{params['listing_id']}]"
        return expect_changes(diff, path, {f"{path}/price": params["new_price"]})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mine(ui)
        yield ui.tap(f"mine_{params['listing_id']}")
        yield from ui.type_into("new_price", whole_yuan(params["new_price"]))
        yield ui.tap("save_price")


class TakeDown(SecondhandTemplate):
    id = "secondhand.take_down"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return listing_params(pick(rng, own(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"把我在闲置上的“{t}”下架", f"“{t}”不卖了，帮我在闲置里下架",
                f"在闲置的我发布的列表中下架宝贝“{t}”"],
            en=[f"Take my listing '{t}' down on Secondhand",
                f"I'm no longer selling '{t}': take it down in Secondhand",
                f"In Secondhand's 我发布的, remove the listing '{t}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [x["id"] for x in diff.removed(LISTINGS)]
        return [] if removed == [params["listing_id"]] else [f"took down {removed}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mine(ui)
        yield ui.tap(f"mine_{params['listing_id']}")
        yield from ui.scroll_to("take_down")
        yield ui.tap("take_down")
        yield ui.tap("confirm_take_down")


class ConfirmReceipt(SecondhandTemplate):
    id = "secondhand.confirm_receipt"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        orders = world.content("com.pw.secondhand")["orders"]
        order = pick(rng, [o for o in orders if o["status"] == "to_receive"])
        return {"order_id": order["id"], "title": order["title"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"我在闲置买的“{t}”已经收到了，帮我确认收货", f"给闲置订单“{t}”确认收货",
                f"“{t}”到了，去闲置的我买到的订单里确认收货"],
            en=[f"The '{t}' I bought on Secondhand has arrived: confirm receipt",
                f"Confirm receipt of the Secondhand order '{t}'",
                f"'{t}' came: confirm receipt in Secondhand's 我买到的"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{ORDERS}[{params['order_id']}]"
        return expect_changes(diff, path, {f"{path}/status": "done"})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("闲置")
        yield ui.tap("tab_me")
        yield ui.tap("my_orders")
        yield ui.tap(f"receive_{params['order_id']}")
        yield ui.tap("confirm_receive")


class Sell(SecondhandTemplate):
    id = "secondhand.sell"
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        title, category, price, desc = rng.choice(SELL_IDEAS)
        shipping = rng.choice((0, 0, 800, 1000))
        return {"title": title, "category": category, "price": price * 100,
                "shipping": shipping, "desc": desc}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, c, p = params["title"], params["category"], whole_yuan(params["price"])
        ship_zh = (
            "包邮" if not params["shipping"] else f"不包邮，运费{whole_yuan(params['shipping'])}元"
        )
        ship_en = (
            "free shipping"
            if not params["shipping"]
            else (f"no free shipping, a {whole_yuan(params['shipping'])} yuan shipping fee")
        )
        return phrased(
            zh=[f"在闲置上发布闲置“{t}”，分类{c}，价格{p}元，{ship_zh}",
                f"帮我把“{t}”挂到闲置上卖：{p}元，放在{c}分类，{ship_zh}",
                f"发布一件宝贝“{t}”，标价{p}元，分类选{c}，{ship_zh}"],
            en=[f"List '{t}' on Secondhand in the category {c} for {p} yuan, {ship_en}",
                f"Put '{t}' up for sale on Secondhand: {p} yuan, category {c}, {ship_en}",
                f"Publish a listing '{t}', priced {p} yuan, category {c}, {ship_en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(LISTINGS)
        if len(added) != 1:
            return [f"expected one new listing, found {len(added)}"]
        got = added[0]
        return [f"the listing's {key} is {got[key]!r}, expected {params[key]!r}"
                for key in ("title", "category", "price", "shipping")
                if got[key] != params[key]]  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("闲置")
        yield ui.tap("sell_open")
        yield from ui.type_into("sell_title", params["title"])
        yield from ui.type_into("sell_price", whole_yuan(params["price"]))
        yield from ui.scroll_to(f"pick_{params['category']}")
        yield ui.tap(f"pick_{params['category']}")
        if params["shipping"]:
            yield from ui.scroll_to("free_ship")
            yield ui.tap("free_ship")
            yield from ui.type_into("sell_shipping", whole_yuan(params["shipping"]))
        yield from ui.scroll_to("publish")
        yield ui.tap("publish")


class WantFour(SecondhandTemplate):
    """Long horizon: four listings searched for and wanted one after another."""

    id = "secondhand.want_four"
    difficulty = 22

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, _not_wanted(world), 4)
        return {"ids": [x["id"] for x in chosen], "titles": [x["title"] for x in chosen]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh = "、".join(f"“{t}”" for t in params["titles"])
        en = ", ".join(f"'{t}'" for t in params["titles"])
        return phrased(
            zh=[f"在闲置上把这四件宝贝都点我想要：{zh}", f"帮我在闲置搜一下{zh}，全部加到我想要",
                f"我想要这几件闲置：{zh}，都标记一下"],
            en=[f"On Secondhand, tap 我想要 on these four listings: {en}",
                f"Search Secondhand for {en} and add them all to my wants",
                f"I want these Secondhand items: {en}; mark each of them"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = sorted(f["id"] for f in diff.added(FAVOURITES))
        return [] if added == sorted(params["ids"]) else [f"wanted {added}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("闲置")
        for i, (listing_id, title) in enumerate(zip(params["ids"], params["titles"], strict=True)):
            if i:
                yield from back_to(ui, "search_open")
            yield from open_listing(ui, title, listing_id, launch=False)
            yield ui.tap("want")


class CutAll(SecondhandTemplate):
    """Long horizon: every listing of one's own still for sale, 降价 by the same amount."""

    id = "secondhand.cut_all"
    difficulty = 24

    def sample(self, world: World, rng: random.Random) -> Params:
        mine = own(world)
        cut = rng.choice((500, 1000, 2000))
        return {"cut": cut, "prices": {x["id"]: x["price"] - cut for x in mine if not x["sold"]}}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        c = whole_yuan(params["cut"])
        return phrased(
            zh=[f"把我在闲置上所有在售的宝贝都降价{c}元",
                f"我发布的闲置每件都便宜{c}元，帮我逐个改价",
                f"在闲置的我发布的列表里，每件在售宝贝的价格都减{c}元"],
            en=[f"Cut the price of every listing I have for sale on Secondhand by {c} yuan",
                f"Make each of my Secondhand listings {c} yuan cheaper, one by one",
                f"In Secondhand's 我发布的, lower every item on sale by {c} yuan"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        expected = {f"{LISTINGS}[{i}]/price": p for i, p in params["prices"].items()}
        return expect_changes(diff, LISTINGS, expected)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mine(ui)
        for i, listing_id in enumerate(params["prices"]):
            if i:
                yield from back_to(ui, "sell")
            yield from ui.scroll_to(f"mine_{listing_id}")
            yield ui.tap(f"mine_{listing_id}")
            now = parse_price(ui.text_of("manage_price").removeprefix("当前价格 "))
            yield from ui.type_into("new_price", whole_yuan(now - params["cut"]))
            yield ui.tap("save_price")


TEMPLATES: tuple[TaskTemplate, ...] = (
    Want(),
    Offer(),
    CityOfferOrWant(),
    Reprice(),
    TakeDown(),
    ConfirmReceipt(),
    Sell(),
    WantFour(),
    CutAll(),
    *QUESTIONS,
    *CROSS_TEMPLATES,
)
