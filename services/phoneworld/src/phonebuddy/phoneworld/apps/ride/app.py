"""打车 (Ride): a DiDi-like ride-hailing app. Search a destination, compare 快车/专车/拼车
estimates, call a car; a driver is assigned and the trip runs on the simulated clock (接驾中 →
行程中 → 待支付), then it is paid through the wallet. Trip history and saved places (家/公司).

Trip phases are derived from `requested_at` and the clock, so waiting (the `wait` action or
any other actions) moves a trip along deterministically; only requesting, cancelling and
paying change the stored data.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import zlib
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.apps.ride import content as ride_content
from phonebuddy.phoneworld.apps.ride.content import (
    CAR_BY_KEY,
    CAR_BY_NAME,
    CAR_TYPES,
    distance_km,
    fare_cents,
    minutes_for,
)
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, yuan_short
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    AppBar,
    Button,
    Card,
    Column,
    Image,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
)

RIDE_PACKAGE = "com.pw.ride"
ORANGE: Color = (255, 102, 0)
PALE_ORANGE: Color = (255, 240, 229)
MAP_GREEN: Color = (120, 170, 140)
GREEN_DOT: Color = (0, 168, 107)
SAVED = (("home", "家"), ("company", "公司"))
PHASE_TEXT = {
    "pickup": "司机正在赶来",
    "riding": "行程中",
    "arrived": "已到达目的地",
    "paid": "行程已完成",
    "cancelled": "行程已取消",
}


def date_text(epoch: int) -> str:
    return dt.datetime.fromtimestamp(epoch, BEIJING).strftime("%m月%d日 %H:%M")


def trip_phase(trip: Any, now: int) -> tuple[str, int]:
    """The phase of a trip at `now`, and the seconds until the next phase (0 when final)."""
    if trip["status"] in ("paid", "cancelled"):
        return trip["status"], 0
    elapsed = now - int(trip["requested_at"])
    if elapsed < trip["pickup_s"]:
        return "pickup", trip["pickup_s"] - elapsed
    if elapsed < trip["pickup_s"] + trip["ride_s"]:
        return "riding", trip["pickup_s"] + trip["ride_s"] - elapsed
    return "arrived", 0


def new_trip(
    trip_id: str, content: Any, to_id: str, car_key: str, requested_at: int
) -> dict[str, Any]:
    """A trip from where the user stands to `to_id`; driver and timings follow from its id."""
    here, there = content["here"], content["by_id"][to_id]
    km = distance_km(here, there)
    car = CAR_BY_KEY[car_key]
    crc = zlib.crc32(trip_id.encode())
    drivers = content["drivers"]
    return {
        "id": trip_id,
        "car_type": car.name,
        "from_id": here["id"],
        "from": here["name"],
        "to_id": there["id"],
        "to": there["name"],
        "distance_km": km,
        "fare_cents": fare_cents(car, km),
        "driver": dict(drivers[crc % len(drivers)]),
        "requested_at": requested_at,
        # Simulated time runs faster than a real trip: minutes, not half an hour.
        "pickup_s": 60 + (crc % 3) * 60,
        "ride_s": int(min(300, max(90, 60 + km * 6))),
        "status": "ongoing",
        "paid_at": None,
    }


class Ride(App):
    package = RIDE_PACKAGE
    label = Label(zh="打车", en="Ride")
    domain = "transport"
    theme = AppTheme(primary=ORANGE)
    friction = Friction(
        splash="安全出行，一键叫车",
        popup=Popup("出行券待领取", "3 张打车券可领，最高减 ¥15", "立即领取", toast="已放入券包"),
    )
    icon_text = "车"
    permissions = ("location",)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return ride_content.build_content(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        places = [p for p in content["places"] if p["id"] != content["here"]["id"]]
        home, company, *visited = rng.sample(places, k=6)
        trips = []
        for days_ago, place in zip((3, 6, 11, 17), visited, strict=True):
            requested = EPOCH_START - days_ago * 86400 + rng.randrange(8, 22) * 3600
            car = rng.choice(("express", "express", "premium", "pool"))
            trip = new_trip(f"trip-h{days_ago}", content, place["id"], car, requested)
            trip.update(status="paid", paid_at=requested + 1800)
            trips.append(trip)
        return {
            "saved_places": {
                "home": home["id"] if rng.random() < 0.6 else None,
                "company": company["id"] if rng.random() < 0.6 else None,
            },
            "trips": trips,
        }

    # -- lookups ------------------------------------------------------------------------------
    @staticmethod
    def find_trip(it: Interaction, trip_id: str) -> dict[str, Any]:
        trip = next((t for t in it.data["trips"] if t["id"] == trip_id), None)
        if trip is None:
            it.no_op(f"no trip {trip_id}")
        return trip  # type: ignore[return-value]

    @staticmethod
    def active_trip(data: Any) -> Any:
        return next((t for t in data["trips"] if t["status"] == "ongoing"), None)

    @staticmethod
    def located(v: View) -> bool:
        return bool(v.os["permissions"].get(RIDE_PACKAGE, {}).get("location"))

    # -- handlers -----------------------------------------------------------------------------
    def request_ride(self, it: Interaction, to_id: str, car_key: str) -> dict[str, Any]:
        if to_id not in it.content["by_id"] or car_key not in CAR_BY_KEY:
            it.no_op("unknown destination or car type")
        if to_id == it.content["here"]["id"]:
            it.no_op("the destination is where you are")
        if self.active_trip(it.data) is not None:
            it.toast("您有进行中的行程")
            it.no_op("a trip is already in progress")
        trip = new_trip(it.new_id("trip"), it.content, to_id, car_key, it.clock)
        it.data["trips"].append(trip)
        it.reset_to("home")
        it.push("trip", trip_id=trip["id"])
        it.toast(f"{trip['driver']['name']}已接单")
        return trip

    def cancel_trip(self, it: Interaction, trip_id: str) -> None:
        trip = self.find_trip(it, trip_id)
        it.set_ui("dialog", None)
        if trip_phase(trip, it.clock)[0] != "pickup":
            it.no_op("only a trip waiting for its driver can be cancelled")
        trip["status"] = "cancelled"
        it.toast("行程已取消")

    def pay_trip(self, it: Interaction, trip_id: str) -> None:
        trip = self.find_trip(it, trip_id)
        if trip_phase(trip, it.clock)[0] != "arrived":
            it.no_op("the trip is not waiting for payment")
        it.request_payment(
            amount_cents=trip["fare_cents"],
            merchant=f"打车-{trip['car_type']}",
            reference=trip["id"],
            description=f"{trip['from']} → {trip['to']}",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        trip = next((t for t in it.data["trips"] if t["id"] == reference), None)
        if trip is None:
            return
        if paid:
            trip["status"], trip["paid_at"] = "paid", it.clock
            it.toast("支付成功，感谢乘坐")
        it.reset_to("home")
        it.push("trip", trip_id=trip["id"])

    @staticmethod
    def pick_place(it: Interaction, purpose: str, place_id: str) -> None:
        """A search result was tapped: ride there, or save it as home/company."""
        if purpose == "ride":
            it.push("confirm", to_id=place_id)
            return
        it.data["saved_places"][purpose] = place_id
        it.pop()
        it.toast("常用地址已保存")

    # -- screens ------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "home")
        body = {"home": self._home_tab, "trips": self._trips_tab, "mine": self._mine_tab}[tab](v)
        titles = {"home": "打车", "trips": "我的行程", "mine": "我的"}
        return Page(
            titles[tab],
            body,
            bottom=Tabs(
                (("home", "打车"), ("trips", "行程"), ("mine", "我的")),
                tab,
                v.on_select("tab"),
                style="bottom",
            ),
        )

    def _home_tab(self, v: View) -> list[Widget | None]:
        here = v.content["here"]
        located = self.located(v)
        where = f"当前位置：{here['name']}附近" if located else "定位未开启 · 使用默认上车点"
        shortcuts: list[Widget | None] = []
        for key, label in SAVED:
            place = v.content["by_id"].get(v.data["saved_places"][key])
            shortcuts.append(
                Button(
                    f"{label} · {place['name']}" if place else f"设置{label}",
                    v.go("confirm", to_id=place["id"]) if place else v.go("search", purpose=key),
                    id=f"shortcut_{key}",
                    style="secondary",
                    height=110,
                    size=36,
                )
            )
        active = self.active_trip(v.data)
        active_card = None
        if active is not None:
            phase, _ = trip_phase(active, int(v.os["clock"]))
            active_card = Card(
                [
                    Text("进行中的行程", size=36, color=ORANGE, bold=True),
                    Text(f"{PHASE_TEXT[phase]} · 去往{active['to']}", size=42),
                ],
                on_tap=v.go("trip", trip_id=active["id"]),
                id="active_trip",
                fill=PALE_ORANGE,
            )
        return [
            Image(where, height=760, color=MAP_GREEN, id="map"),
            Column(
                [
                    active_card,
                    Card(
                        [
                            Text(f"● {here['name']}附近 上车", size=40, color=GREEN_DOT),
                            ListItem(
                                "您要去哪儿？",
                                leading="终",
                                leading_color=ORANGE,
                                on_tap=v.go("search", purpose="ride"),
                                id="where_to",
                            ),
                            Row(shortcuts, spacing=24),
                        ],
                        spacing=20,
                    ),
                ],
                padding=30,
                spacing=24,
            ),
        ]

    def _trips_tab(self, v: View) -> list[Widget | None]:
        now = int(v.os["clock"])
        items: list[Widget | None] = [Spacer(12)]
        for trip in sorted(v.data["trips"], key=lambda t: -t["requested_at"]):
            phase, _ = trip_phase(trip, now)
            items.append(
                ListItem(
                    f"{trip['from']} → {trip['to']}",
                    subtitle=f"{date_text(trip['requested_at'])} · {trip['car_type']}",
                    trailing=f"{PHASE_TEXT[phase][-3:]} {yuan_short(trip['fare_cents'])}",
                    leading=trip["car_type"][:1],
                    leading_color=ORANGE,
                    on_tap=v.go("trip", trip_id=trip["id"]),
                    id=f"trip_{trip['id']}",
                )
            )
        if len(items) == 1:
            items.append(Text("还没有行程", color=theme.TEXT_SECONDARY, align="center", padding=60))
        items.append(Spacer(40))
        return items

    def _mine_tab(self, v: View) -> list[Widget | None]:
        saved: list[Widget | None] = []
        for key, label in SAVED:
            place = v.content["by_id"].get(v.data["saved_places"][key])
            saved.append(
                ListItem(
                    label,
                    subtitle=f"{place['district']} · {place['address']}" if place else "",
                    trailing=place["name"] if place else "去设置",
                    leading=label,
                    leading_color=ORANGE,
                    on_tap=v.go("search", purpose=key),
                    id=f"saved_{key}",
                )
            )
        return [
            Text("常用地址", size=40, bold=True, padding=30),
            *saved,
            Text("更多服务", size=40, bold=True, padding=30),
            ListItem("安全中心", trailing="紧急联系人", id="safety"),
            ListItem("客服", trailing="7×24小时", id="service"),
        ]

    @screen("search")
    def search(self, v: View) -> Page:
        purpose = v.params["purpose"]
        query = v.field("query").strip()
        here = v.content["here"]
        places = [p for p in v.content["places"] if p["id"] != here["id"]]
        if query:
            places = [
                p for p in places if any(query in p[k] for k in ("name", "address", "district"))
            ]
        else:
            places.sort(key=lambda p: distance_km(here, p))
        results: list[Widget | None] = [
            ListItem(
                p["name"],
                subtitle=f"{p['district']} · {p['address']}",
                trailing=f"{distance_km(here, p)}km",
                on_tap=v.do(self.pick_place, purpose, p["id"]),
                id=f"place_{p['id']}",
            )
            for p in places
        ]
        if not results:
            results = [
                Text("没有找到相关地点", color=theme.TEXT_SECONDARY, align="center", padding=60)
            ]
        title = {"ride": "您要去哪儿", "home": "设置家的地址", "company": "设置公司地址"}[purpose]
        return Page(
            AppBar(title, on_back=v.back()),
            [
                Text(
                    "推荐地点" if not query else "搜索结果",
                    size=36,
                    color=theme.TEXT_SECONDARY,
                    padding=24,
                ),
                *results,
                Spacer(40),
            ],
            header=Column(
                [
                    TextField(
                        "query",
                        v.field("query"),
                        "搜索地点、小区、写字楼",
                        on_focus=v.focus("query"),
                    )
                ],
                padding=24,
                fill=theme.SURFACE,
            ),
        )

    @screen("confirm")
    def confirm(self, v: View) -> Page:
        here, there = v.content["here"], v.content["by_id"][v.params["to_id"]]
        km = distance_km(here, there)
        chosen = CAR_BY_KEY[v.ui("car_type", "express")]
        cars: list[Widget | None] = [
            Card(
                [
                    Row(
                        [
                            Column(
                                [
                                    Text(car.name, size=46, bold=True),
                                    Text(car.slogan, size=32, color=theme.TEXT_SECONDARY),
                                ]
                            ),
                            Text(
                                f"预估{yuan_short(fare_cents(car, km))}",
                                size=44,
                                bold=True,
                                color=ORANGE,
                                align="right",
                                id=f"price_{car.key}",
                            ),
                        ],
                        weights=(1.4, 1),
                    )
                ],
                on_tap=v.set_ui("car_type", car.key),
                id=f"car_{car.key}",
                fill=PALE_ORANGE if car is chosen else theme.SURFACE,
            )
            for car in CAR_TYPES
        ]
        return Page(
            AppBar("确认呼叫", on_back=v.back()),
            [
                Image(f"{here['name']} → {there['name']}", height=520, color=MAP_GREEN),
                Card(
                    [
                        Text(f"● {here['name']}附近", color=GREEN_DOT, size=40),
                        Text(f"● {there['name']}", color=ORANGE, size=40, id="destination"),
                        Text(
                            f"全程约{km}公里 · 预计{minutes_for(km)}分钟",
                            size=34,
                            color=theme.TEXT_SECONDARY,
                            id="route",
                        ),
                    ],
                    spacing=10,
                ),
                *cars,
                Spacer(20),
            ],
            bottom=Column(
                [
                    Button(
                        f"呼叫{chosen.name}",
                        v.do(self.request_ride, there["id"], chosen.key),
                        id="call_ride",
                    )
                ],
                padding=30,
                fill=theme.SURFACE,
            ),
            body_padding=30,
            spacing=20,
        )

    @screen("trip")
    def trip(self, v: View) -> Page:
        trip = next((t for t in v.data["trips"] if t["id"] == v.params["trip_id"]), None)
        if trip is None:
            return Page(AppBar("行程", on_back=v.back()), [Text("行程不存在", padding=40)])
        phase, remaining = trip_phase(trip, int(v.os["clock"]))
        minutes = math.ceil(remaining / 60)
        detail = {
            "pickup": f"预计{minutes}分钟后到达上车点，请提前到路边等候",
            "riding": f"距{trip['to']}还有约{minutes}分钟",
            "arrived": "请确认费用并完成支付",
            "paid": f"已支付 {yuan_short(trip['fare_cents'])}，感谢乘坐",
            "cancelled": "本次行程未产生费用",
        }[phase]
        driver = trip["driver"]
        actions: list[Widget | None] = []
        if phase == "pickup":
            actions.append(
                Button(
                    "取消行程", v.set_ui("dialog", "cancel"), id="cancel_trip", style="secondary"
                )
            )
        if phase == "arrived":
            actions.append(
                Button(
                    f"确认支付 {yuan_short(trip['fare_cents'])}",
                    v.do(self.pay_trip, trip["id"]),
                    id="pay_trip",
                )
            )
        dialog = None
        if v.ui("dialog") == "cancel":
            dialog = v.confirm(
                "确定取消行程吗？",
                v.do(self.cancel_trip, trip["id"]),
                message=f"{driver['name']}正在赶来，频繁取消会影响叫车",
                label="确定取消",
                confirm_id="confirm_cancel",
                danger=True,
                cancel_label="再等等",
                cancel_id="keep_trip",
            )
        fare_label = "实付" if phase == "paid" else "费用" if phase == "arrived" else "预估"
        return Page(
            AppBar(PHASE_TEXT[phase], on_back=v.back()),
            [
                Image(f"{trip['from']} → {trip['to']}", height=420, color=MAP_GREEN),
                Card(
                    [
                        Text(PHASE_TEXT[phase], size=56, bold=True, id="trip_status"),
                        Text(detail, color=theme.TEXT_SECONDARY, id="trip_detail"),
                    ],
                    spacing=10,
                ),
                Card(
                    [
                        Text(driver["plate"], size=60, bold=True, id="plate"),
                        Text(driver["car"], size=38, color=theme.TEXT_SECONDARY),
                        Text(
                            f"{driver['name']}  ★{driver['rating']}  已服务{driver['trips']}单",
                            size=38,
                        ),
                    ],
                    spacing=8,
                    id="driver",
                ),
                Card(
                    [
                        Text(f"● {trip['from']}", color=GREEN_DOT),
                        Text(f"● {trip['to']}", color=ORANGE),
                        Text(
                            f"{trip['car_type']} · {trip['distance_km']}公里 · "
                            f"{date_text(trip['requested_at'])}",
                            size=34,
                            color=theme.TEXT_SECONDARY,
                        ),
                        Text(
                            f"{fare_label} {yuan_short(trip['fare_cents'])}",
                            size=48,
                            bold=True,
                            color=ORANGE,
                            id="trip_fare",
                        ),
                    ],
                    spacing=10,
                ),
                *actions,
            ],
            body_padding=30,
            spacing=24,
            overlay=dialog,
        )

    # -- direct tools -------------------------------------------------------------------------
    @tool(
        "request_ride",
        "Call a car from where you are to a destination (a place name as shown in search) with "
        "car_type 快车, 专车 or 拼车. Payment happens in the app when the trip ends.",
        {"destination": str, "car_type": str},
    )
    def request_ride_tool(self, it: Interaction, destination: str, car_type: str) -> str:
        car = CAR_BY_NAME.get(car_type) or CAR_BY_KEY.get(car_type)
        if car is None:
            it.no_op(f"car_type must be one of {sorted(CAR_BY_NAME)}")
        wanted = destination.strip()
        places = it.content["places"]
        matches = [p for p in places if p["name"] == wanted] or [
            p for p in places if wanted and wanted in p["name"]
        ]
        if len(matches) != 1:
            names = [p["name"] for p in matches][:5]
            it.no_op(f"destination {destination!r} matches {names or 'no place'}")
        trip = self.request_ride(it, matches[0]["id"], car.key)  # type: ignore[union-attr]
        return (
            f"{trip['car_type']}已呼叫：{trip['driver']['name']} {trip['driver']['plate']}，"
            f"预估{yuan_short(trip['fare_cents'])}"
        )
