"""充电桩's secondary screens: a finished order, recharging the balance, adding a vehicle."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.charging.base import RED, ChargingBase
from phonebuddy.phoneworld.apps.charging.content import BONUS, PACKAGES, kwh_label, yuan
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Chip,
    ListItem,
    Page,
    Text,
    TextField,
    Widget,
    Wrap,
)

BEIJING = dt.timezone(dt.timedelta(hours=8))


class MoreScreens(ChargingBase):
    @staticmethod
    def date_time(clock: int) -> str:
        return dt.datetime.fromtimestamp(clock, BEIJING).strftime("%Y-%m-%d %H:%M")

    def bill_lines(self, record: dict[str, Any]) -> list[Widget]:
        return [
            Text(record["name"], size=46, bold=True, id="bill_station"),
            ListItem("桩编号", trailing=record["pile"], id="bill_pile"),
            ListItem("车辆", trailing=record["plate"], id="bill_plate"),
            ListItem("开始时间", trailing=self.date_time(record["start"]), id="bill_start"),
            ListItem("充电量", trailing=kwh_label(record["kwh"]), id="bill_kwh"),
            ListItem(f"电费（{record['band']}时段 {yuan(record['price'])}/度）",
                     trailing=yuan(record["energy"]), id="bill_energy"),
            ListItem(f"服务费（{yuan(record['fee'])}/度）", trailing=yuan(record["service"]),
                     id="bill_service"),
            ListItem("优惠券抵扣", trailing=f"-{yuan(record['off'])}", id="bill_off"),
            ListItem("实付金额", trailing=yuan(record["total"]), id="bill_total"),
        ]  # fmt: skip

    @screen("order")
    def order_page(self, v: View) -> Page:
        record = next((h for h in v.data["history"] if h["id"] == v.params["order_id"]), None)
        if record is None:
            return Page("订单详情", [Text("订单不存在", padding=40)], on_back=v.back())
        return Page(
            "订单详情",
            [*self.bill_lines(record),
             ListItem("支付方式", trailing=record["paid_by"] or "—", id="bill_paid_by")],
            on_back=v.back(),
            body_padding=30,
            spacing=12,
        )  # fmt: skip

    @screen("recharge")
    def recharge_page(self, v: View) -> Page:
        chosen = v.ui("package")
        chips = [Chip(yuan(p) + (f" 送{yuan(BONUS[p])}" if p in BONUS else ""),
                      v.set_ui("package", p), selected=chosen == p, id=f"pkg_{p // 100}")
                 for p in PACKAGES]  # fmt: skip
        return Page(
            "余额充值",
            [
                Text(f"当前余额 {yuan(v.data['balance'])}", size=44, bold=True, id="balance_now"),
                Text("选择充值金额", size=40),
                Wrap(chips),
                Text("充值将跳转到钱包支付，赠送金额即时到账", size=34,
                     color=theme.TEXT_SECONDARY),
                Button("立即充值", v.do(self.recharge), id="recharge_pay"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
        )  # fmt: skip

    @screen("add_vehicle")
    def add_vehicle_page(self, v: View) -> Page:
        error = v.ui("vehicle_error")
        return Page(
            "添加车辆",
            [
                TextField("plate", v.field("plate"), "车牌号，如 浙A·D12345",
                          on_focus=v.focus("plate")),
                TextField("battery", v.field("battery"), "电池容量（度）",
                          on_focus=v.focus("battery")),
                Text(error, color=RED, id="vehicle_error") if error else None,
                Button("保存车辆", v.do(self.add_vehicle), id="save_vehicle"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
        )  # fmt: skip
