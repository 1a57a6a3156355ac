"""Music's song lists: liked songs, history, charts, artists, and the playlists I made
(create, rename, add and remove songs, delete).
"""

from __future__ import annotations

from collections.abc import Sequence

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.music.base import MusicBase, Song
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    IconButton,
    Page,
    Spacer,
    Text,
    TextField,
)


class LibraryScreens(MusicBase):
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
            overlay = v.confirm(
                "确定删除歌单？",
                v.do(self.delete_playlist, playlist["id"]),
                message=f"“{playlist['name']}”将被删除，歌单中的歌曲不会被删除。",
                label="删除",
                confirm_id="confirm_delete",
                danger=True,
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
