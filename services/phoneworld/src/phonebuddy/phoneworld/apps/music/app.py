"""音乐 (Music), in the manner of 网易云音乐: 发现 (search, daily picks, charts) and 我的 (liked
songs, recent plays, the playlists I created); song lists whose rows play on tap and open a song
sheet from ⋯ (play next, 收藏到歌单, like, the artist); the player with play mode and queue; a mini
player above the tabs; a VIP offer on first open.

App data holds what the user would expect to persist: the player (song, playing, mode, queue),
liked songs, playlists, play history (ignorable) and the VIP state.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
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


class Music(App):
    package = MUSIC
    label = Label(zh="音乐", en="Music")
    domain = "entertainment"
    theme = AppTheme(primary=RED, background=(247, 247, 247))
    friction = Friction(
        splash="音乐的力量",
        popup=Popup(
            "黑胶 VIP 限时优惠",
            "首月仅需 ¥0.3，畅听千万曲库",
            "立即开通",
            close="残忍拒绝",
            toast="活动太火爆，请稍后再试",
        ),
    )
    icon_text = "♪"
    ignorable = ("history", "promo_seen")

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return build_content(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        song_ids = [s["id"] for s in content["songs"]]
        liked = rng.sample(song_ids, k=rng.randint(8, 14))
        playlists = [
            {"id": f"pl-{i}", "name": name, "songs": rng.sample(song_ids, k=rng.randint(4, 9))}
            for i, name in enumerate(rng.sample(PLAYLIST_NAMES, k=rng.randint(1, 3)), 1)
        ]
        history = [
            {"id": f"h-{i}", "song": song_id, "at": EPOCH_START - (i + 1) * 5400}
            for i, song_id in enumerate(rng.sample(song_ids, k=10))
        ]
        return {
            "player": {
                "song": liked[0],
                "playing": False,
                "mode": rng.choice(("order", "order", "shuffle")),
                "queue": liked,
            },
            "liked": [{"id": song_id} for song_id in liked],
            "playlists": playlists,
            "history": history,
            "vip": False,
            "promo_seen": False,
        }

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

    # -- handlers: playing ---------------------------------------------------------------------
    def play(self, it: Interaction, song_id: str, queue: Sequence[str] | None = None) -> None:
        """Play a song: from a list, the list becomes the queue; from search or a tool, the song
        joins the queue after the current one (as 网易云音乐 does)."""
        song = self.require_song(it, song_id)
        player = it.data["player"]
        new_queue = list(queue) if queue is not None else self._queue_with(player, song_id)
        if player["song"] == song_id and player["playing"] and new_queue == player["queue"]:
            it.push("player")  # tapping what is playing opens the player
            return
        player.update(song=song_id, playing=True, queue=new_queue)
        self._record_play(it, song_id)
        if song["vip"] and not it.data["vip"]:
            it.toast("VIP专享歌曲，正在试听30秒")

    @staticmethod
    def _queue_with(player: Mapping[str, Any], song_id: str) -> list[str]:
        queue = list(player["queue"])
        if song_id not in queue:
            at = queue.index(player["song"]) + 1 if player["song"] in queue else 0
            queue.insert(at, song_id)
        return queue

    @staticmethod
    def _record_play(it: Interaction, song_id: str) -> None:
        history = it.data["history"]
        history.insert(0, {"id": it.new_id("h"), "song": song_id, "at": it.clock})
        del history[HISTORY_SIZE:]

    @staticmethod
    def toggle_playing(it: Interaction) -> None:
        player = it.data["player"]
        if player["song"] is None:
            it.no_op("nothing to play")
        player["playing"] = not player["playing"]

    def skip(self, it: Interaction, step: int) -> None:
        """Previous (-1) or next (+1) in the queue; in 随机播放 a seeded jump instead."""
        player = it.data["player"]
        queue = player["queue"]
        if len(queue) < 2:
            it.no_op("the queue has no other song")
        at = queue.index(player["song"]) if player["song"] in queue else 0
        if player["mode"] == "shuffle":
            at += 1 + zlib.crc32(f"{player['song']}{it.clock}".encode()) % (len(queue) - 1)
        else:
            at += step
        player.update(song=queue[at % len(queue)], playing=True)
        self._record_play(it, player["song"])

    @staticmethod
    def cycle_mode(it: Interaction) -> None:
        player = it.data["player"]
        keys = [key for key, _ in MODES]
        player["mode"] = keys[(keys.index(player["mode"]) + 1) % len(keys)]
        it.toast(MODE_LABELS[player["mode"]])

    def play_next(self, it: Interaction, song_id: str) -> None:
        self.require_song(it, song_id)
        player = it.data["player"]
        queue = [s for s in player["queue"] if s != song_id]
        at = queue.index(player["song"]) + 1 if player["song"] in queue else 0
        queue.insert(at, song_id)
        it.set_ui("dialog", None)
        if queue == player["queue"] or song_id == player["song"]:
            it.no_op("the song is already next")
        player["queue"] = queue
        it.toast("已添加到下一首播放")

    @staticmethod
    def open_sheet(it: Interaction, sheet: str) -> None:
        """Show a sheet ("song:<id>", "collect:<id>", "queue"); like Android, a sheet hides the
        keyboard."""
        it.set_ui("dialog", sheet)
        it.unfocus()

    # -- handlers: liked songs and playlists -----------------------------------------------------
    def toggle_like(self, it: Interaction, song_id: str) -> None:
        self.require_song(it, song_id)
        it.set_ui("dialog", None)
        if self.is_liked(it.data, song_id):
            it.data["liked"] = [e for e in it.data["liked"] if e["id"] != song_id]
            it.toast("已取消喜欢")
        else:
            it.data["liked"].insert(0, {"id": song_id})
            it.toast("已添加到我喜欢的音乐")

    def add_to_playlist(self, it: Interaction, playlist_id: str, song_id: str) -> None:
        self.require_song(it, song_id)
        playlist = self.require_playlist(it, playlist_id)
        it.set_ui("dialog", None)
        if song_id in playlist["songs"]:
            it.toast("歌曲已存在该歌单")
            it.no_op(f"{song_id} is already in {playlist_id}")
        playlist["songs"].insert(0, song_id)  # the newest song on top
        it.toast("已收藏到歌单")

    def ask_to_remove(self, it: Interaction, song_id: str) -> None:
        it.set_ui("dialog", f"remove:{song_id}")

    def remove_from_playlist(self, it: Interaction, playlist_id: str, song_id: str) -> None:
        playlist = self.require_playlist(it, playlist_id)
        it.set_ui("dialog", None)
        if song_id not in playlist["songs"]:
            it.no_op(f"{song_id} is not in {playlist_id}")
        playlist["songs"].remove(song_id)
        it.toast("已删除")

    @staticmethod
    def _valid_name(it: Interaction, playlist_id: str | None) -> str:
        name = it.field("name").strip()
        problem = None
        if not name:
            problem = "请输入歌单标题"
        elif any(p["name"] == name and p["id"] != playlist_id for p in it.data["playlists"]):
            problem = "歌单名已存在"
        if problem is not None:
            it.toast(problem)
            it.no_op(problem)
        return name

    @staticmethod
    def new_playlist_with(it: Interaction, song_id: str) -> None:
        """收藏到歌单 → 新建歌单: the new playlist starts with that song."""
        it.set_ui("dialog", None)
        it.push("edit_playlist", playlist=None, song=song_id)

    def save_playlist(self, it: Interaction) -> None:
        playlist_id = it.entry["params"].get("playlist")
        name = self._valid_name(it, playlist_id)
        if playlist_id is None:
            new_id = it.new_id("pl")
            first = it.entry["params"].get("song")
            it.data["playlists"].append(
                {"id": new_id, "name": name, "songs": [first] if first else []}
            )
            it.replace("playlist", playlist=new_id)
            it.toast("歌单已创建")
            return
        self.require_playlist(it, playlist_id)["name"] = name
        it.pop()
        it.toast("已保存")

    def delete_playlist(self, it: Interaction, playlist_id: str) -> None:
        self.require_playlist(it, playlist_id)
        it.data["playlists"] = [p for p in it.data["playlists"] if p["id"] != playlist_id]
        it.reset_to("home")
        it.set_ui("tab", "mine")
        it.toast("歌单已删除")

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

    # -- building blocks -------------------------------------------------------------------------
    def _song_row(
        self, v: View, song: Song, queue: Sequence[str] | None, *, title: str | None = None
    ) -> Row:
        """A song: tapping plays it (with `queue` as the new queue, or added to the current one
        when None); ⋯ opens its sheet."""
        playing = v.data["player"]["song"] == song["id"]
        vip = "VIP · " if song["vip"] else ""
        return Row(
            [
                ListItem(
                    title or song["title"],
                    subtitle=f"{vip}{song['artist']} - {song['album']}",
                    trailing="正在播放" if playing else "",
                    leading=song["title"],
                    leading_color=album_color(song["album"]),
                    on_tap=v.do(self.play, song["id"], None if queue is None else list(queue)),
                    id=f"song_{song['id']}",
                ),
                IconButton(
                    "more",
                    f"{song['title']}的更多操作",
                    v.do(self.open_sheet, f"song:{song['id']}"),
                    id=f"more_{song['id']}",
                    color=theme.TEXT_SECONDARY,
                ),
            ],
            spacing=0,
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

    @screen("liked")
    def liked(self, v: View) -> Page:
        songs = self.songs(v.content, [e["id"] for e in v.data["liked"]])
        return self._song_list_page(v, "我喜欢的音乐", f"{len(songs)}首", songs)

    @screen("history")
    def history(self, v: View) -> Page:
        seen: dict[str, None] = {}
        for entry in v.data["history"]:
            seen.setdefault(entry["song"], None)
        songs = self.songs(v.content, list(seen))
        return self._song_list_page(v, "最近播放", f"最近播放过的 {len(songs)} 首歌", songs)

    @screen("chart")
    def chart(self, v: View) -> Page:
        chart = next((c for c in v.content["charts"] if c["id"] == v.params["chart"]), None)
        if chart is None:
            return Page("排行榜", [Text("榜单不存在", padding=40)], on_back=v.back())
        songs = self.songs(v.content, chart["songs"])
        return self._song_list_page(v, chart["name"], chart["updated"], songs, ranked=True)

    @screen("artist")
    def artist(self, v: View) -> Page:
        artist = next((a for a in v.content["artists"] if a["id"] == v.params["artist"]), None)
        if artist is None:
            return Page("歌手", [Text("歌手不存在", padding=40)], on_back=v.back())
        songs = [s for s in v.content["songs"] if s["artist_id"] == artist["id"]]
        songs.sort(key=lambda s: -s["plays"])
        return self._song_list_page(
            v, artist["name"], f"粉丝 {artist['fans'] // 10000}万 · 热门歌曲", songs
        )

    def _song_list_page(
        self, v: View, title: str, subtitle: str, songs: Sequence[Song], *, ranked: bool = False
    ) -> Page:
        return Page(
            title,
            [
                self._list_header(v, title, subtitle, songs),
                Card(self._song_rows(v, songs, ranked=ranked), padding=0, spacing=0),
                Spacer(40),
            ],
            on_back=v.back(),
            bottom=self._bottom(v),
            body_padding=24,
            spacing=24,
            overlay=self._overlay(v),
        )

    @screen("playlist")
    def playlist(self, v: View) -> Page:
        playlist = next((p for p in v.data["playlists"] if p["id"] == v.params["playlist"]), None)
        if playlist is None:
            return Page("歌单", [Text("该歌单已被删除", padding=40)], on_back=v.back())
        songs = self.songs(v.content, playlist["songs"])
        overlay = self._overlay(v, playlist["id"])
        if v.ui("dialog") == "delete":
            overlay = Dialog(
                "确定删除歌单？",
                message=f"“{playlist['name']}”将被删除，歌单中的歌曲不会被删除。",
                buttons=[
                    Button("取消", v.set_ui("dialog", None), id="cancel", style="secondary"),
                    Button(
                        "删除",
                        v.do(self.delete_playlist, playlist["id"]),
                        id="confirm_delete",
                        style="danger",
                    ),
                ],
            )
        rename = v.go("edit_playlist", playlist=playlist["id"], fields={"name": playlist["name"]})
        return Page(
            "歌单",
            [
                self._list_header(
                    v,
                    playlist["name"],
                    f"{len(songs)}首 · 由我创建",
                    songs,
                    title_id="playlist_name",
                ),
                Card(self._song_rows(v, songs), padding=0, spacing=0)
                if songs
                else Text(
                    "歌单里还没有歌曲，在歌曲的“⋯”里选择“收藏到歌单”",
                    size=36,
                    color=theme.TEXT_SECONDARY,
                    align="center",
                    padding=40,
                ),
                Spacer(40),
            ],
            on_back=v.back(),
            actions=[
                IconButton("edit", "编辑歌单名", rename, id="rename"),
                IconButton("delete", "删除歌单", v.set_ui("dialog", "delete"), id="delete"),
            ],
            bottom=self._bottom(v),
            body_padding=24,
            spacing=24,
            overlay=overlay,
        )

    @screen("edit_playlist")
    def edit_playlist(self, v: View) -> Page:
        creating = v.params.get("playlist") is None
        return Page(
            "新建歌单" if creating else "编辑歌单名",
            [
                TextField("name", v.field("name"), "请输入歌单标题", on_focus=v.focus("name")),
                Button(
                    "完成" if creating else "保存", v.do(self.save_playlist), id="save_playlist"
                ),
            ],
            on_back=v.back(),
            background=theme.SURFACE,
            body_padding=40,
            spacing=30,
        )

    # -- screens: the player ---------------------------------------------------------------------
    @screen("player")
    def player(self, v: View) -> Page:
        player = v.data["player"]
        song = song_by_id(v.content, player["song"]) if player["song"] else None
        if song is None:
            return Page("播放", [Text("暂无播放歌曲", padding=40)], on_back=v.back())
        liked = self.is_liked(v.data, song["id"])
        trial = song["vip"] and not v.data["vip"]

        def gap() -> Spacer:
            return Spacer(0)

        return Page(
            song["title"],
            [
                Spacer(40),
                Image(
                    f"《{song['album']}》",
                    height=640,
                    color=album_color(song["album"]),
                    id="album_art",
                ),
                Spacer(30),
                Text(
                    song["title"],
                    size=62,
                    bold=True,
                    color=theme.WHITE,
                    align="center",
                    id="now_title",
                ),
                Text(
                    song["artist"],
                    size=40,
                    color=PLAYER_TEXT,
                    align="center",
                    on_tap=v.go("artist", artist=song["artist_id"]),
                    id="now_artist",
                ),
                Text(f"专辑：{song['album']}", size=34, color=PLAYER_TEXT, align="center"),
                Row(
                    [
                        gap(),
                        IconButton(
                            "♥" if liked else "♡",
                            "取消喜欢" if liked else "喜欢",
                            v.do(self.toggle_like, song["id"]),
                            id="like",
                            color=RED if liked else theme.WHITE,
                        ),
                        gap(),
                        IconButton(
                            "plus",
                            "收藏到歌单",
                            v.do(self.open_sheet, f"collect:{song['id']}"),
                            id="collect",
                            color=theme.WHITE,
                        ),
                        gap(),
                        IconButton(
                            "more",
                            "更多",
                            v.do(self.open_sheet, f"song:{song['id']}"),
                            id="now_more",
                            color=theme.WHITE,
                        ),
                        gap(),
                    ],
                    spacing=0,
                ),
                Text(
                    ("VIP试听 00:30" if trial else f"00:00 / {duration_text(song['duration'])}"),
                    size=34,
                    color=PLAYER_TEXT,
                    align="center",
                    id="progress",
                ),
                Row(
                    [
                        gap(),
                        Chip(MODE_LABELS[player["mode"]], v.do(self.cycle_mode), id="play_mode"),
                        IconButton(
                            "«", "上一首", v.do(self.skip, -1), id="previous", color=theme.WHITE
                        ),
                        IconButton(
                            "Ⅱ" if player["playing"] else "▶",
                            "暂停" if player["playing"] else "播放",
                            v.do(self.toggle_playing),
                            id="toggle_play",
                            size=160,
                            color=theme.WHITE,
                        ),
                        IconButton("»", "下一首", v.do(self.skip, 1), id="next", color=theme.WHITE),
                        IconButton(
                            "≡",
                            "播放列表",
                            v.do(self.open_sheet, "queue"),
                            id="queue",
                            color=theme.WHITE,
                        ),
                        gap(),
                    ],
                    spacing=12,
                ),
                Spacer(40),
            ],
            on_back=v.back(),
            background=PLAYER_BACKGROUND,
            body_padding=48,
            spacing=24,
            overlay=self._overlay(v),
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "play_song",
        "Search songs by title, optionally with the artist (e.g. '晴天 周杰伦'), and play the "
        "best match.",
        {"query": str},
    )
    def play_song_tool(self, it: Interaction, query: str) -> str:
        found = search_songs(it.content, query)
        if not found:
            it.no_op(f"no song matches {query!r}")
        song = found[0]
        self.play(it, song["id"])
        return f"playing {song['title']} - {song['artist']} ({song['id']})"
