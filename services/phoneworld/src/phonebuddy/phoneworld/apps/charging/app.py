"""The 充电桩 app (特来电/星星充电-like): 附近电站 (filters 快充/有空闲, sort 距离/价格), a
station's page (峰平谷 prices, service fee, piles, 收藏), starting a session by pile number with
a kWh or SOC target, the running session (it advances with the clock), the bill (best coupon
applied; paid from the 充电余额 or in the wallet), 订单 with totals and 我的 (balance, recharge,
vehicles, coupons, favourites)."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.charging.base import (
    CHARGING,
    RED,
    TEAL,
    ChargingBase,
    charged,
    local_hour,
    tariffed,
)
from phonebuddy.phoneworld.apps.charging.content import BANDS, band_of, kwh_label, yuan
from phonebuddy.phoneworld.apps.charging.more import MoreScreens
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    IconButton,
    ListItem,
    Page,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

__all__ = ["CHARGING", "Charging"]
TABS = (("stations", "附近电站"), ("orders", "订单"), ("me", "我的"))


def pile_counts(piles: Any, kind: str, data: dict[str, Any]) -> tuple[int, int]:
    mine = data["session"]["pile"] if data["session"] else None
    of_kind = [p for p in piles if p["kind"] == kind]
    return sum(p["status"] == "空闲" and p["id"] != mine for p in of_kind), len(of_kind)


class Charging(MoreScreens, ChargingBase):
    def now_price(self, v: View, station: Any) -> int:
        return int(station["prices"][band_of(local_hour(self.clock_of(v)))] + station["fee"])

    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "stations")
        body = {"stations": self._stations, "orders": self._orders, "me": self._me}[tab](v)
        return Page("充电桩", [*body, Spacer(60)], header=Tabs(TABS, tab, v.on_select("tab")))

    def _stations(self, v: View) -> list[Widget | None]:
        fast, free, sort = v.ui("fast", False), v.ui("free", False), v.ui("sort", "distance")
        rows: list[Widget | None] = []
        if v.data["session"] or v.data["bill"]:
            label = "充电中，查看订单" if v.data["session"] else "订单待支付，去结算"
            rows.append(Button(label, v.go("session" if v.data["session"] else "bill"),
                               id="ongoing"))  # fmt: skip
        rows.append(Button("输入桩编号充电", v.go("start"), id="scan", style="secondary"))
        rows.append(Wrap([
            Chip("只看快充", v.set_ui("fast", not fast), selected=fast, id="filter_fast"),
            Chip("只看空闲", v.set_ui("free", not free), selected=free, id="filter_free"),
            Chip("距离最近", v.set_ui("sort", "distance"), selected=sort == "distance",
                 id="sort_distance"),
            Chip("价格最低", v.set_ui("sort", "price"), selected=sort == "price", id="sort_price"),
        ]))  # fmt: skip
        stations = [tariffed(s, v.data) for s in v.content["stations"]]
        if fast:
            stations = [s for s in stations if pile_counts(s["piles"], "快充", v.data)[1]]
        if free:
            kinds = ("快充",) if fast else ("快充", "慢充")
            stations = [s for s in stations
                        if any(pile_counts(s["piles"], k, v.data)[0] for k in kinds)]  # fmt: skip
        if sort == "price":
            stations.sort(key=lambda s: (self.now_price(v, s), s["distance"]))
        else:
            stations.sort(key=lambda s: s["distance"])
        for s in stations:
            f_free, f_all = pile_counts(s["piles"], "快充", v.data)
            s_free, s_all = pile_counts(s["piles"], "慢充", v.data)
            rows.append(ListItem(
                s["name"],
                subtitle=f"{s['distance']}km｜快充 空闲{f_free}/{f_all}｜慢充 空闲{s_free}/{s_all}",
                trailing=f"{yuan(self.now_price(v, s))}/度",
                leading="充", leading_color=TEAL,
                on_tap=v.go("station", station_id=s["id"]), id=f"station_{s['id']}",
            ))  # fmt: skip
        if not stations:
            rows.append(Text("附近没有符合条件的电站", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        return rows

    def _orders(self, v: View) -> list[Widget | None]:
        history = v.data["history"]
        total_kwh = sum(h["kwh"] for h in history)
        total = sum(h["total"] for h in history)
        rows: list[Widget | None] = [
            Card(
                [
                    Text(f"累计充电 {kwh_label(total_kwh)}", size=44, bold=True, id="total_kwh"),
                    Text(f"共{len(history)}笔订单，合计{yuan(total)}", size=36, id="total_cost"),
                ]
            ),
        ]
        for h in reversed(history):
            rows.append(ListItem(
                h["name"], subtitle=f"{self.date_time(h['start'])}｜{kwh_label(h['kwh'])}",
                trailing=yuan(h["total"]), on_tap=v.go("order", order_id=h["id"]),
                id=f"order_{h['id']}",
            ))  # fmt: skip
        return rows

    def _me(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = [
            Card(
                [
                    Text("充电余额", size=36, color=theme.TEXT_SECONDARY),
                    Text(yuan(v.data["balance"]), size=64, bold=True, id="balance"),
                    Button("充值", v.go("recharge"), id="recharge"),
                ]
            ),
            Text("我的车辆", size=42, bold=True, padding=16),
        ]
        for car in v.data["vehicles"]:
            rows.append(ListItem(car["plate"], subtitle=f"{car['model'] or '未填写车型'}｜电池"
                                 f"{car['battery']}度｜当前电量{car['soc']}%",
                                 id=f"car_{car['id']}"))  # fmt: skip
        rows.append(Button("添加车辆", v.go("add_vehicle"), id="add_vehicle", style="secondary"))
        rows.append(Text("优惠券", size=42, bold=True, padding=16))
        for c in v.data["coupons"]:
            rows.append(ListItem(c["title"], trailing="已使用" if c["used"] else "可用",
                                 id=f"coupon_{c['id']}"))  # fmt: skip
        rows.append(Text("收藏的电站", size=42, bold=True, padding=16))
        for f in v.data["favourites"]:
            s = self.station(v, f["id"])
            rows.append(ListItem(s["name"], subtitle=s["address"],
                                 on_tap=v.go("station", station_id=s["id"]),
                                 id=f"fav_{s['id']}"))  # fmt: skip
        if not v.data["favourites"]:
            rows.append(Text("还没有收藏电站", color=theme.TEXT_SECONDARY, padding=20))
        return rows

    @screen("station")
    def station_page(self, v: View) -> Page:
        s = self.station(v, v.params["station_id"])
        liked = any(f["id"] == s["id"] for f in v.data["favourites"])
        prices = [ListItem(f"{band}时段 {hours}", trailing=f"电费{yuan(s['prices'][band])}/度",
                           id=f"price_{band}") for band, hours in BANDS]  # fmt: skip
        piles = [ListItem(f"{p['kind']} {p['id']}", subtitle=f"{p['power']}kW",
                          trailing=self.pile_status(v.data, p), id=f"pile_{p['id']}")
                 for p in s["piles"]]  # fmt: skip
        return Page(
            "电站详情",
            [
                Card([
                    Text(s["name"], size=52, bold=True, id="name"),
                    Text(s["address"], size=38, id="address"),
                    Text(f"{s['distance']}km｜{s['operator']}｜评分{s['rating']}", size=36,
                         color=theme.TEXT_SECONDARY, id="info"),
                    Text(s["parking"], size=36, id="parking"),
                ]),
                Button("输入桩编号充电", v.go("start"), id="start"),
                Text("分时电价", size=42, bold=True, padding=12),
                *prices,
                ListItem("服务费（各时段相同）", trailing=f"{yuan(s['fee'])}/度", id="fee"),
                Text("充电桩", size=42, bold=True, padding=12),
                *piles,
            ],
            on_back=v.back(),
            actions=[IconButton("share", "分享", v.do(self.share_station, s["id"]), id="share"),
                     IconButton("favorite" if liked else "star", "取消收藏" if liked else "收藏",
                                v.do(self.toggle_favourite, s["id"]), id="favourite")],
            body_padding=30,
            spacing=16,
        )  # fmt: skip

    @screen("start")
    def start_page(self, v: View) -> Page:
        mode = v.ui("mode", "kwh")
        chosen = v.ui("vehicle") or v.data["vehicles"][0]["id"]
        cars = [Chip(c["plate"], v.set_ui("vehicle", c["id"]), selected=c["id"] == chosen,
                     id=f"vehicle_{c['id']}") for c in v.data["vehicles"]]  # fmt: skip
        return Page(
            "开始充电",
            [
                Text("请输入充电桩上的桩编号", size=38, color=theme.TEXT_SECONDARY),
                TextField("pile", v.field("pile"), "桩编号", on_focus=v.focus("pile")),
                Text("充电车辆", size=40, bold=True),
                Wrap(cars),
                Text("充电目标", size=40, bold=True),
                Wrap([Chip("按度数", v.set_ui("mode", "kwh"), selected=mode == "kwh",
                           id="mode_kwh"),
                      Chip("按目标电量", v.set_ui("mode", "soc"), selected=mode == "soc",
                           id="mode_soc")]),
                TextField("target", v.field("target"),
                          "充电度数（度）" if mode == "kwh" else "目标电量（%）",
                          on_focus=v.focus("target")),
                Button("启动充电", v.do(self.start), id="start_charge"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
        )  # fmt: skip

    @screen("session")
    def session_page(self, v: View) -> Page:
        session = v.data["session"]
        if session is None:
            return Page("充电中", [Text("当前没有进行中的充电", padding=40)], on_back=v.back())
        s = self.station(v, session["station"])
        clock = self.clock_of(v)
        done = charged(session, clock)
        full = done >= session["target"]
        elapsed = clock - session["start"]
        price = s["prices"][session["band"]] + s["fee"]
        dialog = None
        if v.ui("dialog") == "stop":
            dialog = v.confirm("结束充电？", v.do(self.stop), message="结束后将生成账单。",
                               label="结束充电", confirm_id="confirm_stop")  # fmt: skip
        return Page(
            "充电中",
            [
                Text(s["name"], size=46, bold=True, id="station_name"),
                Text(f"桩编号 {session['pile']}｜{session['power']}kW", size=36, id="pile_info"),
                Text("已达到充电目标，请结束充电" if full else "正在充电…", size=40,
                     color=TEAL, id="state"),
                Text(f"已充 {kwh_label(done)} / 目标 {kwh_label(session['target'])}", size=44,
                     bold=True, id="charged"),
                Text(f"已充时长 {elapsed // 60}分{elapsed % 60}秒", size=36, id="elapsed"),
                Text(f"{session['band']}时段 单价{yuan(price)}/度（含服务费）", size=36,
                     id="unit_price"),
                Text(f"预估费用 {yuan(round(done * price / 100))}", size=36, id="estimate"),
                Button("结束充电", v.set_ui("dialog", "stop"), id="stop", style="danger"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
            overlay=dialog,
        )  # fmt: skip

    @screen("bill")
    def bill_page(self, v: View) -> Page:
        record = v.data["bill"]
        if record is None:
            return Page("账单", [Text("没有待支付的订单", padding=40)], on_back=v.back())
        dialog = None
        if v.ui("dialog") == "balance":
            dialog = v.confirm("使用充电余额支付？", v.do(self.pay_balance),
                               message=f"将从余额扣除{yuan(record['total'])}",
                               label="确认支付", confirm_id="confirm_balance")  # fmt: skip
        short = v.data["balance"] < record["total"]
        return Page(
            "待支付",
            [
                *self.bill_lines(record),
                Text(f"充电余额 {yuan(v.data['balance'])}" + ("（不足）" if short else ""),
                     size=36, color=RED if short else theme.TEXT_SECONDARY, id="balance_left"),
                Button("余额支付", v.set_ui("dialog", "balance"), id="pay_balance"),
                Button("钱包支付", v.do(self.pay_wallet), id="pay_wallet", style="secondary"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=16,
            overlay=dialog,
        )  # fmt: skip
