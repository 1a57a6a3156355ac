"""The Reviews app (点评): shops by category with district / sort / 人均 filters and search, a
shop's page (rating, address with a copy button, reviews, 收藏), table booking for the next seven
days (a slot may be full), 我的订座 with cancelling, and writing a review.

Shops are seeded content (`content.build_shops`); the phone holds the favourites, bookings and
the reviews written on it. Screens live in `screens.py`.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from typing import Any

from phonebuddy.phoneworld.app import App, Label
from phonebuddy.phoneworld.apps.reviews.content import (
    BOOKED,
    CANCELLED,
    DAYS,
    MAX_PEOPLE,
    MIN_REVIEW_CHARS,
    MY_PHONE,
    PAID,
    REVIEWS,
    UNPAID,
    build_shops,
    day_offset,
    is_full,
)
from phonebuddy.phoneworld.apps.reviews.screens import Screens
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui.format import local_date, minute_of_day
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

ORANGE: Color = (255, 102, 51)
PHONE = re.compile(r"1\d{10}")


class Reviews(Screens, App):
    package = REVIEWS
    label = Label(zh="点评", en="Reviews")
    domain = "local services"
    theme = AppTheme(primary=ORANGE)
    icon_text = "评"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return {"shops": build_shops(rng)}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"favorites": [], "bookings": [], "reviews": [], "vouchers": [], "phone": MY_PHONE}

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def shop(it: Interaction, shop_id: str) -> Any:
        shop = next((s for s in it.content["shops"] if s["id"] == shop_id), None)
        if shop is None:
            it.no_op(f"no shop {shop_id}")
        return shop

    @staticmethod
    def refuse(it: Interaction, message: str) -> None:
        """Show `message` on the screen and change nothing."""
        it.set_ui("error", message)
        it.toast(message)
        it.no_op(message)

    def toggle_favorite(self, it: Interaction, shop_id: str) -> None:
        self.shop(it, shop_id)
        favorites = it.data["favorites"]
        if shop_id in favorites:
            favorites.remove(shop_id)
            it.toast("已取消收藏")
        else:
            favorites.append(shop_id)
            it.toast("收藏成功")

    def copy_address(self, it: Interaction, shop_id: str) -> None:
        it.copy(self.shop(it, shop_id)["address"])

    @staticmethod
    def change_people(it: Interaction, step: int) -> None:
        people = int(it.ui("people", 2)) + step
        if not 1 <= people <= MAX_PEOPLE:
            it.no_op(f"party size stays within 1-{MAX_PEOPLE}")
        it.set_ui("people", people)

    def _booking_values(self, it: Interaction, shop_id: str) -> dict[str, Any]:
        """The booking form as values; refused on screen if something is wrong."""
        shop = self.shop(it, shop_id)
        offset, slot = it.ui("day"), it.ui("slot")
        phone = re.sub(r"[\s-]", "", it.field("phone"))
        people = int(it.ui("people", 2))
        if offset is None:
            self.refuse(it, "请选择到店日期")
        if slot is None:
            self.refuse(it, "请选择到店时间")
        if not 1 <= people <= MAX_PEOPLE:
            self.refuse(it, f"就餐人数为1-{MAX_PEOPLE}人")
        if PHONE.fullmatch(phone) is None:
            self.refuse(it, "请输入正确的11位手机号")
        h, m = slot.split(":")
        if offset == 0 and int(h) * 60 + int(m) <= minute_of_day(it.clock):
            self.refuse(it, "该时段已过，请选择其他时间")
        if is_full(shop, offset, slot):
            self.refuse(it, f"{slot} 已订满，请选择其他时间")
        day = local_date(it.clock) + dt.timedelta(days=offset)
        return {"shop_id": shop_id, "shop": shop["name"], "date": day.isoformat(), "time": slot,
                "people": people, "phone": phone}  # fmt: skip

    def ask_booking(self, it: Interaction, shop_id: str) -> None:
        self._booking_values(it, shop_id)
        it.set_ui("error", None)
        it.set_ui("dialog", "confirm")

    def book(self, it: Interaction, shop_id: str) -> None:
        values = self._booking_values(it, shop_id)
        booking = {"id": it.new_id("bk"), **values, "status": BOOKED, "booked_at": it.clock}
        it.data["bookings"].insert(0, booking)
        it.reset_to("home")
        it.set_ui("tab", "bookings")
        it.push("booking", booking_id=booking["id"])
        it.toast("预订成功")

    def buy_deal(self, it: Interaction, shop_id: str, deal_id: str) -> None:
        """抢购: a voucher waiting for payment, handed to the wallet's payment confirmation."""
        shop = self.shop(it, shop_id)
        deal = next((d for d in shop["deals"] if d["id"] == deal_id), None)
        if deal is None:
            it.no_op(f"{shop_id} sells no deal {deal_id}")
        voucher = {"id": it.new_id("vc"), "shop_id": shop_id, "shop": shop["name"],
                   "deal_id": deal_id, "title": deal["title"], "price_cents": deal["price_cents"],
                   "status": UNPAID, "paid_at": None}  # fmt: skip
        it.data["vouchers"].insert(0, voucher)
        it.request_payment(
            amount_cents=deal["price_cents"],
            merchant=shop["name"],
            reference=voucher["id"],
            description=f"团购券 {deal['title']}",
        )

    def pay_voucher(self, it: Interaction, voucher_id: str) -> None:
        voucher = next((v for v in it.data["vouchers"] if v["id"] == voucher_id), None)
        if voucher is None or voucher["status"] != UNPAID:
            it.no_op(f"voucher {voucher_id} is not waiting for payment")
        it.request_payment(
            amount_cents=voucher["price_cents"],
            merchant=voucher["shop"],
            reference=voucher_id,
            description=f"团购券 {voucher['title']}",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        voucher = next((v for v in it.data["vouchers"] if v["id"] == reference), None)
        if voucher is None:
            return
        if paid:
            voucher["status"], voucher["paid_at"] = PAID, it.clock
            it.toast("购买成功")
        it.reset_to("home")
        it.set_ui("tab", "vouchers")

    def cancel_booking(self, it: Interaction, booking_id: str) -> None:
        booking = next((b for b in it.data["bookings"] if b["id"] == booking_id), None)
        if booking is None or booking["status"] != BOOKED:
            it.no_op(f"booking {booking_id} cannot be cancelled")
        booking["status"] = CANCELLED
        it.set_ui("dialog", None)
        it.toast("订座已取消")

    def submit_review(self, it: Interaction, shop_id: str) -> None:
        self.shop(it, shop_id)
        stars = it.ui("stars")
        text = it.field("review_text").strip()
        if stars is None:
            self.refuse(it, "请先选择评分")
        if len(text) < MIN_REVIEW_CHARS:
            self.refuse(it, f"评价内容至少{MIN_REVIEW_CHARS}个字")
        it.data["reviews"].insert(
            0, {"id": it.new_id("rv"), "shop_id": shop_id, "stars": stars, "text": text,
                "time": it.clock}
        )  # fmt: skip
        it.pop()
        it.toast("评价已发布")


__all__ = ["BOOKED", "CANCELLED", "DAYS", "REVIEWS", "Reviews", "day_offset", "is_full"]
