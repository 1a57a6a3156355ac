"""Travel's train booking: the search form (cities, date, swap), the timetable with sorting
and availability, the booking page with seats and passengers, and the passengers' list and form.
"""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.travel.base import (
    BLUE,
    BOOKING_DAYS,
    KINDS,
    PALE_BLUE,
    PRICE_ORANGE,
    SOLD_OUT,
    SORTS,
    TravelBase,
    availability,
    availability_text,
    date_label,
    departed,
    duration_text,
    mask_id,
    new_train_order,
    train_sort_key,
    trains_between,
    travel_date,
)
from phonebuddy.phoneworld.apps.travel.content import SEAT_BY_KEY, SEATS
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan_short
from phonebuddy.phoneworld.ui.widgets import (
    AppBar,
    Button,
    Card,
    Chip,
    Column,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)


class TrainScreens(TravelBase):
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
            trains_between(v.content, origin, destination), key=lambda t: train_sort_key(t, sort)
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
            dialog = v.confirm(
                "请核对以下信息",
                v.do(self.place_train_order),
                message=f"{date_label(travel_date(clock, days))} {train['number']}次 "
                f"{train['from_station']}({train['depart']}开)→{train['to_station']}\n"
                f"{SEAT_BY_KEY[chosen_seat].name} · {names} · 共{yuan_short(total)}",
                label="确认",
                confirm_id="confirm_order",
                cancel_label="返回修改",
                cancel_id="cancel_confirm",
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
