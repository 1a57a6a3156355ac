"""音乐 (Music), in the manner of 网易云音乐: 发现 (search, daily picks, charts) and 我的 (liked
songs, recent plays, the playlists I created); song lists whose rows play on tap and open a song
sheet from ⋯ (play next, 收藏到歌单, like, the artist); the player with play mode and queue; a mini
player above the tabs; a VIP offer on first open.

App data holds what the user would expect to persist: the player (song, playing, mode, queue),
liked songs, playlists, play history (ignorable) and the VIP state.

The screens live in `home`, `library` and `playback`, whose classes this one combines; what
they share (the catalogue, look-ups, song rows, the mini player and the sheets) is in `base`.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import Label, tool
from phonebuddy.phoneworld.apps.music.base import (
    MUSIC,
    PLAYLIST_NAMES,
    RED,
    build_content,
    search_songs,
)
from phonebuddy.phoneworld.apps.music.home import HomeScreens
from phonebuddy.phoneworld.apps.music.library import LibraryScreens
from phonebuddy.phoneworld.apps.music.playback import PlayerScreens
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui.theme import AppTheme


class Music(HomeScreens, LibraryScreens, PlayerScreens):
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
