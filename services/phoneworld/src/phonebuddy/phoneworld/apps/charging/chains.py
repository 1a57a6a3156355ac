"""Long cross-app chains of 充电桩: a pile number a friend texts, charged on and paid in the
wallet, the amount texted back (Messages → 充电桩 → Wallet → Messages); the nearest station
with a free 快充 pile found, charged at, paid in the wallet, favourited and the bill texted; and
a station's card shared to a WeChat friend through the share sheet."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.charging.base import CHARGING
from phonebuddy.phoneworld.apps.charging.common import (
    FIRST_CAR,
    MESSAGES,
    MESSENGER,
    balance_problems,
    charge,
    favourite_problems,
    free_piles,
    nearest_free_fast,
    open_home,
    open_station,
    session_problems,
    station_params,
    stations,
)
from phonebuddy.phoneworld.apps.health.steps import share_to_friend
from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    check_one_sms,
    sent_messages,
)
from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Money, check_written
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.everyday import reply_by_sms, said_in_chat, sms_person
from phonebuddy.phoneworld.tasks.cross_app.steps import friend_with_chat
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import WALLET, wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

PAY_CONFIRM = f"{WALLET}:id/pay_confirm"


def paid_in_wallet(
    diff: StateDiff, params: Params, vehicle: str = FIRST_CAR
) -> tuple[int | None, list[str]]:
    """The order of the session (paid in the wallet, balance untouched) and its total."""
    record, problems = session_problems(diff, params, paid_by="钱包", vehicle=vehicle)
    if record is None:
        return None, problems
    problems += balance_problems(diff, 0)
    problems += wallet_payment_problems(diff, amount_cents=record["total"],
                                        reference=f"bill:{record['id']}")  # fmt: skip
    return int(record["total"]), problems


def sms_states_total(
    template: TaskTemplate, diff: StateDiff, params: Params, total: int | None
) -> list[str]:
    problems = check_one_sms(diff, params["phone"])
    if problems or total is None:
        return problems
    [(_, text)] = sent_messages(diff)
    return check_written(text, Money(total / 100), what="the SMS",
                         context=template.question_texts(params))  # fmt: skip


def bill_total_text(ui: OracleUI) -> str:
    return next(t for t in ui.texts_in("bill_total") if t.startswith("¥"))


class PileFromSmsChain(TaskTemplate):
    """Messages → 充电桩 → Wallet → Messages, long: a friend texts a free pile's number."""

    id = "charging.pile_from_sms_chain"
    category = Category.CROSS_APP
    apps = (MESSAGES, CHARGING, WALLET)
    difficulty = 22

    def sample(self, world: World, rng: random.Random) -> Params:
        station = pick(rng, [s for s in stations(world) if free_piles(s, "快充")])
        pile = pick(rng, free_piles(station, "快充"))
        car = world.content(CHARGING)["vehicles"][1]
        return {**station_params(station), "pile": pile["id"], "kwh": rng.randrange(8, 21),
                "plate": car["plate"], **sms_person(world, rng)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["name"]),
                     f"我在{params['station']}，{params['pile']}号快充桩空着，开你那辆"
                     f"{params['plate']}过来充吧，这个站不错可以收藏",
                     ago=600, key="charging-pile")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, k, c = params["name"], params["kwh"], params["plate"]
        return phrased(
            zh=[f"{n}短信告诉我一个电站和空闲的快充桩号：收藏那个电站，用车牌“{c}”的车在那个桩上"
                f"充{k}度电，用钱包支付，然后短信回复{n}这次实付多少钱",
                f"按{n}短信里说的电站和桩编号，先收藏电站，再给“{c}”充{k}度电，账单走钱包付款，"
                f"最后把实付金额短信发给{n}",
                f"把{n}短信提到的电站加入收藏，去那个快充桩给“{c}”充{k}度，付款用钱包，付完短信"
                f"告诉{n}花了多少"],
            en=[f"{n} texted me a station and a free fast pile's number: favourite the station, "
                f"charge '{c}' by {k} kWh on that pile in EV Charging, pay in the wallet, then "
                f"text {n} back the amount paid",
                f"Following {n}'s SMS, favourite the station, charge {k} kWh for '{c}' on the "
                f"pile named there, pay through the wallet, and SMS {n} the amount paid",
                f"Favourite the station from {n}'s text, use its fast pile to give '{c}' {k} kWh, "
                f"pay with the wallet, and tell {n} by SMS what it cost"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        total, problems = paid_in_wallet(diff, params, "v-2")
        problems += favourite_problems(diff, params["station_id"])
        return problems + sms_states_total(self, diff, params, total)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("信息")
        yield from ui.scroll_to(text=params["name"])
        yield ui.tap(text=params["name"])
        said = said_in_chat(ui, "号快充桩空着")
        pile = said.split("，")[1].split("号")[0]
        if said.split("，")[0].removeprefix("我在") != params["station"]:
            raise OracleError("the SMS names another station")
        yield from open_station(ui, params["station_id"])
        yield ui.tap("favourite")
        yield from charge(ui, pile, params["kwh"], vehicle="v-2")
        yield ui.tap("pay_wallet")
        yield ui.tap(PAY_CONFIRM)
        paid = bill_total_text(ui)
        yield from reply_by_sms(ui, params["name"], f"这次充了{params['kwh']}度，实付{paid}")


class NearestFreeChain(TaskTemplate):
    """充电桩 → Wallet → Messages, long: the nearest station with a free 快充 pile."""

    id = "charging.nearest_free_chain"
    category = Category.CROSS_APP
    apps = (CHARGING, WALLET, MESSAGES)
    difficulty = 23

    def sample(self, world: World, rng: random.Random) -> Params:
        station = nearest_free_fast(world)
        return {**station_params(station), "kwh": rng.randrange(10, 31),
                "piles": [p["id"] for p in station["piles"]],
                "fast_piles": [p["id"] for p in free_piles(station, "快充")],
                **sms_person(world, rng)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n, k = params["name"], params["kwh"]
        return phrased(
            zh=[f"找到离我最近、有空闲快充桩的电站，在一个空闲快充桩上充{k}度电并用钱包付款，"
                f"再收藏这个电站，最后把实付金额短信发给{n}",
                f"帮我去最近的有空快充的电站充{k}度电（钱包支付），收藏该电站，然后短信告诉{n}"
                "这次花了多少钱",
                f"在最近一个有空闲快充桩的电站充{k}度，钱包结算；把电站加入收藏，并把实付金额"
                f"用短信发给{n}"],
            en=[f"Find the nearest station with a free fast pile, charge {k} kWh on a free fast "
                f"pile there and pay in the wallet, favourite the station, then text {n} the "
                "amount paid",
                f"Charge {k} kWh at the closest station that has a free fast pile (paying with "
                f"the wallet), save it to favourites, and SMS {n} what it cost",
                f"At the nearest station with a free fast-charging pile, charge {k} kWh and pay "
                f"through the wallet; favourite that station and text {n} the amount paid"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        total, problems = paid_in_wallet(diff, params)
        problems += favourite_problems(diff, params["station_id"])
        return problems + sms_states_total(self, diff, params, total)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield ui.tap("filter_fast")
        yield ui.tap("filter_free")
        first = next(n for n in ui.find_all() if ":id/station_" in n.resource_id)
        yield ui.tap(first.resource_id.rpartition(":id/")[2])
        yield ui.tap("favourite")
        pile = ""
        for candidate in params["piles"]:
            yield from ui.scroll_to(f"pile_{candidate}")
            said = ui.texts_in(f"pile_{candidate}")
            if any(t.startswith("快充") for t in said) and "空闲" in said:
                pile = candidate
                break
        yield from charge(ui, pile, params["kwh"])
        yield ui.tap("pay_wallet")
        yield ui.tap(PAY_CONFIRM)
        paid = bill_total_text(ui)
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["name"])
        yield from ui.type_into("body", f"刚充完电，实付{paid}")
        yield ui.tap("send")


class ShareStationWechat(TaskTemplate):
    """充电桩 → the share sheet → WeChat: a station's card sent to a friend."""

    id = "charging.share_station_wechat"
    category = Category.CROSS_APP
    apps = (CHARGING, MESSENGER)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        station = pick(rng, stations(world))
        return {**station_params(station), "address": station["address"],
                **friend_with_chat(world, rng)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, f = params["station"], params["friend"]
        return phrased(
            zh=[f"在充电桩里把“{s}”分享到微信发给{f}", f"把电站“{s}”通过微信分享给{f}",
                f"{f}想去“{s}”充电，从充电桩把这个电站分享给他（微信）"],
            en=[f"Share the station '{s}' from EV Charging to {f} on WeChat",
                f"Send {f} the charging station '{s}' through WeChat",
                f"{f} wants to charge at '{s}': share that station with them via WeChat"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        sent = diff.added(f"apps/{MESSENGER}/messages")
        chat = private_chat_id(params["friend_id"])
        problems = [f"a message went to {m['chat']}, not {chat}" for m in sent if m["chat"] != chat]
        cards = [m for m in sent if m["chat"] == chat and m["kind"] == "card"]
        if len(cards) != 1 or len(sent) != 1:
            return [*problems, f"expected one shared card to {params['friend']}, sent {sent}"]
        card = cards[0]["card"]
        if (card["title"], card["text"]) != (params["station"], params["address"]):
            problems.append(f"shared {card}, not the station {params['station']}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_station(ui, params["station_id"])
        yield from share_to_friend(ui, params)
