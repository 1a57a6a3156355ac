"""More task templates of 快递寄件 (category mini_program): the cheapest courier for a weight
and province, a courier chosen by its price, and cancelling the waiting shipment."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.messenger.miniprograms.shipping_rules import (
    COURIERS,
    ITEMS,
    PROVINCES,
    freight,
    rate_for,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.task_steps import (
    PAYING,
    row_texts,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.tasks_shipping import (
    check_shipment,
    kilos,
    saved_parcel,
    shipping_content,
    waiting_order,
)
from phonebuddy.phoneworld.apps.messenger.steps import (
    PAY_CONFIRM,
    MessengerTemplate,
    mini,
    open_mini,
)
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

ORDERS = mini("shipping", "orders")


def _quotes(world: World, province: str, tenths: int) -> dict[str, int]:
    return {c: freight(rate_for(shipping_content(world), c, province), tenths) for c in COURIERS}


class ShippingCheapest(MessengerTemplate):
    """QA with aggregation: the cheapest courier for a weight and province, and its price,
    worked out from every courier's 首重/续重."""

    id = "messenger.mini_shipping.cheapest"
    category = Category.MINI_PROGRAM
    difficulty = 16
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        for _ in range(100):
            province = rng.choice(sorted(PROVINCES))
            tenths = rng.choice((15, 25, 30, 42, 55, 70, 90))
            quotes = _quotes(world, province, tenths)
            ranked = sorted(quotes, key=lambda c: quotes[c])
            if quotes[ranked[0]] < quotes[ranked[1]]:
                break
        return {"province": province, "tenths": tenths, "courier": ranked[0],
                "courier_name": COURIERS[ranked[0]][0], "cents": quotes[ranked[0]],
                "others": [COURIERS[c][0] for c in ranked[1:]],
                "second_cents": quotes[ranked[1]]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, kg = params["province"], kilos(params["tenths"])
        return phrased(
            zh=[f"用微信「快递寄件」从杭州寄{kg}公斤的包裹到{p}，哪家快递最便宜？运费多少？",
                f"查一下微信「快递寄件」的运费：{kg}公斤寄往{p}，最便宜的是哪家快递、要多少钱",
                f"我要寄一个{kg}公斤的东西去{p}，在微信「快递寄件」比较各家运费，告诉我最省钱的快递和价格"],
            en=[f"With WeChat's 快递寄件, which courier is cheapest to send a {kg} kg parcel "
                f"from Hangzhou to {p}, and what does it cost?",
                f"Check the rates in WeChat's 快递寄件: for {kg} kg to {p}, which courier is "
                "cheapest and how much is it?",
                f"I need to send {kg} kg to {p}: compare the couriers in WeChat's 快递寄件 and "
                "tell me the cheapest one and its price"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        name = Text([params["courier_name"]], others=params["others"], what="courier")
        return Together(name, Money(params["cents"] / 100))

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return f"{params['others'][0]}，{yuan(params['second_cents'])}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "shipping")
        yield ui.tap("price_table")
        chip = f"prov_{list(PROVINCES).index(params['province'])}"
        yield from ui.scroll_to(chip)
        yield ui.tap(chip)
        kilos = max(1, -(-params["tenths"] // 10))
        prices: dict[str, int] = {}
        for c in COURIERS:
            yield from ui.scroll_to(f"rate_{c}")
            name, rates = row_texts(ui, f"rate_{c}")[:2]
            first, extra = (round(float(x) * 100) for x in re.findall(r"¥(\d+\.\d\d)", rates))
            prices[name] = first + (kilos - 1) * extra
        best = min(prices, key=lambda k: prices[k])
        yield Answer(text=f"{best}，{yuan(prices[best])}")


class ShippingConditional(MessengerTemplate):
    """Conditional: 顺丰 when its price for this parcel is within the budget, else 中通."""

    id = "messenger.mini_shipping.conditional"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 24

    def sample(self, world: World, rng: random.Random) -> Params:
        params = {**saved_parcel(world, rng), "insured_cents": 0}
        quotes = _quotes(world, params["recipient"]["province"], params["tenths"])
        limit = quotes["sf"] + rng.choice((-1, 1)) * rng.randrange(1, 4) * 100
        courier = "sf" if quotes["sf"] <= limit else "zto"
        return {**params, "limit_cents": limit, "courier": courier,
                "total_cents": quotes[courier]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        who, kg, lim = (
            params["recipient"]["name"],
            kilos(params["tenths"]),
            yuan(params["limit_cents"]),
        )
        item, slot = ITEMS[params["item"]], params["slot_label"]
        return phrased(
            zh=[f"用微信「快递寄件」给{who}寄{kg}公斤的{item}（{slot}取件，不保价）：顺丰运费不超过{lim}就用顺丰，否则用中通，付款",
                f"给地址簿里的{who}寄{item}，{kg}公斤，{slot}上门，不保价。在微信「快递寄件」看顺丰的价格：不高于{lim}选顺丰，高于就选中通，然后支付",
                f"微信「快递寄件」寄件：收件人{who}，{item}{kg}公斤，{slot}取件，不保价；如果顺丰≤{lim}用顺丰速运，不然用中通快递，并付款"],
            en=[f"Send {who} {kg} kg of {item} with WeChat's 快递寄件 (pick-up {slot}, no "
                f"insurance): use 顺丰 if it costs at most {lim}, otherwise 中通; pay",
                f"Ship {item}, {kg} kg, to {who} from the address book, pick-up {slot}, not "
                f"insured. In WeChat's 快递寄件, if 顺丰 is {lim} or less choose it, else 中通, "
                "then pay",
                f"WeChat 快递寄件: recipient {who}, {kg} kg of {item}, pick-up {slot}, no "
                f"insurance; 顺丰速运 when its fee is within {lim}, otherwise 中通快递; pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_shipment(diff, params)[1]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "shipping")
        yield ui.tap("new_shipment")
        yield from ui.scroll_to(f"rcpt_{params['recipient_id']}")
        yield ui.tap(f"rcpt_{params['recipient_id']}")
        yield from ui.scroll_to("weight")
        yield from ui.type_into("weight", kilos(params["tenths"]))
        yield from ui.scroll_to("courier_sf")
        price = re.search(r"¥(\d+\.\d\d)", ui.text_of("courier_sf"))
        if price is None:
            raise OracleError("no 顺丰 price shown")
        courier = "sf" if round(float(price[1]) * 100) <= params["limit_cents"] else "zto"
        yield from ui.scroll_to(f"item_{params['item']}")
        yield ui.tap(f"item_{params['item']}")
        for widget in (f"courier_{courier}", f"slot_{params['slot']}"):
            yield from ui.scroll_to(widget)
            yield ui.tap(widget)
        yield from ui.scroll_to("submit_shipment")
        yield ui.tap("submit_shipment")
        yield ui.tap(PAY_CONFIRM)


class ShippingCancel(MessengerTemplate):
    """Cancel the shipment waiting for pick-up, through the confirmation dialog."""

    id = "messenger.mini_shipping.cancel"
    category = Category.MINI_PROGRAM
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        order = waiting_order(world)
        return {"order": str(order["id"]), "to": str(order["recipient"]["name"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        to = params["to"]
        return phrased(
            zh=[f"取消微信「快递寄件」里寄给{to}的那单待取件快递",
                f"不寄给{to}了，在微信「快递寄件」把这单还没取件的快递取消掉",
                f"帮我在微信「快递寄件」的我的寄件里取消给{to}的寄件"],
            en=[f"Cancel the shipment to {to} waiting for pick-up in WeChat's 快递寄件",
                f"I'm no longer sending it to {to}: cancel that not-yet-collected shipment in "
                "WeChat's 快递寄件",
                f"In my shipments in WeChat's 快递寄件, cancel the one to {to}"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{ORDERS}[{params['order']}]/status"
        return expect_changes(diff, ORDERS, {path: "cancelled"})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "shipping")
        yield ui.tap("my_shipments")
        yield ui.tap(f"shipment_{params['order']}")
        yield from ui.scroll_to("cancel_shipment")
        yield ui.tap("cancel_shipment")
        yield ui.tap("confirm_cancel")


TEMPLATES: tuple[TaskTemplate, ...] = (
    ShippingCheapest(),
    ShippingConditional(),
    ShippingCancel(),
)
