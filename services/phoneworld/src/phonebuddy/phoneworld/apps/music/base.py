"""What the Music app's screens share: the seeded catalogue, look-ups of songs and playlists,
song rows, the mini player, and the song, collect and queue sheets.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, View
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Card,
    Column,
    Dialog,
    IconButton,
    ListItem,
    Row,
    Spacer,
    Tabs,
    Text,
    Widget,
)

MUSIC = "com.pw.music"
WALLET = "com.pw.wallet"
RED: Color = (236, 65, 65)
PALE_RED: Color = (253, 236, 236)
PLAYER_BACKGROUND: Color = (58, 44, 48)
PLAYER_TEXT: Color = (235, 225, 228)
ALBUM_COLORS: tuple[Color, ...] = ((94, 129, 172), (191, 97, 106), (163, 190, 140),
                                   (180, 142, 173), (208, 135, 112), (76, 86, 106),
                                   (136, 192, 208))  # fmt: skip
Song = Mapping[str, Any]

# artist, then (title, album, length) of their songs
CATALOGUE: tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...] = (
    ("周杰伦", (("晴天", "叶惠美", "4:29"), ("七里香", "七里香", "4:59"),
             ("稻香", "魔杰座", "3:43"), ("告白气球", "周杰伦的床边故事", "3:35"),
             ("夜曲", "十一月的萧邦", "3:46"), ("青花瓷", "我很忙", "3:59"))),
    ("陈奕迅", (("十年", "黑白灰", "3:25"), ("浮夸", "U87", "4:46"), ("好久不见", "认了吧", "3:13"),
             ("富士山下", "What's Going On...?", "4:19"), ("孤勇者", "孤勇者", "4:16"))),
    ("林俊杰", (("江南", "第二天堂", "4:28"), ("修炼爱情", "因你而在", "4:47"),
             ("可惜没如果", "新地球", "4:58"), ("不为谁而作的歌", "和自己对话", "4:27"),
             ("她说", "她说", "5:20"))),
    ("邓紫棋", (("光年之外", "光年之外", "3:55"), ("泡沫", "Xposed", "4:18"),
             ("倒数", "摩天动物园", "3:49"), ("句号", "摩天动物园", "3:55"))),
    ("薛之谦", (("演员", "绅士", "4:21"), ("丑八怪", "意外", "4:08"),
             ("认真的雪", "薛之谦", "4:20"), ("天外来物", "天外来物", "4:17"))),
    ("毛不易", (("消愁", "平凡的一天", "4:20"), ("像我这样的人", "平凡的一天", "3:35"),
             ("平凡的一天", "平凡的一天", "4:25"), ("一荤一素", "平凡的一天", "3:55"))),
    ("李荣浩", (("李白", "模特", "4:33"), ("年少有为", "耳朵", "4:39"), ("麻雀", "麻雀", "4:33"),
             ("模特", "模特", "5:04"))),
    ("五月天", (("倔强", "神的孩子都在跳舞", "4:20"), ("突然好想你", "后青春期的诗", "4:25"),
             ("知足", "知足 最真杰作选", "4:21"), ("温柔", "爱情万岁", "4:30"),
             ("后来的我们", "自传", "5:22"))),
    ("王菲", (("红豆", "唱游", "4:18"), ("传奇", "传奇", "5:01"), ("匆匆那年", "匆匆那年", "4:00"),
            ("人间", "浮躁", "4:22"))),
    ("孙燕姿", (("遇见", "The Moment", "3:30"), ("天黑黑", "孙燕姿同名专辑", "4:05"),
             ("绿光", "风筝", "3:53"), ("我怀念的", "逆光", "4:49"))),
    ("蔡依林", (("日不落", "特务J", "3:48"), ("说爱你", "看我72变", "3:40"),
             ("倒带", "城堡", "4:17"), ("爱情36计", "看我72变", "3:32"))),
    ("许嵩", (("有何不可", "自定义", "4:01"), ("清明雨上", "自定义", "3:31"),
            ("素颜", "寻雾启示", "3:59"), ("断桥残雪", "断桥残雪", "2:52"))),
    ("赵雷", (("成都", "无法长大", "5:28"), ("南方姑娘", "赵小雷", "5:31"),
            ("少年锦时", "吉姆餐厅", "4:50"), ("鼓楼", "无法长大", "4:52"))),
    ("朴树", (("平凡之路", "猎户星座", "5:01"), ("那些花儿", "我去2000年", "4:32"),
            ("白桦林", "我去2000年", "4:50"), ("生如夏花", "生如夏花", "4:42"))),
    ("王力宏", (("唯一", "唯一", "4:38"), ("大城小爱", "盖世英雄", "4:09"),
             ("落叶归根", "改变自己", "4:50"), ("需要人陪", "你不知道的事", "4:14"))),
    ("田馥甄", (("小幸运", "小幸运", "4:25"), ("你就不要想起我", "渺小", "4:30"),
             ("魔鬼中的天使", "My Love", "4:23"))),
    ("张韶涵", (("隐形的翅膀", "潘朵拉", "3:46"), ("欧若拉", "欧若拉", "3:56"),
             ("阿刁", "阿刁", "5:05"))),
    ("华晨宇", (("烟火里的尘埃", "异类", "5:00"), ("齐天", "齐天", "3:50"),
             ("好想爱这个世界啊", "好想爱这个世界啊", "4:02"))),
    ("周深", (("大鱼", "大鱼", "5:13"), ("起风了", "起风了（周深版）", "5:25"),
            ("光亮", "光亮", "4:29"), ("后来", "周深翻唱集", "5:40"))),
    ("买辣椒也用券", (("起风了", "起风了", "5:25"),)),
    ("刘若英", (("后来", "我等你", "5:41"), ("很爱很爱你", "很爱很爱你", "4:10"),
             ("为爱痴狂", "我们没有在一起", "4:20"))),
    ("莫文蔚", (("他不爱我", "全身大翻译", "4:43"), ("阴天", "你可以", "4:30"),
             ("慢慢喜欢你", "慢慢喜欢你", "4:04"))),
    ("Beyond", (("海阔天空", "乐与怒", "5:26"), ("光辉岁月", "命运派对", "4:58"),
                ("真的爱你", "Beyond IV", "4:35"), ("喜欢你", "秘密警察", "4:33"))),
    ("汪峰", (("春天里", "信仰在空中飘扬", "5:35"), ("怒放的生命", "怒放的生命", "4:40"),
            ("北京北京", "信仰在空中飘扬", "5:44"))),
    ("林宥嘉", (("说谎", "感官/世界", "4:20"), ("浪费", "大小说家", "4:26"),
             ("成全", "成全", "4:11"))),
    ("告五人", (("爱人错过", "我肯定在几百年前就说过爱你", "4:13"),
             ("带我去找夜生活", "运气来得若有似无", "4:14"))),
    ("任然", (("飞鸟和蝉", "飞鸟和蝉", "4:55"), ("空空如也", "空空如也", "3:34"))),
    ("房东的猫", (("云烟成雨", "云烟成雨", "4:03"), ("美好事物", "难以言喻的浪漫", "4:25"))),
    ("张学友", (("吻别", "吻别", "5:00"), ("一千个伤心的理由", "一千个伤心的理由", "5:33"),
             ("她来听我的演唱会", "走过1999", "5:24"), ("慢慢", "真爱新曲+精选", "4:02"))),
    ("王心凌", (("爱你", "Begin...", "3:37"), ("第一次爱的人", "Cyndi With U", "4:23"))),
    ("Taylor Swift", (("Love Story", "Fearless", "3:55"), ("Blank Space", "1989", "3:51"),
                      ("Shake It Off", "1989", "3:39"))),
    ("Ed Sheeran", (("Shape of You", "÷", "3:53"), ("Perfect", "÷", "4:23"),
                    ("Photograph", "x", "4:19"))),
    ("Adele", (("Rolling in the Deep", "21", "3:48"), ("Someone Like You", "21", "4:45"),
               ("Hello", "25", "4:55"))),
)  # fmt: skip
CHARTS = (("soaring", "飙升榜", "刚刚更新"), ("new", "新歌榜", "每天更新"),
          ("hot", "热歌榜", "每周四更新"), ("original", "原创榜", "每周四更新"))  # fmt: skip
CHART_SIZE = 20
DAILY_SIZE = 6
HOT_SEARCHES = ("孤勇者", "起风了", "晴天", "光年之外", "后来", "海阔天空", "小幸运",
                "Perfect")  # fmt: skip
PLAYLIST_NAMES = ("跑步专用", "深夜emo", "开车必听", "学习BGM", "KTV必点", "华语经典",
                  "周末慢时光", "通勤路上")  # fmt: skip
MODES = (("order", "顺序播放"), ("repeat_one", "单曲循环"), ("shuffle", "随机播放"))
MODE_LABELS = dict(MODES)
TABS = (("discover", "发现"), ("mine", "我的"))
HISTORY_SIZE = 50
VIP_PRICE_CENTS = 30
VIP_REFERENCE = "vip-first-month"


def seconds(length: str) -> int:
    minutes, _, secs = length.partition(":")
    return int(minutes) * 60 + int(secs)


def duration_text(total: int) -> str:
    return f"{total // 60:02d}:{total % 60:02d}"


def album_color(album: str) -> Color:
    return ALBUM_COLORS[zlib.crc32(album.encode()) % len(ALBUM_COLORS)]


def build_content(rng: random.Random) -> dict[str, Any]:
    artists, songs = [], []
    for number, (name, tracks) in enumerate(CATALOGUE, 1):
        artist_id = f"ar{number:02d}"
        artists.append({"id": artist_id, "name": name, "fans": rng.randrange(30, 3000) * 10000})
        for title, album, length in tracks:
            songs.append(
                {
                    "id": f"s{len(songs) + 1:03d}",
                    "title": title,
                    "artist": name,
                    "artist_id": artist_id,
                    "album": album,
                    "duration": seconds(length),
                    "plays": rng.randrange(10, 5000) * 1000,
                    "vip": rng.random() < 0.25,
                }
            )
    by_plays = sorted(songs, key=lambda s: -s["plays"])
    charts = [
        {
            "id": key,
            "name": name,
            "updated": updated,
            "songs": [
                s["id"]
                for s in (
                    by_plays[:CHART_SIZE] if key == "hot" else rng.sample(songs, k=CHART_SIZE)
                )
            ],
        }
        for key, name, updated in CHARTS
    ]
    daily = [s["id"] for s in rng.sample(songs, k=DAILY_SIZE)]
    return {"artists": artists, "songs": songs, "charts": charts, "daily": daily}


def song_by_id(content: Any, song_id: str) -> Song | None:
    return next((s for s in content["songs"] if s["id"] == song_id), None)


def search_songs(content: Any, query: str) -> list[Song]:
    """Songs whose title, artist and album together hold every word of the query; exact
    titles first, then the most played."""
    words = query.lower().split()
    if not words:
        return []
    found = [
        s
        for s in content["songs"]
        if all(w in f"{s['title']} {s['artist']} {s['album']}".lower() for w in words)
    ]
    return sorted(found, key=lambda s: (s["title"].lower() not in words, -s["plays"]))


class MusicBase(App):
    # -- lookups -------------------------------------------------------------------------------
    @staticmethod
    def require_song(it: Interaction, song_id: str) -> Song:
        song = song_by_id(it.content, song_id)
        if song is None:
            it.no_op(f"no song {song_id}")
        return song

    @staticmethod
    def require_playlist(it: Interaction, playlist_id: str) -> dict[str, Any]:
        playlist = next((p for p in it.data["playlists"] if p["id"] == playlist_id), None)
        if playlist is None:
            it.no_op(f"no playlist {playlist_id}")
        return playlist

    @staticmethod
    def is_liked(data: Any, song_id: str) -> bool:
        return any(entry["id"] == song_id for entry in data["liked"])

    @staticmethod
    def songs(content: Any, song_ids: Sequence[str]) -> list[Song]:
        by_id = {s["id"]: s for s in content["songs"]}
        return [by_id[song_id] for song_id in song_ids if song_id in by_id]

    # -- building blocks -------------------------------------------------------------------------
    def _song_row(
        self, v: View, song: Song, queue: Sequence[str] | None, *, title: str | None = None
    ) -> ListItem:
        """A song: tapping plays it (with `queue` as the new queue, or added to the current one
        when None); ⋯ opens its sheet."""
        playing = v.data["player"]["song"] == song["id"]
        vip = "VIP · " if song["vip"] else ""
        return ListItem(
            title or song["title"],
            subtitle=f"{vip}{song['artist']} - {song['album']}",
            trailing="正在播放" if playing else "",
            leading=song["title"],
            leading_color=album_color(song["album"]),
            on_tap=v.do(self.play, song["id"], None if queue is None else list(queue)),
            id=f"song_{song['id']}",
            action=IconButton(
                "more",
                f"{song['title']}的更多操作",
                v.do(self.open_sheet, f"song:{song['id']}"),
                id=f"more_{song['id']}",
                color=theme.TEXT_SECONDARY,
            ),
        )

    def _song_rows(
        self, v: View, songs: Sequence[Song], *, ranked: bool = False, as_queue: bool = True
    ) -> list[Widget]:
        """Rows of a song list; playing from it makes the list the queue, unless `as_queue` is
        False (search results join the current queue instead)."""
        queue = [s["id"] for s in songs] if as_queue else None
        return [
            self._song_row(v, song, queue, title=f"{rank}  {song['title']}" if ranked else None)
            for rank, song in enumerate(songs, 1)
        ]

    def _mini_player(self, v: View) -> Row | None:
        player = v.data["player"]
        song = song_by_id(v.content, player["song"]) if player["song"] else None
        if song is None:
            return None
        return Row(
            [
                ListItem(
                    song["title"],
                    subtitle=song["artist"],
                    leading=song["title"],
                    leading_color=album_color(song["album"]),
                    on_tap=v.go("player"),
                    id="mini_player",
                ),
                IconButton(
                    "Ⅱ" if player["playing"] else "▶",
                    "暂停" if player["playing"] else "播放",
                    v.do(self.toggle_playing),
                    id="mini_toggle",
                    color=RED,
                ),
                IconButton("≡", "播放列表", v.do(self.open_sheet, "queue"), id="mini_queue"),
            ],
            spacing=0,
        )

    def _bottom(self, v: View, tabs: Tabs | None = None) -> Column | None:
        mini = self._mini_player(v)
        if mini is None and tabs is None:
            return None
        return Column([mini, tabs], fill=theme.SURFACE)

    def _overlay(self, v: View, playlist_id: str | None = None) -> Dialog | BottomSheet | None:
        """The sheets and dialogs of song lists: a song's actions, 收藏到歌单, the queue, and on a
        playlist the removal of a song."""
        kind, _, song_id = str(v.ui("dialog") or "").partition(":")
        song = song_by_id(v.content, song_id) if song_id else None
        close = v.set_ui("dialog", None)
        if kind == "queue":
            return self._queue_sheet(v)
        if song is None:
            return None
        if kind == "song":
            return self._song_sheet(v, song, playlist_id)
        if kind == "collect":
            return self._collect_sheet(v, song)
        if kind == "remove" and playlist_id is not None:
            return Dialog(
                "确定将这首歌从歌单中删除？",
                message=f"{song['title']} - {song['artist']}",
                buttons=[
                    Button("取消", close, id="cancel", style="secondary"),
                    Button(
                        "删除",
                        v.do(self.remove_from_playlist, playlist_id, song["id"]),
                        id="confirm_remove",
                        style="danger",
                    ),
                ],
            )
        return None

    def _collect_sheet(self, v: View, song: Song) -> BottomSheet:
        """收藏到歌单: a new playlist, or one of mine."""
        new = ListItem(
            "新建歌单",
            leading="+",
            leading_color=(200, 200, 205),
            on_tap=v.do(self.new_playlist_with, song["id"]),
            id="collect_new",
        )
        mine = [
            ListItem(
                p["name"],
                subtitle=f"{len(p['songs'])}首",
                leading=p["name"],
                leading_color=album_color(p["name"]),
                on_tap=v.do(self.add_to_playlist, p["id"], song["id"]),
                id=f"collect_{p['id']}",
            )
            for p in v.data["playlists"]
        ]
        return BottomSheet(
            "收藏到歌单", [new, *mine], on_dismiss=v.set_ui("dialog", None), id="playlist_picker"
        )

    def _song_sheet(self, v: View, song: Song, playlist_id: str | None) -> BottomSheet:
        liked = self.is_liked(v.data, song["id"])
        remove = None  # only a playlist of mine offers to take the song out
        if playlist_id is not None:
            remove = ListItem(
                "从歌单中删除", on_tap=v.do(self.ask_to_remove, song["id"]), id="sheet_remove"
            )
        return BottomSheet(
            f"歌曲：{song['title']}",
            [
                ListItem("下一首播放", on_tap=v.do(self.play_next, song["id"]), id="sheet_next"),
                ListItem(
                    "收藏到歌单",
                    on_tap=v.do(self.open_sheet, f"collect:{song['id']}"),
                    id="sheet_collect",
                ),
                ListItem(
                    "取消喜欢" if liked else "喜欢",
                    on_tap=v.do(self.toggle_like, song["id"]),
                    id="sheet_like",
                ),
                ListItem(
                    f"歌手：{song['artist']}",
                    on_tap=v.go("artist", artist=song["artist_id"]),
                    id="sheet_artist",
                ),
                ListItem(f"专辑：{song['album']}", id="sheet_album"),
                remove,
            ],
            on_dismiss=v.set_ui("dialog", None),
            id="song_actions",
        )

    def _queue_sheet(self, v: View) -> BottomSheet:
        player = v.data["player"]
        queue = player["queue"]
        rows: list[Widget | None] = [
            ListItem(
                song["title"],
                subtitle=song["artist"],
                trailing="正在播放" if song["id"] == player["song"] else "",
                on_tap=v.do(self.play, song["id"], list(queue)),
                id=f"queue_{song['id']}",
            )
            for song in self.songs(v.content, queue)
        ]
        return BottomSheet(
            f"当前播放（{len(queue)}）  {MODE_LABELS[player['mode']]}",
            rows or [Text("播放列表为空", color=theme.TEXT_SECONDARY)],
            on_dismiss=v.set_ui("dialog", None),
            id="play_queue",
        )

    def _list_header(
        self,
        v: View,
        title: str,
        subtitle: str,
        songs: Sequence[Song],
        *,
        title_id: str = "list_title",
    ) -> Card:
        queue = [s["id"] for s in songs]
        return Card(
            [
                Text(title, size=56, bold=True, color=theme.WHITE, id=title_id),
                Text(subtitle, size=36, color=(255, 220, 220), id="list_subtitle"),
                Spacer(12),
                Button(
                    "▶ 播放全部",
                    v.do(self.play, queue[0], queue) if queue else None,
                    id="play_all",
                    enabled=bool(queue),
                    style="secondary",
                ),
            ],
            padding=48,
            spacing=8,
            fill=RED,
        )
