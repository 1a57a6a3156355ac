"""The Parcels app (快递): the phone's parcels by status, a parcel's page (pick-up code at the
station, timeline, remark), adding a parcel by its tracking number, confirming pick-up.

The couriers' records of every tracking number are seeded content (`records`); the phone holds
the first `ON_DEVICE` of them after a reset, the others can be added by their number.
"""

from __future__ import annotations

import random
import re
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time
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

PARCELS = "com.pw.parcels"
BLUE: Color = (22, 110, 255)
PALE_BLUE: Color = (232, 241, 255)
WAITING, DELIVERING, TRANSIT, SIGNED = "待取件", "派送中", "运输中", "已签收"
STATUSES = (TRANSIT, DELIVERING, WAITING, SIGNED)
# (courier, tracking-number prefix, digits after it, short name on the avatar)
COURIERS = (
    ("顺丰速运", "SF", 13, "顺"),
    ("中通快递", "ZT", 12, "中"),
    ("圆通速递", "YT", 13, "圆"),
    ("韵达快递", "YD", 13, "韵"),
    ("申通快递", "ST", 12, "申"),
    ("京东快递", "JD", 13, "京"),
    ("极兔速递", "JT", 13, "兔"),
)
COURIER_COLOURS: dict[str, Color] = {
    "顺丰速运": (30, 30, 30), "中通快递": (0, 82, 155), "圆通速递": (94, 41, 145),
    "韵达快递": (230, 170, 0), "申通快递": (235, 90, 30), "京东快递": (226, 35, 26),
    "极兔速递": (200, 20, 40),
}  # fmt: skip
SHOPS = (
    ("小米官方旗舰店", "充电宝"), ("优衣库官方旗舰店", "羽绒服"), ("三只松鼠", "坚果礼盒"),
    ("当当网", "图书"), ("华为官方旗舰店", "蓝牙耳机"), ("李宁官方旗舰店", "跑步鞋"),
    ("完美日记", "口红"), ("无印良品", "收纳盒"), ("宜家家居", "台灯"), ("良品铺子", "零食大礼包"),
    ("安踏官方旗舰店", "运动裤"), ("百草味", "果干"), ("花西子", "散粉"), ("网易严选", "四件套"),
    ("苏泊尔官方旗舰店", "电饭煲"), ("美的官方旗舰店", "电风扇"), ("得力文具", "笔记本"),
    ("南极人", "保暖内衣"), ("蕉下", "防晒伞"), ("罗技官方旗舰店", "无线鼠标"),
    ("绿联旗舰店", "数据线"), ("元气森林", "气泡水"), ("全棉时代", "洗脸巾"),
    ("飞利浦官方旗舰店", "电动牙刷"), ("乐高官方旗舰店", "积木"), ("九阳官方旗舰店", "豆浆机"),
    ("漫步者", "音箱"), ("回力", "帆布鞋"), ("蒙牛", "纯牛奶"), ("名创优品", "香薰"),
    ("波司登", "棉服"), ("公牛", "插线板"),
)  # fmt: skip
STATIONS = ("菜鸟驿站（文三路店）", "菜鸟驿站（学院路店）", "丰巢快递柜（小区东门）",
            "妈妈驿站（翠苑一区）")  # fmt: skip
CITIES = ("广州", "深圳", "上海", "北京", "成都", "武汉", "义乌", "苏州", "南京", "东莞")
RECORDS = 30
ON_DEVICE = 14
# The statuses of the parcels on the phone after a reset, before shuffling.
DEVICE_STATUSES = (WAITING,) * 5 + (DELIVERING,) * 2 + (TRANSIT,) * 3 + (SIGNED,) * 4
TABS = (("all", "全部"), ("waiting", "待取件"), ("transit", "运输中"), ("signed", "已签收"))
TAB_STATUSES = {"waiting": (WAITING,), "transit": (TRANSIT, DELIVERING), "signed": (SIGNED,)}
NUMBER = re.compile(r"[A-Z]{2}\d{12,13}")
PICKED_UP = "您已取件，感谢使用"


def events_for(
    rng: random.Random, status: str, origin: str, courier: str, station: str
) -> list[dict[str, Any]]:
    """The tracking events, oldest first, ending in `status`."""
    steps = [
        f"【{origin}】{courier}已揽收",
        f"【{origin}】快件已发往 杭州转运中心",
        "【杭州】快件已到达 杭州转运中心",
        "【杭州】快递员正在派送，请保持电话畅通",
        f"【杭州】快件已到达 {station}，请凭取件码取件",
        "【杭州】已签收，签收人：本人",
    ]
    last = {TRANSIT: 3, DELIVERING: 4, WAITING: 5}.get(status)
    chosen = steps[:last] if last else [*steps[:4], steps[5]]
    moment = EPOCH_START - rng.randrange(1, 5) * 3600 - rng.randrange(60) * 60
    events = []
    for text in reversed(chosen):
        events.append({"time": moment, "text": text})
        moment -= rng.randrange(5, 30) * 3600 + rng.randrange(60) * 60
    return events[::-1]


def find_number(text: str) -> str | None:
    """The one tracking number in `text` (typed, or a pasted SMS), or None."""
    found = set(NUMBER.findall(re.sub(r"\s", "", text).upper()))
    return found.pop() if len(found) == 1 else None


def time_label(epoch: int) -> str:
    moment = local_time(epoch)
    return f"{moment.month}月{moment.day}日 {moment:%H:%M}"


class Parcels(App):
    package = PARCELS
    label = Label(zh="快递", en="Parcels")
    domain = "logistics"
    theme = AppTheme(primary=BLUE)
    icon_text = "递"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        statuses = list(DEVICE_STATUSES)
        rng.shuffle(statuses)
        statuses += [STATUSES[i % len(STATUSES)] for i in range(RECORDS - ON_DEVICE)]
        shops = rng.sample(SHOPS, RECORDS)
        codes = rng.sample(range(1000, 10000), RECORDS)
        records = []
        for i, (status, (shop, item)) in enumerate(zip(statuses, shops, strict=True)):
            courier, prefix, digits, _ = rng.choice(COURIERS)
            number = (
                prefix
                + str(rng.randrange(1, 10))
                + "".join(rng.choice("0123456789") for _ in range(digits - 1))
            )
            station = rng.choice(STATIONS)
            waiting = status == WAITING
            records.append(
                {
                    "id": f"p-{i + 1:02d}",
                    "number": number,
                    "courier": courier,
                    "shop": shop,
                    "item": item,
                    "status": status,
                    "station": station if waiting else "",
                    "code": f"{rng.randrange(1, 10)}-{rng.randrange(1, 7)}-{codes[i]}"
                    if waiting
                    else "",
                    "events": events_for(rng, status, rng.choice(CITIES), courier, station),
                    "remark": "",
                    "signed_at": None,
                }
            )
        return {"records": records}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"parcels": [clone(r) for r in content["records"][:ON_DEVICE]]}

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def find(it: Interaction, parcel_id: str) -> dict[str, Any]:
        for parcel in it.data["parcels"]:
            if parcel["id"] == parcel_id:
                return parcel
        it.no_op(f"no parcel {parcel_id}")
        raise AssertionError  # no_op raises

    @staticmethod
    def record(it: Interaction, number: str) -> dict[str, Any] | None:
        return next((r for r in it.content["records"] if r["number"] == number), None)

    def look_up(self, it: Interaction) -> None:
        """查询: the tracking number in the field (typed or pasted with its SMS)."""
        number = find_number(it.field("number"))
        if number is None:
            it.toast("请输入正确的运单号")
            it.no_op(f"no single tracking number in {it.field('number')!r}")
        mine = next((p for p in it.data["parcels"] if p["number"] == number), None)
        if mine is not None:
            it.replace("detail", parcel_id=mine["id"])
            return
        if self.record(it, number) is None:
            it.toast("暂无该运单的物流信息")
            it.no_op(f"no courier knows {number}")
        it.push("result", number=number)

    def add(self, it: Interaction, number: str) -> str:
        """Add the parcel of this tracking number to the phone; returns its id."""
        if any(p["number"] == number for p in it.data["parcels"]):
            it.no_op(f"{number} is already in the list")
        record = self.record(it, number)
        if record is None:
            it.no_op(f"no courier knows {number}")
        parcel = clone(record)
        it.data["parcels"].insert(0, parcel)
        it.toast("已添加到我的包裹")
        return str(parcel["id"])

    def add_from_result(self, it: Interaction, number: str) -> None:
        parcel_id = self.add(it, number)
        it.reset_to("home")
        it.push("detail", parcel_id=parcel_id)

    def confirm_pickup(self, it: Interaction, parcel_id: str) -> None:
        parcel = self.find(it, parcel_id)
        if parcel["status"] != WAITING:
            it.no_op(f"{parcel_id} is {parcel['status']}, not waiting for pick-up")
        parcel["status"] = SIGNED
        parcel["signed_at"] = it.clock
        it.set_ui("dialog", None)
        it.toast("已取件")

    def save_remark(self, it: Interaction, parcel_id: str) -> None:
        parcel = self.find(it, parcel_id)
        remark = it.field("remark").strip()
        if remark == parcel["remark"]:
            it.no_op("the remark did not change")
        parcel["remark"] = remark
        it.pop()
        it.toast("备注已保存")

    def delete(self, it: Interaction, parcel_id: str) -> None:
        self.find(it, parcel_id)
        it.data["parcels"] = [p for p in it.data["parcels"] if p["id"] != parcel_id]
        it.reset_to("home")
        it.toast("已删除")

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "all")
        query = v.field("search").strip().upper()
        rows: list[Widget | None] = []
        for parcel in v.data["parcels"]:
            if tab != "all" and parcel["status"] not in TAB_STATUSES[tab]:
                continue
            haystack = " ".join((parcel["number"], parcel["shop"], parcel["item"]))
            if query and query not in haystack.upper():
                continue
            latest = parcel["events"][-1]["text"] if parcel["events"] else ""
            if parcel["signed_at"] is not None:
                latest = PICKED_UP
            rows.append(
                ListItem(
                    parcel["shop"],
                    subtitle=f"{parcel['item']}｜{latest}",
                    trailing=parcel["status"],
                    leading=self.short_name(parcel["courier"]),
                    leading_color=COURIER_COLOURS.get(parcel["courier"], BLUE),
                    on_tap=v.go("detail", parcel_id=parcel["id"]),
                    id=f"parcel_{parcel['id']}",
                )
            )
        if not rows:
            empty = f"没有找到“{v.field('search').strip()}”" if query else "暂无包裹"
            rows.append(Text(empty, color=theme.TEXT_SECONDARY, padding=40, align="center"))
        search = TextField("search", v.field("search"), "搜索运单号/店铺/商品",
                           on_focus=v.focus("search"))  # fmt: skip
        return Page(
            "我的包裹",
            [search, *rows, Spacer(60)],
            header=Tabs(TABS, tab, v.on_select("tab")),
            actions=[IconButton("plus", "添加包裹", v.go("add", fields={"number": ""}), id="add")],
        )

    @staticmethod
    def short_name(courier: str) -> str:
        return next((c[3] for c in COURIERS if c[0] == courier), courier[:1])

    def _timeline(self, parcel: dict[str, Any]) -> list[Widget | None]:
        events = [(e["time"], e["text"]) for e in parcel["events"]]
        if parcel["signed_at"] is not None:
            events.append((parcel["signed_at"], f"{PICKED_UP}{parcel['station']}"))
        return [
            Card(
                [
                    Text(text, size=38, color=theme.TEXT if i == 0 else theme.TEXT_SECONDARY,
                         id=f"event_{i}"),
                    Text(time_label(moment), size=32, color=theme.TEXT_SECONDARY),
                ],
                padding=24,
                spacing=6,
            )
            for i, (moment, text) in enumerate(reversed(events))
        ]  # fmt: skip

    @screen("detail")
    def detail(self, v: View) -> Page:
        parcel = next((p for p in v.data["parcels"] if p["id"] == v.params["parcel_id"]), None)
        if parcel is None:
            return Page("包裹详情", [Text("该包裹已被删除", padding=40)], on_back=v.back())
        waiting = parcel["status"] == WAITING
        head: list[Widget | None] = [
            Text(parcel["status"], size=56, bold=True, color=BLUE, id="status"),
            Text(f"{parcel['shop']}｜{parcel['item']}", size=42, id="shop"),
            Text(f"{parcel['courier']} {parcel['number']}", size=38,
                 color=theme.TEXT_SECONDARY, id="number"),
        ]  # fmt: skip
        if waiting:
            head += [
                Text(f"取件地点：{parcel['station']}", size=38, id="station"),
                Text("取件码", size=34, color=theme.TEXT_SECONDARY),
                Text(parcel["code"], size=72, bold=True, color=BLUE, id="pickup_code"),
                Button("确认取件", v.set_ui("dialog", "pickup"), id="confirm_pickup"),
            ]
        remark = parcel["remark"] or "未添加备注"
        dialog = None
        if v.ui("dialog") == "delete":
            dialog = v.confirm(
                "删除这个包裹？",
                v.do(self.delete, parcel["id"]),
                message="删除后将不再提醒该包裹的物流动态。",
                label="删除",
                confirm_id="confirm_delete",
                danger=True,
            )
        elif v.ui("dialog") == "pickup" and waiting:
            dialog = v.confirm(
                "确认已取件？",
                v.do(self.confirm_pickup, parcel["id"]),
                message=f"{parcel['shop']}的包裹将标记为已签收。",
                label="确认",
                confirm_id="pickup_ok",
            )
        return Page(
            "包裹详情",
            [
                Card(head, fill=PALE_BLUE if waiting else theme.SURFACE),
                Card(
                    [
                        Text("备注", size=34, color=theme.TEXT_SECONDARY),
                        Text(remark, size=40, id="remark"),
                        Button(
                            "编辑备注",
                            v.go("remark", parcel_id=parcel["id"],
                                 fields={"remark": parcel["remark"]}),
                            id="edit_remark",
                            style="secondary",
                            height=100,
                            size=36,
                        ),
                    ]
                ),
                Text("物流详情", size=40, bold=True, padding=12),
                *self._timeline(parcel),
                Spacer(60),
            ],
            on_back=v.back(),
            actions=[IconButton("delete", "删除包裹", v.set_ui("dialog", "delete"), id="delete")],
            body_padding=30,
            spacing=20,
            overlay=dialog,
        )  # fmt: skip

    @screen("remark")
    def remark(self, v: View) -> Page:
        return Page(
            "编辑备注",
            [
                TextField("remark", v.field("remark"), "给包裹写个备注",
                          on_focus=v.focus("remark")),
                Button("保存", v.do(self.save_remark, v.params["parcel_id"]), id="save_remark"),
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )  # fmt: skip

    @screen("add")
    def add_page(self, v: View) -> Page:
        return Page(
            "添加包裹",
            [
                Text("输入或粘贴运单号，查询物流并添加到我的包裹", size=36,
                     color=theme.TEXT_SECONDARY),
                TextField("number", v.field("number"), "运单号", on_focus=v.focus("number"),
                          on_submit=v.do(self.look_up)),
                Button("查询", v.do(self.look_up), id="query"),
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )  # fmt: skip

    @screen("result")
    def result(self, v: View) -> Page:
        record = next(r for r in v.content["records"] if r["number"] == v.params["number"])
        added = any(p["number"] == record["number"] for p in v.data["parcels"])
        latest = record["events"][-1]
        return Page(
            "查询结果",
            [
                Card(
                    [
                        Text(record["status"], size=52, bold=True, color=BLUE, id="result_status"),
                        Text(f"{record['courier']} {record['number']}", size=38,
                             id="result_number"),
                        Text(f"{record['shop']}｜{record['item']}", size=40, id="result_shop"),
                        Text(latest["text"], size=36, color=theme.TEXT_SECONDARY),
                        Text(time_label(latest["time"]), size=32, color=theme.TEXT_SECONDARY),
                    ]
                ),
                Button(
                    "已在我的包裹中" if added else "添加到我的包裹",
                    v.do(self.add_from_result, record["number"]),
                    id="add_parcel",
                    enabled=not added,
                ),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=24,
        )  # fmt: skip

    # -- direct tools ---------------------------------------------------------------------------
    @tool("track_parcel", "Add a parcel to 快递 by its tracking number.", {"number": str})
    def track_parcel_tool(self, it: Interaction, number: str) -> str:
        found = find_number(number)
        if found is None:
            it.no_op(f"{number!r} is not a tracking number")
        return f"added {self.add(it, found)}"
