"""The Music app through the action interface: the play_song tool and a search tap play the same
way, lists become the queue while search joins it, playlists refuse duplicates, the play mode
cycles, deleting a playlist asks first, the VIP offer pays through the wallet."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.music.base import MUSIC, PLAYLIST_NAMES
from phonebuddy.phoneworld.apps.music.tasks import NEW_NAMES
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool, Type

LIU_RUOYING_HOULAI = "s080"  # 《后来》 by 刘若英; 周深 sings a 《后来》 too


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    scroll_first = True

    def open_music(self) -> None:
        self.open("音乐")
        if self.ui.visible("promo_close"):
            self.tap("promo_close")

    def search(self, query: str) -> None:
        self.tap("search_bar")
        self.act(Type(text=query))


def music_data(device: Device) -> dict[str, Any]:
    return device.state["apps"][MUSIC]


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open_music()
    return driver


def test_the_tool_and_a_search_tap_play_the_same_song(world: World) -> None:
    by_tool, by_hand = Device(world, seed=2), Device(world, seed=2)
    Driver(by_tool).open_music()
    result = by_tool.act(CallTool(name="play_song", arguments={"query": "后来 刘若英"}))
    assert result.effect == "applied", result.note
    user = Driver(by_hand)
    user.open_music()
    user.search("后来")
    user.tap(f"song_{LIU_RUOYING_HOULAI}")
    assert music_data(by_tool)["player"] == music_data(by_hand)["player"]
    player = music_data(by_hand)["player"]
    assert (player["song"], player["playing"]) == (LIU_RUOYING_HOULAI, True)
    missing = by_tool.act(CallTool(name="play_song", arguments={"query": "不存在的歌"}))
    assert missing.effect == "no_op"


def test_a_list_becomes_the_queue_and_a_search_result_joins_it(user: Driver) -> None:
    content = user.device.world.content(MUSIC)
    chart = list(next(c for c in content["charts"] if c["id"] == "hot")["songs"])
    user.tap("chart_hot")
    user.tap(f"song_{chart[1]}")
    player = music_data(user.device)["player"]
    assert (player["song"], player["queue"]) == (chart[1], chart)
    extra = next(s for s in content["songs"] if s["id"] not in chart)
    user.act(user.ui.back())
    user.search(extra["title"])
    user.tap(f"song_{extra['id']}")
    queue = music_data(user.device)["player"]["queue"]
    assert queue == [*chart[:2], extra["id"], *chart[2:]]  # right after the song that played
    user.tap(f"song_{extra['id']}")  # tapping what is playing opens the player
    assert user.text("now_title") == extra["title"]


def test_a_playlist_takes_a_song_once_and_names_are_unique(user: Driver) -> None:
    playlist = music_data(user.device)["playlists"][0]
    song = next(
        s for s in user.device.world.content(MUSIC)["songs"] if s["id"] not in playlist["songs"]
    )
    user.search(song["title"])
    user.tap(f"more_{song['id']}")
    user.tap("sheet_collect")
    user.tap(f"collect_{playlist['id']}")
    assert music_data(user.device)["playlists"][0]["songs"][0] == song["id"]
    user.tap(f"more_{song['id']}")
    user.tap("sheet_collect")
    assert "already" in user.refuse(f"collect_{playlist['id']}")
    user.tap(f"more_{song['id']}")
    user.tap("sheet_collect")
    user.tap("collect_new")
    user.tap("name")
    user.act(Type(text=playlist["name"]))
    assert "歌单名已存在" in user.refuse("save_playlist")
    user.act(Type(text="2"))
    user.tap("save_playlist")
    created = music_data(user.device)["playlists"][-1]
    assert (created["name"], created["songs"]) == (playlist["name"] + "2", [song["id"]])
    assert user.text("playlist_name") == created["name"]


def test_the_play_mode_cycles_through_three_modes(user: Driver) -> None:
    user.tap("mini_player")
    start = music_data(user.device)["player"]["mode"]
    seen = []
    for _ in range(3):
        user.tap("play_mode")
        seen.append(user.text("play_mode"))
    assert sorted(seen) == ["单曲循环", "随机播放", "顺序播放"]
    assert music_data(user.device)["player"]["mode"] == start


def test_deleting_a_playlist_asks_first(user: Driver) -> None:
    playlist = music_data(user.device)["playlists"][0]
    user.tap("tab_mine")
    user.tap(f"playlist_{playlist['id']}")
    user.tap("delete")
    user.tap("cancel")
    assert playlist in music_data(user.device)["playlists"]
    user.tap("delete")
    user.tap("confirm_delete")
    assert playlist not in music_data(user.device)["playlists"]
    assert user.ui.visible("tab_mine")
    assert not user.ui.visible(f"playlist_{playlist['id']}")


def test_the_vip_offer_is_paid_through_the_wallet(device: Device) -> None:
    user = Driver(device)
    user.act(user.ui.open("音乐"))
    balance = device.state["apps"]["com.pw.wallet"]["balance_cents"]
    user.tap("promo_buy")
    assert device.foreground == "com.pw.wallet"
    user.tap("com.pw.wallet:id/pay_confirm")
    assert device.foreground == MUSIC
    assert music_data(device)["vip"] is True
    assert device.state["apps"]["com.pw.wallet"]["balance_cents"] == balance - 30
    assert not user.ui.visible("promo")


def test_task_playlists_never_share_a_name_with_a_seeded_one() -> None:
    assert not set(NEW_NAMES) & set(PLAYLIST_NAMES)
