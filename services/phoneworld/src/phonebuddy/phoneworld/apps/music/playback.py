"""Music's player: playing a song in a queue, pause, skip, play modes, play next, and the
player screen.
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.music.base import (
    HISTORY_SIZE,
    MODE_LABELS,
    MODES,
    PLAYER_BACKGROUND,
    PLAYER_TEXT,
    RED,
    MusicBase,
    album_color,
    duration_text,
    song_by_id,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import Chip, IconButton, Image, Page, Row, Spacer, Text


class PlayerScreens(MusicBase):
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
