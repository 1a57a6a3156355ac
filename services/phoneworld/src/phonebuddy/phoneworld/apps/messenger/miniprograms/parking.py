"""捷停车: a parking-payment mini-program. The car parks' records (which plate entered which car
park when) are seeded content; the fee runs from the entry time to the device clock. Bind plate
numbers, look up any plate, and pay the fee through the wallet."""

from __future__ import annotations

import math
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
from phonebuddy.phoneworld.apps.messenger.timeline import hhmm, seeded_time
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Column,
    ListItem,
    Row,
    Text,
    TextField,
)

BRAND = (0, 150, 136)
LOTS = (
    ("万象城地下停车场", 800, 6000),
    ("西湖文化广场停车场", 600, 5000),
    ("湖滨银泰P2停车场", 1000, 8000),
    ("杭州东站东广场停车场", 500, 4000),
    ("黄龙体育中心停车场", 600, 4800),
    ("龙湖天街B2停车场", 700, 5000),
)
FREE_MINUTES = 15
PROVINCES = "浙沪苏京粤皖"
PLATE = re.compile(r"^[\u4e00-\u9fff][A-Z][A-Z0-9]{5,6}$")


def normalize_plate(text: str) -> str:
    """'浙a·12345 ' -> '浙A12345': people type plates with dots, spaces and lower case."""
    return re.sub(r"[\s·.\-]", "", text).upper()


def show_plate(plate: str) -> str:
    return f"{plate[:2]}·{plate[2:]}"


def parking_fee(lot: Any, entered: int, now: int) -> int:
    """The first 15 minutes are free; then every started hour costs the hourly rate, up to the
    daily cap."""
    minutes = max(0, math.ceil((now - entered) / 60))
    if minutes <= FREE_MINUTES:
        return 0
    return min(math.ceil(minutes / 60) * int(lot["rate_cents"]), int(lot["cap_cents"]))


def entered_ago(data: Any, session: Any) -> int:
    """How long before the episode began the car entered: the task's own time where the data
    has one (a task may start with its own), else the seeded one."""
    return int(data.get("entered_ago", {}).get(session["id"], session["entered_ago"]))


def duration_text(seconds: int) -> str:
    hours, minutes = divmod(max(0, seconds) // 60, 60)
    return f"{hours}小时{minutes}分" if hours else f"{minutes}分钟"


def _plate(rng: random.Random) -> str:
    letters = "ABCDEFGHJKLMNPQRSTUVWXYZ"
    tail = "".join(rng.choice(letters + "0123456789") for _ in range(4))
    return f"{rng.choice(PROVINCES)}{rng.choice('ABCDE')}{rng.choice(letters)}{tail}"


class Parking(MiniProgram):
    name = "parking"
    title = "捷停车"
    description = "停车缴费，无感离场"
    keywords = ("停车", "停车缴费", "缴费", "parking")
    glyph = "P"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        lots = [
            {"id": f"lot{i + 1}", "name": name, "rate_cents": rate, "cap_cents": cap}
            for i, (name, rate, cap) in enumerate(LOTS)
        ]
        plates = []
        while len(plates) < 14:
            plate = _plate(rng)
            if plate not in plates:
                plates.append(plate)
        # Entered a whole number of hours plus 12-44 minutes before the episode began, so the
        # fee cannot tick over to the next hour during an episode.
        sessions = [
            {
                "id": f"ps{i + 1:02d}",
                "plate": plate,
                "lot": rng.choice(lots)["id"],
                "entered_ago": rng.randrange(1, 9) * 3600 + rng.randrange(12, 45) * 60,
            }
            for i, plate in enumerate(plates[:12])
        ]
        # The phone owner's cars: two parked now, one not (its lookup finds nothing).
        return {
            "lots": lots,
            "sessions": sessions,
            "owned": [plates[0], plates[1], plates[12]],
            "unknown": plates[13],
        }

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        owned = list(content["owned"])
        kept = owned[:2] if rng.random() < 0.5 else owned
        return {
            "plates": [{"id": f"pl-{i + 1}", "number": n} for i, n in enumerate(kept)],
            "payments": [],
        }

    # -- reading -------------------------------------------------------------------------------
    @staticmethod
    def session_of(content: Any, plate: str) -> Any:
        return next((s for s in content["sessions"] if s["plate"] == plate), None)

    @staticmethod
    def paid(data: Any, session_id: str) -> bool:
        return any(p["session"] == session_id and p["status"] == "paid" for p in data["payments"])

    def fee_now(self, content: Any, data: Any, session: Any, clock: int) -> int:
        if self.paid(data, session["id"]):
            return 0
        lot = find(content["lots"], session["lot"])
        return parking_fee(lot, seeded_time(entered_ago(data, session), clock), clock)

    # -- handlers ------------------------------------------------------------------------------
    def look_up(self, it: Interaction) -> None:
        plate = normalize_plate(it.field("query"))
        if not PLATE.match(plate):
            it.toast("请输入正确的车牌号")
            it.no_op(f"{plate!r} is not a plate number")
        self.push(it, "session", plate=plate)

    def add_plate(self, it: Interaction) -> None:
        plate = normalize_plate(it.field("plate"))
        data = self.data(it)
        if not PLATE.match(plate):
            it.toast("车牌号格式不正确")
            it.no_op(f"{plate!r} is not a plate number")
        if any(p["number"] == plate for p in data["plates"]):
            it.toast("该车牌已绑定")
            it.no_op(f"{plate} is already bound")
        data["plates"].append({"id": it.new_id("pl"), "number": plate})
        it.pop()
        it.toast("绑定成功")

    def pay_session(self, it: Interaction, session_id: str) -> None:
        content, data = self.content(it), self.data(it)
        session = find(content["sessions"], session_id)
        fee = self.fee_now(content, data, session, it.clock)
        if fee == 0:
            it.no_op("nothing to pay")
        lot = find(content["lots"], session["lot"])
        # Paying again after backing out of the wallet retries the same payment.
        payment = next((p for p in data["payments"] if p["session"] == session_id), None)
        if payment is None:
            payment = {"id": it.new_id("pp"), "session": session_id, "plate": session["plate"],
                       "lot": lot["id"]}  # fmt: skip
            data["payments"].append(payment)
        payment.update({"amount_cents": fee, "status": "unpaid", "time": it.clock})
        self.pay(
            it,
            amount_cents=fee,
            reference=payment["id"],
            description=f"{lot['name']} {show_plate(session['plate'])} 停车费",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        payment = find(self.data(it)["payments"], reference)
        if payment is None:
            return
        payment["status"] = "paid" if paid else "cancelled"
        it.toast("缴费成功，请在15分钟内离场" if paid else "已取消支付")

    # -- pages ---------------------------------------------------------------------------------
    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        cars = []
        for plate in v.data["plates"]:
            session = self.session_of(v.content, plate["number"])
            if session is None:
                summary = "暂无在场记录"
            else:
                lot = find(v.content["lots"], session["lot"])
                fee = self.fee_now(v.content, v.data, session, v.clock)
                summary = f"{lot['name']} · 待缴 {yuan(fee)}" if fee else f"{lot['name']} · 已缴费"
            cars.append(
                ListItem(
                    show_plate(plate["number"]),
                    subtitle=summary,
                    trailing="查看 ›",
                    leading="车",
                    leading_color=BRAND,
                    on_tap=v.go("session", plate=plate["number"]),
                    id=f"plate_{plate['number']}",
                )
            )
        body = [
            Card(
                [
                    Text("输入车牌查询停车费", size=44, bold=True, color=theme.WHITE),
                    Text("支持蓝牌、绿牌新能源车", size=34, color=(200, 235, 230)),
                ],
                fill=BRAND,
            ),
            Row(
                [
                    TextField(
                        "query",
                        v.field("query"),
                        "如 浙A12345",
                        on_focus=v.focus("query"),
                        on_submit=v.do(self.look_up),
                    ),
                    Button("查询", v.do(self.look_up), id="query_submit"),
                ],
                weights=(3, 1),
            ),
            Text("我的车辆", size=42, bold=True, padding=16),
            *(cars or [Text("还没有绑定车辆", color=theme.TEXT_SECONDARY, padding=16)]),
            Button("+ 添加车牌", v.go("add_plate"), id="add_plate", style="secondary"),
            Button("缴费记录", v.go("records"), id="records", style="text"),
        ]
        return MiniPage(body, padding=30, spacing=20)

    @page("session")
    def session(self, v: MiniView) -> MiniPage:
        plate = v.params["plate"]
        session = self.session_of(v.content, plate)
        if session is None:
            return MiniPage(
                [
                    Text(show_plate(plate), size=60, bold=True, align="center", id="session_plate"),
                    Text(
                        "未查询到该车辆的在场停车记录",
                        align="center",
                        color=theme.TEXT_SECONDARY,
                        id="no_session",
                    ),
                ],
                title="停车缴费",
                padding=40,
                spacing=30,
            )
        lot = find(v.content["lots"], session["lot"])
        entered = seeded_time(entered_ago(v.data, session), v.clock)
        fee = self.fee_now(v.content, v.data, session, v.clock)
        paid = self.paid(v.data, session["id"])
        rule = (
            f"前{FREE_MINUTES}分钟免费，之后每小时{yuan(lot['rate_cents'])}，"
            f"每日封顶{yuan(lot['cap_cents'])}"
        )
        body = [
            Text(show_plate(plate), size=64, bold=True, align="center", id="session_plate"),
            Card(
                [
                    Text(lot["name"], size=44, bold=True, id="session_lot"),
                    Text(f"入场时间  今天 {hhmm(entered)}", id="session_entered"),
                    Text(f"停车时长  {duration_text(v.clock - entered)}", id="session_duration"),
                    Text(f"收费标准  {rule}", color=theme.TEXT_SECONDARY),
                ]
            ),
            Card(
                [
                    Text(
                        "已缴费，请在15分钟内离场" if paid else "应缴金额",
                        color=theme.TEXT_SECONDARY,
                        align="center",
                    ),
                    Text(yuan(fee), size=88, bold=True, align="center", id="session_fee"),
                ]
            ),
        ]
        bottom = None
        if fee:
            bottom = Column(
                [
                    Button(
                        f"立即缴费 {yuan(fee)}", v.do(self.pay_session, session["id"]), id="pay_now"
                    )
                ],
                padding=20,
                fill=theme.SURFACE,
            )
        return MiniPage(body, bottom=bottom, title="停车缴费", padding=36, spacing=30)

    @page("add_plate")
    def add_plate_page(self, v: MiniView) -> MiniPage:
        body = [
            Text("请输入车牌号", size=44, bold=True),
            TextField(
                "plate",
                v.field("plate"),
                "如 浙A12345",
                on_focus=v.focus("plate"),
                on_submit=v.do(self.add_plate),
            ),
            Text("绑定后可一键查询停车费、快速缴费", color=theme.TEXT_SECONDARY),
            Button("确认绑定", v.do(self.add_plate), id="save_plate"),
        ]
        return MiniPage(body, title="添加车辆", padding=40, spacing=30)

    @page("records")
    def records(self, v: MiniView) -> MiniPage:
        status = {"paid": "已支付", "unpaid": "待支付", "cancelled": "已取消"}
        rows = [
            ListItem(
                show_plate(p["plate"]),
                subtitle=f"{find(v.content['lots'], p['lot'])['name']} · {status[p['status']]}",
                trailing=yuan(p["amount_cents"]),
                id=f"payment_{p['id']}",
            )
            for p in reversed(v.data["payments"])
        ] or [Text("暂无缴费记录", color=theme.TEXT_SECONDARY, padding=40)]
        return MiniPage(rows, title="缴费记录")
