"""街电充电宝: nearby stations (power banks to rent, empty slots to return to), renting one
deposit-free with the credit score or with a ¥99 deposit, a rental timed on the phone's clock
(¥2 per started half hour, ¥20 a day at most), returning it at a station with a free slot,
paying the fee through the wallet, and the order history."""

from __future__ import annotations

import random
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
from phonebuddy.phoneworld.ui.widgets import Button, Card, ListItem, Text

BRAND = (0, 170, 120)
PERIOD_S = 1800
PERIOD_CENTS = 200
DAY_CAP_CENTS = 2000
DEPOSIT_CENTS = 9900
CREDIT_SCORE = 680
PLACES = (
    ("银泰百货一楼服务台", "拱墅区延安路530号"),
    ("星巴克文三路店", "西湖区文三路259号"),
    ("海底捞西城广场店", "西湖区文一西路551号"),
    ("如家酒店前台", "上城区清泰街158号"),
    ("万达影城售票处", "拱墅区莫干山路888号"),
    ("肯德基武林店", "拱墅区体育场路335号"),
    ("地铁凤起路站B口", "上城区凤起路83号"),
    ("网吧极速电竞", "滨江区江南大道1088号"),
    ("华联超市收银台", "西湖区古墩路616号"),
    ("喜茶湖滨店", "上城区东坡路7号"),
)


def rental_fee(minutes_s: int) -> int:
    """¥2 per started half hour (at least one), at most ¥20 per started day."""
    periods = max(1, -(-max(0, minutes_s) // PERIOD_S))
    days, rest = divmod(periods, 48)
    return days * DAY_CAP_CENTS + min(DAY_CAP_CENTS, rest * PERIOD_CENTS)


class Powerbank(MiniProgram):
    name = "powerbank"
    title = "街电充电宝"
    description = "附近充电宝，随借随还"
    keywords = ("街电充电宝", "充电宝", "街电", "powerbank")
    glyph = "电"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        stations = []
        for i, (name, address) in enumerate(rng.sample(PLACES, len(PLACES))):
            capacity = rng.choice((6, 8, 12))
            banks = capacity if i == 2 else 0 if i == 4 else rng.randrange(1, capacity)
            stations.append(
                {
                    "id": f"st{i + 1}",
                    "name": name,
                    "address": address,
                    "distance_m": 120 + i * rng.randrange(90, 160),
                    "capacity": capacity,
                    "banks": banks,
                }
            )
        history = [
            {
                "id": f"pb-{i + 1}",
                "station": stations[rng.randrange(len(stations))]["id"],
                "returned_at": stations[rng.randrange(len(stations))]["id"],
                "mode": "free",
                "start": None,
                "minutes": (minutes := rng.randrange(20, 300)),
                "fee_cents": rental_fee(minutes * 60),
                "status": "paid",
                "days_ago": 3 + i * rng.randrange(2, 6),
            }
            for i in range(5)
        ]
        return {"stations": stations, "history": history}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "banks": {s["id"]: s["banks"] for s in content["stations"]},
            "rental": None,
            "orders": [dict(o) for o in content["history"]],
        }

    # -- handlers ------------------------------------------------------------------------------
    def _refuse(self, it: Interaction, error: str) -> None:
        it.set_ui("error", error)
        it.toast(error)
        it.no_op(error)

    def rent(self, it: Interaction, station_id: str, mode: str) -> None:
        data = self.data(it)
        if data["rental"] is not None:
            self._refuse(it, "您有一个充电宝正在使用中，请先归还")
        if data["banks"][station_id] <= 0:
            self._refuse(it, "该网点暂无可借充电宝")
        if mode == "deposit":
            self.pay(
                it,
                amount_cents=DEPOSIT_CENTS,
                reference=f"deposit-{station_id}",
                description="充电宝押金",
            )
            return
        self._start(it, station_id, mode)

    def _start(self, it: Interaction, station_id: str, mode: str) -> None:
        data = self.data(it)
        data["banks"][station_id] -= 1
        data["rental"] = {
            "id": it.new_id("pb"),
            "station": station_id,
            "mode": mode,
            "start": it.clock,
        }
        it.set_ui("error", None)
        it.toast("租借成功，请取出充电宝")

    def give_back(self, it: Interaction, station_id: str) -> None:
        data = self.data(it)
        rental = data["rental"]
        station = find(self.content(it)["stations"], station_id)
        if rental is None:
            self._refuse(it, "当前没有使用中的充电宝")
        if data["banks"][station_id] >= station["capacity"]:
            self._refuse(it, "该网点没有空闲卡槽，请换一个网点归还")
        data["banks"][station_id] += 1
        seconds = it.clock - int(rental["start"])
        order = {
            "id": rental["id"],
            "station": rental["station"],
            "returned_at": station_id,
            "mode": rental["mode"],
            "start": rental["start"],
            "minutes": seconds // 60,
            "fee_cents": rental_fee(seconds),
            "status": "unpaid",
            "days_ago": 0,
        }
        data["orders"].insert(0, order)
        data["rental"] = None
        it.set_ui("error", None)
        self.pay(
            it,
            amount_cents=order["fee_cents"],
            reference=order["id"],
            description=f"充电宝租借 {order['minutes']}分钟",
        )

    def pay_order(self, it: Interaction, order_id: str) -> None:
        order = find(self.data(it)["orders"], order_id)
        if order is None or order["status"] == "paid":
            it.no_op("nothing to pay")
        self.pay(it, amount_cents=order["fee_cents"], reference=order_id, description="充电宝租借")

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        if reference.startswith("deposit-"):
            if paid:
                self._start(it, reference.removeprefix("deposit-"), "deposit")
            return
        order = find(self.data(it)["orders"], reference)
        if order is not None and paid:
            order["status"] = "paid"
            it.toast("支付成功，感谢使用")

    # -- pages ---------------------------------------------------------------------------------
    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        rental = v.data["rental"]
        body: list[Any] = [
            Card(
                [
                    Text("街电充电宝", size=48, bold=True, color=theme.WHITE),
                    Text(f"芝麻信用 {CREDIT_SCORE} · 免押金租借", size=34, color=(210, 255, 235)),
                ],
                fill=BRAND,
            ),
        ]
        if rental is not None:
            seconds = v.clock - int(rental["start"])
            start = find(v.content["stations"], rental["station"])
            body.append(
                Card(
                    [
                        Text("使用中", bold=True, id="rental_state"),
                        Text(f"租借网点 {start['name']}"),
                        Text(
                            f"已使用 {seconds // 60} 分钟 · 当前费用 {yuan(rental_fee(seconds))}",
                            id="rental_fee",
                        ),
                    ],
                    id="rental_card",
                )
            )
        body.append(Text("附近网点", size=40, bold=True))
        for s in v.content["stations"]:
            banks = v.data["banks"][s["id"]]
            body.append(
                ListItem(
                    s["name"],
                    subtitle=f"{s['distance_m']}m · 可借{banks} · 可还{s['capacity'] - banks}",
                    leading="电",
                    leading_color=BRAND,
                    on_tap=v.go("station", station=s["id"]),
                    id=f"station_{s['id']}",
                )
            )
        body.append(Button("我的订单", v.go("orders"), id="my_orders", style="text"))
        return MiniPage(body, padding=24, spacing=14)

    @page("station")
    def station(self, v: MiniView) -> MiniPage:
        s = find(v.content["stations"], v.params["station"])
        banks = v.data["banks"][s["id"]]
        error = v.ui("error")
        body: list[Any] = [
            Card(
                [
                    Text(s["name"], size=44, bold=True, id="station_name"),
                    Text(s["address"], id="station_address"),
                    Text(f"距离 {s['distance_m']}m", color=theme.TEXT_SECONDARY),
                    Text(f"可借 {banks}", id="station_banks"),
                    Text(f"可还 {s['capacity'] - banks}", id="station_slots"),
                ]
            ),
            Text(
                f"计费：每30分钟{yuan(PERIOD_CENTS)}，不足30分钟按30分钟计，"
                f"每日封顶{yuan(DAY_CAP_CENTS)}",
                color=theme.TEXT_SECONDARY,
            ),
            Text(error or "", id="station_error", color=theme.DANGER) if error else None,
        ]
        if v.data["rental"] is None:
            body += [
                Button("免押金租借", v.do(self.rent, s["id"], "free"), id="rent_free"),
                Button(
                    f"支付押金{yuan(DEPOSIT_CENTS)}租借",
                    v.do(self.rent, s["id"], "deposit"),
                    id="rent_deposit",
                    style="secondary",
                ),
            ]
        else:
            body.append(Button("归还到此网点", v.do(self.give_back, s["id"]), id="return_here"))
        return MiniPage(body, title="网点详情", padding=30, spacing=20)

    @page("orders")
    def orders(self, v: MiniView) -> MiniPage:
        status = {"paid": "已支付", "unpaid": "待支付"}
        rows = []
        for o in v.data["orders"]:
            start = find(v.content["stations"], o["station"])
            when = "今天" if o["days_ago"] == 0 else f"{o['days_ago']}天前"
            rows.append(
                ListItem(
                    start["name"],
                    subtitle=f"{when} · {o['minutes']}分钟 · {status[o['status']]}",
                    trailing=yuan(o["fee_cents"]),
                    on_tap=v.do(self.pay_order, o["id"]) if o["status"] != "paid" else None,
                    id=f"order_{o['id']}",
                )
            )
        return MiniPage(
            rows or [Text("暂无订单", color=theme.TEXT_SECONDARY, padding=40)], title="我的订单"
        )
