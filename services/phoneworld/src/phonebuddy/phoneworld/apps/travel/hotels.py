"""Travel's hotels: the hotel tab (city, dates, nights), a hotel's page with its rooms, and
the booking form.
"""

from __future__ import annotations

import datetime as dt

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.travel.base import (
    BLUE,
    MAX_NIGHTS,
    PALE_BLUE,
    PRICE_ORANGE,
    TravelBase,
    date_label,
    travel_date,
)
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
    Widget,
    Wrap,
)


class HotelScreens(TravelBase):
    @staticmethod
    def change_nights(it: Interaction, delta: int) -> None:
        nights = int(it.ui("nights", 1)) + delta
        if not 1 <= nights <= MAX_NIGHTS:
            it.no_op(f"stays are 1 to {MAX_NIGHTS} nights")
        it.set_ui("nights", nights)

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
