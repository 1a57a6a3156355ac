"""航班管家's home (机票, 行程, 动态, 我的), a trip's page (pay, check-in, refund, share), the seat
map of online check-in and a flight's status page with 关注."""

from __future__ import annotations

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.flights.base import (
    AIRPORT_NAME,
    CABIN_NAME,
    CHECKED,
    CITY_OF,
    GREEN,
    GREY,
    ORANGE,
    PAID,
    RED,
    SEAT_LETTERS,
    SEAT_ROWS,
    SKY,
    UNPAID,
    date_label,
    hours_before,
    refund_fee_cents,
    refund_rate,
    seat_taken,
    status_text,
)
from phonebuddy.phoneworld.apps.flights.search import SearchScreens
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan_short
from phonebuddy.phoneworld.ui.widgets import (
    AppBar,
    Button,
    Card,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
)

TABS = (("search", "机票"), ("trips", "行程"), ("status", "动态"), ("me", "我的"))
STATE_COLOR = {"计划": GREEN, "延误": ORANGE, "取消": RED, "到达": GREY}


class TripScreens(SearchScreens):
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", v.params.get("tab", "search"))
        body = {"search": self._search_tab, "trips": self._trips_tab,
                "status": self._status_tab, "me": self._me_tab}[tab](v)  # fmt: skip
        return Page("航班管家", [*body, Spacer(60)], header=Tabs(TABS, tab, v.on_select("tab")))

    def _trips_tab(self, v: View) -> list[Widget | None]:
        clock = int(v.os["clock"])
        rows: list[Widget | None] = [Spacer(12)]
        for b in sorted(v.data["bookings"], key=lambda b: b["flight_id"]):
            f = self.flight(v, b["flight_id"])
            names = "、".join(p["name"] for p in b["passengers"])
            rows.append(ListItem(
                f"{f['number']} {CITY_OF[f['from']]} → {CITY_OF[f['to']]}",
                subtitle=f"{date_label(f['day'], clock)} {f['depart']} · {names}",
                trailing=b["status"], leading="航", leading_color=SKY,
                on_tap=v.go("trip", booking_id=b["id"]), id=f"trip_{b['id']}",
            ))  # fmt: skip
        if len(rows) == 1:
            rows.append(Text("暂无行程", color=theme.TEXT_SECONDARY, align="center", padding=60))
        return rows

    def _status_tab(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = [
            Text("查询今日航班动态", size=40, bold=True, padding=12),
            TextField("query", v.field("query"), "输入航班号，如 CA1501", on_focus=v.focus("query"),
                      on_submit=v.do(self.look_up)),
            Button("查询", v.do(self.look_up), id="look_up"),
            Text("我关注的航班", size=40, bold=True, padding=12),
        ]  # fmt: skip
        for follow in v.data["follows"]:
            f = self.today(v, follow["id"])
            if f is not None:
                rows.append(ListItem(f"{f['number']} {CITY_OF[f['from']]} → {CITY_OF[f['to']]}",
                                     subtitle=f"计划 {f['depart']} 起飞", trailing=status_text(f),
                                     on_tap=v.go("status", number=f["number"]),
                                     id=f"followed_{f['number']}"))  # fmt: skip
        if not v.data["follows"]:
            rows.append(Text("还没有关注航班", color=theme.TEXT_SECONDARY, padding=20))
        return rows

    def _me_tab(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = [Text("常用乘机人", size=40, bold=True, padding=12)]
        rows += [ListItem(p["name"], subtitle=f"身份证 {p['id_number']}", id=f"person_{p['id']}")
                 for p in v.data["passengers"]]  # fmt: skip
        rows.append(Button("添加乘机人", v.go("passenger_form"), id="new_passenger",
                           style="secondary"))  # fmt: skip
        return rows

    # -- a trip ---------------------------------------------------------------------------------
    @screen("trip")
    def trip(self, v: View) -> Page:
        b = self.booking(v.data, v.params["booking_id"])
        f = self.flight(v, b["flight_id"])
        clock = int(v.os["clock"])
        people = [ListItem(p["name"], subtitle=f"身份证 {p['id_number']}",
                           trailing=f"座位 {p['seat']}" if p["seat"] else "未值机",
                           id=f"traveller_{i}",
                           action=None if p["seat"] or b["status"] not in (PAID, CHECKED) else
                           Button("值机选座", v.go("checkin", booking_id=b["id"], index=i),
                                  id=f"checkin_{i}", height=90, size=34))
                  for i, p in enumerate(b["passengers"])]  # fmt: skip
        hours = hours_before(f, clock)
        fee = refund_fee_cents(b["fare_cents"], hours)
        dialog = None
        if v.ui("dialog") == "refund":
            dialog = v.confirm("确认退票？", v.do(self.cancel, b["id"]),
                               message=f"起飞前{max(0, int(hours))}小时，收取票价的"
                               f"{refund_rate(hours)}%作为退票费{yuan_short(fee)}，"
                               f"预计退款{yuan_short(b['total_cents'] - fee)}",
                               label="确认退票", confirm_id="confirm_refund",
                               danger=True)  # fmt: skip
        actions: list[Widget | None] = []
        if b["status"] == UNPAID:
            actions.append(Button("去支付", v.do(self.pay_booking, b["id"]), id="pay"))
        if b["status"] in (PAID, CHECKED):
            actions.append(Button("退票", v.set_ui("dialog", "refund"), id="refund",
                                  style="danger"))  # fmt: skip
        actions.append(Button("分享行程", v.do(self.share_trip, b["id"]), id="share",
                              style="secondary"))  # fmt: skip
        return Page(AppBar("行程详情", on_back=v.back()), [
            Card([
                Text(f"{f['airline']} {f['number']}", size=48, bold=True, id="trip_number"),
                Text(b["status"], size=40, color=SKY, id="trip_status"),
                Text(date_label(f["day"], clock), size=38, id="trip_date"),
                Text(f"{f['depart']} {AIRPORT_NAME[f['from']]}", size=44, id="trip_depart"),
                Text(f"{f['arrive']} {AIRPORT_NAME[f['to']]}", size=44, id="trip_arrive"),
                Text(f"{CABIN_NAME[b['cabin']]} · 实付{yuan_short(b['total_cents'])}"
                     + (" · 含航意险" if b["insurance"] else ""), size=34,
                     color=theme.TEXT_SECONDARY, id="trip_paid"),
                Text(f"今日动态：{status_text(f)}  登机口 {f['status']['gate'] or '--'}", size=36,
                     id="trip_live") if f["status"] else None,
            ]),
            Text("乘机人", size=40, bold=True, padding=12),
            *people,
            *actions,
        ], body_padding=24, spacing=16, overlay=dialog)  # fmt: skip

    @screen("checkin")
    def checkin(self, v: View) -> Page:
        b = self.booking(v.data, v.params["booking_id"])
        index = int(v.params["index"])
        mine = {p["seat"] for p in b["passengers"]}
        rows: list[Widget | None] = [
            Text(f"{b['passengers'][index]['name']}，请选择座位（蓝色可选，白色已被占用）", size=36,
                 id="checkin_for"),
            Text("A、F靠窗，C、D靠过道", size=32, color=theme.TEXT_SECONDARY),
        ]  # fmt: skip
        for row in SEAT_ROWS:
            seats = []
            for letter in SEAT_LETTERS:
                seat = f"{row}{letter}"
                taken = seat_taken(b["flight_id"], seat) or seat in mine
                seats.append(Button(seat, v.do(self.check_in, b["id"], index, seat),
                                    id=f"seat_{seat}", style="secondary" if taken else "primary",
                                    height=90, size=30))  # fmt: skip
            rows.append(Row(seats, spacing=8))
        return Page(AppBar("在线值机", on_back=v.back()), rows, body_padding=24, spacing=12)

    @screen("status")
    def status(self, v: View) -> Page:
        f = self.today(v, v.params["number"])
        assert f is not None
        state = f["status"]
        followed = any(x["id"] == f["number"] for x in v.data["follows"])
        return Page(AppBar(f"{f['number']} 航班动态", on_back=v.back()), [
            Card([
                Text(f"{f['airline']} {f['number']}", size=48, bold=True, id="status_number"),
                Text(f"{AIRPORT_NAME[f['from']]} → {AIRPORT_NAME[f['to']]}", size=40,
                     id="status_route"),
                Text(status_text(f), size=52, bold=True,
                     color=STATE_COLOR[state["state"]], id="status_state"),
                Text(f"计划起飞 {f['depart']}  计划到达 {f['arrive']}", size=36, id="status_plan"),
                Text({"计划": "预计准点到达", "延误": "预计到达时间随起飞顺延",
                      "到达": "已到达", "取消": "航班已取消"}[state["state"]], size=36,
                     id="status_eta"),
                Text(f"登机口 {state['gate'] or '--'}", size=40, id="status_gate"),
                Text(f"准点率 {f['on_time']}%", size=34, color=theme.TEXT_SECONDARY,
                     id="status_on_time"),
            ]),
            Button("取消关注" if followed else "关注航班", v.do(self.toggle_follow, f["number"]),
                   id="follow", style="secondary" if followed else "primary"),
        ], body_padding=24, spacing=16)  # fmt: skip
