"""加油助手: nearby fuel stations with their prices per fuel type (92#/95#/98#/0#), filling up
at a pump (number checked against the station's pumps) by yuan or by litres, a coupon that
applies only above its threshold, paying through the wallet, and the receipts."""

from __future__ import annotations

import random
import re
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import (
    MiniPage,
    MiniProgram,
    MiniView,
    find,
    page,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.widgets import Button, Card, Chip, ListItem, Text, TextField, Wrap

BRAND = (230, 60, 40)
FUELS = ("92", "95", "98", "0")
BASE_CENTS = {"92": 752, "95": 801, "98": 901, "0": 728}
BRANDS = ("中国石化", "中国石油", "壳牌", "中海油")
SITES = (
    ("文三路加油站", "西湖区文三路与学院路交叉口"),
    ("古墩路加油站", "西湖区古墩路1088号"),
    ("秋涛路加油站", "上城区秋涛北路256号"),
    ("滨盛路加油站", "滨江区滨盛路1509号"),
    ("莫干山路加油站", "拱墅区莫干山路1266号"),
    ("天目山路加油站", "西湖区天目山路555号"),
    ("机场路加油站", "上城区机场路380号"),
    ("五常大道加油站", "余杭区五常大道199号"),
)
NUMBER = re.compile(r"^\d+(\.\d{1,2})?$")
MAX_YUAN_CENTS = 200000
MAX_LITRES_CENTI = 20000


def fuel_label(fuel: str) -> str:
    return f"{fuel}#"


def parse_hundredths(text: str) -> int | None:
    """'30.5' -> 3050; None for anything but a plain number with at most two decimals."""
    text = text.strip().removeprefix("¥").removesuffix("升").removesuffix("元").strip()
    if not NUMBER.match(text):
        return None
    whole, _, part = text.partition(".")
    return int(whole) * 100 + int((part + "00")[:2])


def fill(unit_cents: int, mode: str, amount: int, coupon: Any) -> dict[str, int]:
    """The sums of a fill: by yuan (amount in cents) or by litres (amount in centilitres)."""
    if mode == "yuan":
        gross, centi = amount, round(amount * 100 / unit_cents)
    else:
        gross, centi = round(amount * unit_cents / 100), amount
    discount = coupon["off_cents"] if coupon and gross >= coupon["threshold_cents"] else 0
    return {
        "gross_cents": gross,
        "centilitres": centi,
        "discount_cents": discount,
        "paid_cents": gross - discount,
    }


def price(data: Any, station: Any, fuel: str) -> int:
    """A station's price of `fuel` today, in cents per litre: the day's own where the data has
    one (a task may start on a day of other prices), else the listed one."""
    return int(data.get("prices", {}).get(station["id"], {}).get(fuel, station["prices"][fuel]))


def used_coupons(data: Any) -> set[str]:
    return {r["coupon"] for r in data["receipts"] if r["status"] == "paid" and r["coupon"]}


class Fuel(MiniProgram):
    name = "fuel"
    title = "加油助手"
    description = "附近油价，扫码加油"
    keywords = ("加油助手", "加油", "油价", "fuel")
    glyph = "油"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        stations = []
        premium = rng.sample(range(-25, 26), len(SITES))  # every station's 95# differs
        for i, (name, address) in enumerate(rng.sample(SITES, len(SITES))):
            brand = rng.choice(BRANDS)
            stations.append(
                {
                    "id": f"fs{i + 1}",
                    "name": f"{brand}{name}",
                    "address": address,
                    "distance_km": round(0.6 + i * rng.uniform(0.4, 1.1), 1),
                    "pumps": rng.choice((8, 10, 12, 16)),
                    "prices": {
                        f: BASE_CENTS[f] + (premium[i] if f == "95" else rng.randrange(-25, 26))
                        for f in FUELS
                    },
                }
            )
        coupons = [
            {"id": "cp1", "name": "满200减15", "threshold_cents": 20000, "off_cents": 1500},
            {"id": "cp2", "name": "满300减30", "threshold_cents": 30000, "off_cents": 3000},
            {"id": "cp3", "name": "无门槛减5", "threshold_cents": 0, "off_cents": 500},
        ]
        return {"stations": stations, "coupons": coupons}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"receipts": []}

    # -- handlers ------------------------------------------------------------------------------
    def _refuse(self, it: Interaction, error: str) -> None:
        it.set_ui("error", error)
        it.toast(error)
        it.no_op(error)

    def order(self, it: Interaction, station_id: str) -> None:
        station = find(self.content(it)["stations"], station_id)
        fuel, mode = it.ui("fuel", "92"), it.ui("mode", "yuan")
        pump_text = it.field("pump").strip()
        amount = parse_hundredths(it.field("amount"))
        coupon = find(self.content(it)["coupons"], it.ui("coupon") or "")
        if not pump_text.isdigit() or not 1 <= int(pump_text) <= station["pumps"]:
            self._refuse(it, f"请输入正确的油枪号（1-{station['pumps']}）")
        if amount is None or amount <= 0:
            self._refuse(it, "请输入正确的加油金额或升数")
        assert amount is not None
        if mode == "yuan" and amount > MAX_YUAN_CENTS:
            self._refuse(it, "单笔加油金额不能超过¥2000.00")
        if mode == "litre" and amount > MAX_LITRES_CENTI:
            self._refuse(it, "单笔加油不能超过200升")
        if coupon is not None and coupon["id"] in used_coupons(self.data(it)):
            coupon = None
        unit = price(self.data(it), station, fuel)
        sums = fill(unit, mode, amount, coupon)
        if coupon is not None and not sums["discount_cents"]:
            self._refuse(it, f"未满{yuan(coupon['threshold_cents'])}，不能使用该优惠券")
        receipt = {
            "id": it.new_id("fr"),
            "station": station_id,
            "fuel": fuel,
            "pump": int(pump_text),
            "unit_cents": unit,
            "mode": mode,
            "coupon": coupon["id"] if coupon else None,
            **sums,
            "status": "unpaid",
        }
        self.data(it)["receipts"].insert(0, receipt)
        it.set_ui("error", None)
        self.pay(
            it,
            amount_cents=sums["paid_cents"],
            reference=receipt["id"],
            description=f"{station['name']} {pump_text}号枪 {fuel_label(fuel)}",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        receipt = find(self.data(it)["receipts"], reference)
        if receipt is None:
            return
        receipt["status"] = "paid" if paid else "cancelled"
        it.toast("支付成功，请开始加油" if paid else "已取消支付")

    # -- pages ---------------------------------------------------------------------------------
    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        fuel = v.ui("show", "92")
        body: list[Any] = [
            Card(
                [
                    Text("加油助手", size=48, bold=True, color=theme.WHITE),
                    Text("附近油价 · 在线支付", size=34, color=(255, 220, 210)),
                ],
                fill=BRAND,
            ),
            Wrap(
                [
                    Chip(fuel_label(f), v.set_ui("show", f), selected=f == fuel, id=f"show_{f}")
                    for f in FUELS
                ]
            ),
        ]
        for s in v.content["stations"]:
            body.append(
                ListItem(
                    s["name"],
                    subtitle=f"{s['distance_km']}km · {s['address']}",
                    trailing=f"{fuel_label(fuel)} {yuan(price(v.data, s, fuel))}/L",
                    leading="油",
                    leading_color=BRAND,
                    on_tap=v.go("station", station=s["id"]),
                    id=f"station_{s['id']}",
                )
            )
        body.append(Button("加油记录", v.go("receipts"), id="my_receipts", style="text"))
        return MiniPage(body, padding=24, spacing=14)

    @page("station")
    def station(self, v: MiniView) -> MiniPage:
        s = find(v.content["stations"], v.params["station"])
        fuel, mode = v.ui("fuel", "92"), v.ui("mode", "yuan")
        chosen = v.ui("coupon")
        error = v.ui("error")
        coupons = [c for c in v.content["coupons"] if c["id"] not in used_coupons(v.data)]
        body: list[Any] = [
            Card(
                [
                    Text(s["name"], size=44, bold=True, id="station_name"),
                    Text(s["address"], id="station_address"),
                    *(
                        Text(f"{fuel_label(f)}  {yuan(price(v.data, s, f))}/升", id=f"price_{f}")
                        for f in FUELS
                    ),
                ]
            ),
            Text("油品", size=38, bold=True),
            Wrap(
                [
                    Chip(fuel_label(f), v.set_ui("fuel", f), selected=f == fuel, id=f"fuel_{f}")
                    for f in FUELS
                ]
            ),
            TextField(
                "pump", v.field("pump"), f"油枪号（1-{s['pumps']}）", on_focus=v.focus("pump")
            ),
            Wrap(
                [
                    Chip(
                        "按金额", v.set_ui("mode", "yuan"), selected=mode == "yuan", id="mode_yuan"
                    ),
                    Chip(
                        "按升数",
                        v.set_ui("mode", "litre"),
                        selected=mode == "litre",
                        id="mode_litre",
                    ),
                ]
            ),
            TextField(
                "amount",
                v.field("amount"),
                "金额（元）" if mode == "yuan" else "升数",
                on_focus=v.focus("amount"),
            ),
            Text("优惠券", size=38, bold=True),
            Wrap(
                [
                    Chip(
                        c["name"],
                        v.set_ui("coupon", None if chosen == c["id"] else c["id"]),
                        selected=chosen == c["id"],
                        id=f"coupon_{c['id']}",
                    )
                    for c in coupons
                ]
            ),
            Text(
                error or "支付后请在对应油枪加油",
                id="fuel_error",
                color=theme.DANGER if error else theme.TEXT_SECONDARY,
            ),
            Button("立即支付", v.do(self.order, s["id"]), id="pay_fuel"),
        ]
        return MiniPage(body, title="加油", padding=30, spacing=18)

    @page("receipts")
    def receipts(self, v: MiniView) -> MiniPage:
        status = {"paid": "已支付", "unpaid": "待支付", "cancelled": "已取消"}
        rows = [
            ListItem(
                find(v.content["stations"], r["station"])["name"],
                subtitle=f"{fuel_label(r['fuel'])} · {r['pump']}号枪 · "
                f"{r['centilitres'] / 100:.2f}升 · 单价{yuan(r['unit_cents'])} · "
                f"优惠{yuan(r['discount_cents'])} · {status[r['status']]}",
                trailing=yuan(r["paid_cents"]),
                id=f"receipt_{r['id']}",
            )
            for r in v.data["receipts"]
        ]
        return MiniPage(
            rows or [Text("暂无加油记录", color=theme.TEXT_SECONDARY, padding=40)], title="加油记录"
        )
