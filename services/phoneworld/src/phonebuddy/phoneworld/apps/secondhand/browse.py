"""The browsing screens of 闲置: home (feed with category chips, 消息, 我的), search with sort
and filters, a listing's page (我想要, 聊一聊, 立即购买, share) and the chat with a seller."""

from __future__ import annotations

import time
from typing import Any

from phonebuddy.phoneworld.app import View, screen, tool
from phonebuddy.phoneworld.apps.secondhand.base import ORANGE, YELLOW, SecondhandBase
from phonebuddy.phoneworld.apps.secondhand.content import (
    CATEGORIES,
    CITIES,
    ME,
    shipping_label,
    yuan,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Dialog,
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

TABS = (("feed", "首页"), ("messages", "消息"), ("me", "我的"))
SORTS = (("default", "综合"), ("price_asc", "价格从低到高"), ("price_desc", "价格从高到低"),
         ("newest", "最新发布"))  # fmt: skip


def day_label(epoch: int) -> str:
    return time.strftime("%m月%d日", time.gmtime(epoch + 8 * 3600))


class BrowseScreens(SecondhandBase):
    def row(self, v: View, listing: dict[str, Any], prefix: str) -> ListItem:
        seller = self.seller(v, listing["seller"])
        tag = "已卖出" if listing["sold"] else f"{listing['wants']}人想要"
        return ListItem(
            listing["title"],
            subtitle=f"{yuan(listing['price'])}｜{listing['condition']}｜{seller['city']}｜"
            f"{shipping_label(listing['shipping'])}",
            trailing=tag,
            leading=listing["category"][:1],
            leading_color=YELLOW,
            on_tap=v.go("listing", listing_id=listing["id"]),
            id=f"{prefix}_{listing['id']}",
        )

    def share_listing(self, it: Interaction, listing_id: str) -> None:
        listing = self.require_listing(it, listing_id)
        it.share({
            "kind": "link", "title": listing["title"], "source": "闲置",
            "text": f"{yuan(listing['price'])} https://m.xianzhi.pw/item/{listing_id}",
        })  # fmt: skip

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "search_listings",
        "Search the listings for sale (title, category, description); returns up to 10 matches "
        "as id, title, price and shipping, cheapest first.",
        {"query": str},
    )
    def search_listings_tool(self, it: Interaction, query: str) -> str:
        found = sorted((x for x in it.data["listings"] if x["seller"] != ME and not x["sold"]
                        and query.strip() in x["title"] + x["category"] + x["desc"]),
                       key=lambda x: (x["price"], x["id"]))  # fmt: skip
        if not found:
            return f"没有找到“{query}”相关的宝贝"
        return "; ".join(f"{x['id']} {x['title']} {yuan(x['price'])} "
                         f"{shipping_label(x['shipping'])}" for x in found[:10])  # fmt: skip

    @tool("toggle_want", "Tap 我想要 on a listing (by id, e.g. l-07): want it or stop wanting it.",
          {"listing_id": str})  # fmt: skip
    def toggle_want_tool(self, it: Interaction, listing_id: str) -> str:
        self.toggle_want(it, listing_id)
        return "已想要" if self.wanted(it.data, listing_id) else "已取消想要"

    # -- home ---------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "feed")
        body = {"feed": self._feed, "messages": self._messages, "me": self._me}[tab](v)
        return Page(
            "闲置",
            [*body, Spacer(60)],
            header=Tabs(TABS, tab, v.on_select("tab")),
            actions=[IconButton("search", "搜索", v.go("search"), id="search_open"),
                     IconButton("plus", "发布闲置", v.go("sell"), id="sell_open")],
        )  # fmt: skip

    def _feed(self, v: View) -> list[Widget | None]:
        category = v.ui("category", "")
        chips = [Chip("推荐", v.set_ui("category", ""), selected=not category, id="cat_all")]
        chips += [Chip(c, v.set_ui("category", c), selected=category == c, id=f"cat_{c}")
                  for c in CATEGORIES]  # fmt: skip
        rows: list[Widget | None] = [Wrap(chips)]
        shown = [x for x in v.data["listings"] if x["seller"] != ME
                 and (not category or x["category"] == category)]  # fmt: skip
        shown.sort(key=lambda x: -x["posted"])
        rows += [self.row(v, x, "feed") for x in shown]
        return rows

    def _messages(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = []
        for thread in v.data["threads"]:
            listing = self.listing(v, thread["listing"])
            seller = self.seller(v, thread["seller"])
            last = thread["messages"][-1]["text"] if thread["messages"] else ""
            rows.append(ListItem(
                seller["nick"], subtitle=last,
                trailing=listing["title"][:8] if listing else "已下架",
                leading=seller["nick"][:1], leading_color=YELLOW,
                on_tap=v.go("chat", listing_id=thread["listing"]) if listing else None,
                id=f"thread_{thread['id']}",
            ))  # fmt: skip
        if not rows:
            rows.append(Text("暂无消息", color=theme.TEXT_SECONDARY, padding=40, align="center"))
        return rows

    def _me(self, v: View) -> list[Widget | None]:
        mine = [x for x in v.data["listings"] if x["seller"] == ME]
        orders = v.data["orders"]
        return [
            Text("林小北", size=52, bold=True, padding=20, id="me_name"),
            Text("杭州｜信用极好", size=36, color=theme.TEXT_SECONDARY, padding=20),
            ListItem("我发布的", trailing=f"{len(mine)}件", on_tap=v.go("mine"), id="my_listings"),
            ListItem("我买到的", trailing=f"{len(orders)}单", on_tap=v.go("orders"),
                     id="my_orders"),
            ListItem("我想要的", trailing=f"{len(v.data['favourites'])}件",
                     on_tap=v.go("favourites"), id="my_favourites"),
            Button("发布闲置", v.go("sell"), id="sell"),
        ]  # fmt: skip

    # -- search ---------------------------------------------------------------------------------
    @screen("search")
    def search(self, v: View) -> Page:
        query = v.field("query").strip()
        sort, city, free = v.ui("sort", "default"), v.ui("city", ""), v.ui("free_only", False)
        found = [x for x in v.data["listings"] if x["seller"] != ME and not x["sold"]
                 and (not query or query in x["title"] + x["category"] + x["desc"])
                 and (not free or x["shipping"] == 0)
                 and (not city or self.seller(v, x["seller"])["city"] == city)]  # fmt: skip
        if sort == "price_asc":
            found.sort(key=lambda x: (x["price"], x["id"]))
        elif sort == "price_desc":
            found.sort(key=lambda x: (-x["price"], x["id"]))
        elif sort == "newest":
            found.sort(key=lambda x: -x["posted"])
        cities = [Chip("全国", v.set_ui("city", ""), selected=not city, id="city_all")]
        cities += [Chip(c, v.set_ui("city", c), selected=city == c, id=f"city_{c}")
                   for c in CITIES]  # fmt: skip
        rows: list[Widget | None] = [
            TextField("query", v.field("query"), "搜索宝贝", on_focus=v.focus("query")),
            Wrap([Chip(label, v.set_ui("sort", key), selected=sort == key, id=f"sort_{key}")
                  for key, label in SORTS]),
            Wrap([Chip("只看包邮", v.set_ui("free_only", not free), selected=free,
                       id="filter_free_ship"), *cities]),
            Text(f"共{len(found)}件在售宝贝", size=34, color=theme.TEXT_SECONDARY, id="count"),
        ]  # fmt: skip
        rows += [self.row(v, x, "result") for x in found]
        if not found:
            rows.append(Text(f"没有找到“{query}”相关的宝贝" if query else "没有符合条件的宝贝",
                             color=theme.TEXT_SECONDARY, padding=40, align="center"))  # fmt: skip
        return Page("搜索", [*rows, Spacer(60)], on_back=v.back())

    # -- a listing -----------------------------------------------------------------------------
    @screen("listing")
    def listing_page(self, v: View) -> Page:
        listing = self.listing(v, v.params["listing_id"])
        if listing is None:
            return Page("宝贝详情", [Text("宝贝已下架", padding=40)], on_back=v.back())
        seller = self.seller(v, listing["seller"])
        mine = listing["seller"] == ME
        wanted = self.wanted(v.data, listing["id"])
        status = "已卖出" if listing["sold"] else "在售"
        body: list[Widget | None] = [
            Card([
                Text(listing["title"], size=52, bold=True, id="title"),
                Text(yuan(listing["price"]), size=56, bold=True, color=ORANGE, id="price"),
                Text(f"原价{yuan(listing['original'])}", size=34, color=theme.TEXT_SECONDARY,
                     id="original"),
                Text(f"成色：{listing['condition']}", size=38, id="condition"),
                Text(shipping_label(listing["shipping"]), size=38, id="shipping"),
                Text(f"{status}｜{listing['wants']}人想要｜{day_label(listing['posted'])}发布",
                     size=34, color=theme.TEXT_SECONDARY, id="status"),
            ]),
            Card([
                Text(seller["nick"], size=44, bold=True, id="seller_nick"),
                Text(f"{seller['city']}｜{seller['credit']}", size=36, id="seller_city"),
            ]),
            Text(listing["desc"], size=40, id="desc"),
        ]  # fmt: skip
        if mine:
            body.append(Button("管理宝贝", v.go("manage", listing_id=listing["id"]), id="manage"))
        else:
            body += [
                Button("已想要" if wanted else "我想要", v.do(self.toggle_want, listing["id"]),
                       id="want", style="secondary"),
                Button("聊一聊", v.go("chat", listing_id=listing["id"]), id="chat",
                       style="secondary"),
                Button("已卖出" if listing["sold"] else "立即购买",
                       v.do(self.start_buy, listing["id"]), id="buy"),
            ]  # fmt: skip
        return Page(
            "宝贝详情", body, on_back=v.back(), body_padding=30, spacing=20,
            actions=[IconButton("share", "分享", v.do(self.share_listing, listing["id"]),
                                id="share")],
        )  # fmt: skip

    # -- chat -----------------------------------------------------------------------------------
    @screen("chat")
    def chat(self, v: View) -> Page:
        listing = self.listing(v, v.params["listing_id"])
        if listing is None:
            return Page("聊天", [Text("宝贝已下架", padding=40)], on_back=v.back())
        seller = self.seller(v, listing["seller"])
        thread = self.thread(v.data, listing["id"])
        messages = thread["messages"] if thread else []
        rows: list[Widget | None] = [
            ListItem(listing["title"], subtitle=f"{yuan(listing['price'])}｜"
                     f"{shipping_label(listing['shipping'])}",
                     on_tap=v.go("listing", listing_id=listing["id"]), id="chat_listing"),
        ]  # fmt: skip
        for i, m in enumerate(messages):
            who = "我：" if m["mine"] else f"{seller['nick']}："
            side = "right" if m["mine"] else "left"
            rows.append(Text(who + m["text"], size=40, align=side, id=f"msg_{i}"))
        rows += [
            TextField("chat_input", v.field("chat_input"), "说点什么…",
                      on_focus=v.focus("chat_input")),
            Button("发送", v.do(self.send_message, listing["id"]), id="send"),
            Button("出价", v.set_ui("dialog", "offer"), id="offer", style="secondary"),
        ]  # fmt: skip
        overlay = None
        if v.ui("dialog") == "offer":
            error = v.ui("offer_error")
            overlay = Dialog(
                "我要出价",
                message=f"标价{yuan(listing['price'])}，出价需低于标价",
                body=[
                    TextField("offer_price", v.field("offer_price"), "输入你的出价（元）",
                              on_focus=v.focus("offer_price")),
                    Text(error, color=(220, 50, 50), id="offer_error") if error else None,
                ],
                buttons=[Button("取消", v.do(self.close_offer), id="offer_cancel",
                                style="secondary"),
                         Button("发送出价", v.do(self.make_offer, listing["id"]),
                                id="offer_send")],
            )  # fmt: skip
        return Page(seller["nick"], [*rows, Spacer(60)], on_back=v.back(), body_padding=30,
                    spacing=16, overlay=overlay)  # fmt: skip
