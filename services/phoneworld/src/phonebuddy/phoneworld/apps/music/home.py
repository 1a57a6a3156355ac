"""Music's home (发现 and 我的 tabs, charts), search, and the VIP offer with its payment."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.music.base import (
    HOT_SEARCHES,
    RED,
    TABS,
    VIP_PRICE_CENTS,
    VIP_REFERENCE,
    MusicBase,
    album_color,
    search_songs,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Column,
    Dialog,
    IconButton,
    Image,
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


class HomeScreens(MusicBase):
    # -- handlers: search and the VIP offer -------------------------------------------------------
    @staticmethod
    def open_search(it: Interaction) -> None:
        it.push("search")
        it.focus("query")

    @staticmethod
    def search_for(it: Interaction, text: str) -> None:
        if it.field("query") == text:
            it.no_op(f"already searching for {text}")
        it.set_field("query", text)

    @staticmethod
    def dismiss_promo(it: Interaction) -> None:
        it.data["promo_seen"] = True

    @staticmethod
    def buy_vip(it: Interaction) -> None:
        it.data["promo_seen"] = True
        it.request_payment(
            amount_cents=VIP_PRICE_CENTS,
            merchant="网易云音乐",
            reference=VIP_REFERENCE,
            description="黑胶VIP 首月",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        if reference == VIP_REFERENCE and paid:
            it.data["vip"] = True
            it.toast("黑胶VIP 开通成功")

    # -- screens: home ---------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "discover")
        body = self._discover(v) if tab == "discover" else self._mine(v)
        search_bar = Column(
            [
                Card(
                    [Text("搜索 歌曲 / 歌手 / 专辑", size=38, color=theme.TEXT_SECONDARY)],
                    on_tap=v.do(self.open_search),
                    id="search_bar",
                    padding=24,
                    fill=theme.FIELD_BACKGROUND,
                )
            ],
            padding=24,
            fill=theme.SURFACE,
        )
        return Page(
            "网易云音乐",
            [*body, Spacer(40)],
            header=search_bar,
            bottom=self._bottom(v, Tabs(TABS, tab, v.on_select("tab"), style="bottom")),
            actions=[IconButton("search", "搜索", v.do(self.open_search), id="search")],
            body_padding=24,
            spacing=20,
            overlay=self._promo(v) or self._overlay(v),
        )

    def _promo(self, v: View) -> Dialog | None:
        if v.data["promo_seen"] or v.data["vip"]:
            return None
        return Dialog(
            "黑胶VIP 限时特惠",
            message=f"首月仅需 ¥{VIP_PRICE_CENTS / 100:.2f}，畅听千万曲库，尊享无损音质。",
            buttons=[
                Button("以后再说", v.do(self.dismiss_promo), id="promo_close", style="secondary"),
                Button("立即开通", v.do(self.buy_vip), id="promo_buy"),
            ],
            id="promo",
        )

    def _discover(self, v: View) -> list[Widget | None]:
        daily = self.songs(v.content, v.content["daily"])
        charts = [self._chart_card(v, chart) for chart in v.content["charts"]]
        return [
            Image("新歌首发 · 本周华语热歌", height=340, color=(200, 60, 70), id="banner"),
            Text("每日推荐", size=46, bold=True),
            Card(self._song_rows(v, daily), padding=0, spacing=0),
            Text("排行榜", size=46, bold=True),
            *charts,
        ]

    def _chart_card(self, v: View, chart: Mapping[str, Any]) -> Card:
        """A chart on 发现: its name, when it updates, its top three."""
        top = [
            Text(
                f"{rank}. {song['title']} - {song['artist']}",
                size=36,
                color=theme.TEXT_SECONDARY,
                max_lines=1,
            )
            for rank, song in enumerate(self.songs(v.content, chart["songs"][:3]), 1)
        ]
        heading = Row(
            [
                Text(chart["name"], size=44, bold=True),
                Text(chart["updated"], size=32, color=theme.TEXT_SECONDARY, align="right"),
            ]
        )
        return Card(
            [heading, *top],
            on_tap=v.go("chart", chart=chart["id"]),
            id=f"chart_{chart['id']}",
            spacing=8,
        )

    def _mine(self, v: View) -> list[Widget | None]:
        data = v.data
        playlists: list[Widget] = [
            ListItem(
                p["name"],
                subtitle=f"{len(p['songs'])}首",
                leading=p["name"],
                leading_color=album_color(p["name"]),
                on_tap=v.go("playlist", playlist=p["id"]),
                id=f"playlist_{p['id']}",
            )
            for p in data["playlists"]
        ]
        return [
            Card(
                [
                    Text("云村村民" + ("  黑胶VIP" if data["vip"] else ""), size=48, bold=True),
                    Text("Lv.8  ·  关注 23  ·  粉丝 5", size=34, color=theme.TEXT_SECONDARY),
                ],
                padding=40,
            ),
            Card(
                [
                    ListItem(
                        "我喜欢的音乐",
                        subtitle=f"{len(data['liked'])}首",
                        leading="♥",
                        leading_color=RED,
                        on_tap=v.go("liked"),
                        id="liked",
                    ),
                    ListItem(
                        "最近播放",
                        subtitle=f"{len({e['song'] for e in data['history']})}首",
                        leading="近",
                        leading_color=(120, 120, 130),
                        on_tap=v.go("history"),
                        id="history",
                    ),
                ],
                padding=0,
                spacing=0,
            ),
            Row(
                [
                    Text(f"创建歌单（{len(playlists)}）", size=42, bold=True, padding=12),
                    IconButton(
                        "plus", "新建歌单", v.go("edit_playlist", playlist=None), id="new_playlist"
                    ),
                ]
            ),
            Card(playlists, padding=0, spacing=0)
            if playlists
            else Text("还没有歌单，点击 + 新建", color=theme.TEXT_SECONDARY, padding=24),
        ]

    # -- screens: search, lists ------------------------------------------------------------------
    @screen("search")
    def search(self, v: View) -> Page:
        query = v.field("query").strip()
        body: list[Widget | None] = [
            TextField("query", v.field("query"), "搜索歌曲、歌手、专辑", on_focus=v.focus("query"))
        ]
        if not query:
            body += [
                Text("热搜榜", size=40, bold=True),
                Wrap(
                    [
                        Chip(text, v.do(self.search_for, text), id=f"hot_{i}")
                        for i, text in enumerate(HOT_SEARCHES)
                    ]
                ),
            ]
        else:
            artists = [a for a in v.content["artists"] if query.lower() in a["name"].lower()]
            body += [
                ListItem(
                    f"歌手：{a['name']}",
                    subtitle=f"粉丝 {a['fans'] // 10000}万",
                    leading=a["name"],
                    on_tap=v.go("artist", artist=a["id"]),
                    id=f"artist_{a['id']}",
                )
                for a in artists
            ]
            songs = search_songs(v.content, query)
            body += self._song_rows(v, songs, as_queue=False) or [
                Text("未找到相关歌曲", color=theme.TEXT_SECONDARY, align="center", padding=40)
            ]
        return Page(
            "搜索",
            [*body, Spacer(40)],
            on_back=v.back(),
            bottom=self._bottom(v),
            background=theme.SURFACE,
            body_padding=24,
            spacing=16,
            overlay=self._overlay(v),
        )
