"""Cross-app templates of 充电桩: recharging the 充电余额 through the wallet, a station an SMS
names favourited, the last order's amount texted, a plate from a note added as a vehicle, a
WeChat friend told which nearby station has a free 快充 pile, and "pay from the balance if it
covers the bill, otherwise in the wallet"."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.charging.base import CHARGING
from phonebuddy.phoneworld.apps.charging.common import (
    BALANCE,
    MESSAGES,
    MESSENGER,
    NOTES,
    ROOT,
    VEHICLES,
    balance_problems,
    by_distance,
    charge,
    expected_total,
    favourite_problems,
    free_piles,
    open_home,
    open_station,
    room_kwh,
    session_problems,
    station_params,
    stations,
    wallet_untouched,
)
from phonebuddy.phoneworld.apps.charging.content import BONUS, PACKAGES
from phonebuddy.phoneworld.apps.drive.cross import add_note, open_note
from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.messenger.steps import friend_says
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Text
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.everyday import (
    ChatWrites,
    said_in_chat,
    send_in_chat,
    sms_person,
)
from phonebuddy.phoneworld.tasks.cross_app.steps import friend_with_chat
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.tasks.payments import WALLET, wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

PAY_CONFIRM = f"{WALLET}:id/pay_confirm"


class RechargeViaWallet(TaskTemplate):
    id = "charging.recharge_wallet"
    category = Category.CROSS_APP
    apps = (CHARGING, WALLET)
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"amount": rng.choice(PACKAGES) // 100}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        a = params["amount"]
        return phrased(
            zh=[f"给充电桩的充电余额充值{a}元，用钱包付款", f"帮我在充电桩充{a}块钱余额",
                f"充电余额快用完了，通过钱包充值{a}元"],
            en=[f"Top up my EV Charging balance with {a} yuan, paying in the wallet",
                f"Please recharge {a} yuan into the charging balance",
                f"My charging balance is low: add {a} yuan to it through the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        cents = params["amount"] * 100
        added = diff.added(f"{ROOT}/recharges")
        problems = [] if [r["amount"] for r in added] == [cents] else [f"recharged {added}"]
        problems += balance_problems(diff, -(cents + BONUS.get(cents, 0)))
        return problems + wallet_payment_problems(diff, amount_cents=cents,
                                                  reference=f"recharge:{cents}")  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield ui.tap("tab_me")
        yield ui.tap("recharge")
        yield ui.tap(f"pkg_{params['amount']}")
        yield ui.tap("recharge_pay")
        yield ui.tap(PAY_CONFIRM)


class FavouriteFromSms(TaskTemplate):
    """Messages → 充电桩: a friend texts a station's address; the station is favourited."""

    id = "charging.favourite_from_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, CHARGING)
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        station = pick(rng, stations(world))
        return {**station_params(station), "address": station["address"],
                **sms_person(world, rng)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["name"]),
                     f"推荐个充电站，就在{params['address']}，快充很快，停车也方便，收藏一下吧",
                     ago=1200, key="charging-address")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["name"]
        return phrased(
            zh=[f"{n}短信里发了一个充电站的地址，在充电桩里找到那个电站并收藏",
                f"看看{n}发来的短信提到的充电站地址，把该电站加入充电桩的收藏",
                f"把{n}短信里说的那个地址上的充电站收藏起来"],
            en=[f"{n} texted me a charging station's address: find that station in EV Charging "
                "and favourite it",
                f"Check the station address in {n}'s SMS and add that station to my favourites",
                f"Favourite the charging station at the address {n} sent me by SMS"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return favourite_problems(diff, params["station_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["name"])
        said = said_in_chat(ui, "推荐个充电站")
        if said.split("就在")[1].split("，")[0] != params["address"]:
            raise OracleError("the SMS names another address")
        yield from open_station(ui, params["station_id"])
        yield ui.tap("favourite")


class BillBySms(WritesValue):
    """充电桩 → Messages: the amount paid for the latest charging order, texted."""

    id = "charging.bill_by_sms"
    category = Category.CROSS_APP
    apps = (CHARGING, MESSAGES)
    difficulty = 10
    written = "apps/com.pw.messages/threads[*]/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        last = world.content(CHARGING)["history"][-1]
        return {"total": last["total"], "station": last["name"], **sms_person(world, rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["name"]
        return phrased(
            zh=[f"把我最近一次充电订单的实付金额发短信告诉{n}",
                f"{n}要和我分摊上次的充电费，短信告诉他最近一笔充电订单付了多少钱",
                f"查一下充电桩里最新一笔订单的实付金额，用短信发给{n}"],
            en=[f"Text {n} the amount I paid for my latest charging order",
                f"{n} is splitting my last charging bill: SMS them what the latest order cost",
                f"Look up the amount paid for the newest order in EV Charging and send it to {n} "
                "by SMS"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["total"] / 100)

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return self.writing_problems(diff, params, text, what="the SMS")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield ui.tap("tab_orders")
        first = next(n for n in ui.find_all() if ":id/order_" in n.resource_id)
        yield ui.tap(first.resource_id.rpartition(":id/")[2])
        paid = next(t for t in ui.texts_in("bill_total") if t.startswith("¥"))
        yield ui.open("信息")
        yield ui.tap("compose")
        yield from ui.type_into("to", params["name"])
        yield from ui.type_into("body", f"上次充电实付{paid}")
        yield ui.tap("send")


class PlateFromNote(TaskTemplate):
    """Notes → 充电桩: a note holds the new car's plate and battery; the vehicle is added."""

    id = "charging.plate_from_note"
    category = Category.CROSS_APP
    apps = (NOTES, CHARGING)
    difficulty = 10
    TITLE = "新车信息"
    CARS = (("浙A·D88K16", "小鹏 P7", 80), ("沪A·F31975", "蔚来 ET5", 75),
            ("苏A·D20688", "理想 L6", 52), ("浙C·D67031", "极氪 001", 100))  # fmt: skip

    def sample(self, world: World, rng: random.Random) -> Params:
        plate, model, battery = rng.choice(self.CARS)
        return {"plate": plate, "model": model, "battery": battery}

    def setup(self, it: Interaction, params: Params) -> None:
        add_note(it, self.TITLE, f"车型：{params['model']}\n车牌：{params['plate']}\n"
                                 f"电池容量：{params['battery']}度\n提车日期：下周三")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = self.TITLE
        return phrased(
            zh=[f"备忘录“{t}”里记着新车的车牌和电池容量，把这辆车添加到充电桩的车辆里",
                f"按照备忘录“{t}”中的车牌号和电池容量，在充电桩里绑定这辆新车",
                f"在充电桩添加车辆，车牌和电池容量见备忘录“{t}”"],
            en=[f"The note '{t}' has my new car's plate and battery size: add the car in EV "
                "Charging",
                f"Using the plate and battery capacity in the note '{t}', register the new car "
                "in EV Charging",
                f"Add a vehicle in EV Charging; its plate and battery are in the note '{t}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        got = [(v["plate"], v["battery"]) for v in diff.added(VEHICLES)]
        want = [(params["plate"], params["battery"])]
        return [] if got == want else [f"added {got}, expected {want}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_note(ui, self.TITLE)
        lines = dict(line.split("：", 1) for line in ui.text_of("note_body").splitlines())
        yield from open_home(ui)
        yield ui.tap("tab_me")
        yield from ui.scroll_to("add_vehicle")
        yield ui.tap("add_vehicle")
        yield from ui.type_into("plate", lines["车牌"])
        yield from ui.type_into("battery", lines["电池容量"].removesuffix("度"))
        yield ui.tap("save_vehicle")


class FreeFastForFriend(ChatWrites):
    """WeChat ↔ 充电桩: a friend asks for the nearest station with a free 快充 pile."""

    id = "charging.free_fast_for_friend"
    category = Category.CROSS_APP
    apps = (MESSENGER, CHARGING)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        best = next(s for s in by_distance(world) if free_piles(s, "快充"))
        return {**friend_with_chat(world, rng), "station": best["name"],
                "others": [s["name"] for s in stations(world) if s is not best]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        friend_says(
            it,
            params["friend_id"],
            ["我车快没电了，就在你家附近", "帮我看看离你最近的、现在有空闲快充桩的是哪个电站？"],
            key="everyday",
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f = params["friend"]
        return phrased(
            zh=[f"{f}在微信上问最近哪个电站有空闲快充桩，查一下回复他电站名",
                f"回复微信好友{f}：离我最近、有空闲快充桩的电站叫什么",
                f"{f}微信问我附近哪里有空的快充桩，用充电桩查到最近的那个，把电站名告诉他"],
            en=[f"{f} asks on WeChat which nearby station has a free fast pile: look it up and "
                "reply with the station's name",
                f"Answer {f} on WeChat with the name of the nearest station that has a free "
                "fast-charging pile",
                f"{f} wants to know where the closest free fast charger is: check EV Charging "
                "and tell them the station's name on WeChat"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Text((params["station"],), others=params["others"], what="station")

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.chat_problems(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield ui.tap("filter_fast")
        yield ui.tap("filter_free")
        first = next(n for n in ui.find_all() if ":id/station_" in n.resource_id)
        said = ui.texts_in(first.resource_id.rpartition(":id/")[2])
        name = next(t for t in said if not t.startswith("¥") and "｜" not in t and t != "充")
        yield from send_in_chat(ui, params, f"最近的是{name}，有空闲快充桩")


class PayIfBalance(TaskTemplate):
    """Conditional: charge N kWh; the 充电余额 pays if it covers the bill, else the wallet."""

    id = "charging.pay_if_balance"
    category = Category.CROSS_APP
    apps = (CHARGING, WALLET)
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        station = pick(rng, [s for s in stations(world) if free_piles(s, "快充")])
        pile = pick(rng, free_piles(station, "快充"))
        balance = world.content(CHARGING)["balance"]
        fits = [
            k for k in range(5, room_kwh(world)) if expected_total(world, station, k) <= balance
        ]
        over = [k for k in range(5, room_kwh(world)) if k not in fits]
        kwh = rng.choice(fits if fits and (rng.random() < 0.5 or not over) else over)
        return {**station_params(station), "pile": pile["id"], "kwh": kwh}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, p, k = params["station"], params["pile"], params["kwh"]
        return phrased(
            zh=[f"在“{s}”的{p}号桩充{k}度电，结束后如果充电余额够就用余额付，不够就用钱包付",
                f"用{p}号桩（“{s}”）充{k}度，结算时余额足够则余额支付，否则走钱包支付",
                f"去“{s}”{p}号桩充{k}度电；账单能用充电余额付清就用余额，不然用钱包"],
            en=[f"Charge {k} kWh on pile {p} at '{s}'; then pay from the charging balance if it "
                "covers the bill, otherwise pay in the wallet",
                f"Use pile {p} at '{s}' for {k} kWh, and settle with the balance when it is "
                "enough, else through the wallet",
                f"Charge {k} kWh at '{s}' on pile {p}: pay the bill from my balance if possible, "
                "if not with the wallet"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        record, problems = session_problems(diff, params, paid_by=None)
        if record is None:
            return problems
        enough = diff.value_before(BALANCE) >= record["total"]
        if enough:
            problems += [] if record["paid_by"] == "余额" else ["the balance covered it"]
            return problems + balance_problems(diff, record["total"]) + wallet_untouched(diff)
        problems += [] if record["paid_by"] == "钱包" else ["paid otherwise than by the wallet"]
        problems += balance_problems(diff, 0)
        return problems + wallet_payment_problems(diff, amount_cents=record["total"],
                                                  reference=f"bill:{record['id']}")  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_station(ui, params["station_id"])
        yield from charge(ui, params["pile"], params["kwh"])
        if "不足" in ui.text_of("balance_left"):
            yield ui.tap("pay_wallet")
            yield ui.tap(PAY_CONFIRM)
        else:
            yield ui.tap("pay_balance")
            yield ui.tap("confirm_balance")
