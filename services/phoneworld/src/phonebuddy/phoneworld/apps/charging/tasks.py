"""Task templates of 充电桩: the single-app and question ones here, the cross-app ones from
`cross` and `chains`; `TEMPLATES` lists them all."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.charging.base import CHARGING
from phonebuddy.phoneworld.apps.charging.chains import (
    NearestFreeChain,
    PileFromSmsChain,
    ShareStationWechat,
)
from phonebuddy.phoneworld.apps.charging.common import (
    ChargingTemplate,
    balance_problems,
    by_distance,
    charge,
    expected_total,
    favourite_problems,
    free_piles,
    open_home,
    open_station,
    session_problems,
    station_params,
    stations,
    wallet_untouched,
)
from phonebuddy.phoneworld.apps.charging.cross import (
    BillBySms,
    FavouriteFromSms,
    FreeFastForFriend,
    PayIfBalance,
    PlateFromNote,
    RechargeViaWallet,
)
from phonebuddy.phoneworld.apps.charging.more import BEIJING
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Money, Number, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction


class Favourite(ChargingTemplate):
    id = "charging.favourite"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return station_params(pick(rng, stations(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s = params["station"]
        return phrased(
            zh=[f"在充电桩里收藏“{s}”", f"帮我把“{s}”这个电站加到收藏",
                f"“{s}”以后常去，收藏一下"],
            en=[f"In EV Charging, favourite the station '{s}'",
                f"Please add '{s}' to my favourite stations",
                f"I'll use '{s}' often: save it to my favourites"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return favourite_problems(diff, params["station_id"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_station(ui, params["station_id"])
        yield ui.tap("favourite")


class ChargeFromBalance(ChargingTemplate):
    """Charge a given number of kWh on a given pile, stop, pay from the 充电余额."""

    id = "charging.charge_balance"
    difficulty = 15

    def sample(self, world: World, rng: random.Random) -> Params:
        balance = world.content(CHARGING)["balance"]
        options = [(s, p, k) for s in stations(world) for p in free_piles(s, "快充")
                   for k in range(5, 21) if expected_total(world, s, k) <= balance]  # fmt: skip
        station, pile, kwh = pick(rng, options)
        return {**station_params(station), "pile": pile["id"], "kwh": kwh}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, p, k = params["station"], params["pile"], params["kwh"]
        return phrased(
            zh=[f"我在“{s}”，用{p}号桩充{k}度电，充完结束并用充电余额付款",
                f"帮我在{p}号充电桩（“{s}”）启动充电，充满{k}度后结束，余额支付",
                f"去“{s}”的{p}号桩充{k}度电，结束后用充电余额结算"],
            en=[f"I'm at '{s}': charge {k} kWh on pile {p}, then stop and pay from the balance",
                f"Start charging on pile {p} at '{s}', stop after {k} kWh and pay with the "
                "charging balance",
                f"Charge {k} kWh on pile {p} of '{s}' and settle the bill from my balance"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        record, problems = session_problems(diff, params, paid_by="余额")
        if record is not None:
            problems += balance_problems(diff, record["total"])
        return problems + wallet_untouched(diff)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_station(ui, params["station_id"])
        yield from charge(ui, params["pile"], params["kwh"])
        yield ui.tap("pay_balance")
        yield ui.tap("confirm_balance")


class FastOrBackup(ChargingTemplate):
    """Conditional: a station with a free 快充 pile is favourited, else the backup named."""

    id = "charging.fast_or_backup"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        with_fast = [s for s in stations(world) if free_piles(s, "快充")]
        without = [s for s in stations(world) if not free_piles(s, "快充")]
        station = pick(rng, with_fast if rng.random() < 0.5 else without)
        backup = pick(rng, [s for s in with_fast if s is not station])
        target = station if free_piles(station, "快充") else backup
        return {**station_params(station), "backup": backup["name"], "backup_id": backup["id"],
                "target": target["id"], "piles": [p["id"] for p in station["piles"]]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, b = params["station"], params["backup"]
        return phrased(
            zh=[f"看看“{s}”现在有没有空闲的快充桩：有就收藏它，没有就收藏“{b}”",
                f"如果“{s}”有空闲快充桩，把它加入收藏；否则收藏“{b}”",
                f"“{s}”有空快充的话收藏它，不然帮我收藏备选的“{b}”"],
            en=[f"Check whether '{s}' has a free fast-charging pile: if so favourite it, "
                f"otherwise favourite '{b}'",
                f"If '{s}' has a free fast pile, add it to my favourites; if not, favourite "
                f"'{b}'",
                f"Favourite '{s}' when a fast pile there is free, else favourite the backup "
                f"'{b}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return favourite_problems(diff, params["target"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_station(ui, params["station_id"])
        free_fast = False
        for pile in params["piles"]:
            yield from ui.scroll_to(f"pile_{pile}")
            said = ui.texts_in(f"pile_{pile}")
            free_fast |= any(t.startswith("快充") for t in said) and "空闲" in said
        if not free_fast:
            yield ui.back()
            yield from ui.scroll_to(f"station_{params['backup_id']}")
            yield ui.tap(f"station_{params['backup_id']}")
        yield ui.tap("favourite")


class AddVehicle(ChargingTemplate):
    id = "charging.add_vehicle"
    difficulty = 8
    PLATES = ("沪B·D52718", "苏E·F03396", "浙B·D77120", "京N·D31K88", "粤B·F62105", "川A·D90817")

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"plate": rng.choice(self.PLATES), "battery": rng.choice((50, 60, 71, 78, 90))}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, b = params["plate"], params["battery"]
        return phrased(
            zh=[f"在充电桩里添加车辆，车牌“{p}”，电池容量{b}度",
                f"帮我绑定一辆新车：车牌号“{p}”，电池{b}度",
                f"把车牌“{p}”、电池{b}度的车加到我的车辆里"],
            en=[f"In EV Charging, add a vehicle with plate '{p}' and a {b} kWh battery",
                f"Register my new car: plate '{p}', battery {b} kWh",
                f"Add the car with plate '{p}' ({b} kWh battery) to my vehicles"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(f"apps/{CHARGING}/vehicles")
        got = [(v["plate"], v["battery"]) for v in added]
        want = [(params["plate"], params["battery"])]
        return [] if got == want else [f"added {got}, expected {want}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield ui.tap("tab_me")
        yield from ui.scroll_to("add_vehicle")
        yield ui.tap("add_vehicle")
        yield from ui.type_into("plate", params["plate"])
        yield from ui.type_into("battery", str(params["battery"]))
        yield ui.tap("save_vehicle")


class ValleyCost(ChargingTemplate):
    """Arithmetic on a station's page: N kWh in the 谷 band, electricity plus service fee."""

    id = "charging.valley_cost"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        station = pick(rng, stations(world))
        kwh = rng.choice((10, 20, 25, 30, 40, 50))
        cost = kwh * (station["prices"]["谷"] + station["fee"])
        return {**station_params(station), "kwh": kwh, "cost": cost}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s, k = params["station"], params["kwh"]
        return phrased(
            zh=[f"在“{s}”谷时段充{k}度电，电费加服务费一共多少钱？",
                f"算一下：夜里谷电时段去“{s}”充{k}度，总共要花多少（含服务费）",
                f"“{s}”谷时段充{k}度电要付多少钱，电费和服务费都算上"],
            en=[f"How much would {k} kWh at '{s}' cost in the valley (谷) band, electricity "
                "plus service fee?",
                f"Work out the total for charging {k} kWh at '{s}' in the off-peak valley "
                "band, service fee included",
                f"What do {k} kWh at '{s}' cost in the valley band, counting both electricity "
                "and the service fee?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Money(params["cost"] / 100)

    def wrong_answer(self, params: Params) -> str:
        return f"{(params['cost'] + 350) / 100:.2f}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_station(ui, params["station_id"])
        yield from ui.scroll_to("fee")
        price = next(t for t in ui.texts_in("price_谷") if t.startswith("电费"))
        fee = next(t for t in ui.texts_in("fee") if t.startswith("¥"))
        unit = round(float(price[3:].split("/")[0]) * 100) + round(float(fee[1:-2]) * 100)
        yield Answer(text=f"{unit * params['kwh'] / 100:.2f}元")


class CheapestWithin(ChargingTemplate):
    """Compare: within X km, the station whose 谷 price plus service fee is lowest, and that
    price per kWh (this task's own 谷 prices of the stations within reach)."""

    id = "charging.cheapest_within"
    difficulty = 12
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        ordered = by_distance(world)
        n = rng.randrange(3, 7)
        near = ordered[:n]
        limit = round((near[-1]["distance"] + ordered[n]["distance"]) / 2, 1)
        # today's 谷 prices, every station's total different and below its 平 price
        while True:
            valley = {s["id"]: rng.randrange(25, min(s["prices"]["平"], 90)) for s in near}
            costs = sorted(valley[s["id"]] + s["fee"] for s in near)
            if len(set(costs)) == len(costs):
                break
        tariffs = {s["id"]: {"prices": {**s["prices"], "谷": valley[s["id"]]}, "fee": s["fee"]}
                   for s in near}  # fmt: skip
        best = min(near, key=lambda s: valley[s["id"]] + s["fee"])
        return {"km": limit, "station": best["name"], "ids": [s["id"] for s in near],
                "tariffs": tariffs, "cost": valley[best["id"]] + best["fee"],
                "names": {s["id"]: s["name"] for s in stations(world)}}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.data.setdefault("tariffs", {}).update(
            {
                i: {"prices": dict(t["prices"]), "fee": t["fee"]}
                for i, t in params["tariffs"].items()
            }
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        km = params["km"]
        return phrased(
            zh=[f"{km}公里以内，谷时段电价加服务费最便宜的是哪个电站？每度合计多少钱？",
                f"帮我找出距离{km}km内、谷电（含服务费）每度最便宜的充电站，告诉我每度多少钱",
                f"我只想去{km}公里内的电站，按谷时段电费加服务费算，哪家最便宜，每度几元？"],
            en=[f"Within {km} km, which station is cheapest in the valley band, electricity "
                "plus service fee, and what does that come to per kWh?",
                f"Find the station within {km} km with the lowest valley-band price per kWh, "
                "service fee included, and tell me that price",
                f"Among the stations within {km} km, which charges least per kWh in the valley "
                "band, counting the service fee, and how much is it?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        tariffs = diff.before["apps"][CHARGING]["tariffs"]
        costs = {i: tariffs[i]["prices"]["谷"] + tariffs[i]["fee"] for i in params["ids"]}
        best = min(costs, key=lambda i: costs[i])
        name = params["names"][best]
        others = [n for n in params["names"].values() if n != name]
        return Together(Text((name,), others=others, what="station"), Money(costs[best] / 100))

    def wrong_answer(self, params: Params) -> str:
        other = next(n for n in params["names"].values() if n != params["station"])
        return f"{other}，每度{params['cost'] / 100:.2f}元"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        costs: dict[str, tuple[int, str]] = {}
        for station_id in params["ids"]:
            yield from open_station(ui, station_id)
            yield from ui.scroll_to("fee")
            price = next(t for t in ui.texts_in("price_谷") if t.startswith("电费"))
            fee = next(t for t in ui.texts_in("fee") if t.startswith("¥"))
            costs[station_id] = (round(float(price[3:].split("/")[0]) * 100)
                                 + round(float(fee[1:-2]) * 100), ui.text_of("name"))  # fmt: skip
            yield ui.back()
        cost, name = min(costs.values())
        yield Answer(text=f"{name}，每度{cost / 100:.2f}元")


class MonthKwh(ChargingTemplate):
    """Aggregation over the order history: the kWh charged in one month (this task's own
    orders' energy)."""

    id = "charging.month_kwh"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        months: dict[int, list[str]] = {}
        for h in world.content(CHARGING)["history"]:
            month = dt.datetime.fromtimestamp(h["start"], BEIJING).month
            months.setdefault(month, []).append(h["id"])
        month = rng.choice(sorted(m for m in months if m != 1))
        kwh = {i: rng.randint(600, 5600) for i in months[month]}  # hundredths of a kWh
        return {"month": month, "kwh": sum(kwh.values()) / 100, "orders": kwh}

    def setup(self, it: Interaction, params: Params) -> None:
        for h in it.data["history"]:
            if h["id"] in params["orders"]:
                h["kwh"] = params["orders"][h["id"]]
                h["energy"] = round(h["kwh"] * h["price"] / 100)
                h["service"] = round(h["kwh"] * h["fee"] / 100)
                h["total"] = h["energy"] + h["service"] - h["off"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        m = params["month"]
        en = ("January", "February", "March")[m - 1]
        return phrased(
            zh=[f"我{m}月一共充了多少度电？", f"算一下充电记录里{m}月份的充电量总和（度）",
                f"{m}月的充电订单加起来充了多少度？"],
            en=[f"How many kWh did I charge in total in {en}?",
                f"Add up the energy of my charging orders in {en}, in kWh",
                f"What is the total kWh of all my {en} charging sessions?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        before = diff.value_before(f"apps/{CHARGING}/history")
        total = sum(
            h["kwh"]
            for h in before
            if dt.datetime.fromtimestamp(h["start"], BEIJING).month == params["month"]
        )
        return Number(total / 100, unit="度")

    def wrong_answer(self, params: Params) -> str:
        return f"{params['kwh'] + 12.5:.2f}度"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_home(ui)
        yield ui.tap("tab_orders")
        prefix = f"2026-{params['month']:02d}-"
        rows: dict[str, str] = {}
        while True:
            for node in ui.device.ui_tree().walk():
                line = next((t for t in texts(node) if "｜" in t), None)
                if ":id/order_" in node.resource_id and line:  # a row cut at the edge has none
                    rows[node.resource_id] = line
            if ui.device.scroll_room("content")[1] <= 0:
                break
            yield ui.page_down()
        total = sum(float(line.split("｜")[1].removesuffix("度"))
                    for line in rows.values() if line.startswith(prefix))  # fmt: skip
        yield Answer(text=f"{total:.2f}度")


TEMPLATES: tuple[TaskTemplate, ...] = (
    Favourite(),
    AddVehicle(),
    ChargeFromBalance(),
    FastOrBackup(),
    ValleyCost(),
    CheapestWithin(),
    MonthKwh(),
    RechargeViaWallet(),
    FavouriteFromSms(),
    BillBySms(),
    PlateFromNote(),
    FreeFastForFriend(),
    PayIfBalance(),
    PileFromSmsChain(),
    NearestFreeChain(),
    ShareStationWechat(),
)
