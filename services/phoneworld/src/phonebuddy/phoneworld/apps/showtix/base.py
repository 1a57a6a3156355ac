"""The 演出票 app's base: constants, look-ups and every handler (the only place data changes)."""

from __future__ import annotations

import datetime as dt
import random
import zlib
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View
from phonebuddy.phoneworld.apps.showtix import content
from phonebuddy.phoneworld.apps.showtix.content import (
    REFUND_FEE_PERCENT,
    REFUND_HOURS,
    date_label,
    price_label,
    session_date,
    valid_id,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.format import BEIJING, local_date
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

SHOWTIX = "com.pw.showtix"
PINK: Color = (255, 45, 85)
Source = View | Interaction


class ShowTixBase(App):
    package = SHOWTIX
    label = Label(zh="演出票", en="ShowTix")
    domain = "ticketing"
    theme = AppTheme(primary=PINK)
    icon_text = "演"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "viewers": [clone(v) for v in content["viewers"]],
            "want": list(content["want"]),
            "orders": [clone(o) for o in content["orders"]],
            "waitlist": [],
        }

    # -- look-ups ---------------------------------------------------------------------------------
    @staticmethod
    def show(v: Source, show_id: str) -> dict[str, Any]:
        """A show as this phone last loaded it: a session's sold-out tiers are those of this
        device's `sold_out` update where it has one."""
        show = next(s for s in v.content["shows"] if s["id"] == show_id)
        sold = v.data.get("sold_out", {})
        if not any(x["id"] in sold for x in show["sessions"]):
            return show  # type: ignore[no-any-return]
        sessions = [{**x, "sold_out": tuple(sold[x["id"]])} if x["id"] in sold else x
                    for x in show["sessions"]]  # fmt: skip
        return {**show, "sessions": sessions}

    def session(self, v: Source, session_id: str) -> dict[str, Any]:
        show = self.show(v, session_id.rsplit("-", 1)[0])
        return next(s for s in show["sessions"] if s["id"] == session_id)

    @staticmethod
    def today(v: Source) -> dt.date:
        clock = v.clock if isinstance(v, Interaction) else v.os["clock"]
        return local_date(clock)

    def when(self, v: Source, session: Any) -> str:
        return f"{date_label(session_date(self.today(v), session))} {session['time']}"

    def starts_at(self, v: Source, session: Any) -> int:
        day = session_date(self.today(v), session)
        hour, minute = (int(x) for x in session["time"].split(":"))
        start = dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=BEIJING)
        return int(start.timestamp())

    @staticmethod
    def order(data: dict[str, Any], order_id: str) -> dict[str, Any] | None:
        return next((o for o in data["orders"] if o["id"] == order_id), None)

    @staticmethod
    def viewer(data: dict[str, Any], viewer_id: str) -> dict[str, Any] | None:
        return next((p for p in data["viewers"] if p["id"] == viewer_id), None)

    # -- handlers -------------------------------------------------------------------------------
    def toggle_want(self, it: Interaction, show_id: str) -> None:
        want = it.data["want"]
        if show_id in want:
            want.remove(show_id)
            it.toast("已取消想看")
        else:
            want.insert(0, show_id)
            it.toast("已加入想看")

    def pick_session(self, it: Interaction, session_id: str) -> None:
        if it.ui("session") == session_id:
            it.no_op(f"{session_id} is already picked")
        it.set_ui("session", session_id)
        it.set_ui("tier", None)
        it.set_ui("qty", 1)

    def pick_tier(self, it: Interaction, price: int) -> None:
        if not it.ui("session"):
            it.toast("请先选择场次")
            it.no_op("no session picked")
        it.set_ui("tier", price)
        it.set_ui("qty", 1)

    def change_qty(self, it: Interaction, show_id: str, step: int) -> None:
        qty = it.ui("qty", 1) + step
        limit = self.show(it, show_id)["limit"]
        if qty < 1:
            it.no_op("at least one ticket")
        if qty > limit:
            it.toast(f"每单限购{limit}张")
            it.no_op(f"over the limit of {limit}")
        it.set_ui("qty", qty)

    def register_waitlist(self, it: Interaction, session_id: str, price: int) -> None:
        session = self.session(it, session_id)
        if price not in session["sold_out"]:
            it.no_op("the tier is on sale")
        entry_id = f"{session_id}-{price // 100}"
        if any(w["id"] == entry_id for w in it.data["waitlist"]):
            it.toast("已登记过，有票会通知您")
            it.no_op(f"{entry_id} is already registered")
        show_id = session_id.rsplit("-", 1)[0]
        it.data["waitlist"].append({"id": entry_id, "show": show_id, "session": session_id,
                                    "tier": price, "time": it.clock})  # fmt: skip
        it.toast("缺货登记成功，有票将第一时间通知您")

    def go_checkout(self, it: Interaction, show_id: str) -> None:
        session_id, price = it.ui("session"), it.ui("tier")
        if not session_id or not price:
            it.toast("请选择场次和票档")
            it.no_op("no session or tier")
        if price in self.session(it, session_id)["sold_out"]:
            it.toast("该票档已售罄")
            it.no_op("sold out")
        it.push("checkout", show_id=show_id, session_id=session_id, price=price,
                qty=it.ui("qty", 1))  # fmt: skip

    def toggle_viewer(self, it: Interaction, viewer_id: str) -> None:
        picked = list(it.ui("picked", []))
        if viewer_id in picked:
            picked.remove(viewer_id)
        elif len(picked) >= it.entry["params"]["qty"]:
            it.toast(f"最多选择{it.entry['params']['qty']}位观演人")
            it.no_op("too many viewers")
        else:
            picked.append(viewer_id)
        it.set_ui("picked", picked)

    def submit(self, it: Interaction) -> None:
        p = it.entry["params"]
        show, qty = self.show(it, p["show_id"]), p["qty"]
        picked = list(it.ui("picked", []))
        if show["real_name"] and len(picked) != qty:
            it.toast(f"实名制演出，请选择{qty}位观演人")
            it.no_op(f"{len(picked)} viewers for {qty} tickets")
        order_id = it.new_id("order")
        it.data["orders"].insert(0, {
            "id": order_id, "order_no": "", "code": "", "show": show["id"],
            "session": p["session_id"], "tier": p["price"], "qty": qty,
            "viewers": picked if show["real_name"] else [], "total": p["price"] * qty,
            "status": "待付款", "refund": 0,
        })  # fmt: skip
        it.replace("order", order_id=order_id)
        self.pay(it, order_id)

    def pay(self, it: Interaction, order_id: str) -> None:
        order = self.order(it.data, order_id)
        if order is None or order["status"] != "待付款":
            it.no_op(f"{order_id} needs no payment")
        show = self.show(it, order["show"])
        it.request_payment(
            amount_cents=order["total"],
            merchant="演出票",
            reference=f"ticket:{order_id}",
            description=f"《{show['title']}》门票 {order['qty']}张",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        order = self.order(it.data, reference.removeprefix("ticket:"))
        if not paid or order is None or order["status"] != "待付款":
            return
        number = f"{local_date(it.clock):%Y%m%d}{zlib.crc32(order['id'].encode()) % 10**8:08d}"
        code = f"{10**7 + zlib.crc32(number.encode()) % (9 * 10**7)}"
        order.update(status="已付款", order_no=number, code=code)
        it.toast("支付成功，出票中")

    def refundable(self, v: Source, order: Any) -> bool:
        start = self.starts_at(v, self.session(v, order["session"]))
        clock = v.clock if isinstance(v, Interaction) else v.os["clock"]
        return order["status"] == "已付款" and start - clock >= REFUND_HOURS * 3600

    def ask_refund(self, it: Interaction, order_id: str) -> None:
        order = self.order(it.data, order_id)
        if order is None or order["status"] != "已付款":
            it.no_op(f"{order_id} is not paid")
        if not self.refundable(it, order):
            it.toast(f"距开演不足{REFUND_HOURS}小时，不支持退票")
            it.no_op("too late to refund")
        it.set_ui("dialog", "refund")

    def refund(self, it: Interaction, order_id: str) -> None:
        order = self.order(it.data, order_id)
        if order is None or not self.refundable(it, order):
            it.no_op(f"{order_id} cannot be refunded")
        back = order["total"] * (100 - REFUND_FEE_PERCENT) // 100
        order.update(status="已退款", refund=back)
        it.set_ui("dialog", None)
        it.toast(f"退票成功，{price_label(back)}将原路退回")

    def save_viewer(self, it: Interaction) -> None:
        name, number = it.field("name").strip(), it.field("idno").strip().upper()
        if not 2 <= len(name) <= 12:
            it.set_ui("error", "请输入观演人姓名")
            it.no_op("no name")
        if not valid_id(number):
            it.set_ui("error", "身份证号码有误，请检查")
            it.no_op(f"bad ID {number!r}")
        if any(p["idno"] == number for p in it.data["viewers"]):
            it.set_ui("error", "该观演人已存在")
            it.no_op("duplicate viewer")
        it.data["viewers"].append({"id": it.new_id("viewer"), "name": name, "idno": number})
        it.toast("观演人已添加")
        it.pop()

    def clear_search(self, it: Interaction) -> None:
        if not it.field("search"):
            it.no_op("the search is empty")
        it.set_field("search", "")

    def share_show(self, it: Interaction, show_id: str) -> None:
        show = self.show(it, show_id)
        low = min(show["tiers"])
        it.share({"kind": "link", "title": f"《{show['title']}》",
                  "text": f"《{show['title']}》{show['city']}·{show['venue']}，"
                          f"{price_label(low)}起，一起去看吧！",
                  "source": "演出票"})  # fmt: skip
