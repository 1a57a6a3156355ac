"""The Maps app (地图): search places, a place's page (收藏, 分享), routes by mode, 家/公司
addresses.

Places are seeded content with coordinates in km; a route's distance and duration are computed
from the coordinates of the user's position (0, 0) and the place, per mode."""

from __future__ import annotations

import math
import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    IconButton,
    ListItem,
    Page,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
)

MAPS = "com.pw.maps"
GREEN: Color = (0, 150, 110)
CATEGORIES = {
    "咖啡": ("星巴克", "瑞幸咖啡", "Manner咖啡", "Tims咖啡", "挪瓦咖啡"),
    "餐厅": ("外婆家", "绿茶餐厅", "新白鹿", "海底捞", "西贝莜面村"),
    "商场": ("万象城", "银泰百货", "龙湖天街", "来福士", "大悦城"),
    "医院": ("市第一人民医院", "中医院", "儿童医院"),
    "景点": ("西湖", "灵隐寺", "西溪湿地", "宋城"),
}  # fmt: skip
BRANCHES = ("文三路店", "武林店", "滨江店", "西湖店", "城西店", "钱江新城店")
ROADS = ("文三路", "延安路", "江南大道", "天目山路", "庆春路", "解放路", "莫干山路", "学院路")
HOURS = ("08:00-22:00", "10:00-22:00", "07:30-21:00", "全天营业", "09:00-21:30")
# mode key, label, speed km/h, fixed minutes (parking / waiting)
MODES = (("drive", "驾车", 30, 5), ("transit", "公交", 18, 8), ("walk", "步行", 5, 0),
         ("bike", "骑行", 14, 2))  # fmt: skip
MODE_TABS = tuple((key, label) for key, label, _, _ in MODES)
TABS = (("all", "全部"), ("favourites", "收藏夹"), ("trips", "足迹"))


def distance_km(place: dict[str, Any]) -> float:
    return round(math.hypot(place["x"], place["y"]), 1)


def route(place: dict[str, Any], mode: str) -> tuple[float, int]:
    """(distance in km, duration in minutes) to `place` by `mode`."""
    _, _, speed, fixed = next(m for m in MODES if m[0] == mode)
    factor = 1.3 if mode in ("drive", "transit") else 1.1
    km = round(distance_km(place) * factor, 1)
    return km, fixed + max(1, round(km / speed * 60))


def mode_label(mode: str) -> str:
    return next(m[1] for m in MODES if m[0] == mode)


class Maps(App):
    package = MAPS
    label = Label(zh="地图", en="Maps")
    domain = "navigation"
    theme = AppTheme(primary=GREEN)
    icon_text = "图"
    ignorable = ("history",)  # searching on the way to a place is no task's effect

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        places = []
        names: set[str] = set()
        for category, brands in CATEGORIES.items():
            for brand in brands:
                name = brand if category in ("医院", "景点") else f"{brand}({rng.choice(BRANCHES)})"
                if name in names:
                    continue
                names.add(name)
                places.append(
                    {
                        "id": f"poi-{len(places) + 1:02d}",
                        "name": name,
                        "category": category,
                        "address": f"杭州市{rng.choice(ROADS)}{rng.randrange(1, 400)}号",
                        "phone": f"0571-{rng.randrange(80000000, 90000000)}",
                        "rating": rng.randrange(35, 50) / 10,
                        "hours": rng.choice(HOURS),
                        "x": rng.randrange(-120, 121) / 10,
                        "y": rng.randrange(-120, 121) / 10,
                    }
                )
        places.sort(key=distance_km)
        return {"places": places}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"home": "", "work": "", "favourites": [], "trips": [], "history": []}

    # -- handlers -------------------------------------------------------------------------------
    @staticmethod
    def place(it: Interaction | View, place_id: str) -> dict[str, Any]:
        return next(p for p in it.content["places"] if p["id"] == place_id)

    def search(self, it: Interaction) -> None:
        query = it.field("search").strip()
        if not query:
            it.toast("请输入搜索内容")
            it.no_op("empty search")
        if query in it.data["history"]:
            it.no_op("already in the history")
        it.data["history"].insert(0, query)

    def clear_history(self, it: Interaction) -> None:
        if not it.data["history"]:
            it.no_op("no history")
        it.data["history"] = []
        it.set_ui("dialog", None)
        it.toast("已清空搜索历史")

    def toggle_favourite(self, it: Interaction, place_id: str) -> None:
        favourites = it.data["favourites"]
        if place_id in favourites:
            favourites.remove(place_id)
            it.toast("已取消收藏")
        else:
            favourites.append(place_id)
            it.toast("已收藏")

    def share_place(self, it: Interaction, place_id: str) -> None:
        place = self.place(it, place_id)
        it.share({"kind": "link", "title": place["name"], "text": place["address"],
                  "source": "地图"})  # fmt: skip

    def navigate(self, it: Interaction, place_id: str, mode: str) -> None:
        km, minutes = route(self.place(it, place_id), mode)
        trip = {"id": it.new_id("trip"), "place_id": place_id, "mode": mode, "km": km,
                "minutes": minutes, "at": it.clock}  # fmt: skip
        it.data["trips"].insert(0, trip)
        it.reset_to("home")
        it.toast(f"开始{mode_label(mode)}导航")

    def save_address(self, it: Interaction, which: str) -> None:
        address = it.field("address").strip()
        if not address:
            it.toast("地址不能为空")
            it.no_op("empty address")
        if address == it.data[which]:
            it.no_op("the address did not change")
        it.data[which] = address
        it.pop()
        it.toast("地址已保存")

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "all")
        query = v.field("search").strip()
        rows: list[Widget | None] = []
        if tab == "trips":
            for i, trip in enumerate(v.data["trips"]):
                place = self.place(v, trip["place_id"])
                summary = f"{mode_label(trip['mode'])}｜{trip['km']}公里｜{trip['minutes']}分钟"
                rows.append(ListItem(place["name"], subtitle=summary, id=f"trip_{i}"))
        else:
            for place in v.content["places"]:
                if tab == "favourites" and place["id"] not in v.data["favourites"]:
                    continue
                text = " ".join((place["name"], place["category"], place["address"]))
                if query and query not in text:
                    continue
                rows.append(
                    ListItem(
                        place["name"],
                        subtitle=f"{place['category']}｜{place['rating']}分｜{place['address']}",
                        trailing=f"{distance_km(place)}公里",
                        on_tap=v.go("place", place_id=place["id"]),
                        id=f"place_{place['id']}",
                    )
                )
        if not rows:
            empty = {"trips": "暂无足迹", "favourites": "收藏夹是空的"}.get(tab, "没有找到相关地点")
            rows.append(Text(empty, color=theme.TEXT_SECONDARY, padding=40, align="center"))
        head: list[Widget | None] = [
            TextField("search", v.field("search"), "搜索地点、地址", on_focus=v.focus("search"),
                      on_submit=v.do(self.search)),
            ListItem("家", subtitle=v.data["home"] or "设置家的地址", id="home_address",
                     on_tap=v.go("address", which="home", fields={"address": v.data["home"]})),
            ListItem("公司", subtitle=v.data["work"] or "设置公司地址", id="work_address",
                     on_tap=v.go("address", which="work", fields={"address": v.data["work"]})),
        ]  # fmt: skip
        if v.data["history"]:
            head.append(Text("搜索历史：" + "、".join(v.data["history"]), size=32, id="history"))
            head.append(Button("清空搜索历史", v.set_ui("dialog", "clear"), id="clear_history",
                               style="secondary", height=90, size=34))  # fmt: skip
        dialog = None
        if v.ui("dialog") == "clear":
            dialog = v.confirm("清空搜索历史？", v.do(self.clear_history), label="清空",
                               confirm_id="confirm_clear", danger=True)  # fmt: skip
        return Page("地图", [*head, *rows, Spacer(60)], header=Tabs(TABS, tab, v.on_select("tab")),
                    overlay=dialog)  # fmt: skip

    @screen("place")
    def place_page(self, v: View) -> Page:
        place = self.place(v, v.params["place_id"])
        saved = place["id"] in v.data["favourites"]
        return Page(
            place["name"],
            [
                Card([
                    Text(place["name"], size=52, bold=True, id="name"),
                    Text(f"{place['category']}｜{place['rating']}分", size=38, id="rating"),
                    Text(place["address"], size=38, id="address"),
                    Text(f"电话：{place['phone']}", size=36, id="phone"),
                    Text(f"营业时间：{place['hours']}", size=36, id="hours"),
                    Text(f"距您{distance_km(place)}公里", size=36, color=theme.TEXT_SECONDARY),
                ]),
                Button("已收藏" if saved else "收藏", v.do(self.toggle_favourite, place["id"]),
                       id="favourite", style="secondary" if saved else "primary"),
                Button("路线", v.go("route", place_id=place["id"]), id="route"),
            ],
            on_back=v.back(),
            actions=[IconButton("share", "分享", v.do(self.share_place, place["id"]), id="share")],
            body_padding=30,
            spacing=24,
        )  # fmt: skip

    @screen("route")
    def route_page(self, v: View) -> Page:
        place = self.place(v, v.params["place_id"])
        mode = v.ui("mode", "drive")
        km, minutes = route(place, mode)
        return Page(
            "路线规划",
            [
                Text(f"我的位置 → {place['name']}", size=40, id="route_title"),
                Card([
                    Text(f"{minutes}分钟", size=64, bold=True, color=GREEN, id="duration"),
                    Text(f"{km}公里", size=40, id="distance"),
                ]),
                Button("开始导航", v.do(self.navigate, place["id"], mode), id="start"),
            ],
            header=Tabs(MODE_TABS, mode, v.on_select("mode")),
            on_back=v.back(),
            body_padding=30,
            spacing=24,
        )  # fmt: skip

    @screen("address")
    def address_page(self, v: View) -> Page:
        which = v.params["which"]
        return Page(
            "设置家的地址" if which == "home" else "设置公司地址",
            [
                TextField("address", v.field("address"), "输入地址", on_focus=v.focus("address")),
                Button("保存", v.do(self.save_address, which), id="save_address"),
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )  # fmt: skip
