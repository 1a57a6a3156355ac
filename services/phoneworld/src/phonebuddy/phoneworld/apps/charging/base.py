"""充电桩's base: constants, look-ups and the handlers (the only place data changes): start and
stop a charging session, settle its bill from the 充电余额 or through the wallet, recharge the
balance, favourites, sharing a station and vehicles."""

from __future__ import annotations

import random
import re
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View
from phonebuddy.phoneworld.apps.charging import content
from phonebuddy.phoneworld.apps.charging.content import BONUS, PACKAGES, band_of, bill, yuan
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

CHARGING = "com.pw.charging"
TEAL: Color = (0, 168, 150)
RED: Color = (220, 50, 50)
PLATE = re.compile(r"^([" + content.PROVINCES + r"])([A-Z])·?([A-HJ-NP-Z0-9]{5,6})$")
NEW_SOC = 50  # a vehicle added by hand starts at this state of charge
# The simulation is sped up: one second on the phone's clock is one minute of charging.
SPEED = 60


def local_hour(clock: int) -> int:
    return (clock + 8 * 3600) // 3600 % 24


def normal_plate(raw: str) -> str | None:
    """'浙AD12345' or '浙A·D12345' -> '浙A·D12345'; None when it is not a plate."""
    match = PLATE.match(raw.strip().upper().replace(" ", "").replace("•", "·"))
    return f"{match[1]}{match[2]}·{match[3]}" if match else None


def charged(session: dict[str, Any], clock: int) -> int:
    """Hundredths of a kWh delivered by `clock`, capped at the session's target."""
    done = session["power"] * 100 * SPEED * max(0, clock - session["start"]) // 3600
    return min(done, session["target"])


def tariffed(station: Any, data: dict[str, Any]) -> Any:
    """A station with today's tariff as this phone last loaded it (this device's `tariffs`:
    its prices and service fee), if it has one."""
    tariff = data.get("tariffs", {}).get(station["id"])
    return station if tariff is None else {**station, **tariff}


class ChargingBase(App):
    package = CHARGING
    label = Label(zh="充电桩", en="EV Charging")
    domain = "automotive"
    theme = AppTheme(primary=TEAL)
    icon_text = "充"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "balance": content["balance"],
            "vehicles": [clone(v) for v in content["vehicles"]],
            "favourites": [],
            "coupons": [{**clone(c), "used": False} for c in content["coupons"]],
            "history": [clone(h) for h in content["history"]],
            "recharges": [],
            "session": None,
            "bill": None,
        }

    # -- look-ups ---------------------------------------------------------------------------------
    @staticmethod
    def station(v: View | Interaction, station_id: str) -> Any:
        return tariffed(next(s for s in v.content["stations"] if s["id"] == station_id), v.data)

    @staticmethod
    def find_pile(v: View | Interaction, pile_id: str) -> tuple[Any, Any] | None:
        for station in v.content["stations"]:
            for pile in station["piles"]:
                if pile["id"] == pile_id:
                    return tariffed(station, v.data), pile
        return None

    @staticmethod
    def pile_status(data: dict[str, Any], pile: Any) -> str:
        session = data["session"]
        return "充电中" if session and session["pile"] == pile["id"] else str(pile["status"])

    @staticmethod
    def vehicle(data: dict[str, Any], vehicle_id: str) -> dict[str, Any] | None:
        return next((x for x in data["vehicles"] if x["id"] == vehicle_id), None)

    @staticmethod
    def best_coupon(data: dict[str, Any], service: int) -> dict[str, Any] | None:
        usable = [c for c in data["coupons"] if not c["used"] and service >= c["min"]]
        return max(usable, key=lambda c: c["off"], default=None)

    @staticmethod
    def clock_of(v: View | Interaction) -> int:
        return v.clock if isinstance(v, Interaction) else int(v.os["clock"])

    # -- handlers -------------------------------------------------------------------------------
    def start(self, it: Interaction) -> None:
        if it.data["session"] or it.data["bill"]:
            it.toast("您有未完成的充电订单")
            it.no_op("a session or bill is open")
        found = self.find_pile(it, it.field("pile").strip())
        if found is None:
            it.toast("桩编号不存在，请核对")
            it.no_op(f"no pile {it.field('pile')!r}")
            return
        station, pile = found
        if pile["status"] != "空闲":
            it.toast("该桩故障，暂不可用" if pile["status"] == "故障" else "该桩正在使用中")
            it.no_op(f"pile {pile['id']} is {pile['status']}")
        car = self.vehicle(it.data, it.ui("vehicle") or it.data["vehicles"][0]["id"])
        if car is None:
            it.no_op("no vehicle")
            return
        raw, mode = it.field("target").strip(), it.ui("mode") or "kwh"
        room = car["battery"] * (100 - car["soc"])  # hundredths of a kWh up to 100%
        value = int(raw) if raw.isdigit() else 0
        if mode == "kwh" and not 1 <= value <= room // 100:
            it.toast(f"请输入1到{room // 100}之间的度数")
            it.no_op(f"bad kWh target {raw!r}")
        if mode == "soc" and not car["soc"] < value <= 100:
            it.toast(f"目标电量需在{car['soc'] + 1}%到100%之间")
            it.no_op(f"bad SOC target {raw!r}")
        target = value * 100 if mode == "kwh" else car["battery"] * (value - car["soc"])
        it.data["session"] = {"station": station["id"], "pile": pile["id"], "vehicle": car["id"],
                              "power": pile["power"], "target": target, "start": it.clock,
                              "band": band_of(local_hour(it.clock))}  # fmt: skip
        it.set_field("pile", "")
        it.set_field("target", "")
        it.toast("已开始充电")
        it.replace("session")

    def stop(self, it: Interaction) -> None:
        session = it.data["session"]
        it.set_ui("dialog", None)
        if session is None:
            it.no_op("nothing is charging")
            return
        kwh = charged(session, it.clock)
        station = self.station(it, session["station"])
        car = self.vehicle(it.data, session["vehicle"])
        assert car is not None
        record = bill(station, session["band"], kwh, 0, start=session["start"],
                      minutes=max(1, (it.clock - session["start"]) // 60), plate=car["plate"],
                      pile=session["pile"], paid_by="")  # fmt: skip
        record["end"] = it.clock
        coupon = self.best_coupon(it.data, record["service"])
        if coupon is not None:
            record.update(off=coupon["off"], coupon=coupon["id"],
                          total=record["total"] - coupon["off"])  # fmt: skip
        record["id"] = it.new_id("order")
        car["soc"] = min(100, car["soc"] + kwh // car["battery"])
        it.data["session"] = None
        it.data["bill"] = record
        it.toast("充电已结束")
        it.replace("bill")

    def pay_balance(self, it: Interaction) -> None:
        it.set_ui("dialog", None)
        record = it.data["bill"]
        if record is None:
            it.no_op("no bill")
            return
        if it.data["balance"] < record["total"]:
            it.toast("充电余额不足，请使用钱包支付")
            it.no_op("the balance is short")
        it.data["balance"] -= record["total"]
        self._settle(it, "余额")

    def pay_wallet(self, it: Interaction) -> None:
        record = it.data["bill"]
        if record is None:
            it.no_op("no bill")
            return
        it.request_payment(amount_cents=record["total"], merchant="充电桩",
                           reference=f"bill:{record['id']}",
                           description=f"充电订单 {record['name']}")  # fmt: skip

    def _settle(self, it: Interaction, paid_by: str) -> None:
        record = it.data["bill"]
        record["paid_by"] = paid_by
        for coupon in it.data["coupons"]:
            if coupon["id"] == record.get("coupon"):
                coupon["used"] = True
        it.data["history"].append(record)
        it.data["bill"] = None
        it.toast(f"支付成功 {yuan(record['total'])}")
        it.replace("order", order_id=record["id"])

    def recharge(self, it: Interaction) -> None:
        amount = it.ui("package")
        if amount not in PACKAGES:
            it.toast("请选择充值金额")
            it.no_op("no package chosen")
        it.request_payment(amount_cents=amount, merchant="充电桩", reference=f"recharge:{amount}",
                           description=f"充电余额充值 {yuan(amount)}")  # fmt: skip

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        if not paid:
            return
        kind, _, key = reference.partition(":")
        if kind == "bill" and it.data["bill"] and it.data["bill"]["id"] == key:
            self._settle(it, "钱包")
        elif kind == "recharge":
            amount = int(key)
            bonus = BONUS.get(amount, 0)
            it.data["balance"] += amount + bonus
            it.data["recharges"].append({"id": it.new_id("recharge"), "amount": amount,
                                         "bonus": bonus, "time": it.clock})  # fmt: skip
            it.toast(f"充值成功，到账{yuan(amount + bonus)}")

    def toggle_favourite(self, it: Interaction, station_id: str) -> None:
        favourites = it.data["favourites"]
        if any(f["id"] == station_id for f in favourites):
            it.data["favourites"] = [f for f in favourites if f["id"] != station_id]
            it.toast("已取消收藏")
        else:
            favourites.append({"id": station_id, "time": it.clock})
            it.toast("已收藏")

    def share_station(self, it: Interaction, station_id: str) -> None:
        station = self.station(it, station_id)
        it.share({"kind": "link", "title": station["name"], "text": station["address"],
                  "source": "充电桩"})  # fmt: skip

    def add_vehicle(self, it: Interaction) -> None:
        plate = normal_plate(it.field("plate"))
        if plate is None:
            it.set_ui("vehicle_error", "车牌号格式不正确，例如 浙A·D12345")
            it.no_op(f"bad plate {it.field('plate')!r}")
            return
        if any(x["plate"] == plate for x in it.data["vehicles"]):
            it.set_ui("vehicle_error", "该车辆已添加")
            it.no_op(f"{plate} is already there")
        raw = it.field("battery").strip()
        if not raw.isdigit() or not 10 <= int(raw) <= 200:
            it.set_ui("vehicle_error", "电池容量请输入10到200之间的整数（度）")
            it.no_op(f"bad battery {raw!r}")
        it.data["vehicles"].append({"id": it.new_id("v"), "plate": plate, "model": "",
                                    "battery": int(raw), "soc": NEW_SOC})  # fmt: skip
        it.set_ui("vehicle_error", None)
        it.set_field("plate", "")
        it.set_field("battery", "")
        it.toast("车辆已添加")
        it.pop()
