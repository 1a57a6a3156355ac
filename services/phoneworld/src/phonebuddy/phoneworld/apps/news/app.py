"""The screens of 头条新闻: the channel feed (不感兴趣 hides an item), 频道管理, search, the
article page, the 热榜, and 我的 (收藏, 历史, 关注, 推送设置)."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.news.base import (
    CHANNEL_NAMES,
    FONTS,
    PUSH,
    RED,
    NewsBase,
)
from phonebuddy.phoneworld.apps.news.content import CHANNELS, heat_label
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import full_time
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Chip,
    IconButton,
    ListItem,
    Page,
    Spacer,
    Tabs,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)


def _empty(text: str) -> Text:
    return Text(text, color=theme.TEXT_SECONDARY, padding=40, align="center")


class News(NewsBase):
    def _row(self, v: View, a: dict[str, Any], *, dislike: bool = False) -> ListItem:
        return ListItem(
            a["title"],
            subtitle=f"{a['source']}｜{a['comments']}评论｜{full_time(a['time'])}",
            on_tap=v.do(self.open_article, a["id"]),
            id=f"art_{a['id']}",
            action=IconButton("close", "不感兴趣", v.do(self.hide, a["id"]),
                              id=f"dislike_{a['id']}") if dislike else None,
        )  # fmt: skip

    @screen("home")
    def home(self, v: View) -> Page:
        keys = [c["id"] for c in v.data["channels"]]
        tab = v.ui("tab", "rec")
        if tab not in keys:
            tab = "rec"
        hidden = {h["id"] for h in v.data["hidden"]}
        articles = [a for a in v.content["articles"] if a["id"] not in hidden
                    and (tab == "rec" or a["channel"] == tab)]  # fmt: skip
        articles.sort(key=lambda a: -a["time"])
        rows: list[Widget | None] = [
            Wrap([
                Chip("热榜", v.go("hot"), id="open_hot"),
                Chip("频道管理", v.go("channels"), id="manage_channels"),
                Chip("我的", v.go("me"), id="open_me"),
            ]),
            *[self._row(v, a, dislike=True) for a in articles],
        ]  # fmt: skip
        if not articles:
            rows.append(_empty("暂无内容"))
        return Page(
            "头条新闻",
            [*rows, Spacer(60)],
            header=Tabs([(k, CHANNEL_NAMES[k]) for k in keys], tab, v.on_select("tab")),
            actions=[IconButton("search", "搜索", v.go("search"), id="open_search")],
        )

    @screen("channels")
    def channels(self, v: View) -> Page:
        mine = [c["id"] for c in v.data["channels"]]
        rows: list[Widget | None] = [Text("我的频道", size=44, bold=True, padding=16)]
        rows += [ListItem(CHANNEL_NAMES[k], id=f"channel_{k}",
                          action=None if k == "rec" else IconButton(
                              "minus", "移除", v.do(self.remove_channel, k), id=f"remove_ch_{k}"))
                 for k in mine]  # fmt: skip
        rows.append(Text("更多频道", size=44, bold=True, padding=16))
        more = [k for k, _ in CHANNELS if k not in mine]
        rows += [ListItem(CHANNEL_NAMES[k], id=f"more_{k}",
                          action=IconButton("plus", "添加", v.do(self.add_channel, k),
                                            id=f"add_ch_{k}"))
                 for k in more]  # fmt: skip
        return Page("频道管理", rows, on_back=v.back())

    @screen("search")
    def search(self, v: View) -> Page:
        query = v.field("query").strip()
        rows: list[Widget | None] = [
            TextField("query", v.field("query"), "搜索新闻标题", on_focus=v.focus("query"))
        ]
        if query:
            found = [a for a in v.content["articles"] if query in a["title"]]
            rows += [self._row(v, a) for a in found]
            if not found:
                rows.append(_empty(f"没有找到“{query}”相关的新闻"))
        return Page("搜索", rows, on_back=v.back())

    @screen("article")
    def article_page(self, v: View) -> Page:
        a = self.article(v, v.params["article_id"])
        size = next(s for key, _, s in FONTS if key == v.data["font"])
        followed = self.has(v.data["following"], a["source"])
        saved = self.has(v.data["saved"], a["id"])
        liked = self.has(v.data["likes"], a["id"])
        mine = [c for c in v.data["comments"] if c["article"] == a["id"]]
        body: list[Widget | None] = [
            Text(a["title"], size=size + 12, bold=True, id="title"),
            ListItem(a["source"], subtitle=full_time(a["time"]), id="source",
                     action=Button("已关注" if followed else "关注",
                                   v.set_ui("dialog", "unfollow") if followed
                                   else v.do(self.follow, a["source"]),
                                   id="follow", style="secondary" if followed else "primary",
                                   height=90, size=34)),
            Text(f"阅读 {a['reads']}｜评论 {a['comments'] + len(mine)}", size=34,
                 color=theme.TEXT_SECONDARY, id="stats"),
            Wrap([Chip(f"字号{label}", v.do(self.set_font, key), selected=v.data["font"] == key,
                       id=f"font_{key}") for key, label, _ in FONTS]),
            *[Text(p, size=size, id=f"para_{i}") for i, p in enumerate(a["paragraphs"])],
        ]  # fmt: skip
        body += self._poll(v, a)
        body += [
            Wrap([
                Chip("已赞" if liked else "点赞", v.do(self.toggle_like, a["id"]), selected=liked,
                     id="like"),
                Chip("已收藏" if saved else "收藏", v.do(self.toggle_saved, a["id"]),
                     selected=saved, id="favorite"),
                Chip("分享", v.do(self.share, a["id"]), id="share"),
            ]),
            Text("评论", size=42, bold=True, padding=12),
            *[ListItem("我", subtitle=c["text"], id=f"comment_{c['id']}") for c in mine],
            TextField("comment", v.field("comment"), "写评论…", on_focus=v.focus("comment")),
            Button("发布评论", v.do(self.send_comment, a["id"]), id="send_comment"),
            Spacer(60),
        ]  # fmt: skip
        dialog = None
        if v.ui("dialog") == "unfollow" and followed:
            dialog = v.confirm(f"确定不再关注“{a['source']}”？", v.do(self.unfollow, a["source"]),
                               label="取消关注", confirm_id="confirm_unfollow",
                               cancel_label="再想想", danger=True)  # fmt: skip
        return Page("正文", body, on_back=v.back(), body_padding=30, spacing=20, overlay=dialog)

    def _poll(self, v: View, a: dict[str, Any]) -> list[Widget | None]:
        poll = a["poll"]
        if poll is None:
            return []
        mine = next((x for x in v.data["votes"] if x["id"] == a["id"]), None)
        rows: list[Widget | None] = [Text(f"投票：{poll['question']}", size=40, bold=True,
                                          id="poll_question")]  # fmt: skip
        for i, option in enumerate(poll["options"]):
            if mine is None:
                rows.append(Button(option, v.do(self.vote, a["id"], i), id=f"vote_{i}",
                                   style="secondary"))  # fmt: skip
            else:
                votes = poll["votes"][i] + (mine["option"] == i)
                mark = "✓ " if mine["option"] == i else ""
                rows.append(Text(f"{mark}{option}  {votes}票", id=f"result_{i}"))
        return rows

    @screen("hot")
    def hot(self, v: View) -> Page:
        rows = []
        heats = v.data.get("heat", {})  # this phone's latest heat of a rank, if refreshed
        for entry in v.content["hot"]:
            a = self.article(v, entry["article"])
            heat = heats.get(str(entry["rank"]), entry["heat"])
            rows.append(ListItem(f"{entry['rank']}. {a['title']}",
                                 trailing=f"{heat_label(heat)}热度",
                                 on_tap=v.do(self.open_article, a["id"]),
                                 id=f"hot_{entry['rank']}"))  # fmt: skip
        return Page("热榜", rows, on_back=v.back())

    @screen("me")
    def me(self, v: View) -> Page:
        d = v.data
        return Page("我的", [
            ListItem("我的收藏", trailing=str(len(d["saved"])), on_tap=v.go("saved"),
                     id="open_saved"),
            ListItem("历史记录", trailing=str(len(d["history"])), on_tap=v.go("history"),
                     id="open_history"),
            ListItem("我的关注", trailing=str(len(d["following"])), on_tap=v.go("following"),
                     id="open_following"),
            ListItem("推送设置", on_tap=v.go("push"), id="open_push"),
        ], on_back=v.back())  # fmt: skip

    def _listed(self, v: View, items: list[dict[str, Any]]) -> list[Widget | None]:
        ordered = sorted(items, key=lambda x: -x["time"])
        return [self._row(v, self.article(v, x["id"])) for x in ordered]

    @screen("saved")
    def saved(self, v: View) -> Page:
        rows = self._listed(v, v.data["saved"]) or [_empty("还没有收藏")]
        return Page("我的收藏", rows, on_back=v.back())

    @screen("history")
    def history(self, v: View) -> Page:
        rows = self._listed(v, v.data["history"]) or [_empty("暂无历史记录")]
        dialog = None
        if v.ui("dialog") == "clear":
            dialog = v.confirm("清空全部历史记录？", v.do(self.clear_history),
                               message="清空后无法恢复。", label="清空",
                               confirm_id="confirm_clear", danger=True)  # fmt: skip
        return Page("历史记录", rows, on_back=v.back(), overlay=dialog,
                    actions=[IconButton("delete", "清空历史", v.set_ui("dialog", "clear"),
                                        id="clear_history")])  # fmt: skip

    @screen("following")
    def following(self, v: View) -> Page:
        rows: list[Widget | None] = [
            ListItem(f["id"], leading=f["id"][:1], leading_color=RED, id=f"src_{i}",
                     action=Button("取消关注", v.set_ui("dialog", f["id"]), id=f"unfollow_{i}",
                                   style="secondary", height=90, size=34))
            for i, f in enumerate(v.data["following"])
        ] or [_empty("还没有关注的作者")]  # fmt: skip
        dialog = None
        source = v.ui("dialog")
        if source and self.has(v.data["following"], source):
            dialog = v.confirm(f"确定不再关注“{source}”？", v.do(self.unfollow, source),
                               label="取消关注", confirm_id="confirm_unfollow",
                               cancel_label="再想想", danger=True)  # fmt: skip
        return Page("我的关注", rows, on_back=v.back(), overlay=dialog)

    @screen("push")
    def push(self, v: View) -> Page:
        rows = [Toggle(label, v.data["push"][key], v.do(self.set_push, key), id=f"push_{key}")
                for key, label in PUSH]  # fmt: skip
        return Page("推送设置", rows, on_back=v.back())
