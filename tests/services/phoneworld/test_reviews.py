"""The Reviews app (点评) through the action interface: the 发现 list with its category, district,
sort and 人均 filters and search, a shop's page (copying the address, 收藏), booking a table and
what the form refuses, cancelling a booking, writing a review and what the editor refuses, and a
group-buy voucher paid through the wallet."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.reviews.content import (
    BOOKED,
    CANCELLED,
    CATEGORIES,
    DISTRICTS,
    PAID,
    REVIEWS,
    SLOTS,
    UNPAID,
    is_full,
)
from phonebuddy.phoneworld.apps.reviews.screens import shown_shops
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.payments import WALLET
from phonebuddy.phoneworld.ui.format import local_date


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(REVIEWS)  # type: ignore[no-any-return]

    @property
    def shops(self) -> list[Any]:
        return list(self.device.world.content(REVIEWS)["shops"])

    def shown(self) -> list[str]:
        """The shop ids the list shows now, top first (what is on screen)."""
        rows = [n for n in self.device.ui_tree().walk() if ":id/shop_" in n.resource_id]
        rows.sort(key=lambda n: n.bounds.top)
        return [n.resource_id.rpartition("shop_")[2] for n in rows]

    def open_shop(self, shop: Any) -> None:
        self.tap(f"cat_{CATEGORIES.index(shop['category']) + 1}")
        self.tap(f"shop_{shop['id']}")
        assert self.text("shop_name") == shop["name"]

    def choose(self, sheet: str, index: int) -> None:
        self.tap(f"filter_{sheet}")
        self.act(self.ui.tap(f"{sheet}_{index}"))

    @property
    def today(self) -> dt.date:
        return local_date(self.device.state["os"]["clock"])


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("点评")
    return driver


def _free(shop: Any, day: int) -> str:
    return next(s for s in SLOTS[5:] if not is_full(shop, day, s))


def test_category_district_sort_and_price_filter_the_list(user: Driver) -> None:
    hotpot = [s for s in user.shops if s["category"] == "火锅"]
    user.tap("cat_2")
    assert set(user.shown()) <= {s["id"] for s in hotpot}
    district = hotpot[0]["district"]
    user.choose("district", DISTRICTS.index(district) + 1)
    user.choose("sort", 1)
    expected = shown_shops(user.shops, category="火锅", district=district, sort="rating",
                           price="all", query="")  # fmt: skip
    assert user.shown() == [s["id"] for s in expected]
    ratings = [s["rating"] for s in expected]
    assert ratings == sorted(ratings, reverse=True)
    user.choose("price", 3)  # ¥200以上: no hotpot costs that much
    assert user.shown() == []
    assert user.visible("empty")


def test_search_finds_a_shop_by_name(user: Driver) -> None:
    shop = user.shops[17]
    user.type_into("search", shop["name"][:4])
    assert shop["id"] in user.shown()
    user.type_into("search", "不存在的店")
    assert user.shown() == []


def test_shop_page_copies_the_address_and_toggles_favourite(user: Driver) -> None:
    shop = user.shops[9]
    user.open_shop(shop)
    assert user.text("rating") == f"★ {shop['rating']:.1f}"
    assert user.text("price") == f"人均 ¥{shop['price']}"
    assert user.text("address") == shop["address"]
    user.tap("copy_address")
    assert user.device.state["os"]["clipboard"] == shop["address"]
    user.tap("favorite")
    assert user.data["favorites"] == [shop["id"]]
    assert user.text("favorite") == "已收藏"
    user.back()
    user.tap("tab_favorites")
    assert user.visible(f"fav_{shop['id']}")
    user.tap(f"fav_{shop['id']}")
    user.tap("favorite")
    assert user.data["favorites"] == []


def test_booking_a_table_after_the_confirm_dialog(user: Driver) -> None:
    shop = user.shops[0]
    time = _free(shop, 1)
    user.open_shop(shop)
    user.tap("book")
    user.tap("day_1")
    user.tap(f"slot_{time.replace(':', '')}")
    user.tap("people_plus")
    user.tap("people_plus")
    assert user.text("people") == "4人"
    user.tap("submit_booking")
    user.tap("cancel")
    assert user.data["bookings"] == []
    user.tap("submit_booking")
    user.tap("confirm_booking")
    [booking] = user.data["bookings"]
    tomorrow = (user.today + dt.timedelta(days=1)).isoformat()
    assert (booking["shop_id"], booking["date"], booking["time"], booking["people"],
            booking["status"]) == (shop["id"], tomorrow, time, 4, BOOKED)  # fmt: skip
    assert user.text("status") == BOOKED
    user.back()
    assert user.visible(f"booking_{booking['id']}")


def test_the_booking_form_refuses_what_is_missing_or_full(user: Driver) -> None:
    shop = user.shops[3]
    user.open_shop(shop)
    user.tap("book")
    user.refuse("submit_booking")
    assert user.text("error") == "请选择到店日期"
    day = 2
    full = next(f.split("|")[1] for f in shop["full"] if f.startswith(f"{day}|"))
    user.tap(f"day_{day}")
    user.refuse("submit_booking")
    assert user.text("error") == "请选择到店时间"
    user.tap(f"slot_{full.replace(':', '')}")
    assert "满" in user.text(f"slot_{full.replace(':', '')}")
    user.refuse("submit_booking")
    assert "已订满" in user.text("error")
    user.tap(f"slot_{_free(shop, day).replace(':', '')}")
    user.type_into("phone", "12")  # after the number already there: 13 digits
    user.scroll_to("submit_booking")
    user.refuse("submit_booking")
    assert user.text("error") == "请输入正确的11位手机号"
    assert user.data["bookings"] == []


def test_party_size_stays_between_one_and_ten(user: Driver) -> None:
    user.open_shop(user.shops[1])
    user.tap("book")
    user.tap("people_minus")
    assert user.text("people") == "1人"
    user.refuse("people_minus")
    for _ in range(9):
        user.tap("people_plus")
    assert user.text("people") == "10人"
    user.refuse("people_plus")


def test_cancelling_a_booking_asks_first(user: Driver) -> None:
    shop = user.shops[5]
    user.open_shop(shop)
    user.tap("book")
    user.tap("day_1")
    user.tap(f"slot_{_free(shop, 1).replace(':', '')}")
    user.tap("submit_booking")
    user.tap("confirm_booking")
    user.tap("cancel_booking")
    user.tap("keep")
    assert user.data["bookings"][0]["status"] == BOOKED
    user.tap("cancel_booking")
    user.tap("confirm_cancel")
    assert user.data["bookings"][0]["status"] == CANCELLED
    assert user.text("status") == CANCELLED
    assert not user.visible("cancel_booking")


def test_a_review_needs_stars_and_ten_characters(user: Driver) -> None:
    shop = user.shops[12]
    user.open_shop(shop)
    user.tap("write_review")
    user.type_into("review_text", "很好吃，推荐大家来尝尝")
    user.scroll_to("submit_review")
    user.refuse("submit_review")
    assert user.text("error") == "请先选择评分"
    user.tap("star_4")
    assert user.data["reviews"] == []
    user.tap("submit_review")
    [review] = user.data["reviews"]
    assert (review["shop_id"], review["stars"], review["text"]) == (
        shop["id"], 4, "很好吃，推荐大家来尝尝")  # fmt: skip
    assert user.text("review_count") == f"网友点评（{len(shop['reviews']) + 1}）"


def test_a_short_review_is_refused(user: Driver) -> None:
    user.open_shop(user.shops[13])
    user.tap("write_review")
    user.tap("star_5")
    user.type_into("review_text", "太好吃了")
    user.scroll_to("submit_review")
    user.refuse("submit_review")
    assert user.text("error") == "评价内容至少10个字"
    assert user.data["reviews"] == []


def test_empty_tabs_say_so(user: Driver) -> None:
    user.tap("tab_bookings")
    assert user.text("empty") == "暂无订座"
    user.tap("tab_favorites")
    assert user.text("empty") == "还没有收藏的商户"


def test_a_voucher_is_paid_through_the_wallet(user: Driver) -> None:
    shop = next(s for s in user.shops if s["deals"])
    deal = shop["deals"][0]
    balance = user.app_state(WALLET)["balance_cents"]
    user.open_shop(shop)
    user.tap(f"buy_{deal['id']}")
    user.act(user.ui.tap(f"{WALLET}:id/pay_cancel"))
    [voucher] = user.data["vouchers"]
    assert (voucher["deal_id"], voucher["status"]) == (deal["id"], UNPAID)
    assert user.app_state(WALLET)["balance_cents"] == balance
    user.tap(f"pay_{voucher['id']}")
    user.act(user.ui.tap(f"{WALLET}:id/pay_confirm"))
    assert user.data["vouchers"][0]["status"] == PAID
    assert user.app_state(WALLET)["balance_cents"] == balance - deal["price_cents"]
    assert not user.visible(f"pay_{voucher['id']}")
