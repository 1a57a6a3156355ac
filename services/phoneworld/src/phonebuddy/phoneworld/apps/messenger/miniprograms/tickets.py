"""景点门票: attraction tickets. Attractions (city, rating, opening hours, adult/student/child
prices, dates sold out per ticket type) are seeded content. Pick a date in the next 7 days and
the quantities, fill in the visitor, pay in the wallet, get an entry code; refund an order."""

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
from phonebuddy.phoneworld.apps.messenger.miniprograms.hospital import (
    PHONE,
    WEEK,
    day_of_week,
    upcoming_days,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Column,
    IconButton,
    ListItem,
    Row,
    Text,
    TextField,
    Wrap,
)

BRAND = (46, 160, 90)
ATTRACTIONS = (
    ("西湖游船", "杭州", "08:00-17:30", 5500),
    ("灵隐飞来峰", "杭州", "07:00-18:00", 4500),
    ("宋城景区", "杭州", "10:00-21:00", 31000),
    ("千岛湖", "杭州", "08:00-17:00", 13000),
    ("乌镇东栅", "嘉兴", "07:00-18:00", 11000),
    ("乌镇西栅", "嘉兴", "09:00-22:00", 15000),
    ("西塘古镇", "嘉兴", "08:00-17:00", 9500),
    ("普陀山", "舟山", "06:00-18:00", 16000),
    ("雁荡山", "温州", "07:00-17:30", 15000),
    ("横店影视城", "金华", "08:30-17:00", 26000),
    ("雪窦山", "宁波", "08:00-17:00", 15000),
    ("鲁迅故里", "绍兴", "08:30-17:00", 6000),
)
CITIES = ("全部", "杭州", "嘉兴", "舟山", "温州", "金华", "宁波", "绍兴")
TYPES = {"adult": "成人票", "student": "学生票", "child": "儿童票"}
MAX_QTY = 9


def order_total(attraction: Any, qty: dict[str, int]) -> int:
    return sum(int(attraction["prices"][t]) * int(qty.get(t, 0)) for t in TYPES)


def sold_out(attraction: Any, weekday: int, kind: str) -> bool:
    return f"{weekday}-{kind}" in attraction["sold_out"]


def rating_of(data: Any, spot: Any) -> float:
    """A spot's rating as this phone last loaded it (this device's `ratings`, if any)."""
    return float(data.get("ratings", {}).get(spot["id"], spot["rating"]))


class Tickets(MiniProgram):
    name = "tickets"
    title = "景点门票"
    description = "景区门票，在线预订"
    keywords = ("景点门票", "门票", "景点", "tickets")
    glyph = "票"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        ratings: dict[str, list[int]] = {}
        attractions = []
        for i, (name, city, hours, adult) in enumerate(ATTRACTIONS):
            pool = ratings.setdefault(city, rng.sample(range(40, 50), 5))
            student = round(adult * rng.choice((0.5, 0.6)) / 100) * 100
            child = round(adult * rng.choice((0.4, 0.5)) / 100) * 100
            weekdays = rng.sample(range(7), 2)
            attractions.append(
                {
                    "id": f"sp{i + 1:02d}",
                    "name": name,
                    "city": city,
                    "hours": hours,
                    "rating": pool.pop() / 10,
                    "prices": {"adult": adult, "student": student, "child": child},
                    "sold_out": [
                        f"{weekdays[0]}-{rng.choice(list(TYPES))}",
                        f"{weekdays[1]}-adult",
                    ],
                }
            )
        return {"attractions": attractions, "seed": self._seed(attractions, rng)}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"orders": [{**o, "qty": dict(o["qty"])} for o in content["seed"]]}

    def _seed(self, attractions: Any, rng: random.Random) -> list[dict[str, Any]]:
        """The paid orders of a fresh phone."""
        orders = []
        for i, spot in enumerate(rng.sample(list(attractions), 2)):
            weekday = next(w for w in rng.sample(range(7), 7) if not sold_out(spot, w, "adult"))
            qty = {"adult": 2, "student": 0, "child": i}
            orders.append(
                {
                    "id": f"to-{i + 1}",
                    "attraction": spot["id"],
                    "date": None,
                    "weekday": weekday,
                    "qty": qty,
                    "total_cents": order_total(spot, qty),
                    "visitor": "",
                    "phone": "",
                    "status": "paid",
                    "code": f"{rng.randrange(10**7, 10**8)}",
                }
            )
        return orders

    @staticmethod
    def day_label(order: Any, clock: int) -> str:
        return str(day_of_week(clock, int(order["weekday"]))["label"])

    # -- handlers ------------------------------------------------------------------------------
    def choose_day(self, it: Interaction, weekday: int) -> None:
        it.set_ui("day", weekday)
        spot = find(self.content(it)["attractions"], it.entry["params"]["spot"])
        qty = dict(it.ui("qty", {}))
        for kind in TYPES:  # a ticket type sold out on the new date cannot stay in the order
            if sold_out(spot, weekday, kind):
                qty[kind] = 0
        it.set_ui("qty", qty)

    def change_qty(self, it: Interaction, spot_id: str, kind: str, delta: int) -> None:
        spot = find(self.content(it)["attractions"], spot_id)
        day = it.ui("day")
        qty = dict(it.ui("qty", {}))
        if delta > 0 and day is not None and sold_out(spot, day, kind):
            it.toast(f"{WEEK[day]}{TYPES[kind]}已售罄")
            it.no_op("sold out")
        new = int(qty.get(kind, 0)) + delta
        if not 0 <= new <= MAX_QTY:
            it.no_op("quantity out of range")
        qty[kind] = new
        it.set_ui("qty", qty)

    def submit_order(self, it: Interaction, spot_id: str) -> None:
        spot = find(self.content(it)["attractions"], spot_id)
        day = it.ui("day")
        qty = {k: int(it.ui("qty", {}).get(k, 0)) for k in TYPES}
        visitor, phone = it.field("visitor").strip(), it.field("visitor_phone").strip()
        error = None
        if day is None:
            error = "请选择游玩日期"
        elif not any(qty.values()):
            error = "请至少选择1张门票"
        elif any(qty[k] and sold_out(spot, day, k) for k in TYPES):
            error = "所选门票已售罄"
        elif not visitor or not re.fullmatch(r"[\u4e00-\u9fa5A-Za-z·]{2,20}", visitor):
            error = "请填写游客姓名"
        elif not PHONE.match(phone):
            error = "请填写正确的11位手机号"
        if error:
            it.set_ui("error", error)
            it.toast(error)
            it.no_op(error)
        order_id = it.new_id("to")
        date = day_of_week(it.clock, day)["iso"]
        self.data(it)["orders"].insert(
            0,
            {
                "id": order_id,
                "attraction": spot_id,
                "date": date,
                "weekday": day,
                "qty": qty,
                "total_cents": order_total(spot, qty),
                "visitor": visitor,
                "phone": phone,
                "status": "unpaid",
                "code": None,
            },
        )
        self.replace(it, "order", order=order_id)
        self.pay_order(it, order_id)

    def pay_order(self, it: Interaction, order_id: str) -> None:
        order = find(self.data(it)["orders"], order_id)
        if order is None or order["status"] != "unpaid":
            it.no_op("nothing to pay")
        spot = find(self.content(it)["attractions"], order["attraction"])
        self.pay(
            it,
            amount_cents=order["total_cents"],
            reference=order_id,
            description=f"{spot['name']} 门票 {WEEK[order['weekday']]}",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order = find(self.data(it)["orders"], reference)
        if order is None:
            return
        if paid:
            order["status"] = "paid"
            serial = int(reference.rpartition("-")[2])
            order["code"] = f"{(serial * 7919 + 31415926) % 10**8:08d}"
            it.toast("支付成功，凭入园码入园")
        else:
            it.toast("支付未完成，订单待支付")

    def refund(self, it: Interaction, order_id: str) -> None:
        order = find(self.data(it)["orders"], order_id)
        it.set_ui("dialog", None)
        if order is None or order["status"] != "paid":
            it.no_op("nothing to refund")
        order["status"] = "refunded"
        it.toast("退款申请已提交，款项将原路退回")

    # -- pages ---------------------------------------------------------------------------------
    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        city = v.ui("city", "全部")
        query = v.field("query").strip()
        spots = [
            s
            for s in v.content["attractions"]
            if (city == "全部" or s["city"] == city)
            and (not query or query in s["name"] or query in s["city"])
        ]
        rows = [
            ListItem(
                s["name"],
                subtitle=f"{s['city']} · {rating_of(v.data, s)}分 · 开放 {s['hours']}",
                trailing=f"{yuan(s['prices']['adult'])}起",
                leading=s["name"][0],
                leading_color=BRAND,
                on_tap=v.go("spot", spot=s["id"]),
                id=f"spot_{s['id']}",
            )
            for s in spots
        ]
        body = [
            TextField("query", v.field("query"), "搜索景点或城市", on_focus=v.focus("query")),
            Wrap(
                [
                    Chip(c, v.set_ui("city", c), selected=c == city, id=f"city_{i}")
                    for i, c in enumerate(CITIES)
                ]
            ),
            Button(
                "我的订单", v.go("orders"), id="my_orders", style="secondary", height=100, size=36
            ),
            *(
                rows
                or [
                    Text("没有找到相关景点", color=theme.TEXT_SECONDARY, padding=30, id="no_result")
                ]
            ),
        ]
        return MiniPage(body, padding=24, spacing=16)

    @page("spot")
    def spot(self, v: MiniView) -> MiniPage:
        s = find(v.content["attractions"], v.params["spot"])
        body = [
            Card(
                [
                    Text(s["name"], size=56, bold=True, id="spot_name"),
                    Text(f"{s['city']} · 评分 {rating_of(v.data, s)}分", id="spot_rating"),
                    Text(f"开放时间 {s['hours']}", id="spot_hours"),
                ]
            ),
            Text("门票价格", size=42, bold=True),
            *[
                Text(f"{name}  {yuan(s['prices'][k])}", id=f"price_{k}")
                for k, name in TYPES.items()
            ],
            Text("学生票需出示学生证；儿童票适用于6-14周岁儿童", color=theme.TEXT_SECONDARY),
        ]
        bottom = Column(
            [Button("立即预订", v.go("book", spot=s["id"]), id="book_spot")],
            padding=20,
            fill=theme.SURFACE,
        )
        return MiniPage(body, bottom=bottom, title="景点详情", padding=36, spacing=20)

    @page("book")
    def book(self, v: MiniView) -> MiniPage:
        s = find(v.content["attractions"], v.params["spot"])
        day = v.ui("day")
        qty = v.ui("qty", {})
        days = [
            Chip(
                d["label"],
                v.do(self.choose_day, d["weekday"]),
                selected=d["weekday"] == day,
                id=f"day_{d['weekday']}",
            )
            for d in upcoming_days(v.clock)
        ]
        lines: list[Any] = []
        for kind, name in TYPES.items():
            if day is not None and sold_out(s, day, kind):
                lines.append(
                    Text(
                        f"{name}  {yuan(s['prices'][kind])}  已售罄",
                        id=f"line_{kind}",
                        color=theme.DISABLED,
                    )
                )
                continue
            lines.append(
                Row(
                    [
                        Text(f"{name}  {yuan(s['prices'][kind])}", id=f"line_{kind}"),
                        IconButton(
                            "minus",
                            "减少",
                            v.do(self.change_qty, s["id"], kind, -1),
                            id=f"minus_{kind}",
                        ),
                        Text(str(qty.get(kind, 0)), align="center", id=f"qty_{kind}"),
                        IconButton(
                            "plus",
                            "增加",
                            v.do(self.change_qty, s["id"], kind, 1),
                            id=f"plus_{kind}",
                        ),
                    ],
                    weights=(4, 0, 1, 0),
                )
            )
        total = order_total(s, qty)
        body = [
            Text(s["name"], size=48, bold=True),
            Text("选择游玩日期", size=40, bold=True),
            Wrap(days),
            Text("选择门票" if day is not None else "请先选择日期，查看余票", size=40, bold=True),
            *lines,
            Text("游客信息", size=40, bold=True),
            TextField("visitor", v.field("visitor"), "游客姓名", on_focus=v.focus("visitor")),
            TextField(
                "visitor_phone",
                v.field("visitor_phone"),
                "手机号",
                on_focus=v.focus("visitor_phone"),
            ),
            Text(v.ui("error") or "", color=theme.DANGER, id="book_error"),
        ]
        bottom = Column(
            [
                Row(
                    [
                        Text(
                            f"合计 {yuan(total)}", size=44, bold=True, padding=30, id="book_total"
                        ),
                        Button("提交订单", v.do(self.submit_order, s["id"]), id="submit_order"),
                    ],
                    weights=(3, 2),
                )
            ],
            padding=20,
            fill=theme.SURFACE,
        )
        return MiniPage(body, bottom=bottom, title="预订门票", padding=30, spacing=18)

    @page("order")
    def order(self, v: MiniView) -> MiniPage:
        o = find(v.data["orders"], v.params["order"])
        s = find(v.content["attractions"], o["attraction"])
        status = {"unpaid": "待支付", "paid": "待使用", "refunded": "已退款"}
        tickets = "、".join(f"{TYPES[k]}×{n}" for k, n in o["qty"].items() if n)
        body: list[Any] = [
            Text(status[o["status"]], size=60, bold=True, align="center", id="order_status")
        ]
        if o["status"] == "paid":
            body += [
                Text("入园码", align="center", color=theme.TEXT_SECONDARY),
                Text(o["code"], size=88, bold=True, align="center", id="order_code"),
            ]
        body.append(
            Card(
                [
                    Text(s["name"], size=44, bold=True, id="order_spot"),
                    Text(f"游玩日期  {self.day_label(o, v.clock)}", id="order_date"),
                    Text(f"门票  {tickets}", id="order_tickets"),
                    Text(f"实付  {yuan(o['total_cents'])}", bold=True, id="order_total"),
                ]
            )
        )
        if o["status"] == "unpaid":
            body.append(Button("去支付", v.do(self.pay_order, o["id"]), id="pay_order"))
        if o["status"] == "paid":
            body.append(
                Button("申请退款", v.set_ui("dialog", "refund"), id="refund", style="danger")
            )
        overlay = None
        if v.ui("dialog") == "refund":
            overlay = v.confirm(
                "确定申请退款？",
                v.do(self.refund, o["id"]),
                message=f"将退还 {yuan(o['total_cents'])}，退款后入园码失效",
                label="确定退款",
                confirm_id="confirm_refund",
                danger=True,
            )
        return MiniPage(body, overlay=overlay, title="订单详情", padding=36, spacing=22)

    @page("orders")
    def orders(self, v: MiniView) -> MiniPage:
        status = {"unpaid": "待支付", "paid": "待使用", "refunded": "已退款"}
        rows = [
            ListItem(
                find(v.content["attractions"], o["attraction"])["name"],
                subtitle=f"{self.day_label(o, v.clock)} · {status[o['status']]}",
                trailing=yuan(o["total_cents"]),
                on_tap=v.go("order", order=o["id"]),
                id=f"order_{o['id']}",
            )
            for o in v.data["orders"]
        ]
        return MiniPage(
            rows or [Text("暂无订单", color=theme.TEXT_SECONDARY, padding=40)], title="我的订单"
        )
