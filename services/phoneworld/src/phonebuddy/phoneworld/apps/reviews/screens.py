"""The screens of 点评 (a mixin of the `Reviews` app, whose handlers they call): 发现 with its
filters, 我的订座, 收藏, a shop's page, the booking form, a booking and the review editor."""

from __future__ import annotations

import datetime as dt
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.reviews.content import (
    BOOKED,
    CATEGORIES,
    DAYS,
    DISTRICTS,
    SLOTS,
    UNPAID,
    day_offset,
    distance_text,
    is_full,
)
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_date, yuan
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Card,
    Chip,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

TABS = (("discover", "发现"), ("bookings", "我的订座"), ("vouchers", "团购券"),
        ("favorites", "收藏"))  # fmt: skip
SORTS = (("smart", "智能排序"), ("rating", "评分最高"), ("distance", "距离最近"),
         ("price", "人均最低"))  # fmt: skip
PRICES = (("all", "人均不限"), ("lt100", "¥100以下"), ("100to200", "¥100-200"),
          ("gt200", "¥200以上"))  # fmt: skip
PRICE_TESTS = {"all": lambda p: True, "lt100": lambda p: p < 100,
               "100to200": lambda p: 100 <= p <= 200, "gt200": lambda p: p > 200}  # fmt: skip
SORT_KEYS = {
    "smart": lambda s: 0,
    "rating": lambda s: (-s["rating"], s["distance_m"]),
    "distance": lambda s: s["distance_m"],
    "price": lambda s: (s["price"], s["distance_m"]),
}
RED = (220, 50, 40)
WEEKDAYS = "一二三四五六日"


def stars_text(stars: int) -> str:
    return "★" * stars + "☆" * (5 - stars)


def day_label(day: dt.date, offset: int) -> str:
    names = {0: "今天", 1: "明天", 2: "后天"}
    return f"{names.get(offset, '周' + WEEKDAYS[day.weekday()])} {day.month}月{day.day}日"


def shown_shops(shops: Any, *, category: str, district: str, sort: str, price: str,
                query: str) -> list[Any]:  # fmt: skip
    """The shops the 发现 list shows for these filters, in its order."""
    found = [
        s for s in shops
        if category in ("全部", s["category"]) and district in ("全城", s["district"])
        and PRICE_TESTS[price](s["price"])
        and (not query or query in s["name"].lower() or query in s["category"])
    ]  # fmt: skip
    return sorted(found, key=SORT_KEYS[sort])


class Screens:
    """The screens; mixed into `Reviews`, whose handlers they call."""

    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "discover")
        if tab == "bookings":
            body, overlay = self._bookings(v), None
        elif tab == "vouchers":
            body, overlay = self._vouchers(v), None
        elif tab == "favorites":
            body, overlay = self._favorites(v), None
        else:
            body, overlay = self._discover(v)
        return Page("大众点评", [*body, Spacer(60)], header=Tabs(TABS, tab, v.on_select("tab")),
                    overlay=overlay)  # fmt: skip

    def _discover(self, v: View) -> tuple[list[Widget | None], Widget | None]:
        category, district = v.ui("category", "全部"), v.ui("district", "全城")
        sort, price = v.ui("sort", "smart"), v.ui("price", "all")
        query = v.field("search").strip().lower()
        shops = shown_shops(v.content["shops"], category=category, district=district, sort=sort,
                            price=price, query=query)  # fmt: skip
        chips = [Chip(c, v.set_ui("category", c), selected=c == category, id=f"cat_{i}")
                 for i, c in enumerate(("全部", *CATEGORIES))]  # fmt: skip
        filters = Row(
            [
                Chip(f"{district} ▼", v.set_ui("sheet", "district"), id="filter_district"),
                Chip(f"{dict(SORTS)[sort]} ▼", v.set_ui("sheet", "sort"), id="filter_sort"),
                Chip(f"{dict(PRICES)[price]} ▼", v.set_ui("sheet", "price"), id="filter_price"),
            ],
            spacing=16,
        )
        rows: list[Widget | None] = [
            ListItem(
                s["name"],
                subtitle=f"★{s['rating']:.1f}  人均¥{s['price']}  {s['category']}",
                trailing=f"{s['district']} {distance_text(s['distance_m'])}",
                leading=s["name"][:1],
                on_tap=v.go("shop", shop_id=s["id"]),
                id=f"shop_{s['id']}",
            )
            for s in shops
        ]
        if not rows:
            rows.append(Text("没有找到符合条件的商户", color=theme.TEXT_SECONDARY, padding=40,
                             align="center", id="empty"))  # fmt: skip
        search = TextField("search", v.field("search"), "搜索商户名/品类",
                           on_focus=v.focus("search"))  # fmt: skip
        return [search, Wrap(chips, spacing=16), filters, *rows], self._filter_sheet(v)

    @staticmethod
    def _filter_sheet(v: View) -> Widget | None:
        sheet = v.ui("sheet")
        options: tuple[tuple[str, str], ...]
        if sheet == "district":
            options, title = tuple((d, d) for d in ("全城", *DISTRICTS)), "选择区域"
        elif sheet == "sort":
            options, title = SORTS, "排序方式"
        elif sheet == "price":
            options, title = PRICES, "人均价格"
        else:
            return None

        def choose(value: str) -> Any:
            def handler(it: Any) -> None:
                it.set_ui(sheet, value)
                it.set_ui("sheet", None)

            return handler

        chips = [Chip(label, choose(value), selected=v.ui(sheet, options[0][0]) == value,
                      id=f"{sheet}_{i}")
                 for i, (value, label) in enumerate(options)]  # fmt: skip
        return BottomSheet(title, [Wrap(chips, spacing=16)], on_dismiss=v.set_ui("sheet", None))

    def _bookings(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = []
        for b in v.data["bookings"]:
            day = dt.date.fromisoformat(b["date"])
            rows.append(
                ListItem(
                    b["shop"],
                    subtitle=f"{day.month}月{day.day}日 {b['time']} · {b['people']}人",
                    trailing=b["status"],
                    on_tap=v.go("booking", booking_id=b["id"]),
                    id=f"booking_{b['id']}",
                )
            )
        return rows or [Text("暂无订座", color=theme.TEXT_SECONDARY, padding=40, align="center",
                             id="empty")]  # fmt: skip

    def _vouchers(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = []
        for c in v.data["vouchers"]:
            unpaid = c["status"] == UNPAID
            rows.append(
                ListItem(
                    f"{c['shop']} {c['title']}",
                    subtitle=yuan(c["price_cents"]),
                    trailing="" if unpaid else c["status"],
                    action=Button("去支付", v.do(self.pay_voucher, c["id"]),
                                  id=f"pay_{c['id']}") if unpaid else None,
                    id=f"voucher_{c['id']}",
                )
            )  # fmt: skip
        return rows or [Text("暂无团购券", color=theme.TEXT_SECONDARY, padding=40,
                             align="center", id="empty")]  # fmt: skip

    def _favorites(self, v: View) -> list[Widget | None]:
        shops = {s["id"]: s for s in v.content["shops"]}
        rows: list[Widget | None] = [
            ListItem(shops[f]["name"],
                     subtitle=f"★{shops[f]['rating']:.1f}  人均¥{shops[f]['price']}",
                     on_tap=v.go("shop", shop_id=f), id=f"fav_{f}")
            for f in v.data["favorites"]
        ]  # fmt: skip
        return rows or [Text("还没有收藏的商户", color=theme.TEXT_SECONDARY, padding=40,
                             align="center", id="empty")]  # fmt: skip

    @screen("shop")
    def shop_page(self, v: View) -> Page:
        shop = next(s for s in v.content["shops"] if s["id"] == v.params["shop_id"])
        liked = shop["id"] in v.data["favorites"]
        mine = [r for r in v.data["reviews"] if r["shop_id"] == shop["id"]]
        reviews = [{**r, "user": "我"} for r in mine] + list(shop["reviews"])
        head = Card(
            [
                Text(shop["name"], size=54, bold=True, id="shop_name"),
                Row([Text(f"★ {shop['rating']:.1f}", size=44, bold=True, color=self.theme.primary,
                          id="rating"),
                     Text(f"人均 ¥{shop['price']}", size=42, id="price")]),
                Text(f"{shop['district']} · {shop['category']} · "
                     f"{distance_text(shop['distance_m'])}", size=36,
                     color=theme.TEXT_SECONDARY, id="area"),
                Text(f"营业时间：{shop['hours']}", size=36, id="hours"),
                Text(f"电话：{shop['phone']}", size=36, id="phone"),
                Text(" | ".join(shop["tags"]), size=34, color=theme.TEXT_SECONDARY, id="tags"),
            ]
        )  # fmt: skip
        address = Card(
            [
                Text("地址", size=34, color=theme.TEXT_SECONDARY),
                Text(shop["address"], size=40, id="address"),
                Button("复制地址", v.do(self.copy_address, shop["id"]), id="copy_address",
                       style="secondary", height=100, size=36),
            ]
        )  # fmt: skip
        actions = Row(
            [
                Button("已收藏" if liked else "收藏", v.do(self.toggle_favorite, shop["id"]),
                       id="favorite", style="secondary" if liked else "primary"),
                Button("订座", v.go("book", shop_id=shop["id"],
                                    fields={"phone": v.data["phone"]}), id="book"),
                Button("写点评", v.go("review", shop_id=shop["id"], fields={"review_text": ""}),
                       id="write_review", style="secondary"),
            ]
        )  # fmt: skip
        deals = [
            ListItem(d["title"],
                     subtitle=f"{yuan(d['price_cents'])}  门市价{yuan(d['value_cents'])}",
                     action=Button("抢购", v.do(self.buy_deal, shop["id"], d["id"]),
                                   id=f"buy_{d['id']}"), id=f"deal_{d['id']}")
            for d in shop["deals"]
        ]  # fmt: skip
        if deals:
            deals.insert(0, Text("团购", size=42, bold=True, id="deals"))
        cards = [
            Card([Text(f"{r['user']}  {stars_text(r['stars'])}", size=36, bold=True),
                  Text(r["text"], size=38)], id=f"review_{r['id']}", padding=28)
            for r in reviews
        ]  # fmt: skip
        return Page(
            "商户详情",
            [head, address, actions, *deals, Text(f"网友点评（{len(reviews)}）", size=42, bold=True,
                                          id="review_count"), *cards, Spacer(60)],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
        )  # fmt: skip

    @screen("book")
    def book_page(self, v: View) -> Page:
        shop = next(s for s in v.content["shops"] if s["id"] == v.params["shop_id"])
        today = local_date(v.os["clock"])
        day, slot, people = v.ui("day"), v.ui("slot"), int(v.ui("people", 2))
        days = [Chip(day_label(today + dt.timedelta(days=k), k), v.set_ui("day", k),
                     selected=day == k, id=f"day_{k}") for k in range(DAYS)]  # fmt: skip
        slots = []
        for s in SLOTS:
            full = day is not None and is_full(shop, day, s)
            label = f"{s} 满" if full else s
            slots.append(Chip(label, v.set_ui("slot", s), selected=slot == s,
                              id=f"slot_{s.replace(':', '')}"))  # fmt: skip
        error = v.ui("error")
        dialog = None
        if v.ui("dialog") == "confirm" and day is not None:
            when = day_label(today + dt.timedelta(days=day), day)
            dialog = v.confirm(
                "确认订座",
                v.do(self.book, shop["id"]),
                message=f"{shop['name']}\n{when} {slot}，{people}人",
                label="确认预订",
                confirm_id="confirm_booking",
            )
        return Page(
            "预订座位",
            [
                Text(shop["name"], size=46, bold=True, id="book_shop"),
                Text("到店日期", size=38, color=theme.TEXT_SECONDARY),
                Wrap(days, spacing=16, id="days"),
                Text("到店时间（“满”为已订满）", size=38, color=theme.TEXT_SECONDARY),
                Wrap(slots, spacing=16, id="slots"),
                Text("就餐人数", size=38, color=theme.TEXT_SECONDARY),
                Row([Button("－", v.do(self.change_people, -1), id="people_minus",
                            style="secondary", height=110),
                     Text(f"{people}人", size=46, bold=True, align="center", id="people"),
                     Button("＋", v.do(self.change_people, 1), id="people_plus",
                            style="secondary", height=110)]),
                Text("联系电话", size=38, color=theme.TEXT_SECONDARY),
                TextField("phone", v.field("phone"), "11位手机号", on_focus=v.focus("phone")),
                Text(error, size=38, color=RED, id="error") if error else None,
                Button("提交订座", v.do(self.ask_booking, shop["id"]), id="submit_booking"),
                Spacer(60),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
            overlay=dialog,
        )  # fmt: skip

    @screen("booking")
    def booking_page(self, v: View) -> Page:
        b = next(x for x in v.data["bookings"] if x["id"] == v.params["booking_id"])
        day = dt.date.fromisoformat(b["date"])
        when = day_label(day, day_offset(b["date"], v.os["clock"]))
        active = b["status"] == BOOKED
        dialog = None
        if v.ui("dialog") == "cancel" and active:
            dialog = v.confirm("取消这个订座？", v.do(self.cancel_booking, b["id"]),
                               message=f"{b['shop']} {when} {b['time']}", label="取消订座",
                               confirm_id="confirm_cancel", danger=True, cancel_label="再想想",
                               cancel_id="keep")  # fmt: skip
        return Page(
            "订座详情",
            [
                Card([
                    Text(b["status"], size=52, bold=True, color=self.theme.primary, id="status"),
                    Text(b["shop"], size=44, id="booking_shop"),
                    Text(f"{when} {b['time']}", size=40, id="booking_time"),
                    Text(f"{b['people']}人", size=40, id="booking_people"),
                    Text(f"联系电话：{b['phone']}", size=36, color=theme.TEXT_SECONDARY),
                ]),
                Button("取消订座", v.set_ui("dialog", "cancel"), id="cancel_booking",
                       style="danger") if active else None,
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=24,
            overlay=dialog,
        )  # fmt: skip

    @screen("review")
    def review_page(self, v: View) -> Page:
        shop = next(s for s in v.content["shops"] if s["id"] == v.params["shop_id"])
        stars = v.ui("stars")
        chips = [Chip(f"{n}星", v.set_ui("stars", n), selected=stars == n, id=f"star_{n}")
                 for n in range(1, 6)]  # fmt: skip
        error = v.ui("error")
        return Page(
            "写点评",
            [
                Text(shop["name"], size=46, bold=True),
                Text("总体评分", size=38, color=theme.TEXT_SECONDARY),
                Wrap(chips, spacing=16, id="stars"),
                TextField("review_text", v.field("review_text"), "分享你的体验（至少10个字）",
                          on_focus=v.focus("review_text"), multiline=True),
                Text(error, size=38, color=RED, id="error") if error else None,
                Button("发布", v.do(self.submit_review, shop["id"]), id="submit_review"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=24,
        )  # fmt: skip


__all__ = ["Screens", "shown_shops"]
