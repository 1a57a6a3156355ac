"""Cross-app templates of 闲置 that pay in the wallet: buying to a chosen address, an unpaid
order paid, and a friend's SMS budget deciding between buying the cheapest item and replying
(Messages → 闲置 → wallet). The others are in `cross_info`; `CROSS_TEMPLATES` lists all."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    write_in_conversation,
)
from phonebuddy.phoneworld.apps.secondhand.base import SECONDHAND
from phonebuddy.phoneworld.apps.secondhand.common import (
    LISTINGS,
    MESSAGES,
    WALLET_FLOOR,
    CrossTemplate,
    affordable,
    bought,
    buy_steps,
    listing_params,
    listings,
    on_sale,
    open_listing,
    parse_price,
    read_rows,
    shipping_cents,
    whole_yuan,
)
from phonebuddy.phoneworld.apps.secondhand.content import ADDRESSES
from phonebuddy.phoneworld.apps.secondhand.cross_info import INFO_TEMPLATES
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import WALLET, wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction

TOO_LITTLE = "预算不够"


class BuyToAddress(CrossTemplate):
    """闲置 → wallet: buy a listing, shipped to a named address, paid in the wallet."""

    id = "secondhand.buy_to_address"
    apps = (SECONDHAND, WALLET)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        k = rng.randrange(1, len(ADDRESSES))
        return {**listing_params(pick(rng, affordable(world))), "address_id": f"a-{k + 1}",
                "tag": ADDRESSES[k][0]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, a = params["title"], params["tag"]
        return phrased(
            zh=[f"在闲置上买下“{t}”，收货地址选“{a}”，用钱包付款",
                f"帮我拍下闲置里的“{t}”，寄到“{a}”那个地址，并完成支付",
                f"“{t}”我要了：下单寄到“{a}”地址，然后付款"],
            en=[f"Buy '{t}' on Secondhand, ship it to the '{a}' address and pay with the wallet",
                f"Please buy '{t}' on Secondhand, sent to my '{a}' address, and pay for it",
                f"I'll take '{t}': order it to the '{a}' address, then pay"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return bought(diff, params, params["address_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_listing(ui, params["title"], params["listing_id"])
        yield from buy_steps(ui, params["address_id"])


class PayPending(CrossTemplate):
    """闲置 → wallet: an order left unpaid (setup) paid from 我买到的."""

    id = "secondhand.pay_pending"
    apps = (SECONDHAND, WALLET)
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return listing_params(pick(rng, affordable(world)))

    def setup(self, it: Interaction, params: Params) -> None:
        total = params["price"] + params["shipping"]
        it.app_data(SECONDHAND)["orders"].insert(0, {
            "id": "o-task", "listing": params["listing_id"], "title": params["title"],
            "price": params["price"], "shipping": params["shipping"], "total": total,
            "address_id": "a-1", "status": "unpaid", "created_at": it.clock - 600,
            "paid_at": None,
        })  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["title"]
        return phrased(
            zh=[f"我在闲置拍下的“{t}”还没付款，帮我付一下",
                f"去闲置的我买到的订单里把“{t}”的订单付款",
                f"闲置里“{t}”那笔待付款订单，用钱包付掉"],
            en=[f"I ordered '{t}' on Secondhand but haven't paid: pay for it",
                f"In Secondhand's 我买到的, pay the order for '{t}'",
                f"Pay the pending Secondhand order for '{t}' with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"apps/{SECONDHAND}/orders[o-task]"
        changes = {c.path: c.after for c in diff.touched(path)}
        problems = []
        if changes.get(f"{path}/status") != "to_ship":
            problems.append("the order was not paid")
        if set(changes) - {f"{path}/status", f"{path}/paid_at"}:
            problems.append(f"unexpected order changes {sorted(changes)}")
        listing = f"{LISTINGS}[{params['listing_id']}]/sold"
        if [c.after for c in diff.touched(listing)] != [True]:
            problems.append("the listing was not marked sold")
        total = params["price"] + params["shipping"]
        return problems + wallet_payment_problems(diff, amount_cents=total, reference="o-task")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("闲置")
        yield ui.tap("tab_me")
        yield ui.tap("my_orders")
        yield ui.tap("pay_o-task")
        yield ui.tap("com.pw.wallet:id/pay_confirm")


def budget_sms(category: str, budget: int) -> str:
    return f"帮我在闲置上买个{category}吧，预算{whole_yuan(budget)}元（含运费），挑最便宜的就行"


class BudgetFromSms(CrossTemplate):
    """Messages → 闲置 → wallet, conditional: a friend's budget; the cheapest listing of the
    category (price with shipping) is bought if the budget covers it, otherwise the friend
    gets the reply 预算不够."""

    id = "secondhand.sms_budget"
    apps = (MESSAGES, SECONDHAND, WALLET)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        while True:
            category = rng.choice(sorted({x["category"] for x in on_sale(world)}))
            pool = sorted((x["price"] + x["shipping"], x["id"]) for x in on_sale(world)
                          if x["category"] == category)  # fmt: skip
            if len(pool) >= 2 and pool[0][0] != pool[1][0] and pool[0][0] <= WALLET_FLOOR:
                break
        total, listing_id = pool[0]
        listing = next(x for x in listings(world) if x["id"] == listing_id)
        enough = rng.random() < 0.5
        if enough:
            budget = (total // 1000 + rng.randrange(1, 6)) * 1000
        else:
            budget = max(1000, (total // 1000 - rng.randrange(0, 3)) * 1000)
            budget = budget if budget < total else total - 500
        friend = pick(rng, address_book(world))
        return {**listing_params(listing), "category": category, "budget": budget,
                "enough": budget >= total, "friend": friend["name"],
                "phone": friend["phone"]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        sms = budget_sms(params["category"], params["budget"])
        add_incoming(it, (params["phone"], params["friend"]), sms, ago=900, key="budget")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f, n = params["friend"], TOO_LITTLE
        return phrased(
            zh=[f"{f}发短信让我在闲置帮他买东西：如果短信里的预算够买最便宜的那件（含运费），就直接买下并付款；不够就回短信“{n}”",
                f"看看{f}短信里要买什么、预算多少。闲置上最便宜的那件连运费在预算内就拍下付款，否则回复他“{n}”",
                f"按{f}的短信办：预算够买闲置上含运费最便宜的那件就买，预算不够就短信回“{n}”"],
            en=[f"{f} texted asking me to buy something on Secondhand: if their budget covers the "
                f"cheapest one (with shipping), buy and pay for it; otherwise reply '{n}'",
                f"Check what {f} wants and their budget in the SMS. If the cheapest Secondhand "
                f"listing with shipping fits the budget, buy it; if not, reply '{n}'",
                f"Do as {f}'s SMS asks: buy the cheapest Secondhand item including shipping if "
                f"the budget allows, else text back '{n}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["enough"]:
            return bought(diff, params)
        return check_one_sms(diff, params["phone"], TOO_LITTLE)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["friend"])
        said = next((n.text for n in ui.device.ui_tree().walk() if "预算" in n.text), None)
        if said is None:
            raise OracleError("the budget SMS is not in the thread")
        category = re.findall(r"买个(.+?)吧", said)[0]
        budget = round(float(re.findall(r"预算([\d.]+)元", said)[0]) * 100)
        yield ui.open("闲置")
        yield ui.tap("search_open")
        yield from ui.type_into("query", category)
        rows: dict[str, list[str]] = {}
        for step in read_rows(ui, "result"):
            if isinstance(step, dict):
                rows = step
            else:
                yield step
        totals = []
        for listing_id, texts in rows.items():
            line = next(t for t in texts if t.startswith("¥")).split("｜")
            totals.append((parse_price(line[0]) + shipping_cents(line[3]), listing_id))
        total, listing_id = min(totals)
        if total <= budget:
            yield from ui.scroll_to(f"result_{listing_id}")
            yield ui.tap(f"result_{listing_id}")
            yield from buy_steps(ui)
        else:
            yield ui.open("信息")  # back on the friend's thread, where it was left
            if not ui.visible("reply"):
                yield from ui.scroll_to(text=params["friend"])
                yield ui.tap(text=params["friend"])
            yield from write_in_conversation(ui, TOO_LITTLE)


CROSS_TEMPLATES: tuple[TaskTemplate, ...] = (
    BuyToAddress(),
    PayPending(),
    BudgetFromSms(),
    *INFO_TEMPLATES,
)
