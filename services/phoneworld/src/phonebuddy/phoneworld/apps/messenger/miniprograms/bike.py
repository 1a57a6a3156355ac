"""青骑单车: a bike-sharing mini-program. Scanning a bike's code means choosing it (or typing
its number); unlocking starts a ride, ending it prices the ride by the device clock, and the
fee is paid through the wallet. It asks for the location on first use."""

from __future__ import annotations

import math
import random
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import (
    MiniPage,
    MiniProgram,
    MiniView,
    find,
    page,
)
from phonebuddy.phoneworld.apps.messenger.timeline import hhmm
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Column,
    Dialog,
    Image,
    ListItem,
    Row,
    Text,
    TextField,
)

BRAND = (0, 181, 120)
SPOTS = (
    "文三路地铁站B口",
    "华星时代广场东门",
    "学院路公交站",
    "西溪路口",
    "古荡新村北门",
    "浙大玉泉校区正门",
    "万塘路口",
    "教工路菜场旁",
    "黄龙体育中心西门",
    "翠苑一区",
)
START_CENTS, STEP_CENTS, BLOCK_SECONDS = 150, 100, 1800
PRICING = "起步价¥1.50/30分钟，超出后每30分钟¥1.00"


def ride_fee(seconds: int) -> int:
    blocks = max(1, math.ceil(seconds / BLOCK_SECONDS))
    return START_CENTS + (blocks - 1) * STEP_CENTS


def minutes_text(seconds: int) -> str:
    return f"{max(1, math.ceil(seconds / 60))}分钟"


class Bike(MiniProgram):
    name = "bike"
    title = "青骑单车"
    description = "扫码骑行，绿色出行"
    keywords = ("单车", "共享单车", "骑车", "bike")
    glyph = "骑"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        numbers = rng.sample(range(860_100_000, 860_999_999), k=14)
        bikes = [
            {
                "id": str(n),
                "spot": rng.choice(SPOTS),
                "distance_m": rng.randrange(30, 600, 10),
                "broken": False,
            }
            for n in numbers
        ]
        bikes.sort(key=lambda b: b["distance_m"])
        for bike in rng.sample(bikes, k=2):
            bike["broken"] = True
        history = []
        for i in range(3):
            seconds = rng.randrange(4, 70) * 60 + rng.randrange(0, 60)
            history.append(
                {
                    "id": f"bh{i + 1}",
                    "bike": str(rng.randrange(860_100_000, 860_999_999)),
                    "from": rng.choice(SPOTS),
                    "to": rng.choice(SPOTS),
                    "seconds": seconds,
                    "fee_cents": ride_fee(seconds),
                    "days_ago": 1 + 3 * i + rng.randrange(0, 3),
                }
            )
        return {"bikes": bikes, "history": history}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        # None until the location prompt is answered on first use.
        return {"location": True if rng.random() < 0.4 else None, "rides": []}

    # -- reading -------------------------------------------------------------------------------
    @staticmethod
    def active_ride(data: Any) -> Any:
        return next((r for r in data["rides"] if r["status"] == "riding"), None)

    # -- handlers ------------------------------------------------------------------------------
    def answer_location(self, it: Interaction, granted: bool) -> None:
        self.data(it)["location"] = granted

    def look_up_bike(self, it: Interaction) -> None:
        number = it.field("bike_number").strip()
        if find(self.content(it)["bikes"], number) is None:
            it.toast("未找到该车辆，请核对车身编号")
            it.no_op(f"no bike {number!r}")
        self.push(it, "confirm", bike=number)

    def unlock(self, it: Interaction, bike_id: str) -> None:
        data = self.data(it)
        bike = find(self.content(it)["bikes"], bike_id)
        if self.active_ride(data) is not None:
            it.toast("你有进行中的行程")
            it.no_op("a ride is already going on")
        if bike["broken"]:
            it.set_ui("dialog", "broken")
            return
        ride_id = it.new_id("ride")
        data["rides"].append(
            {
                "id": ride_id,
                "bike": bike_id,
                "start": it.clock,
                "end": None,
                "fee_cents": None,
                "status": "riding",
            }
        )
        self.replace(it, "riding", ride=ride_id)
        it.toast("开锁成功，祝你骑行愉快")

    def end_ride(self, it: Interaction, ride_id: str) -> None:
        ride = find(self.data(it)["rides"], ride_id)
        if ride is None or ride["status"] != "riding":
            it.no_op("this ride is not going on")
        ride["end"] = it.clock
        ride["fee_cents"] = ride_fee(ride["end"] - ride["start"])
        ride["status"] = "unpaid"
        self.replace(it, "ended", ride=ride_id)

    def pay_ride(self, it: Interaction, ride_id: str) -> None:
        ride = find(self.data(it)["rides"], ride_id)
        if ride is None or ride["status"] != "unpaid":
            it.no_op("this ride does not need paying")
        self.pay(
            it,
            amount_cents=ride["fee_cents"],
            reference=ride_id,
            description=f"单车骑行 No.{ride['bike']}",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        ride = find(self.data(it)["rides"], reference)
        if ride is not None and paid:
            ride["status"] = "paid"
            it.toast("支付成功")

    # -- pages ---------------------------------------------------------------------------------
    def _location_dialog(self, v: MiniView) -> Dialog:
        return Dialog(
            "「青骑单车」申请获取你的位置信息",
            message="用于查找附近的单车和规范停车点",
            buttons=[
                Button(
                    "拒绝", v.do(self.answer_location, False), id="location_deny", style="secondary"
                ),
                Button("允许", v.do(self.answer_location, True), id="location_allow"),
            ],
            id="location_dialog",
        )

    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        ride = self.active_ride(v.data)
        body: list[Any] = [Image("附近单车地图", height=520, color=(170, 215, 190))]
        if ride is not None:
            body.append(
                Card(
                    [
                        Text("骑行中", size=48, bold=True, color=BRAND),
                        Text(f"车辆 No.{ride['bike']}  {hhmm(ride['start'])} 开锁"),
                        Button("查看行程", v.go("riding", ride=ride["id"]), id="current_ride"),
                    ]
                )
            )
        if v.data["location"]:
            body.append(Text("附近可用单车", size=42, bold=True, padding=16))
            body += [
                ListItem(
                    f"No.{b['id']}",
                    subtitle=b["spot"],
                    trailing=f"{b['distance_m']}m",
                    leading="车",
                    leading_color=BRAND,
                    id=f"nearby_{b['id']}",
                )
                for b in v.content["bikes"][:6]
            ]
        else:
            body.append(Text("开启定位后可查看附近单车", color=theme.TEXT_SECONDARY, padding=16))
        body += [
            Button("扫码用车", v.go("scan"), id="scan"),
            Button("我的行程", v.go("trips"), id="trips", style="text"),
        ]
        overlay = self._location_dialog(v) if v.data["location"] is None else None
        return MiniPage(body, overlay=overlay, padding=30, spacing=20)

    @page("scan")
    def scan(self, v: MiniView) -> MiniPage:
        in_view = [
            ListItem(
                f"No.{b['id']}",
                subtitle=f"{b['spot']} · 对准此车的二维码",
                leading="码",
                leading_color=BRAND,
                on_tap=v.go("confirm", bike=b["id"]),
                id=f"scan_{b['id']}",
            )
            for b in v.content["bikes"][:8]
        ]
        body = [
            Image("将车身二维码放入框内，即可自动扫描", height=560, color=(40, 40, 40)),
            Text("镜头前的车辆", size=42, bold=True, padding=16),
            *in_view,
            Text("二维码损坏？输入车身编号开锁", size=40, bold=True, padding=16),
            Row(
                [
                    TextField(
                        "bike_number",
                        v.field("bike_number"),
                        "9位车身编号",
                        on_focus=v.focus("bike_number"),
                        on_submit=v.do(self.look_up_bike),
                    ),
                    Button("确认", v.do(self.look_up_bike), id="bike_number_submit"),
                ],
                weights=(3, 1),
            ),
        ]
        return MiniPage(body, title="扫码开锁", padding=30, spacing=16)

    @page("confirm")
    def confirm(self, v: MiniView) -> MiniPage:
        bike = find(v.content["bikes"], v.params["bike"])
        overlay = None
        if v.ui("dialog") == "broken":
            overlay = Dialog(
                "该车辆暂时无法使用",
                message="车辆故障已为你上报，请换一辆车",
                buttons=[Button("知道了", v.set_ui("dialog", None), id="broken_ok")],
            )
        body = [
            Text("车辆编号", align="center", color=theme.TEXT_SECONDARY),
            Text(f"No.{bike['id']}", size=72, bold=True, align="center", id="confirm_bike"),
            Text(bike["spot"], align="center", color=theme.TEXT_SECONDARY),
            Card([Text("计费规则", bold=True), Text(PRICING, color=theme.TEXT_SECONDARY)]),
            Button("确认开锁", v.do(self.unlock, bike["id"]), id="unlock"),
        ]
        return MiniPage(body, overlay=overlay, title="确认用车", padding=40, spacing=30)

    @page("riding")
    def riding(self, v: MiniView) -> MiniPage:
        ride = find(v.data["rides"], v.params["ride"])
        if ride["status"] != "riding":
            return self.ended(v)
        seconds = v.clock - ride["start"]
        overlay = None
        if v.ui("dialog") == "end":
            overlay = v.confirm(
                "确认还车？",
                v.do(self.end_ride, ride["id"]),
                message="请确认车辆已停放在规范停车点内并已上锁",
                label="确认还车",
                confirm_id="confirm_end",
                cancel_label="继续骑行",
                cancel_id="keep_riding",
            )
        body = [
            Text("骑行中", size=64, bold=True, align="center", color=BRAND, id="ride_status"),
            Card(
                [
                    Text(f"车辆 No.{ride['bike']}", size=44, bold=True),
                    Text(f"开锁时间  {hhmm(ride['start'])}"),
                    Text(f"已骑行  {minutes_text(seconds)}", id="ride_duration"),
                    Text(f"当前费用  {yuan(ride_fee(seconds))}", id="ride_fee"),
                ]
            ),
            Text(PRICING, color=theme.TEXT_SECONDARY),
        ]
        bottom = Column(
            [Button("结束行程", v.set_ui("dialog", "end"), id="end_ride", style="danger")],
            padding=20,
            fill=theme.SURFACE,
        )
        return MiniPage(
            body, bottom=bottom, overlay=overlay, title="骑行中", padding=40, spacing=30
        )

    @page("ended")
    def ended(self, v: MiniView) -> MiniPage:
        ride = find(v.data["rides"], v.params["ride"])
        paid = ride["status"] == "paid"
        body = [
            Text("行程已结束", size=60, bold=True, align="center", id="ride_status"),
            Card(
                [
                    Text(f"车辆 No.{ride['bike']}"),
                    Text(f"骑行时长  {minutes_text(ride['end'] - ride['start'])}"),
                    Text(
                        f"{hhmm(ride['start'])} - {hhmm(ride['end'])}", color=theme.TEXT_SECONDARY
                    ),
                    Text(
                        yuan(ride["fee_cents"]), size=88, bold=True, align="center", id="ride_fee"
                    ),
                    Text(
                        "已支付" if paid else "待支付",
                        align="center",
                        color=BRAND if paid else theme.DANGER,
                        id="ride_paid",
                    ),
                ]
            ),
        ]
        if not paid:
            body.append(Button("立即支付", v.do(self.pay_ride, ride["id"]), id="pay_ride"))
        return MiniPage(body, title="行程详情", padding=40, spacing=30)

    @page("trips")
    def trips(self, v: MiniView) -> MiniPage:
        status = {"riding": "骑行中", "unpaid": "待支付", "paid": "已支付"}
        rows = [
            ListItem(
                f"No.{r['bike']}  {status[r['status']]}",
                subtitle=f"今天 {hhmm(r['start'])}",
                trailing=yuan(r["fee_cents"]) if r["fee_cents"] else "",
                on_tap=v.go("riding", ride=r["id"]),
                id=f"trip_{r['id']}",
            )
            for r in reversed(v.data["rides"])
        ]
        rows += [
            ListItem(
                f"{h['from']} → {h['to']}",
                subtitle=f"{h['days_ago']}天前 · 骑行{minutes_text(h['seconds'])}",
                trailing=yuan(h["fee_cents"]),
                id=f"trip_{h['id']}",
            )
            for h in v.data.get("history", v.content["history"])  # a task may start with its own
        ]
        return MiniPage(rows, title="我的行程")
