"""The 演出票 app: 首页 (city switch, category chips, sort by 时间/热度, search), 想看, 我的
(orders, 观演人), a show's page (sessions, price tiers, quantity, 想看, share, 缺货登记) and,
in `orders`, the checkout, order detail with the entry code and refunds, and 观演人."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.showtix.base import PINK, SHOWTIX, ShowTixBase
from phonebuddy.phoneworld.apps.showtix.content import CATEGORIES, CITIES, price_label
from phonebuddy.phoneworld.apps.showtix.orders import OrderScreens
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    IconButton,
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

__all__ = ["SHOWTIX", "ShowTix"]
TABS = (("home", "首页"), ("want", "想看"), ("me", "我的"))
SORTS = (("hot", "热度"), ("time", "时间"))


class ShowTix(OrderScreens, ShowTixBase):
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "home")
        body = {"home": self._discover, "want": self._want, "me": self._me}[tab](v)
        return Page("演出票", [*body, Spacer(60)], header=Tabs(TABS, tab, v.on_select("tab")))

    def _show_row(self, v: View, show: Any, prefix: str = "show") -> ListItem:
        first = min(show["sessions"], key=lambda s: s["day"])
        return ListItem(
            show["title"],
            subtitle=f"{show['category']}｜{show['city']}·{show['venue']}｜{self.when(v, first)}起",
            trailing=f"{price_label(min(show['tiers']))}起",
            leading=show["title"][:1],
            leading_color=PINK,
            on_tap=v.go("show", show_id=show["id"]),
            id=f"{prefix}_{show['id']}",
        )

    def _discover(self, v: View) -> list[Widget | None]:
        city, category = v.ui("city", CITIES[0]), v.ui("category", "")
        sort, query = v.ui("sort", "hot"), v.field("search").strip()
        cats = [Chip("全部", v.set_ui("category", ""), selected=not category, id="cat_all")]
        cats += [Chip(c, v.set_ui("category", c), selected=category == c, id=f"cat_{c}")
                 for c in CATEGORIES]  # fmt: skip
        rows: list[Widget | None] = [
            TextField("search", v.field("search"), "搜索演出/艺人/场馆",
                      on_focus=v.focus("search")),
            Button("清除搜索", v.do(self.clear_search), id="clear_search", style="secondary",
                   height=90, size=34) if query else None,
            Text("搜索结果（全部城市）" if query else f"当前城市：{city}", size=36,
                 color=theme.TEXT_SECONDARY, padding=20, id="city_now"),
            None if query else Wrap([Chip(c, v.set_ui("city", c), selected=city == c,
                                          id=f"city_{c}") for c in CITIES]),
            Wrap(cats),
            Wrap([Chip(f"按{label}", v.set_ui("sort", key), selected=sort == key,
                       id=f"sort_{key}") for key, label in SORTS]),
        ]  # fmt: skip
        shows = [s for s in v.content["shows"]
                 if (query or s["city"] == city) and (not category or s["category"] == category)
                 and (not query or query in self._searchable(s))]  # fmt: skip
        if sort == "hot":
            shows.sort(key=lambda s: -s["heat"])
        else:
            shows.sort(key=lambda s: (min(x["day"] for x in s["sessions"]), s["id"]))
        rows += [self._show_row(v, s) for s in shows]
        if not shows:
            rows.append(Text(f"没有找到“{query}”相关演出" if query else "该城市暂无此类演出",
                             color=theme.TEXT_SECONDARY, padding=40, align="center"))  # fmt: skip
        return rows

    def _want(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = [self._show_row(v, self.show(v, i), "want")
                                     for i in v.data["want"]]  # fmt: skip
        if not rows:
            rows.append(Text("还没有想看的演出", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        return rows

    def _me(self, v: View) -> list[Widget | None]:
        return [
            ListItem("我的订单", subtitle=f"共{len(v.data['orders'])}个订单", trailing="›",
                     on_tap=v.go("orders"), id="my_orders"),
            ListItem("常用观演人", subtitle=f"{len(v.data['viewers'])}位", trailing="›",
                     on_tap=v.go("viewers"), id="my_viewers"),
            ListItem("缺货登记", subtitle=f"{len(v.data['waitlist'])}条", trailing="›",
                     on_tap=v.go("waitlist"), id="my_waitlist"),
        ]  # fmt: skip

    @screen("show")
    def show_page(self, v: View) -> Page:
        show = self.show(v, v.params["show_id"])
        wanted = show["id"] in v.data["want"]
        picked = v.ui("session")
        session = self.session(v, picked) if picked else None
        tier, qty = v.ui("tier"), v.ui("qty", 1)
        sessions: list[Widget | None] = [
            ListItem(self.when(v, s), subtitle=self._tier_summary(show, s),
                     trailing="已选" if s["id"] == picked else "›", selected=s["id"] == picked,
                     on_tap=v.do(self.pick_session, s["id"]), id=f"session_{s['id']}")
            for s in show["sessions"]
        ]  # fmt: skip
        tiers: list[Widget | None] = []
        if session is not None:
            tiers.append(Text("选择票档", size=42, bold=True, padding=12))
            tiers.append(Wrap([
                Chip(f"{price_label(p)}{'（缺货）' if p in session['sold_out'] else ''}",
                     v.do(self.pick_tier, p), selected=p == tier, id=f"tier_{p // 100}")
                for p in show["tiers"]
            ]))  # fmt: skip
        if session is not None and tier and tier in session["sold_out"]:
            tiers.append(Text("该票档已售罄，可登记缺货，有票时通知您", color=theme.TEXT_SECONDARY,
                              id="sold_out_hint"))  # fmt: skip
            tiers.append(Button("缺货登记", v.do(self.register_waitlist, session["id"], tier),
                                id="waitlist", style="secondary"))  # fmt: skip
        elif session is not None and tier:
            tiers.append(Row([
                IconButton("minus", "减少", v.do(self.change_qty, show["id"], -1), id="qty_minus"),
                Text(f"{qty}张", size=44, align="center", id="qty"),
                IconButton("plus", "增加", v.do(self.change_qty, show["id"], 1), id="qty_plus"),
            ]))  # fmt: skip
            tiers.append(Text(f"合计 {price_label(tier * qty)}", size=44, bold=True, color=PINK,
                              id="total"))  # fmt: skip
            tiers.append(Button("立即购买", v.do(self.go_checkout, show["id"]), id="buy"))
        rule = "实名制：每张票需绑定一位观演人" if show["real_name"] else "非实名制，无需观演人信息"
        return Page(
            show["title"],
            [
                Card([
                    Text(show["title"], size=54, bold=True, id="title"),
                    Text(f"{show['category']}｜{show['city']}·{show['venue']}", size=38,
                         id="venue"),
                    Text(f"艺人：{'、'.join(show['artists'])}", size=36, id="artists"),
                    Text(f"热度 {show['heat']}｜每单限购{show['limit']}张", size=36,
                         color=theme.TEXT_SECONDARY, id="limit"),
                    Text(rule, size=36, color=theme.TEXT_SECONDARY, id="real_name"),
                ]),
                Row([
                    Button("已想看" if wanted else "想看", v.do(self.toggle_want, show["id"]),
                           id="want", style="secondary" if wanted else "primary"),
                    Button("分享", v.do(self.share_show, show["id"]), id="share",
                           style="secondary"),
                ]),
                Text("选择场次", size=42, bold=True, padding=12),
                *sessions,
                *tiers,
                Text("演出介绍", size=42, bold=True, padding=12),
                Text(show["intro"], size=38, id="intro"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=16,
        )  # fmt: skip

    @staticmethod
    def _searchable(show: Any) -> str:
        return show["title"] + "".join(show["artists"]) + show["venue"]

    @staticmethod
    def _tier_summary(show: Any, session: Any) -> str:
        return " ".join(f"{price_label(p)}{'缺货' if p in session['sold_out'] else ''}"
                        for p in show["tiers"])  # fmt: skip
