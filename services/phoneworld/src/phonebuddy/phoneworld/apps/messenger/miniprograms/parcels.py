"""裹裹快递: a parcel-tracking mini-program. The couriers' records (status and route of every
tracking number) are seeded content; the phone keeps the list of numbers it follows. Look up
a number, add it to the list, read its status and pick-up code."""

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
from phonebuddy.phoneworld.apps.messenger.timeline import chat_label, seeded_time
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import Button, Card, ListItem, Row, Text, TextField

BRAND = (255, 106, 0)
COURIERS = (
    ("顺丰速运", "SF", 13),
    ("中通快递", "ZT", 12),
    ("圆通速递", "YT", 13),
    ("京东快递", "JD", 13),
    ("韵达快递", "YD", 13),
)
CITIES = ("广州", "深圳", "上海", "北京", "成都", "武汉", "义乌", "苏州", "南京")
ITEMS = ("衣服", "书籍", "耳机", "零食", "咖啡豆", "运动鞋", "护肤品", "手机壳", "台灯")
STATUSES = ("已揽收", "运输中", "派送中", "待取件", "已签收")
NUMBER = re.compile(r"^[A-Z]{2}\d{10,13}$")


def normalize_number(text: str) -> str:
    return re.sub(r"\s", "", text).upper()


def _route(rng: random.Random, status: str, origin: str, courier: str) -> list[dict[str, Any]]:
    """The tracking events, oldest first, ending in `status`."""
    steps = [
        f"【{origin}】{courier}已揽收",
        f"【{origin}】快件已发往 杭州转运中心",
        "【杭州】快件已到达 杭州转运中心",
        "【杭州】快递员正在派送，请保持电话畅通",
        "【杭州】快件已到达 菜鸟驿站（文三路店），请凭取件码取件",
        "【杭州】已签收，签收人：本人",
    ]
    last = {"已揽收": 1, "运输中": 3, "派送中": 4, "待取件": 5, "已签收": 6}[status]
    chosen = steps[:last] if status != "已签收" else [*steps[:4], steps[5]]
    ago = rng.randrange(3, 6) * 86400
    events = []
    for text in chosen:
        events.append({"text": text, "ago": ago})
        ago = max(600, ago - rng.randrange(6, 30) * 3600)
    return events


def records(content: Any, data: Any) -> list[Any]:
    """The couriers' records: a task's own parcels (a task may start with some) and the
    seeded ones."""
    return [*data.get("records", ()), *content["parcels"]]


def task_parcel(rng: random.Random, status: str, taken: Any) -> dict[str, Any]:
    """A parcel of a task's own, drawn as the seeded ones are, its last update between 20
    minutes and 40 hours before the start; its number is none of `taken`."""
    while True:
        courier, prefix, digits = rng.choice(COURIERS)
        number = prefix + str(rng.randrange(1, 9))
        number += "".join(rng.choice("0123456789") for _ in range(digits - 3))
        if number not in taken:
            break
    origin = rng.choice(CITIES)
    events = _route(rng, status, origin, courier)
    ago = rng.randrange(20, 40 * 60) * 60
    for event in reversed(events):
        event["ago"] = ago
        ago += rng.randrange(6, 30) * 3600
    code = f"{rng.randrange(1, 9)}-{rng.randrange(1, 6)}-{rng.randrange(1000, 9999)}"
    return {"id": number, "courier": courier, "status": status, "origin": origin,
            "item": rng.choice(ITEMS), "events": events,
            "pickup_code": code if status == "待取件" else None}  # fmt: skip


class Parcels(MiniProgram):
    name = "parcels"
    title = "裹裹快递"
    description = "查快递、寄快递"
    keywords = ("快递", "查快递", "物流", "包裹", "parcel")
    glyph = "裹"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        parcels = []
        for i in range(22):
            courier, prefix, digits = rng.choice(COURIERS)
            number = prefix + "".join(rng.choice("0123456789") for _ in range(digits - 2))
            number = f"{number[:2]}{rng.randrange(1, 9)}{number[3:]}"
            status = STATUSES[i % len(STATUSES)]
            origin = rng.choice(CITIES)
            parcels.append(
                {
                    "id": number,
                    "courier": courier,
                    "status": status,
                    "origin": origin,
                    "item": rng.choice(ITEMS),
                    "events": _route(rng, status, origin, courier),
                    "pickup_code": f"{rng.randrange(1, 9)}-{rng.randrange(1, 6)}-"
                    f"{rng.randrange(1000, 9999)}"
                    if status == "待取件"
                    else None,
                }
            )
        rng.shuffle(parcels)
        return {"parcels": parcels}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        tracked = content["parcels"][:4]
        return {
            "tracked": [
                {"id": f"tr-{i + 1}", "number": p["id"], "remark": p["item"]}
                for i, p in enumerate(tracked)
            ]
        }

    def shared_parcels(self, content: Any) -> list[tuple[str, str]]:
        """Parcels not on the phone yet whose numbers friends send in chats."""
        return [(p["id"], p["courier"]) for p in content["parcels"][4:7]]

    # -- handlers ------------------------------------------------------------------------------
    def look_up(self, it: Interaction) -> None:
        number = normalize_number(it.field("number"))
        if not NUMBER.match(number):
            it.toast("请输入正确的快递单号")
            it.no_op(f"{number!r} is not a tracking number")
        self.push(it, "detail", number=number)

    def track(self, it: Interaction, number: str) -> None:
        data = self.data(it)
        if any(t["number"] == number for t in data["tracked"]):
            it.no_op("already tracked")
        parcel = find(records(self.content(it), data), number)
        data["tracked"].insert(
            0, {"id": it.new_id("tr"), "number": number, "remark": parcel["item"] if parcel else ""}
        )
        it.toast("已添加到我的快递")

    def untrack(self, it: Interaction, number: str) -> None:
        data = self.data(it)
        data["tracked"] = [t for t in data["tracked"] if t["number"] != number]
        it.pop()
        it.toast("已删除")

    # -- pages ---------------------------------------------------------------------------------
    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        rows = []
        for t in v.data["tracked"]:
            parcel = find(records(v.content, v.data), t["number"])
            status = parcel["status"] if parcel else "暂无物流信息"
            courier = parcel["courier"] if parcel else "快递"
            rows.append(
                ListItem(
                    f"{courier} {t['number']}",
                    subtitle=t["remark"] or "包裹",
                    trailing=status,
                    leading="裹",
                    leading_color=BRAND,
                    on_tap=v.go("detail", number=t["number"]),
                    id=f"parcel_{t['number']}",
                )
            )
        body = [
            Card(
                [
                    Text("查快递", size=48, bold=True, color=theme.WHITE),
                    Text("输入单号，实时追踪包裹", size=34, color=(255, 225, 200)),
                ],
                fill=BRAND,
            ),
            Row(
                [
                    TextField(
                        "number",
                        v.field("number"),
                        "输入或粘贴快递单号",
                        on_focus=v.focus("number"),
                        on_submit=v.do(self.look_up),
                    ),
                    Button("查询", v.do(self.look_up), id="query_submit"),
                ],
                weights=(3, 1),
            ),
            Text(f"我的快递（{len(rows)}）", size=42, bold=True, padding=16),
            *(rows or [Text("还没有快递", color=theme.TEXT_SECONDARY, padding=16)]),
        ]
        return MiniPage(body, padding=30, spacing=20)

    @page("detail")
    def detail(self, v: MiniView) -> MiniPage:
        number = v.params["number"]
        parcel = find(records(v.content, v.data), number)
        tracked = any(t["number"] == number for t in v.data["tracked"])
        body: list[Any] = [Text(number, size=44, bold=True, id="detail_number")]
        if parcel is None:
            body.append(
                Text(
                    "暂无物流信息，可能快递公司尚未揽收",
                    color=theme.TEXT_SECONDARY,
                    id="detail_status",
                )
            )
        else:
            body += [
                Text(parcel["courier"], color=theme.TEXT_SECONDARY, id="detail_courier"),
                Text(parcel["status"], size=64, bold=True, color=BRAND, id="detail_status"),
            ]
            if parcel["pickup_code"]:
                body.append(
                    Card(
                        [
                            Text("取件码", color=theme.TEXT_SECONDARY),
                            Text(parcel["pickup_code"], size=72, bold=True, id="pickup_code"),
                        ]
                    )
                )
            events = [
                Text(
                    f"{chat_label(seeded_time(e['ago'], v.clock), v.clock)}\n{e['text']}",
                    size=36,
                    color=theme.TEXT if i == 0 else theme.TEXT_SECONDARY,
                    id=f"event_{i}",
                )
                for i, e in enumerate(reversed(parcel["events"]))
            ]
            body.append(Card(events, spacing=24))
        if tracked:
            body.append(
                Button("删除此快递", v.do(self.untrack, number), id="untrack", style="text")
            )
        else:
            body.append(Button("添加到我的快递", v.do(self.track, number), id="track"))
        return MiniPage(body, title="物流详情", padding=36, spacing=24)
