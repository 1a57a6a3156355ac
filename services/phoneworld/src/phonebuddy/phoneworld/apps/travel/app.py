"""旅行 (Travel): a 12306/Ctrip-like app. Train tickets (from/to city, a date within two
weeks, results with times, durations, seat classes, prices and availability; seat, passengers,
confirmation, payment through the wallet), hotels (city, dates, nights, room types), my orders
with ticket refunds (the 12306 fee rules), and saved passengers.

A refund marks the order refunded with its fee and amount; the money itself is not sent back to
the wallet (the app says it returns within 1-7 working days).

The screens live in `trains`, `hotels` and `orders`, whose classes this one combines; what
they share is in `base`.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import Label, View, screen, tool
from phonebuddy.phoneworld.apps.travel import content as travel_content
from phonebuddy.phoneworld.apps.travel.base import (
    BLUE,
    BOOKING_DAYS,
    PASSENGER_NAMES,
    TRAVEL_PACKAGE,
    id_number,
    new_train_order,
    trains_between,
)
from phonebuddy.phoneworld.apps.travel.hotels import HotelScreens
from phonebuddy.phoneworld.apps.travel.orders import OrderScreens
from phonebuddy.phoneworld.apps.travel.trains import TrainScreens
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import Card, ListItem, Page, Tabs, Text, Widget


class Travel(TrainScreens, HotelScreens, OrderScreens):
    package = TRAVEL_PACKAGE
    label = Label(zh="旅行", en="Travel")
    domain = "travel"
    theme = AppTheme(primary=BLUE)
    friction = Friction(
        splash="说走就走的旅行",
        popup=Popup(
            "发现新版本", "新版本优化了购票体验，建议更新", "立即更新", toast="已是最新版本"
        ),
        login_screens=("book", "hotel_book"),
        loading_screens=("trains",),
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
