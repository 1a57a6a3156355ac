"""追剧's browsing screens: home (channels, 追剧, 我的), search and a title's page with its
episodes (pages of 30), 追剧, rating, sharing and downloading."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.longvideo.base import GREEN, QUALITIES, LongVideoBase
from phonebuddy.phoneworld.apps.longvideo.content import KINDS, episode_label, schedule_text
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Column,
    Dialog,
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

NAV = (("home", "首页"), ("follow", "追剧"), ("me", "我的"))
CHANNELS = (("rec", "推荐"), ("tv", "电视剧"), ("movie", "电影"), ("show", "综艺"),
            ("anime", "动漫"))  # fmt: skip
CHANNEL_KIND = dict(zip(("tv", "movie", "show", "anime"), KINDS, strict=True))
SORTS = (("rating", "评分最高"), ("latest", "最新上线"))
FILTERS = (("genre", "类型"), ("region", "地区"), ("year", "年份"))
PAGE = 30


def status_text(t: Any) -> str:
    total = len(t["episodes"])
    if t["kind"] == "电影":
        return f"电影 · {t['episodes'][0]['minutes']}分钟"
    if t["schedule"] is not None:
        return f"更新至第{t['aired']}集 · 共{total}集 · {schedule_text(t['schedule'])}"
    return f"已完结 · 全{total}集"


class BrowseScreens(LongVideoBase):
    def _row(self, v: View, t: Any, prefix: str) -> ListItem:
        return ListItem(
            t["title"],
            subtitle=f"{t['kind']}｜{t['genre']}｜{t['region']}｜{t['year']}",
            trailing=f"{t['rating']}分",
            leading=t["title"][:1],
            leading_color=GREEN,
            on_tap=v.go("title", title_id=t["id"]),
            id=f"{prefix}_{t['id']}",
        )

    @staticmethod
    def select_channel(it: Interaction, channel: str) -> None:
        it.set_ui("channel", channel)
        for key, _ in (*FILTERS, ("sort", "")):
            it.set_ui(key, None)

    # -- home ------------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "home")
        header: Widget | None = None
        if tab == "home":
            channel = v.ui("channel", "rec")
            body = self._channel(v, channel)
            header = Column([
                Card([Text("搜索片名 / 演员", size=38, color=theme.TEXT_SECONDARY)],
                     on_tap=v.go("search"), id="search_bar", padding=24,
                     fill=theme.FIELD_BACKGROUND),
                Tabs(CHANNELS, channel, lambda key: v.do(self.select_channel, key),
                     id="channels"),
            ], padding=12, fill=theme.SURFACE)  # fmt: skip
        elif tab == "follow":
            body = self._follows(v)
        else:
            body = self._me(v)
        return Page(
            "追剧",
            [*body, Spacer(60)],
            header=header,
            bottom=Tabs(NAV, tab, v.on_select("tab"), style="bottom", id="nav"),
            actions=[IconButton("search", "搜索", v.go("search"), id="search")],
            body_padding=24,
            spacing=12,
        )

    def _channel(self, v: View, channel: str) -> list[Widget | None]:
        titles = list(v.content["titles"])
        if channel == "rec":
            titles.sort(key=lambda t: -t["hot"])
            return [
                Text("热播推荐", size=46, bold=True),
                *(self._row(v, t, "title") for t in titles),
            ]
        kind = CHANNEL_KIND[channel]
        titles = [t for t in titles if t["kind"] == kind]
        rows: list[Widget | None] = []
        for key, label in FILTERS:
            values = sorted({str(t[key]) for t in titles}, reverse=key == "year")
            chosen = v.ui(key)
            chips = [Chip(f"全部{label}", v.set_ui(key, None), selected=chosen is None,
                          id=f"{key}_all")]  # fmt: skip
            chips += [Chip(value, v.set_ui(key, value), selected=chosen == value,
                           id=f"{key}_{value}") for value in values]  # fmt: skip
            rows.append(Wrap(chips))
            if chosen is not None:
                titles = [t for t in titles if str(t[key]) == chosen]
        sort = v.ui("sort") or "rating"
        rows.append(Wrap([Chip(label, v.set_ui("sort", key), selected=sort == key,
                               id=f"sort_{key}") for key, label in SORTS]))  # fmt: skip
        if sort == "rating":
            titles.sort(key=lambda t: -t["rating"])
        else:
            titles.sort(key=lambda t: (-t["year"], -t["hot"]))
        rows += [self._row(v, t, "title") for t in titles]
        if not titles:
            rows.append(Text("没有符合条件的内容", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        return rows

    def _follows(self, v: View) -> list[Widget | None]:
        rows: list[Widget | None] = [Text("我的追剧", size=46, bold=True)]
        for f in sorted(v.data["follows"], key=lambda f: -f["time"]):
            t = self.title(v, f["id"])
            rows.append(ListItem(
                t["title"], subtitle=status_text(t), leading=t["title"][:1], leading_color=GREEN,
                on_tap=v.go("title", title_id=t["id"]), id=f"follow_{t['id']}",
                action=IconButton("delete", "取消追剧", v.do(self.toggle_follow, t["id"]),
                                  id=f"unfollow_{t['id']}"),
            ))  # fmt: skip
        if not v.data["follows"]:
            rows.append(Text("还没有追的剧，去首页看看吧", color=theme.TEXT_SECONDARY,
                             padding=40, align="center"))  # fmt: skip
        return rows

    def _me(self, v: View) -> list[Widget | None]:
        vip = self.is_vip(v)
        return [
            Card([
                Text("追剧用户", size=50, bold=True),
                Text(self.vip_text(v), size=38, color=GREEN if vip else theme.TEXT_SECONDARY,
                     id="vip_status"),
                Button("续费VIP会员" if vip else "开通VIP会员", v.go("vip"), id="open_vip"),
            ], padding=40),
            Card([
                ListItem("观看历史", subtitle=f"{len(v.data['history'])}部",
                         on_tap=v.go("history"), id="open_history"),
                ListItem("我的缓存", subtitle=f"{len(v.data['downloads'])}个",
                         on_tap=v.go("downloads"), id="open_downloads"),
                ListItem("播放设置", subtitle="跳过片头片尾", on_tap=v.go("settings"),
                         id="open_settings"),
            ], padding=0, spacing=0),
        ]  # fmt: skip

    # -- search ----------------------------------------------------------------------------------
    @screen("search")
    def search(self, v: View) -> Page:
        query = v.field("query").strip()
        rows: list[Widget | None] = [
            TextField("query", v.field("query"), "搜索片名 / 演员", on_focus=v.focus("query")),
            Button("清除", v.do(self.clear_query), id="clear_query", style="secondary",
                   height=90, size=34) if query else None,
        ]  # fmt: skip
        if query:
            found = [t for t in v.content["titles"]
                     if query in t["title"] or any(query in n for n in t["cast"])]  # fmt: skip
            for t in found:
                rows.append(ListItem(
                    t["title"], subtitle=f"{t['kind']}｜{t['year']}｜主演：{' / '.join(t['cast'])}",
                    trailing=f"{t['rating']}分", leading=t["title"][:1], leading_color=GREEN,
                    on_tap=v.go("title", title_id=t["id"]), id=f"result_{t['id']}",
                ))  # fmt: skip
            if not found:
                rows.append(Text(f"没有找到“{query}”相关内容", color=theme.TEXT_SECONDARY,
                                 padding=40, align="center"))  # fmt: skip
        return Page("搜索", rows, on_back=v.back(), body_padding=24, spacing=12)

    # -- a title ---------------------------------------------------------------------------------
    @screen("title")
    def title_page(self, v: View) -> Page:
        t = self.title(v, v.params["title_id"])
        entry = self.find(v.data["history"], t["id"])
        followed = self.find(v.data["follows"], t["id"]) is not None
        rated = self.find(v.data["ratings"], t["id"])
        downloading = v.ui("mode") == "download"
        start = entry["episode"] if entry else 1
        label = episode_label(t, start)
        info = Card([
            Text(t["title"], size=56, bold=True, id="title_name"),
            Text(f"{t['year']}｜{t['kind']}｜{t['genre']}｜{t['region']}", size=36,
                 color=theme.TEXT_SECONDARY, id="meta"),
            Text(f"评分 {t['rating']}", size=44, color=GREEN, bold=True, id="rating"),
            Text(status_text(t), size=36, id="status"),
            Text(f"导演：{t['director']}", size=36, id="director"),
            Text(f"{'嘉宾' if t['kind'] == '综艺' else '主演'}：{' / '.join(t['cast'])}",
                 size=36, id="cast"),
            Text(f"我的评分：{rated['stars']}星" if rated else "我还没评分", size=34,
                 color=theme.TEXT_SECONDARY, id="my_rating"),
            Text(t["synopsis"], size=36, color=theme.TEXT_SECONDARY, id="synopsis"),
        ])  # fmt: skip
        actions = Row([
            Button(f"继续看{label}" if entry else f"播放{label}",
                   v.do(self.play, t["id"], start), id="play", size=36),
            Button("已追剧" if followed else "+追剧", v.do(self.toggle_follow, t["id"]),
                   id="follow", style="secondary" if followed else "primary", size=36),
        ])  # fmt: skip
        tools = Wrap([
            Chip("评分", v.set_ui("dialog", "rate"), id="rate"),
            Chip("分享", v.do(self.share, t["id"]), id="share"),
            Chip("完成缓存" if downloading else "缓存", v.set_ui("mode", None if downloading
                 else "download"), selected=downloading, id="download"),
        ])  # fmt: skip
        return Page(
            t["title"],
            [info, actions, tools, *self._episodes(v, t, downloading), Spacer(60)],
            on_back=v.back(),
            body_padding=24,
            spacing=16,
            overlay=self._title_dialog(v, t),
        )

    def _episodes(self, v: View, t: Any, downloading: bool) -> list[Widget | None]:
        rows: list[Widget | None] = [Text("缓存：选择清晰度后点选剧集" if downloading else "选集",
                                          size=44, bold=True, id="episodes_head")]  # fmt: skip
        if downloading:
            quality = v.ui("dl_quality", "720P")
            rows.append(Wrap([Chip(label, v.set_ui("dl_quality", key), selected=quality == key,
                                   id=f"dq_{key}") for key, label in QUALITIES]))  # fmt: skip
        aired = t["episodes"][: t["aired"]]
        pages = (len(aired) + PAGE - 1) // PAGE
        page = min(v.ui("page", 0), pages - 1)
        if pages > 1:
            rows.append(Wrap([Chip(f"{i * PAGE + 1}-{min((i + 1) * PAGE, len(aired))}",
                                   v.set_ui("page", i), selected=page == i, id=f"page_{i}")
                              for i in range(pages)]))  # fmt: skip
        downloaded = {d["id"] for d in v.data["downloads"]}
        for e in aired[page * PAGE : (page + 1) * PAGE]:
            n = e["n"]
            marks = ["VIP" if e["vip"] else "", "已缓存" if f"{t['id']}-{n}" in downloaded else ""]
            rows.append(ListItem(
                episode_label(t, n), subtitle=f"{e['minutes']}分钟",
                trailing=" ".join(m for m in marks if m),
                on_tap=v.do(self.download if downloading else self.play, t["id"], n),
                id=f"ep_{n}",
            ))  # fmt: skip
        return rows

    def _title_dialog(self, v: View, t: Any) -> Dialog | None:
        dialog = v.ui("dialog")
        if dialog == "rate":
            stars = [Button("★" * n, v.do(self.rate, t["id"], n), id=f"star_{n}",
                            style="secondary", height=100) for n in range(5, 0, -1)]  # fmt: skip
            return Dialog(
                f"给《{t['title']}》评分",
                buttons=[
                    *stars,
                    Button("取消", v.set_ui("dialog", None), id="rate_cancel", style="text"),
                ],
            )
        if dialog == "vip":
            return self.vip_dialog(v)
        return None

    def vip_dialog(self, v: View) -> Dialog:
        return Dialog("VIP会员专享",
                      message="该内容为VIP会员专享，开通会员即可观看蓝光画质和全部剧集。",
                      buttons=[Button("取消", v.set_ui("dialog", None), id="vip_cancel",
                                      style="secondary"),
                               Button("开通VIP", v.do(self.join_vip), id="vip_join")])  # fmt: skip

    @staticmethod
    def join_vip(it: Interaction) -> None:
        it.set_ui("dialog", None)
        it.push("vip")
