"""Question templates of 扫码点餐 (category mini_program): what an order would cost with the
place-setting fee and the best coupon, and what was spent at a restaurant."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.messenger.miniprograms.dining_rules import (
    totals,
    unit_cents,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import find
from phonebuddy.phoneworld.apps.messenger.miniprograms.tasks_dining import (
    best_coupon,
    dining_content,
    food_cents,
    order_params,
)
from phonebuddy.phoneworld.apps.messenger.steps import (
    MessengerTemplate,
    mini,
    open_mini,
)
from phonebuddy.phoneworld.tasks.answers import Expectation, Money
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

CARTS = mini("restaurant", "carts")


def _price_of(ui: OracleUI, dish: str) -> int:
    row = ui.find(f"dish_{dish}")
    texts = [c.text for c in row.children if c.text] if row else []
    price = next((t for t in texts if t.startswith("¥")), None)
    if price is None:
        raise OracleError(f"no price for {dish}")
    return round(float(price[1:]) * 100)


class DiningCouponTotal(MessengerTemplate):
    """QA with aggregation: what an order would cost with the place-setting fee and the best
    coupon, read from the menu without ordering."""

    id = "messenger.mini_restaurant.coupon_total"
    category = Category.MINI_PROGRAM
    difficulty = 16
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        params = order_params(world, rng, 2)
        for line in params["lines"]:
            line[1], line[2] = -1 if line[1] < 0 else 0, "s" if line[2] else ""
            line[3] = rng.randrange(2, 4)
            line[4] = unit_cents(find(dining_content(world)["dishes"], line[0]), line[2])
        food = food_cents(params)
        coupon = best_coupon(world, food)
        sums = totals(food, params["people"], params["fee_cents"], coupon)
        return {**params, "total_cents": sums["total_cents"],
                "plain_cents": food + params["people"] * params["fee_cents"]}  # fmt: skip

    def _wanted(self, params: Params, en: bool) -> str:
        sep, form = (", ", "{q} × {n}") if en else ("、", "{n}{q}份")
        return sep.join(form.format(n=params["names"][d], q=q) for d, _, _, q, _ in params["lines"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        r, n = params["restaurant_name"], params["people"]
        zh, en = self._wanted(params, False), self._wanted(params, True)
        return phrased(
            zh=[f"在微信「扫码点餐」的{r}，{n}个人点{zh}（有份量的选小份、有辣度的选不辣），算上餐位费并用最划算的可用优惠券，一共要付多少钱？",
                f"帮我算一下：{r}（微信「扫码点餐」）{n}人用餐，点{zh}，都要小份、不辣，加餐位费，用上最优惠的券后实付多少？",
                f"用微信「扫码点餐」查{r}的菜价：{zh}（小份、不辣），{n}位的餐位费也算上，扣掉能用的最大优惠券，总共多少钱"],
            en=[f"At {r} in WeChat's 扫码点餐, {n} people order {en} (small portions, not spicy "
                "where there is a choice). With the place-setting fee and the best usable coupon, "
                "how much is the total?",
                f"Work it out for me: {n} people at {r} (WeChat's 扫码点餐) ordering {en}, small "
                "and not spicy, plus the place-setting fee, minus the best coupon: what is paid?",
                f"Check the prices at {r} in WeChat's 扫码点餐: {en} (small, not spicy) plus the "
                f"place-setting fee for {n}, less the biggest coupon that applies: the total?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["total_cents"] / 100)

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.touched(CARTS)  # trying dishes in the cart to see the sums is fine
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["plain_cents"] + 100)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "restaurant")
        yield from ui.scroll_to(f"restaurant_{params['restaurant']}")
        fee_text = next(t for t in _row(ui, f"restaurant_{params['restaurant']}") if "餐位费" in t)
        fee = round(float(fee_text.split("餐位费¥")[1].split("/")[0]) * 100)
        offs = []
        for coupon in ("cp1", "cp2", "cp3"):
            yield from ui.scroll_to(f"coupon_info_{coupon}")
            found = re.match(r"满(\d+)减(\d+)", ui.text_of(f"coupon_info_{coupon}"))
            if found is None:
                raise OracleError(f"coupon {coupon} is not shown")
            offs.append((int(found[1]) * 100, int(found[2]) * 100))
        yield from ui.scroll_to(f"restaurant_{params['restaurant']}")
        yield ui.tap(f"restaurant_{params['restaurant']}")
        food = 0
        for dish, _, _, qty, _ in params["lines"]:
            yield ui.tap(f"tab_{params['cats'][dish]}")
            yield from ui.scroll_to(f"dish_{dish}")
            food += _price_of(ui, dish) * qty
        off = max((o for t, o in offs if food >= t), default=0)
        yield Answer(text=yuan(food + fee * params["people"] - off))


def _row(ui: OracleUI, row_id: str) -> list[str]:
    row = ui.find(row_id)
    return [c.text for c in row.children if c.text] if row else []


class DiningSpent(MessengerTemplate):
    """QA with aggregation: the sum paid over the finished orders at one restaurant."""

    id = "messenger.mini_restaurant.spent"
    category = Category.MINI_PROGRAM
    difficulty = 12
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        orders = [o for o in dining_content(world)["orders"] if o["status"] == "done"]
        rest = find(dining_content(world)["restaurants"], rng.choice(orders)["restaurant"])
        mine = [int(o["total_cents"]) for o in orders if o["restaurant"] == rest["id"]]
        return {"restaurant": str(rest["id"]), "restaurant_name": str(rest["name"]),
                "spent_cents": sum(mine), "largest_cents": max(mine)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        r = params["restaurant_name"]
        return phrased(
            zh=[f"在微信「扫码点餐」的订单记录里，已完成的{r}订单我一共花了多少钱？",
                f"查一下微信「扫码点餐」里我在{r}已完成订单的实付总额",
                f"看看微信「扫码点餐」的我的订单：{r}已完成的订单加起来付了多少"],
            en=[f"In WeChat's 扫码点餐 order history, how much did I pay in total for the "
                f"finished orders at {r}?",
                f"Check WeChat's 扫码点餐: the total paid over my finished orders at {r}",
                f"Look at my orders in WeChat's 扫码点餐: what do the finished orders at {r} add "
                "up to?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["spent_cents"] / 100)

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return yuan(params["spent_cents"] + 1000)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "restaurant")
        yield from ui.scroll_to("my_orders")
        yield ui.tap("my_orders")
        total = 0
        for i in range(101, 121):
            row = f"order_dn-{i}"
            try:
                yield from ui.scroll_to(row)
            except OracleError:
                break
            texts = _row(ui, row)
            if params["restaurant_name"] in texts and any("已完成" in t for t in texts):
                total += round(float(next(t for t in texts if t.startswith("¥"))[1:]) * 100)
        yield Answer(text=yuan(total))


TEMPLATES: tuple[TaskTemplate, ...] = (
    DiningCouponTotal(),
    DiningSpent(),
)
