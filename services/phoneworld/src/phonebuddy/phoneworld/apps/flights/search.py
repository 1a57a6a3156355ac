"""航班管家's search and booking: the 机票 tab (cities, date chips), the results with sorting and
filters, a flight's page with its cabins, the order form (passengers, contact, insurance) and
the passenger form."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.flights.base import (
    AIRPORT_NAME,
    CABIN_NAME,
    CITY_OF,
    GREY,
    ORANGE,
    SKY,
    SORTS,
    FlightsBase,
    date_label,
    duration_text,
    live,
    per_person_cents,
)
from phonebuddy.phoneworld.apps.flights.content import AIRLINES, AIRPORTS, CABINS, DAYS, FEE_CENTS
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan_short
from phonebuddy.phoneworld.ui.widgets import (
    AppBar,
    Button,
    Card,
    Chip,
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


def flight_line(flight: Any) -> str:
    stop = f"经停{flight['stop']}" if flight["stop"] else "直飞"
    return f"{flight['airline']} {flight['number']} · {flight['aircraft']} · {stop}"


class SearchScreens(FlightsBase):
    def _search_tab(self, v: View) -> list[Widget | None]:
        origin, dest = v.ui("from", "PEK"), v.ui("to", "SHA")
        clock = int(v.os["clock"])
        day = int(v.ui("day", 0))
        chips = [Chip(date_label(d, clock), v.set_ui("day", d), selected=d == day, id=f"date_{d}")
                 for d in range(DAYS)]  # fmt: skip
        return [
            Card([
                Row([
                    Text(CITY_OF[origin], size=64, bold=True, id="from_city",
                         on_tap=v.go("cities", target="from")),
                    IconButton("换", "交换出发地和目的地", v.do(self.swap), id="swap", color=SKY),
                    Text(CITY_OF[dest], size=64, bold=True, align="right", id="to_city",
                         on_tap=v.go("cities", target="to")),
                ]),
                Text("出发日期", size=36, color=theme.TEXT_SECONDARY),
                Wrap(chips),
                Button("搜索机票", v.do(self.search), id="search"),
            ], spacing=24),
            Card([
                Text("购票须知", size=38, bold=True),
                Text(f"每位乘客另收机场建设费{yuan_short(FEE_CENTS)}；航空意外险每份¥30，自愿购买。",
                     size=34, color=theme.TEXT_SECONDARY),
                Text("退票费按起飞前时间收取：72小时以上10%，24-72小时20%，4-24小时30%，"
                     "4小时内50%（按票价计）。", size=34, color=theme.TEXT_SECONDARY,
                     id="refund_rules"),
            ]),
        ]  # fmt: skip

    @screen("cities")
    def cities(self, v: View) -> Page:
        target = v.params["target"]
        items: list[Widget | None] = [
            ListItem(f"{city}{airport}", subtitle=code, leading=city[:1], leading_color=SKY,
                     on_tap=v.do(self.choose_city, target, code), id=f"city_{code}")
            for city, airport, code in AIRPORTS
        ]  # fmt: skip
        title = "选择出发城市" if target == "from" else "选择到达城市"
        return Page(AppBar(title, on_back=v.back()), [Spacer(12), *items, Spacer(40)])

    @screen("results")
    def results(self, v: View) -> Page:
        origin, dest, day = v.params["origin"], v.params["dest"], int(v.params["day"])
        clock = int(v.os["clock"])
        sort = v.ui("sort", "depart")
        direct = bool(v.ui("direct", False))
        airline = v.ui("airline", "")
        flights = [live(f, v.data) for f in v.content["flights"]
                   if f["from"] == origin and f["to"] == dest and f["day"] == day]  # fmt: skip
        airlines = sorted({f["code"] for f in flights})
        if direct:
            flights = [f for f in flights if not f["stop"]]
        if airline:
            flights = [f for f in flights if f["code"] == airline]
        key = {"depart": lambda f: f["depart"], "price": lambda f: f["prices"]["economy"],
               "duration": lambda f: f["duration"]}[sort]  # fmt: skip
        flights.sort(key=lambda f: (key(f), f["depart"]))
        days = [Chip(date_label(d, clock), v.do(self.shift_day, d), selected=d == day,
                     id=f"day_{d}") for d in range(DAYS)]  # fmt: skip
        sorts = [Chip(label, v.set_ui("sort", k), selected=sort == k, id=f"sort_{k}")
                 for k, label in SORTS]  # fmt: skip
        names = dict(AIRLINES)
        filters = [
            Chip("仅看直飞", v.set_ui("direct", not direct), selected=direct, id="filter_direct"),
            Chip("全部航司", v.set_ui("airline", ""), selected=not airline, id="air_all"),
        ]
        filters += [Chip(names[c], v.set_ui("airline", c), selected=airline == c, id=f"air_{c}")
                    for c in airlines]  # fmt: skip
        rows: list[Widget | None] = [Wrap(days), Wrap(sorts), Wrap(filters)]
        for f in flights:
            left = self.seats_left(v, f, "economy")
            gone = self.departed(f, clock)
            price = "已起飞" if gone else ("售罄" if not left else
                                          f"{yuan_short(f['prices']['economy'])}起")  # fmt: skip
            rows.append(ListItem(
                f"{f['depart']} → {f['arrive']}  {duration_text(f['duration'])}",
                subtitle=flight_line(f), trailing=price, leading=f["code"],
                leading_color=GREY if gone or not left else SKY,
                on_tap=v.go("flight", flight_id=f["id"]), id=f"flight_{f['number']}",
            ))  # fmt: skip
        if not flights:
            rows.append(Text("没有符合条件的航班", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        title = AppBar(f"{CITY_OF[origin]} → {CITY_OF[dest]}", on_back=v.back(),
                       subtitle=date_label(day, clock))  # fmt: skip
        return Page(title, [*rows, Spacer(60)])

    @screen("flight")
    def flight_page(self, v: View) -> Page:
        f = self.flight(v, v.params["flight_id"])
        clock = int(v.os["clock"])
        cabins: list[Widget | None] = []
        for cabin, name in CABINS:
            left = self.seats_left(v, f, cabin)
            cabins.append(ListItem(
                name, subtitle=f"余{left}张" if left else "已售罄",
                trailing=yuan_short(f["prices"][cabin]), id=f"cabin_{cabin}",
                action=Button("预订" if left else "售罄", v.do(self.start_booking, f["id"], cabin),
                              id=f"book_{cabin}", style="primary" if left else "secondary",
                              height=90, size=34),
            ))  # fmt: skip
        return Page(AppBar(f"{f['number']} 航班详情", on_back=v.back()), [
            Card([
                Text(f"{f['airline']} {f['number']}", size=48, bold=True, id="number"),
                Text(date_label(f["day"], clock), size=36, color=theme.TEXT_SECONDARY, id="date"),
                Text(f"{f['depart']} {AIRPORT_NAME[f['from']]}", size=44, id="depart"),
                Text(f"{f['arrive']} {AIRPORT_NAME[f['to']]}", size=44, id="arrive"),
                Text(f"{duration_text(f['duration'])} · {f['aircraft']} · "
                     f"{'经停' + f['stop'] if f['stop'] else '直飞'} · 准点率{f['on_time']}%",
                     size=34, color=theme.TEXT_SECONDARY, id="info"),
            ]),
            Text("选择舱位", size=40, bold=True, padding=12),
            *cabins,
            Text(f"以上为票价，另收机建费{yuan_short(FEE_CENTS)}/人", size=32,
                 color=theme.TEXT_SECONDARY, padding=12),
        ], body_padding=24, spacing=12)  # fmt: skip

    @screen("book")
    def book(self, v: View) -> Page:
        f = self.flight(v, v.params["flight_id"])
        cabin = v.params["cabin"]
        chosen = v.ui("chosen", [])
        insurance = bool(v.ui("insurance", False))
        total = per_person_cents(f, cabin, insurance) * len(chosen)
        people = [
            ListItem(p["name"], subtitle=f"身份证 {p['id_number'][:6]}****{p['id_number'][-4:]}",
                     selected=p["id"] in chosen, trailing="已选" if p["id"] in chosen else "",
                     on_tap=v.do(self.toggle_passenger, p["id"]), id=f"pax_{p['id']}")
            for p in v.data["passengers"]
        ]  # fmt: skip
        dialog = None
        if v.ui("dialog") == "pay":
            dialog = v.confirm("确认订单", v.do(self.submit, f["id"], cabin),
                               message=f"{f['number']} {CABIN_NAME[cabin]} {len(chosen)}人，"
                               f"共{yuan_short(total)}，将跳转到钱包支付", label="去支付",
                               confirm_id="confirm_pay")  # fmt: skip
        return Page(AppBar("填写订单", on_back=v.back()), [
            Card([
                Text(f"{f['number']} {CITY_OF[f['from']]} → {CITY_OF[f['to']]}", size=44,
                     bold=True, id="book_flight"),
                Text(f"{date_label(f['day'], int(v.os['clock']))} {f['depart']}-{f['arrive']} · "
                     f"{CABIN_NAME[cabin]} {yuan_short(f['prices'][cabin])}", size=36,
                     color=theme.TEXT_SECONDARY, id="book_info"),
            ]),
            Text("乘机人", size=40, bold=True, padding=12),
            *people,
            Button("添加乘机人", v.go("passenger_form"), id="add_passenger", style="secondary",
                   height=100, size=36),
            Text("联系手机", size=40, bold=True, padding=12),
            TextField("contact", v.field("contact"), "默认本机号码 138****5678",
                      on_focus=v.focus("contact")),
            Toggle("航空意外险 ¥30/人", insurance, v.set_ui("insurance", not insurance),
                   id="insurance", subtitle="保额260万，自愿购买"),
            Text(f"合计 {yuan_short(total)}", size=48, bold=True, color=ORANGE, id="total"),
            Button("提交订单", v.do(self.ask_submit, f["id"], cabin), id="submit"),
            Spacer(60),
        ], body_padding=24, spacing=12, overlay=dialog)  # fmt: skip

    @screen("passenger_form")
    def passenger_form(self, v: View) -> Page:
        return Page(AppBar("添加乘机人", on_back=v.back()), [
            Text("姓名", size=38, bold=True),
            TextField("pax_name", v.field("pax_name"), "与证件一致", on_focus=v.focus("pax_name")),
            Text("身份证号", size=38, bold=True),
            TextField("pax_id", v.field("pax_id"), "18位身份证号码", on_focus=v.focus("pax_id")),
            Button("保存", v.do(self.save_passenger), id="save_passenger"),
        ], body_padding=30, spacing=20)  # fmt: skip
