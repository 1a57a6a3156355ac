"""旅行 (Travel): a 12306/Ctrip-like app. Train tickets (from/to city, a date within two
weeks, results with times, durations, seat classes, prices and availability; seat, passengers,
confirmation, payment through the wallet), hotels (city, dates, nights, room types), my orders
with ticket refunds (the 12306 fee rules), and saved passengers.

A refund marks the order refunded with its fee and amount; the money itself is not sent back to
the wallet (the app says it returns within 1-7 working days).
"""

from __future__ import annotations

import datetime as dt
import random
import zlib
from collections.abc import Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.apps.travel import content as travel_content
from phonebuddy.phoneworld.apps.travel.content import (
    SEAT_BY_KEY,
    SEATS,
    route_key,
    seats_left,
)
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, local_date, minute_of_day, yuan_short
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    AppBar,
    Button,
    Card,
    Chip,
    Column,
    Dialog,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)

TRAVEL_PACKAGE = "com.pw.travel"
BLUE: Color = (27, 110, 214)
PALE_BLUE: Color = (228, 239, 252)
PRICE_ORANGE: Color = (255, 102, 0)
SOLD_OUT: Color = (189, 189, 189)
BOOKING_DAYS = 14
MAX_NIGHTS = 7
WEEKDAYS = "一二三四五六日"
PASSENGER_NAMES = ("张伟", "王芳", "李娜", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周杰", "吴婷")
KINDS = ("成人", "学生")
SORTS = (("depart", "出发最早"), ("duration", "耗时最短"), ("price", "价格最低"))


# -- dates and money ---------------------------------------------------------------------------
def travel_date(clock: int, days_ahead: int) -> str:
    return (local_date(clock) + dt.timedelta(days=days_ahead)).isoformat()


def date_label(iso: str, clock: int | None = None) -> str:
    """'3月18日 周三', or '3月18日 明天' when `clock` says tomorrow."""
    day = dt.date.fromisoformat(iso)
    relative = ""
    if clock is not None:
        relative = {0: "今天", 1: "明天", 2: "后天"}.get((day - local_date(clock)).days, "")
    return f"{day.month}月{day.day}日 {relative or '周' + WEEKDAYS[day.weekday()]}"


def departure_epoch(iso: str, hhmm: str) -> int:
    day = dt.date.fromisoformat(iso)
    hours, minutes = map(int, hhmm.split(":"))
    return int(
        dt.datetime(day.year, day.month, day.day, hours, minutes, tzinfo=BEIJING).timestamp()
    )


def duration_text(minutes: int) -> str:
    return f"{minutes // 60}时{minutes % 60:02d}分"


def refund_fee_cents(total_cents: int, hours_before: float) -> int:
    """12306's rule: free 8+ days ahead, then 5% / 10% / 20%, rounded to half a yuan."""
    if hours_before >= 8 * 24:
        rate = 0.0
    elif hours_before >= 48:
        rate = 0.05
    elif hours_before >= 24:
        rate = 0.10
    else:
        rate = 0.20
    return round(total_cents * rate / 50) * 50


# -- trains ------------------------------------------------------------------------------------
def trains_between(content: Any, origin: str, destination: str) -> Sequence[Any]:
    return content["routes"].get(route_key(origin, destination), ())


def departed(train: Any, clock: int, days_ahead: int) -> bool:
    return days_ahead == 0 and minute_of_day(clock) >= _minutes(train["depart"])


def availability(train: Any, seat_key: str, days_ahead: int) -> int | None:
    """Tickets left for a seat class on a day; None when the train has no such seats."""
    if train["prices"][seat_key] is None:
        return None
    return seats_left(train["number"], seat_key, days_ahead)


def availability_text(left: int | None) -> str:
    if left is None:
        return "--"
    if left == 0:
        return "无"
    return "有" if left >= 20 else f"{left}张"


def seat_numbers(order_id: str, seat_key: str, count: int) -> list[str]:
    """Carriage and seat for each passenger, side by side as 12306 assigns them."""
    crc = zlib.crc32(order_id.encode())
    letters = {"second": "ABCDF", "first": "ACDF", "business": "ACF"}[seat_key]
    carriage = {"business": 1, "first": 2 + crc % 2}.get(seat_key, 4 + crc % 12)
    row, start = 1 + crc // 16 % 17, crc // 7 % len(letters)
    places = [divmod(start + i, len(letters)) for i in range(count)]
    return [f"{carriage:02d}车{row + extra:02d}{letters[col]}号" for extra, col in places]


def _minutes(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


def _sort_key(train: Any, sort: str) -> Any:
    if sort == "duration":
        return (train["minutes"], train["depart"])
    if sort == "price":
        return (train["prices"]["second"], train["depart"])
    return train["depart"]


def train_order_status(order: Any, clock: int) -> str:
    if order["status"] == "unpaid":
        return "待支付"
    if order["status"] == "refunded":
        return "已退票"
    gone = departure_epoch(order["date"], order["depart"]) <= clock
    return "已出行" if gone else "待出行"


def hotel_order_status(order: Any, clock: int) -> str:
    if order["status"] == "unpaid":
        return "待支付"
    return "已离店" if local_date(clock).isoformat() >= order["checkout"] else "待入住"


class Travel(App):
    package = TRAVEL_PACKAGE
    label = Label(zh="旅行", en="Travel")
    domain = "travel"
    theme = AppTheme(primary=BLUE)
    friction = Friction(
        splash="说走就走的旅行",
        popup=Popup(
            "发现新版本", "新版本优化了购票体验，建议更新", "立即更新", toast="已是最新版本"
        ),
    )
    icon_text = "行"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return travel_content.build_content(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        names = rng.sample(PASSENGER_NAMES, k=rng.randint(2, 3))
        passengers = [
            {
                "id": f"pax-{i + 1}",
                "name": name,
                "id_number": id_number(rng),
                "phone": "1" + "".join(str(rng.randrange(10)) for _ in range(10)),
                "kind": "成人",
            }
            for i, name in enumerate(names)
        ]
        return {"passengers": passengers, "orders": self._past_orders(content, passengers, rng)}

    @staticmethod
    def _past_orders(content: Any, passengers: list[Any], rng: random.Random) -> list[Any]:
        orders = []
        for days_ago in (12, 40):
            route = rng.choice(sorted(content["routes"]))
            train = rng.choice(content["routes"][route])
            created = EPOCH_START - (days_ago + 3) * 86400
            order = new_train_order(
                f"ticket-h{days_ago}",
                train,
                "second",
                local_date(EPOCH_START - days_ago * 86400).isoformat(),
                passengers[:1],
                created,
            )
            order.update(status="paid", paid_at=created + 60)
            orders.append(order)
        return orders

    # -- lookups ------------------------------------------------------------------------------
    @staticmethod
    def find_train(content: Any, origin: str, destination: str, number: str) -> Any:
        return next(
            (t for t in trains_between(content, origin, destination) if t["number"] == number),
            None,
        )

    @staticmethod
    def find_order(it: Interaction, order_id: str) -> dict[str, Any]:
        order = next((o for o in it.data["orders"] if o["id"] == order_id), None)
        if order is None:
            it.no_op(f"no order {order_id}")
        return order  # type: ignore[return-value]

    # -- handlers: search form ----------------------------------------------------------------
    @staticmethod
    def choose_city(it: Interaction, target: str, city: str) -> None:
        it.pop()
        it.set_ui(target, city)

    @staticmethod
    def swap_cities(it: Interaction) -> None:
        origin, destination = it.ui("from", "北京"), it.ui("to", "上海")
        it.set_ui("from", destination)
        it.set_ui("to", origin)

    @staticmethod
    def search_trains(it: Interaction) -> None:
        origin, destination = it.ui("from", "北京"), it.ui("to", "上海")
        if origin == destination:
            it.toast("出发地和到达地不能相同")
            it.no_op("origin and destination are the same city")
        it.push("trains", origin=origin, destination=destination, days=int(it.ui("date", 0)))

    @staticmethod
    def shift_day(it: Interaction, days: int) -> None:
        params = it.entry["params"]
        it.replace("trains", origin=params["origin"], destination=params["destination"], days=days)

    @staticmethod
    def change_nights(it: Interaction, delta: int) -> None:
        nights = int(it.ui("nights", 1)) + delta
        if not 1 <= nights <= MAX_NIGHTS:
            it.no_op(f"stays are 1 to {MAX_NIGHTS} nights")
        it.set_ui("nights", nights)

    @staticmethod
    def toggle_passenger(it: Interaction, passenger_id: str) -> None:
        selected = list(it.ui("selected", []))
        if passenger_id in selected:
            selected.remove(passenger_id)
        else:
            selected.append(passenger_id)
        it.set_ui("selected", selected)

    # -- handlers: train orders ---------------------------------------------------------------
    def _booking(self, it: Interaction) -> tuple[Any, str | None, list[Any]]:
        params = it.entry["params"]
        train = self.find_train(
            it.content, params["origin"], params["destination"], params["number"]
        )
        if train is None:
            it.no_op("no such train")
        chosen = [p for p in it.data["passengers"] if p["id"] in it.ui("selected", [])]
        return train, it.ui("seat"), chosen

    def review_order(self, it: Interaction) -> None:
        """提交订单: check the form, then ask for confirmation."""
        train, seat_key, chosen = self._booking(it)
        days = int(it.entry["params"]["days"])
        if seat_key is None:
            it.toast("请选择席别")
            return
        if not chosen:
            it.toast("请选择乘车人")
            return
        if departed(train, it.clock, days):
            it.no_op("the train has left")
        left = availability(train, seat_key, days)
        if not left or left < len(chosen):
            it.toast("余票不足")
            it.no_op("not enough tickets left")
        it.set_ui("dialog", "confirm")

    def place_train_order(self, it: Interaction) -> None:
        train, seat_key, chosen = self._booking(it)
        it.set_ui("dialog", None)
        if seat_key is None or not chosen:
            it.no_op("seat class and passengers are required")
        days = int(it.entry["params"]["days"])
        order = new_train_order(
            it.new_id("ticket"),
            train,
            seat_key,
            travel_date(it.clock, days),
            chosen,
            it.clock,
        )
        it.data["orders"].append(order)
        self.request_payment(it, order)

    @staticmethod
    def request_payment(it: Interaction, order: Any) -> None:
        if order["kind"] == "train":
            merchant = "铁路客户服务中心"
            description = (
                f"{order['train']} {order['from_station']}-{order['to_station']} {order['date']}"
            )
        else:
            merchant = order["hotel"]
            description = f"{order['room']} {order['checkin']} 共{order['nights']}晚"
        it.request_payment(
            amount_cents=order["total_cents"],
            merchant=merchant,
            reference=order["id"],
            description=description,
        )

    def pay_order(self, it: Interaction, order_id: str) -> None:
        order = self.find_order(it, order_id)
        if order["status"] != "unpaid":
            it.no_op("the order is not waiting for payment")
        self.request_payment(it, order)

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order = next((o for o in it.data["orders"] if o["id"] == reference), None)
        if order is None:
            return
        if paid:
            order["status"], order["paid_at"] = "paid", it.clock
            it.toast("支付成功")
        it.reset_to("home")
        it.push("order", order_id=order["id"])

    def refund(self, it: Interaction, order_id: str) -> None:
        order = self.find_order(it, order_id)
        it.set_ui("dialog", None)
        if order["kind"] != "train" or train_order_status(order, it.clock) != "待出行":
            it.no_op("only a paid ticket for a train yet to leave can be refunded")
        fee = refund_fee_cents(order["total_cents"], hours_until(order, it.clock))
        order.update(
            status="refunded",
            refund_fee_cents=fee,
            refund_cents=order["total_cents"] - fee,
            refunded_at=it.clock,
        )
        it.toast("退票成功")

    # -- handlers: hotels and passengers ------------------------------------------------------
    def book_hotel(self, it: Interaction) -> None:
        params = it.entry["params"]
        hotel = it.content["hotel_by_id"][params["hotel_id"]]
        room = next(r for r in hotel["rooms"] if r["key"] == params["room"])
        guest = next((p for p in it.data["passengers"] if p["id"] == it.ui("guest")), None)
        guest = guest or (it.data["passengers"][0] if it.data["passengers"] else None)
        if guest is None:
            it.toast("请添加入住人")
            it.no_op("a hotel booking needs a guest")
        nights = int(params["nights"])
        checkin = travel_date(it.clock, int(params["days"]))
        checkout = (dt.date.fromisoformat(checkin) + dt.timedelta(days=nights)).isoformat()
        order = {
            "id": it.new_id("hotel"),
            "kind": "hotel",
            "hotel_id": hotel["id"],
            "hotel": hotel["name"],
            "city": hotel["city"],
            "room": room["name"],
            "checkin": checkin,
            "checkout": checkout,
            "nights": nights,
            "guest": guest["name"],  # type: ignore[index]
            "price_cents": room["price_cents"],
            "total_cents": room["price_cents"] * nights,
            "status": "unpaid",
            "created_at": it.clock,
            "paid_at": None,
        }
        it.data["orders"].append(order)
        self.request_payment(it, order)

    @staticmethod
    def save_passenger(it: Interaction) -> None:
        name, number, phone = (it.field(f).strip() for f in ("name", "id_number", "phone"))
        if not name:
            it.toast("请填写姓名")
            it.no_op("a passenger needs a name")
        if len(number) != 18 or not number[:17].isdigit() or number[17] not in "0123456789X":
            it.toast("请输入正确的18位身份证号")
            it.no_op("an ID number has 18 characters")
        if len(phone) != 11 or not phone.isdigit():
            it.toast("请输入正确的手机号")
            it.no_op("a phone number has 11 digits")
        if any(p["id_number"] == number for p in it.data["passengers"]):
            it.toast("该乘车人已存在")
            it.no_op("the passenger already exists")
        it.data["passengers"].append(
            {
                "id": it.new_id("pax"),
                "name": name,
                "id_number": number,
                "phone": phone,
                "kind": it.ui("kind", "成人"),
            }
        )
        it.pop()
        it.toast("乘车人已添加")

    # -- screens: home ------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "train")
        build = {
            "train": self._train_tab,
            "hotel": self._hotel_tab,
            "orders": self._orders_tab,
            "mine": self._mine_tab,
        }[tab]
        titles = {"train": "火车票", "hotel": "酒店", "orders": "我的订单", "mine": "我的"}
        return Page(
            titles[tab],
            build(v),
            bottom=Tabs(
                (("train", "火车票"), ("hotel", "酒店"), ("orders", "订单"), ("mine", "我的")),
                tab,
                v.on_select("tab"),
                style="bottom",
            ),
        )

    def _date_chips(self, v: View, key: str, prefix: str) -> Widget:
        clock = int(v.os["clock"])
        chosen = int(v.ui(key, 0))
        chips = []
        for days in range(BOOKING_DAYS):
            label = date_label(travel_date(clock, days), clock)
            chips.append(
                Chip(label, v.set_ui(key, days), selected=days == chosen, id=f"{prefix}_{days}")
            )
        return Wrap(chips, spacing=16, id=f"{prefix}s")

    def _train_tab(self, v: View) -> list[Widget | None]:
        origin, destination = v.ui("from", "北京"), v.ui("to", "上海")
        return [
            Card(
                [
                    Row(
                        [
                            Text(
                                origin,
                                size=64,
                                bold=True,
                                id="from_city",
                                on_tap=v.go("cities", target="from"),
                            ),
                            IconButton(
                                "换",
                                "交换出发地和目的地",
                                v.do(self.swap_cities),
                                id="swap",
                                color=BLUE,
                            ),
                            Text(
                                destination,
                                size=64,
                                bold=True,
                                align="right",
                                id="to_city",
                                on_tap=v.go("cities", target="to"),
                            ),
                        ]
                    ),
                    Text("出发日期", size=36, color=theme.TEXT_SECONDARY),
                    self._date_chips(v, "date", "date"),
                    Button("查询车票", v.do(self.search_trains), id="search_trains"),
                ],
                spacing=24,
            ),
            Card(
                [
                    Text("温馨提示", size=38, bold=True),
                    Text(
                        "车票预售期为14天；开车前8天以上退票不收取退票费。",
                        size=34,
                        color=theme.TEXT_SECONDARY,
                    ),
                ]
            ),
        ]

    def _hotel_tab(self, v: View) -> list[Widget | None]:
        city = v.ui("hotel_city", "北京")
        nights = int(v.ui("nights", 1))
        days = int(v.ui("checkin", 0))
        hotels = [h for h in v.content["hotels"] if h["city"] == city]
        cards: list[Widget | None] = [
            Card(
                [
                    Text(h["name"], size=44, bold=True, max_lines=1),
                    Text(
                        f"{h['grade']} · {'★' * h['stars']}  {h['rating']}分 · "
                        f"{h['reviews']}条点评",
                        size=34,
                        color=PRICE_ORANGE,
                    ),
                    Row(
                        [
                            Text(f"{h['area']}商圈", size=34, color=theme.TEXT_SECONDARY),
                            Text(
                                f"{yuan_short(min(r['price_cents'] for r in h['rooms']))}起",
                                size=44,
                                bold=True,
                                color=PRICE_ORANGE,
                                align="right",
                            ),
                        ]
                    ),
                ],
                on_tap=v.go("hotel", hotel_id=h["id"], days=days, nights=nights),
                id=f"hotel_{h['id']}",
                spacing=8,
            )
            for h in hotels
        ]
        return [
            Card(
                [
                    ListItem(
                        "目的地",
                        trailing=f"{city} ›",
                        on_tap=v.go("cities", target="hotel_city"),
                        id="hotel_city",
                    ),
                    Text("入住日期", size=36, color=theme.TEXT_SECONDARY),
                    self._date_chips(v, "checkin", "checkin"),
                    Row(
                        [
                            Text(f"共{nights}晚", size=44, bold=True, id="nights"),
                            IconButton(
                                "minus",
                                "少住一晚",
                                v.do(self.change_nights, -1),
                                id="nights_minus",
                                color=BLUE,
                            ),
                            IconButton(
                                "plus",
                                "多住一晚",
                                v.do(self.change_nights, 1),
                                id="nights_plus",
                                color=BLUE,
                            ),
                        ]
                    ),
                ],
                spacing=20,
            ),
            Text(f"{city}的酒店", size=40, bold=True, padding=24),
            *cards,
            Spacer(40),
        ]

    def _orders_tab(self, v: View) -> list[Widget | None]:
        clock = int(v.os["clock"])
        items: list[Widget | None] = [Spacer(12)]
        for order in sorted(v.data["orders"], key=lambda o: -o["created_at"]):
            if order["kind"] == "train":
                title = f"{order['train']} {order['from_station']}→{order['to_station']}"
                names = "、".join(p["name"] for p in order["passengers"])
                seat = SEAT_BY_KEY[order["seat"]].name
                subtitle = f"{date_label(order['date'])} {order['depart']} · {seat} · {names}"
                status = train_order_status(order, clock)
            else:
                title = order["hotel"]
                checkin = date_label(order["checkin"])
                subtitle = f"{checkin}入住 · {order['nights']}晚 · {order['room']}"
                status = hotel_order_status(order, clock)
            items.append(
                ListItem(
                    title,
                    subtitle=subtitle,
                    trailing=status,
                    leading="车" if order["kind"] == "train" else "店",
                    leading_color=BLUE if order["kind"] == "train" else PRICE_ORANGE,
                    on_tap=v.go("order", order_id=order["id"]),
                    id=f"order_{order['id']}",
                )
            )
        if len(items) == 1:
            items.append(Text("暂无订单", color=theme.TEXT_SECONDARY, align="center", padding=60))
        items.append(Spacer(40))
        return items

    def _mine_tab(self, v: View) -> list[Widget | None]:
        owner = v.data["passengers"][0]["name"] if v.data["passengers"] else "旅行者"
        return [
            Card(
                [
                    Text(owner, size=56, bold=True, color=theme.WHITE),
                    Text("铁路会员 · 积分 1260", color=theme.WHITE),
                ],
                fill=BLUE,
            ),
            ListItem(
                "常用乘车人",
                trailing=f"{len(v.data['passengers'])}人",
                on_tap=v.go("passengers"),
                id="my_passengers",
            ),
            ListItem("候补订单", trailing="暂无", id="waitlist"),
            ListItem("温馨服务", trailing="重点旅客预约", id="care"),
        ]

    # -- screens: search and booking ----------------------------------------------------------
    @screen("cities")
    def cities(self, v: View) -> Page:
        target = v.params["target"]
        items: list[Widget | None] = [
            ListItem(
                c["name"],
                subtitle=c["station"],
                leading=c["name"],
                leading_color=BLUE,
                on_tap=v.do(self.choose_city, target, c["name"]),
                id=f"city_{i}",
            )
            for i, c in enumerate(v.content["cities"])
        ]
        title = {"from": "选择出发城市", "to": "选择到达城市", "hotel_city": "选择城市"}[target]
        return Page(AppBar(title, on_back=v.back()), [Spacer(12), *items, Spacer(40)])

    @screen("trains")
    def trains(self, v: View) -> Page:
        origin, destination = v.params["origin"], v.params["destination"]
        days = int(v.params["days"])
        clock = int(v.os["clock"])
        sort = v.ui("sort", "depart")
        trains = sorted(
            trains_between(v.content, origin, destination), key=lambda t: _sort_key(t, sort)
        )
        cards: list[Widget | None] = [self._train_card(v, t, days, clock) for t in trains]
        if not cards:
            cards = [
                Text("该线路暂无直达列车", color=theme.TEXT_SECONDARY, align="center", padding=60)
            ]
        header = Column(
            [
                Row(
                    [
                        Button(
                            "前一天",
                            v.do(self.shift_day, days - 1),
                            id="prev_day",
                            style="text",
                            enabled=days > 0,
                            height=100,
                            size=36,
                        ),
                        Text(
                            date_label(travel_date(clock, days), clock),
                            size=42,
                            bold=True,
                            align="center",
                            id="travel_date",
                        ),
                        Button(
                            "后一天",
                            v.do(self.shift_day, days + 1),
                            id="next_day",
                            style="text",
                            enabled=days < BOOKING_DAYS - 1,
                            height=100,
                            size=36,
                        ),
                    ],
                    weights=(1, 1.6, 1),
                ),
                Wrap(
                    [
                        Chip(label, v.set_ui("sort", key), selected=key == sort, id=f"sort_{key}")
                        for key, label in SORTS
                    ]
                ),
            ],
            padding=20,
            spacing=12,
            fill=theme.SURFACE,
        )
        return Page(
            AppBar(f"{origin} → {destination}", on_back=v.back()),
            [Spacer(12), *cards, Spacer(40)],
            header=header,
            spacing=16,
        )

    def _train_card(self, v: View, train: Any, days: int, clock: int) -> Widget:
        gone = departed(train, clock, days)
        ink = theme.TEXT_SECONDARY if gone else theme.TEXT
        seats = []
        for seat in SEATS:
            left = availability(train, seat.key, days)
            if left is None:
                continue
            price = train["prices"][seat.key]
            seats.append(
                Text(
                    f"{seat.name} {yuan_short(price)} {availability_text(left)}",
                    size=32,
                    color=SOLD_OUT if gone or not left else ink,
                    id=f"{train['number']}_{seat.key}",
                )
            )
        arrive = train["arrive"] + ("+1" if train["next_day"] else "")
        return Card(
            [
                Row(
                    [
                        Column(
                            [
                                Text(
                                    train["depart"],
                                    size=56,
                                    bold=True,
                                    color=ink,
                                    id=f"depart_{train['number']}",
                                ),
                                Text(train["from_station"], size=34, color=ink),
                            ]
                        ),
                        Column(
                            [
                                Text(
                                    train["number"],
                                    size=42,
                                    bold=True,
                                    align="center",
                                    color=BLUE if not gone else ink,
                                ),
                                Text(
                                    duration_text(train["minutes"]),
                                    size=32,
                                    align="center",
                                    color=theme.TEXT_SECONDARY,
                                ),
                            ]
                        ),
                        Column(
                            [
                                Text(arrive, size=56, bold=True, align="right", color=ink),
                                Text(train["to_station"], size=34, align="right", color=ink),
                            ]
                        ),
                    ]
                ),
                Row(seats, spacing=12) if not gone else Text("已停止售票", size=34, color=SOLD_OUT),
            ],
            on_tap=None
            if gone
            else v.go(
                "book",
                origin=train["from"],
                destination=train["to"],
                number=train["number"],
                days=days,
            ),
            id=f"train_{train['number']}",
            spacing=14,
        )

    @screen("book")
    def book(self, v: View) -> Page:
        params = v.params
        train = self.find_train(
            v.content, params["origin"], params["destination"], params["number"]
        )
        days = int(params["days"])
        clock = int(v.os["clock"])
        chosen_seat = v.ui("seat")
        selected = v.ui("selected", [])
        seat_cards: list[Widget | None] = []
        for seat in SEATS:
            left = availability(train, seat.key, days)
            if left is None:
                continue
            seat_cards.append(
                Card(
                    [
                        Row(
                            [
                                Text(seat.name, size=44, bold=True),
                                Text(
                                    yuan_short(train["prices"][seat.key]),
                                    size=44,
                                    color=PRICE_ORANGE,
                                    align="center",
                                    id=f"price_{seat.key}",
                                ),
                                Text(
                                    availability_text(left) if left else "无票",
                                    size=38,
                                    align="right",
                                    color=SOLD_OUT if not left else theme.TEXT,
                                ),
                            ]
                        )
                    ],
                    on_tap=v.set_ui("seat", seat.key) if left else None,
                    id=f"seat_{seat.key}",
                    fill=PALE_BLUE if seat.key == chosen_seat else theme.SURFACE,
                )
            )
        toggles = [
            Toggle(
                p["name"],
                p["id"] in selected,
                v.do(self.toggle_passenger, p["id"]),
                id=f"passenger_{p['id']}",
                subtitle=f"{p['kind']} · {mask_id(p['id_number'])}",
            )
            for p in v.data["passengers"]
        ]
        count = len([p for p in v.data["passengers"] if p["id"] in selected])
        total = train["prices"][chosen_seat] * count if chosen_seat else 0
        dialog = None
        if v.ui("dialog") == "confirm" and chosen_seat:
            names = "、".join(p["name"] for p in v.data["passengers"] if p["id"] in selected)
            dialog = Dialog(
                "请核对以下信息",
                message=(
                    f"{date_label(travel_date(clock, days))} {train['number']}次 "
                    f"{train['from_station']}({train['depart']}开)→{train['to_station']}\n"
                    f"{SEAT_BY_KEY[chosen_seat].name} · {names} · 共{yuan_short(total)}"
                ),
                buttons=[
                    Button(
                        "返回修改", v.set_ui("dialog", None), id="cancel_confirm", style="secondary"
                    ),
                    Button("确认", v.do(self.place_train_order), id="confirm_order"),
                ],
            )
        return Page(
            AppBar(f"{train['number']} 预订", on_back=v.back()),
            [
                Card(
                    [
                        Text(
                            f"{date_label(travel_date(clock, days), clock)}  {train['number']}",
                            size=40,
                            bold=True,
                        ),
                        Text(
                            f"{train['from_station']} {train['depart']} → {train['to_station']} "
                            f"{train['arrive']}  历时{duration_text(train['minutes'])}",
                            size=38,
                        ),
                    ],
                    fill=PALE_BLUE,
                    spacing=8,
                ),
                Text("选择席别", size=38, bold=True),
                *seat_cards,
                Text("乘车人", size=38, bold=True),
                *toggles,
                Button(
                    "添加乘车人",
                    v.go("passenger_edit"),
                    id="add_passenger",
                    style="secondary",
                    height=110,
                ),
                Spacer(20),
            ],
            bottom=Column(
                [
                    Row(
                        [
                            Text(
                                f"合计 {yuan_short(total)}",
                                size=48,
                                bold=True,
                                color=PRICE_ORANGE,
                                padding=20,
                                id="total",
                            ),
                            Button(
                                "提交订单", v.do(self.review_order), id="submit_order", height=120
                            ),
                        ],
                        weights=(1.3, 1),
                    )
                ],
                padding=20,
                fill=theme.SURFACE,
            ),
            body_padding=30,
            spacing=20,
            overlay=dialog,
        )

    @screen("passengers")
    def passengers(self, v: View) -> Page:
        items: list[Widget | None] = [
            ListItem(
                p["name"],
                subtitle=f"{p['kind']} · {mask_id(p['id_number'])}",
                trailing=p["phone"][:3] + "****" + p["phone"][-4:],
                leading=p["name"],
                leading_color=BLUE,
                id=f"pax_{p['id']}",
            )
            for p in v.data["passengers"]
        ]
        return Page(
            AppBar("常用乘车人", on_back=v.back()),
            [Spacer(12), *items, Spacer(40)],
            bottom=Column(
                [Button("添加乘车人", v.go("passenger_edit"), id="add_passenger")],
                padding=30,
                fill=theme.SURFACE,
            ),
        )

    @screen("passenger_edit")
    def passenger_edit(self, v: View) -> Page:
        kind = v.ui("kind", "成人")
        return Page(
            AppBar("添加乘车人", on_back=v.back()),
            [
                TextField("name", v.field("name"), "姓名（与证件一致）", on_focus=v.focus("name")),
                TextField(
                    "id_number",
                    v.field("id_number"),
                    "居民身份证号码",
                    on_focus=v.focus("id_number"),
                ),
                TextField("phone", v.field("phone"), "手机号码", on_focus=v.focus("phone")),
                Text("旅客类型", color=theme.TEXT_SECONDARY),
                Wrap(
                    [
                        Chip(k, v.set_ui("kind", k), selected=k == kind, id=f"kind_{i}")
                        for i, k in enumerate(KINDS)
                    ]
                ),
                Button("保存", v.do(self.save_passenger), id="save_passenger"),
            ],
            body_padding=40,
            spacing=30,
        )

    # -- screens: hotels ----------------------------------------------------------------------
    @screen("hotel")
    def hotel(self, v: View) -> Page:
        hotel = v.content["hotel_by_id"][v.params["hotel_id"]]
        days, nights = int(v.params["days"]), int(v.params["nights"])
        clock = int(v.os["clock"])
        checkin = travel_date(clock, days)
        checkout = travel_date(clock, days + nights)
        rooms: list[Widget | None] = [
            Card(
                [
                    Row(
                        [
                            Column(
                                [
                                    Text(r["name"], size=44, bold=True),
                                    Text(r["desc"], size=32, color=theme.TEXT_SECONDARY),
                                ]
                            ),
                            Text(
                                yuan_short(r["price_cents"]),
                                size=48,
                                bold=True,
                                color=PRICE_ORANGE,
                                align="right",
                                id=f"room_price_{r['key']}",
                            ),
                            Button(
                                "预订",
                                v.go(
                                    "hotel_book",
                                    hotel_id=hotel["id"],
                                    room=r["key"],
                                    days=days,
                                    nights=nights,
                                ),
                                id=f"book_{r['key']}",
                                height=96,
                                size=36,
                            ),
                        ],
                        weights=(2.2, 1, 0.9),
                    )
                ],
                id=f"room_{r['key']}",
            )
            for r in hotel["rooms"]
        ]
        return Page(
            AppBar(hotel["name"], on_back=v.back()),
            [
                Card(
                    [
                        Text(hotel["name"], size=48, bold=True),
                        Text(
                            f"{hotel['grade']} · {'★' * hotel['stars']}  {hotel['rating']}分",
                            size=36,
                            color=PRICE_ORANGE,
                        ),
                        Text(
                            f"{hotel['city']} · {hotel['area']}商圈",
                            size=36,
                            color=theme.TEXT_SECONDARY,
                        ),
                        Text(
                            f"{date_label(checkin)} 入住 — {date_label(checkout)} 离店 · "
                            f"共{nights}晚",
                            size=36,
                            id="stay",
                        ),
                    ],
                    spacing=10,
                ),
                Text("房型（每晚价格）", size=38, bold=True),
                *rooms,
                Spacer(20),
            ],
            body_padding=30,
            spacing=20,
        )

    @screen("hotel_book")
    def hotel_book(self, v: View) -> Page:
        hotel = v.content["hotel_by_id"][v.params["hotel_id"]]
        room = next(r for r in hotel["rooms"] if r["key"] == v.params["room"])
        days, nights = int(v.params["days"]), int(v.params["nights"])
        clock = int(v.os["clock"])
        passengers = v.data["passengers"]
        guest = v.ui("guest", passengers[0]["id"] if passengers else None)
        total = room["price_cents"] * nights
        return Page(
            AppBar("填写订单", on_back=v.back()),
            [
                Card(
                    [
                        Text(hotel["name"], size=44, bold=True),
                        Text(
                            f"{room['name']} · {room['desc']}", size=34, color=theme.TEXT_SECONDARY
                        ),
                        Text(
                            f"{date_label(travel_date(clock, days))} — "
                            f"{date_label(travel_date(clock, days + nights))} · 共{nights}晚",
                            size=36,
                        ),
                    ],
                    spacing=8,
                    fill=PALE_BLUE,
                ),
                Text("入住人", size=38, bold=True),
                Wrap(
                    [
                        Chip(
                            p["name"],
                            v.set_ui("guest", p["id"]),
                            selected=p["id"] == guest,
                            id=f"guest_{p['id']}",
                        )
                        for p in passengers
                    ]
                ),
                Card(
                    [
                        Row(
                            [
                                Text("房费"),
                                Text(
                                    f"{yuan_short(room['price_cents'])} × {nights}晚", align="right"
                                ),
                            ]
                        )
                    ]
                ),
            ],
            bottom=Column(
                [
                    Row(
                        [
                            Text(
                                f"合计 {yuan_short(total)}",
                                size=48,
                                bold=True,
                                color=PRICE_ORANGE,
                                padding=20,
                                id="total",
                            ),
                            Button(
                                "提交订单", v.do(self.book_hotel), id="submit_hotel", height=120
                            ),
                        ],
                        weights=(1.3, 1),
                    )
                ],
                padding=20,
                fill=theme.SURFACE,
            ),
            body_padding=30,
            spacing=20,
        )

    # -- screens: orders ----------------------------------------------------------------------
    @screen("order")
    def order(self, v: View) -> Page:
        order = next((o for o in v.data["orders"] if o["id"] == v.params["order_id"]), None)
        if order is None:
            return Page(AppBar("订单详情", on_back=v.back()), [Text("订单不存在", padding=40)])
        clock = int(v.os["clock"])
        if order["kind"] == "train":
            body, status = self._train_order_body(order), train_order_status(order, clock)
        else:
            body, status = self._hotel_order_body(order), hotel_order_status(order, clock)
        actions: list[Widget | None] = []
        if order["status"] == "unpaid":
            actions.append(Button("去支付", v.do(self.pay_order, order["id"]), id="pay_order"))
        if order["kind"] == "train" and status == "待出行":
            actions.append(
                Button("退票", v.set_ui("dialog", "refund"), id="refund", style="secondary")
            )
        dialog = None
        if v.ui("dialog") == "refund" and order["kind"] == "train":
            fee = refund_fee_cents(order["total_cents"], hours_until(order, clock))
            dialog = Dialog(
                "确认退票？",
                message=(
                    f"{order['train']}次 {date_label(order['date'])} {order['depart']}开\n"
                    f"退票费 {yuan_short(fee)}，应退 {yuan_short(order['total_cents'] - fee)}，"
                    "1-7个工作日原路退回"
                ),
                buttons=[
                    Button(
                        "暂不退票", v.set_ui("dialog", None), id="keep_ticket", style="secondary"
                    ),
                    Button(
                        "确认退票",
                        v.do(self.refund, order["id"]),
                        id="confirm_refund",
                        style="danger",
                    ),
                ],
            )
        return Page(
            AppBar("订单详情", on_back=v.back()),
            [
                Card(
                    [
                        Text(status, size=60, bold=True, id="order_status"),
                        Text(f"订单号 {order['id']}", size=32, color=theme.TEXT_SECONDARY),
                    ],
                    fill=PALE_BLUE,
                ),
                *body,
                *actions,
            ],
            body_padding=30,
            spacing=24,
            overlay=dialog,
        )

    @staticmethod
    def _train_order_body(order: Any) -> list[Widget | None]:
        tickets = [
            Row(
                [
                    Text(p["name"], size=40),
                    Text(seat, size=40, align="center"),
                    Text(yuan_short(order["price_cents"]), size=40, align="right"),
                ]
            )
            for p, seat in zip(order["passengers"], order["seats"], strict=True)
        ]
        refund = None
        if order["status"] == "refunded":
            refund = Text(
                f"已退票：退票费 {yuan_short(order['refund_fee_cents'])}，应退 "
                f"{yuan_short(order['refund_cents'])}",
                color=PRICE_ORANGE,
            )
        return [
            Card(
                [
                    Text(f"{date_label(order['date'])}  {order['train']}次", size=44, bold=True),
                    Text(
                        f"{order['from_station']} {order['depart']} → {order['to_station']} "
                        f"{order['arrive']}",
                        size=40,
                    ),
                    Text(SEAT_BY_KEY[order["seat"]].name, size=36, color=theme.TEXT_SECONDARY),
                    *tickets,
                    Text(
                        f"合计 {yuan_short(order['total_cents'])}",
                        size=44,
                        bold=True,
                        color=PRICE_ORANGE,
                        id="order_total",
                    ),
                    refund,
                ],
                spacing=12,
            )
        ]

    @staticmethod
    def _hotel_order_body(order: Any) -> list[Widget | None]:
        return [
            Card(
                [
                    Text(order["hotel"], size=44, bold=True),
                    Text(f"{order['room']} · 入住人 {order['guest']}", size=38),
                    Text(
                        f"{date_label(order['checkin'])} — {date_label(order['checkout'])} · "
                        f"共{order['nights']}晚",
                        size=38,
                    ),
                    Text(
                        f"合计 {yuan_short(order['total_cents'])}",
                        size=44,
                        bold=True,
                        color=PRICE_ORANGE,
                        id="order_total",
                    ),
                ],
                spacing=12,
            )
        ]

    # -- direct tools -------------------------------------------------------------------------
    @tool(
        "search_trains",
        "Show the trains between two cities (Chinese names such as 北京, 上海) on a date "
        "days_ahead days from today (0-13).",
        {"from_city": str, "to_city": str, "days_ahead": int},
    )
    def search_trains_tool(
        self, it: Interaction, from_city: str, to_city: str, days_ahead: int
    ) -> str:
        if not 0 <= days_ahead < BOOKING_DAYS:
            it.no_op(f"days_ahead must be 0 to {BOOKING_DAYS - 1}")
        trains = trains_between(it.content, from_city, to_city)
        if not trains:
            it.no_op(f"no direct trains from {from_city!r} to {to_city!r}")
        it.reset_to("home")
        it.push("trains", origin=from_city, destination=to_city, days=days_ahead)
        return "; ".join(f"{t['number']} {t['depart']}-{t['arrive']}" for t in trains)


def id_number(rng: random.Random) -> str:
    region = rng.choice(("110105", "310104", "440106", "330106", "420106", "510107"))
    birthday = f"{rng.randrange(1965, 2004)}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}"
    return (
        region
        + birthday
        + "".join(str(rng.randrange(10)) for _ in range(3))
        + rng.choice("0123456789X")
    )


def mask_id(number: str) -> str:
    return number[:4] + "*" * 10 + number[-4:]


def hours_until(order: Any, clock: int) -> float:
    return (departure_epoch(order["date"], order["depart"]) - clock) / 3600


def new_train_order(
    order_id: str,
    train: Any,
    seat_key: str,
    date: str,
    passengers: Sequence[Any],
    created_at: int,
) -> dict[str, Any]:
    price = int(train["prices"][seat_key])
    return {
        "id": order_id,
        "kind": "train",
        "train": train["number"],
        "from": train["from"],
        "to": train["to"],
        "from_station": train["from_station"],
        "to_station": train["to_station"],
        "date": date,
        "depart": train["depart"],
        "arrive": train["arrive"],
        "seat": seat_key,
        "passengers": [{"id": p["id"], "name": p["name"]} for p in passengers],
        "seats": seat_numbers(order_id, seat_key, len(passengers)),
        "price_cents": price,
        "total_cents": price * len(passengers),
        "status": "unpaid",
        "created_at": created_at,
        "paid_at": None,
    }
