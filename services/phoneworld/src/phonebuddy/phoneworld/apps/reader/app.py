"""The Reader app (读书): 书架 (shelf with progress, sort, remove), 书城 (catalogue by category
with search, a book's page with intro and contents, add to shelf, buy), the chapter reader
(previous/next chapter, bookmarks) and 我的 (this week's reading minutes, daily goal)."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen
from phonebuddy.phoneworld.apps.reader import content
from phonebuddy.phoneworld.apps.reader.content import CATEGORIES, DAYS, price_label, progress
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
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

READER = "com.pw.reader"
GREEN: Color = (26, 140, 110)
TABS = (("shelf", "书架"), ("store", "书城"), ("me", "我的"))
SORTS = (("recent", "最近阅读"), ("progress", "阅读进度"))


class Reader(App):
    package = READER
    label = Label(zh="读书", en="Reader")
    domain = "reading"
    theme = AppTheme(primary=GREEN)
    icon_text = "书"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        books = {b["id"]: b for b in content["books"]}
        shelf = [clone(s) for s in content["shelf"]]
        return {
            "shelf": shelf,
            "purchased": [
                {"id": s["id"], "price": books[s["id"]]["price"]}
                for s in shelf
                if books[s["id"]]["price"]
            ],
            "bookmarks": [],
            "minutes": list(content["minutes"]),
            "goal": 30,
        }

    # -- look-ups ---------------------------------------------------------------------------------
    @staticmethod
    def book(v: View | Interaction, book_id: str) -> dict[str, Any]:
        return next(b for b in v.content["books"] if b["id"] == book_id)

    @staticmethod
    def entry(data: dict[str, Any], book_id: str) -> dict[str, Any] | None:
        return next((s for s in data["shelf"] if s["id"] == book_id), None)

    @staticmethod
    def owned(data: dict[str, Any], book_id: str) -> bool:
        return any(p["id"] == book_id for p in data["purchased"])

    # -- handlers (the only place data changes) -----------------------------------------------
    def add_to_shelf(self, it: Interaction, book_id: str) -> None:
        book = self.book(it, book_id)
        if self.entry(it.data, book_id) is not None:
            it.no_op(f"{book_id} is already on the shelf")
        if book["price"] and not self.owned(it.data, book_id):
            it.toast("请先购买本书")
            it.no_op(f"{book_id} is not bought")
        it.data["shelf"].insert(0, {"id": book_id, "chapter": 0,
                                    "progress": 0, "last_read": it.clock})  # fmt: skip
        it.toast("已加入书架")

    def buy(self, it: Interaction, book_id: str) -> None:
        """Pay in the wallet; `on_payment_result` records the purchase."""
        book = self.book(it, book_id)
        if not book["price"] or self.owned(it.data, book_id):
            it.no_op(f"{book_id} needs no buying")
        it.set_ui("dialog", None)
        it.request_payment(
            amount_cents=book["price"],
            merchant="读书",
            reference=f"book:{book_id}",
            description=f"电子书《{book['title']}》",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        book_id = reference.removeprefix("book:")
        if not paid or self.owned(it.data, book_id):
            return
        book = self.book(it, book_id)
        it.data["purchased"].append({"id": book_id, "price": book["price"]})
        it.toast(f"购买成功 {price_label(book['price'])}")
        self.add_to_shelf(it, book_id)

    def turn(self, it: Interaction, book_id: str, step: int) -> None:
        entry = self.entry(it.data, book_id)
        if entry is None:
            it.no_op(f"{book_id} is not on the shelf")
            return
        count = len(self.book(it, book_id)["chapters"])
        chapter = entry["chapter"] + step
        if not 0 <= chapter < count:
            it.toast("已经是最后一章" if step > 0 else "已经是第一章")
            it.no_op(f"no chapter {chapter}")
        entry.update(chapter=chapter, progress=progress(chapter, count), last_read=it.clock)

    def toggle_bookmark(self, it: Interaction, book_id: str, chapter: int) -> None:
        marks = it.data["bookmarks"]
        mark_id = f"{book_id}-{chapter}"
        if any(m["id"] == mark_id for m in marks):
            it.data["bookmarks"] = [m for m in marks if m["id"] != mark_id]
            it.toast("已删除书签")
        else:
            marks.append({"id": mark_id, "book": book_id, "chapter": chapter, "time": it.clock})
            it.toast("已添加书签")

    def remove(self, it: Interaction, book_id: str) -> None:
        if self.entry(it.data, book_id) is None:
            it.no_op(f"{book_id} is not on the shelf")
        it.data["shelf"] = [s for s in it.data["shelf"] if s["id"] != book_id]
        it.set_ui("dialog", None)
        it.toast("已移出书架")

    def clear_search(self, it: Interaction) -> None:
        if not it.field("search"):
            it.no_op("the search is empty")
        it.set_field("search", "")

    def save_goal(self, it: Interaction) -> None:
        raw = it.field("goal").strip()
        if not raw.isdigit() or not 1 <= int(raw) <= 600:
            it.set_ui("goal_error", "请输入1到600之间的分钟数")
            it.no_op(f"bad goal {raw!r}")
        if int(raw) == it.data["goal"]:
            it.no_op("the goal did not change")
        it.data["goal"] = int(raw)
        it.set_ui("goal_error", None)
        it.toast("阅读目标已保存")

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "shelf")
        body = {"shelf": self._shelf, "store": self._store, "me": self._me}[tab](v)
        dialog = None
        removing = v.ui("dialog")
        if tab == "shelf" and removing and self.entry(v.data, removing):
            dialog = v.confirm(
                f"将《{self.book(v, removing)['title']}》移出书架？",
                v.do(self.remove, removing),
                message="阅读进度会被清除。",
                label="移出",
                confirm_id="confirm_remove",
                danger=True,
            )
        return Page("读书", [*body, Spacer(60)], header=Tabs(TABS, tab, v.on_select("tab")),
                    overlay=dialog)  # fmt: skip

    def _shelf(self, v: View) -> list[Widget | None]:
        sort = v.ui("sort", "recent")
        entries = list(v.data["shelf"])
        if sort == "recent":
            entries.sort(key=lambda s: -s["last_read"])
        else:
            entries.sort(key=lambda s: -s["progress"])
        rows: list[Widget | None] = [
            Wrap([Chip(label, v.set_ui("sort", key), selected=sort == key, id=f"sort_{key}")
                  for key, label in SORTS])
        ]  # fmt: skip
        for entry in entries:
            book = self.book(v, entry["id"])
            rows.append(
                ListItem(
                    book["title"],
                    subtitle=f"{book['author']}｜已读{entry['progress']}%",
                    leading=book["title"][:1],
                    leading_color=GREEN,
                    on_tap=v.go("book", book_id=book["id"]),
                    id=f"shelf_{book['id']}",
                    action=IconButton("delete", "移出书架", v.set_ui("dialog", book["id"]),
                                      id=f"remove_{book['id']}"),
                )
            )  # fmt: skip
        if not entries:
            rows.append(Text("书架空空如也，去书城看看吧", color=theme.TEXT_SECONDARY,
                             padding=40, align="center"))  # fmt: skip
        return rows

    def _store(self, v: View) -> list[Widget | None]:
        category = v.ui("category", "")
        query = v.field("search").strip()
        chips = [Chip("全部", v.set_ui("category", ""), selected=not category, id="cat_all")]
        chips += [Chip(c, v.set_ui("category", c), selected=category == c, id=f"cat_{c}")
                  for c in CATEGORIES]  # fmt: skip
        rows: list[Widget | None] = [
            TextField("search", v.field("search"), "搜索书名/作者", on_focus=v.focus("search")),
            Button(
                "清除搜索",
                v.do(self.clear_search),
                id="clear_search",
                style="secondary",
                height=90,
                size=34,
            )
            if query
            else None,
            Wrap(chips),
        ]
        books = sorted(v.content["books"], key=lambda b: -b["rating"])
        shown = len(rows)
        for book in books:
            if category and book["category"] != category:
                continue
            if query and query not in book["title"] + book["author"]:
                continue
            rows.append(
                ListItem(
                    book["title"],
                    subtitle=f"{book['author']}｜{book['category']}｜评分{book['rating']}",
                    trailing=price_label(book["price"]),
                    leading=book["title"][:1],
                    leading_color=GREEN,
                    on_tap=v.go("book", book_id=book["id"]),
                    id=f"book_{book['id']}",
                )
            )
        if len(rows) == shown:
            rows.append(Text(f"没有找到“{query}”" if query else "暂无书籍",
                             color=theme.TEXT_SECONDARY, padding=40, align="center"))  # fmt: skip
        return rows

    def _me(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = [Text("本周阅读时长", size=44, bold=True, padding=20)]
        week = zip(DAYS, v.data["minutes"], strict=True)
        rows += [
            ListItem(day, trailing=f"{m}分钟", id=f"day_{i}") for i, (day, m) in enumerate(week)
        ]
        error = v.ui("goal_error")
        rows += [
            Text(f"每日阅读目标：{v.data['goal']}分钟", size=40, padding=20, id="goal_now"),
            TextField("goal", v.field("goal"), "每日目标（分钟）", on_focus=v.focus("goal")),
            Text(error, color=(220, 50, 50), id="goal_error") if error else None,
            Button("保存目标", v.do(self.save_goal), id="save_goal"),
        ]
        return rows

    @screen("book")
    def book_page(self, v: View) -> Page:
        book = self.book(v, v.params["book_id"])
        entry = self.entry(v.data, book["id"])
        owned = not book["price"] or self.owned(v.data, book["id"])
        if entry is not None:
            main = Button("继续阅读", v.go("read", book_id=book["id"]), id="read")
        elif owned:
            main = Button("加入书架", v.do(self.add_to_shelf, book["id"]), id="add_shelf")
        else:
            main = Button(f"购买 {price_label(book['price'])}", v.set_ui("dialog", "buy"),
                          id="buy")  # fmt: skip
        dialog = None
        if v.ui("dialog") == "buy" and not owned:
            dialog = v.confirm(
                "确认支付",
                v.do(self.buy, book["id"]),
                message=f"购买《{book['title']}》，{price_label(book['price'])}，将跳转到钱包支付",
                label="去支付",
                confirm_id="pay",
            )
        contents = [Text(c["title"], size=36, color=theme.TEXT_SECONDARY, id=f"toc_{i}")
                    for i, c in enumerate(book["chapters"])]  # fmt: skip
        return Page(
            "书籍详情",
            [
                Card([
                    Text(book["title"], size=56, bold=True, id="title"),
                    Text(book["author"], size=40, id="author"),
                    Text(f"{book['category']}｜评分{book['rating']}｜{book['words']}万字",
                         size=36, color=theme.TEXT_SECONDARY, id="info"),
                    Text(price_label(book["price"]), size=40, color=GREEN, id="price"),
                    Text(f"已读{entry['progress']}%" if entry else "未加入书架", size=36,
                         id="progress"),
                ]),
                main,
                Text(book["intro"], size=38, id="intro"),
                Text("目录", size=42, bold=True, padding=12),
                *contents,
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
            overlay=dialog,
        )  # fmt: skip

    @screen("read")
    def read(self, v: View) -> Page:
        book = self.book(v, v.params["book_id"])
        entry = self.entry(v.data, book["id"])
        if entry is None:
            return Page(book["title"], [Text("本书已移出书架", padding=40)], on_back=v.back())
        chapter = book["chapters"][entry["chapter"]]
        marked = any(m["id"] == f"{book['id']}-{entry['chapter']}" for m in v.data["bookmarks"])
        paragraphs = [Text(p, size=40, id=f"para_{i}")
                      for i, p in enumerate(chapter["paragraphs"])]  # fmt: skip
        return Page(
            book["title"],
            [
                Text(chapter["title"], size=50, bold=True, id="chapter_title"),
                *paragraphs,
                Text(f"已读{entry['progress']}%", size=34, color=theme.TEXT_SECONDARY,
                     id="read_progress"),
                Button("上一章", v.do(self.turn, book["id"], -1), id="prev_chapter",
                       style="secondary"),
                Button("下一章", v.do(self.turn, book["id"], 1), id="next_chapter"),
            ],
            on_back=v.back(),
            actions=[IconButton("favorite" if marked else "star",
                                "删除书签" if marked else "添加书签",
                                v.do(self.toggle_bookmark, book["id"], entry["chapter"]),
                                id="bookmark")],
            body_padding=40,
            spacing=24,
        )  # fmt: skip
