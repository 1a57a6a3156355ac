"""Task templates of the Music app: playing, liking, playlists, the play mode, questions about
songs and playlists, and two that carry music into WeChat and Notes.

Listening along the way (the player's song, queue and pause state) is never held against the
agent, except in the templates about the player itself, which check it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSENGER,
    one_message,
    open_private_chat,
    shown_name,
)
from phonebuddy.phoneworld.apps.messenger.steps import content as messenger_content
from phonebuddy.phoneworld.apps.music.base import CATALOGUE, MODE_LABELS, MODES, MUSIC
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text, TextSet
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction, Type

NOTES = "com.pw.notes"
ROOT = f"apps/{MUSIC}"
PLAYER = f"{ROOT}/player"
LIKED = f"{ROOT}/liked"
PLAYLISTS = f"{ROOT}/playlists"
NOTES_LIST = f"apps/{NOTES}/notes"
TASK_PLAYLIST = "pl-task"
# Names no seeded playlist has, for the playlists tasks create or find.
NEW_NAMES = ("毕业季", "健身房", "旅行随身听", "下雨天听的歌", "睡前歌单", "夏日清单",
             "工作专注", "粤语金曲")  # fmt: skip
MODES_EN = {"order": "play in order", "repeat_one": "repeat one song", "shuffle": "shuffle"}


def unless(ok: bool, problem: str) -> list[str]:
    """A verifier's result: no problem when `ok`, else this one."""
    return [] if ok else [problem]


def songs(world: World) -> list[Any]:
    return list(world.content(MUSIC)["songs"])


def song_params(song: Any) -> Params:
    return {"song": song["id"], "title": song["title"], "artist": song["artist"]}


def uniquely_titled(world: World) -> list[Any]:
    titles = [s["title"] for s in songs(world)]
    return [s for s in songs(world) if titles.count(s["title"]) == 1]


def task_playlist(world: World, rng: random.Random, size: int) -> Params:
    """A playlist the setup puts on the phone: a fresh name and `size` songs."""
    chosen = rng.sample(songs(world), k=size)
    return {"playlist_name": rng.choice(NEW_NAMES), "songs": [song_params(s) for s in chosen]}


def add_task_playlist(it: Interaction, params: Params) -> None:
    it.app_data(MUSIC)["playlists"].append(
        {
            "id": TASK_PLAYLIST,
            "name": params["playlist_name"],
            "songs": [s["song"] for s in params["songs"]],
        }
    )


# -- oracle steps ----------------------------------------------------------------------------------
def back_home(ui: OracleUI) -> Iterator[Action]:
    """Back (hiding the keyboard first, if it is up) until the home screen shows."""
    for _ in range(8):
        if ui.visible("tab_mine"):
            return
        yield ui.back()
    raise OracleError("could not get back to Music's home screen")


def open_music(ui: OracleUI) -> Iterator[Action]:
    """Open Music on its home screen, turning down the VIP offer if it shows."""
    yield ui.open("音乐")
    if ui.visible("promo_close"):
        yield ui.tap("promo_close")
    yield from back_home(ui)


def find_song(ui: OracleUI, song: Params) -> Iterator[Action]:
    """From the home screen: search the song's title and bring its row into view."""
    yield ui.tap("search_bar")
    yield Type(text=song["title"])  # the search field has focus
    yield from ui.scroll_to(f"song_{song['song']}")


def open_song_sheet(ui: OracleUI, song: Params) -> Iterator[Action]:
    yield from find_song(ui, song)
    yield ui.tap(f"more_{song['song']}")


def open_playlist(ui: OracleUI, playlist_id: str) -> Iterator[Action]:
    yield from open_music(ui)
    yield ui.tap("tab_mine")
    yield from ui.scroll_to(f"playlist_{playlist_id}")
    yield ui.tap(f"playlist_{playlist_id}")


def collect_target(ui: OracleUI, name: str) -> str:
    """The id of the playlist `name` in the 收藏到歌单 sheet."""
    for node in ui.find_all():
        widget_id = node.resource_id.rpartition(":id/")[2]
        if widget_id.startswith("collect_") and texts(node)[:1] == [name]:
            return widget_id
    raise OracleError(f"no playlist {name!r} in the 收藏到歌单 sheet")


def listed_titles(ui: OracleUI) -> list[str]:
    """The titles of the song rows on screen, top to bottom."""
    return [
        texts(node)[0]
        for node in ui.find_all()
        if node.resource_id.rpartition(":id/")[2].startswith("song_")
    ]


# -- single app ------------------------------------------------------------------------------------
class MusicTemplate(TaskTemplate):
    category = Category.SINGLE_APP
    apps = (MUSIC,)

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = self.check(diff, params, answer)
        diff.touched(PLAYER)  # listening along the way is not a side effect
        return problems

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        raise NotImplementedError


class PlaySong(MusicTemplate):
    id = "music.play_song"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return song_params(rng.choice(songs(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, artist = params["title"], params["artist"]
        return phrased(
            zh=[f"用音乐播放{artist}的《{title}》", f"我想听{artist}的《{title}》，在音乐里放一下",
                f"打开音乐，放一首{artist}的《{title}》"],
            en=[f"Play '{title}' by {artist} in Music",
                f"I'd like to hear '{title}' by {artist}; play it in Music",
                f"Open Music and put on the song '{title}' by {artist}"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        player = diff.value_after(PLAYER)
        problems = []
        if player["song"] != params["song"]:
            problems.append(f"the player has {player['song']!r}, expected {params['song']!r}")
        if not player["playing"]:
            problems.append("the player is paused")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_music(ui)
        yield from find_song(ui, params)
        yield ui.tap(f"song_{params['song']}")


class LikeSong(MusicTemplate):
    id = "music.like_song"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return song_params(rng.choice(songs(world)))

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.app_data(MUSIC)
        data["liked"] = [e for e in data["liked"] if e["id"] != params["song"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, artist = params["title"], params["artist"]
        return phrased(
            zh=[f"把{artist}的《{title}》加到“我喜欢的音乐”",
                f"在音乐里把{artist}的《{title}》收藏到“我喜欢的音乐”",
                f"我很喜欢{artist}的《{title}》，帮我把它加进“我喜欢的音乐”"],
            en=[f"Add '{title}' by {artist} to my liked songs in Music",
                f"Like the song '{title}' by {artist} in Music",
                f"I love '{title}' by {artist}: put it in my liked songs in Music"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        liked = [e["id"] for e in diff.added(LIKED)]
        return unless(liked == [params["song"]], f"liked {liked}, expected [{params['song']!r}]")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_music(ui)
        yield from open_song_sheet(ui, params)
        yield ui.tap("sheet_like")


class CreatePlaylist(MusicTemplate):
    id = "music.create_playlist"
    difficulty = 26

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = rng.sample(uniquely_titled(world), k=3)
        return {"playlist_name": rng.choice(NEW_NAMES), "songs": [song_params(s) for s in chosen]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        listed_zh = "、".join(f"{s['artist']}的《{s['title']}》" for s in params["songs"])
        listed_en = ", ".join(f"'{s['title']}' by {s['artist']}" for s in params["songs"])
        name = params["playlist_name"]
        return phrased(
            zh=[f"在音乐里新建歌单“{name}”，并把{listed_zh}收藏进去",
                f"帮我在音乐里建个歌单，名字叫“{name}”，里面放{listed_zh}",
                f"我想把{listed_zh}放进一个新歌单：在音乐里创建“{name}”，再把这些歌收藏进去"],
            en=[f"Create the playlist '{name}' in Music and add {listed_en} to it",
                f"Make a new playlist called '{name}' in Music with {listed_en} in it",
                f"I want {listed_en} together in a new playlist: create '{name}' in Music and add "
                "them to it"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(PLAYLISTS)
        if len(added) != 1:
            return [f"expected one new playlist, found {len(added)}"]
        playlist = added[0]
        problems = []
        if playlist["name"] != params["playlist_name"]:
            problems.append(f"the playlist is named {playlist['name']!r}")
        expected = sorted(s["song"] for s in params["songs"])
        if sorted(playlist["songs"]) != expected:
            problems.append(f"the playlist holds {playlist['songs']}, expected {expected}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_music(ui)
        yield ui.tap("tab_mine")
        yield ui.tap("new_playlist")
        yield from ui.type_into("name", params["playlist_name"])
        yield ui.tap("save_playlist")
        for song in params["songs"]:
            yield from back_home(ui)
            yield from open_song_sheet(ui, song)
            yield ui.tap("sheet_collect")
            yield ui.tap(collect_target(ui, params["playlist_name"]))


class _WithTaskPlaylist(MusicTemplate):
    """Templates about a playlist that the setup adds to the phone."""

    size = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return task_playlist(world, rng, rng.randint(self.size - 1, self.size + 1))

    def setup(self, it: Interaction, params: Params) -> None:
        add_task_playlist(it, params)


class RemoveFromPlaylist(_WithTaskPlaylist):
    id = "music.remove_from_playlist"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        params = super().sample(world, rng)
        return {**params, "target": rng.choice(params["songs"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, name = params["target"]["title"], params["playlist_name"]
        return phrased(
            zh=[f"把《{title}》从我的歌单“{name}”里删掉",
                f"我的歌单“{name}”里不要《{title}》了，把它移除",
                f"在音乐里打开歌单“{name}”，删除其中的《{title}》"],
            en=[f"Remove '{title}' from my playlist '{name}'",
                f"Take '{title}' out of my playlist '{name}'",
                f"In Music, open my playlist '{name}' and delete '{title}' from it"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{PLAYLISTS}[{TASK_PLAYLIST}]/songs"
        diff.touched(path)
        before, after = diff.value_before(path), diff.value_after(path)
        expected = [s for s in before if s != params["target"]["song"]]
        return unless(after == expected, f"the playlist holds {after}, expected {expected}")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        song = params["target"]["song"]
        yield from open_playlist(ui, TASK_PLAYLIST)
        yield from ui.scroll_to(f"more_{song}")
        yield ui.tap(f"more_{song}")
        yield ui.tap("sheet_remove")
        yield ui.tap("confirm_remove")


class DeletePlaylist(_WithTaskPlaylist):
    id = "music.delete_playlist"
    difficulty = 6

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["playlist_name"]
        return phrased(
            zh=[f"删除我在音乐里创建的歌单“{name}”", f"歌单“{name}”不要了，帮我在音乐里删掉",
                f"把我在音乐里建的“{name}”这个歌单删除"],
            en=[f"Delete my playlist '{name}' in Music",
                f"I don't need my playlist '{name}' any more; delete it in Music",
                f"In Music, remove the playlist '{name}' that I created"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [p["id"] for p in diff.removed(PLAYLISTS)]
        return unless(
            removed == [TASK_PLAYLIST],
            f"deleted {removed}, expected only {params['playlist_name']!r}",
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_playlist(ui, TASK_PLAYLIST)
        yield ui.tap("delete")
        yield ui.tap("confirm_delete")


class SetPlayMode(MusicTemplate):
    id = "music.set_play_mode"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        keys = [key for key, _ in MODES]
        mode = rng.choice(keys)
        return {"mode": mode, "start": rng.choice([k for k in keys if k != mode])}

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(MUSIC)["player"]["mode"] = params["start"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        label, mode = MODE_LABELS[params["mode"]], MODES_EN[params["mode"]]
        return phrased(
            zh=[f"把音乐的播放模式改成“{label}”", f"音乐的播放模式请设为“{label}”",
                f"在音乐的播放页把播放模式切换到“{label}”"],
            en=[f"Set Music's play mode to {mode}", f"Switch the play mode in Music to {mode}",
                f"I want Music to {mode}: change its play mode"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        mode = diff.value_after(f"{PLAYER}/mode")
        return unless(
            mode == params["mode"], f"the play mode is {mode!r}, expected {params['mode']!r}"
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_music(ui)
        yield ui.tap("mini_player")
        for _ in MODES:
            if ui.text_of("play_mode") == MODE_LABELS[params["mode"]]:
                return
            yield ui.tap("play_mode")
        raise OracleError(f"the play mode never showed {params['mode']!r}")


class PlaylistCount(_WithTaskPlaylist):
    """The number of songs in the task's playlist (a seeded 3 to 45 of them)."""

    id = "music.playlist_count"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return task_playlist(world, rng, rng.randint(3, 45))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["playlist_name"]
        return phrased(
            zh=[f"我的歌单“{name}”里有几首歌？", f"歌单“{name}”一共收了多少首歌？",
                f"帮我看看音乐里的歌单“{name}”有多少首歌"],
            en=[f"How many songs are in my playlist '{name}'?",
                f"How many tracks does my playlist '{name}' hold?",
                f"Count the songs in my Music playlist '{name}'"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(len(diff.value_before(f"{PLAYLISTS}[{TASK_PLAYLIST}]/songs")), unit="首")

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return str(len(params["songs"]) + 1)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_playlist(ui, TASK_PLAYLIST)
        shown = ui.text_of("list_subtitle")  # '6首 · 由我创建'
        yield Answer(text=shown.partition("首")[0] + "首")


class WhoSings(MusicTemplate):
    id = "music.who_sings"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        song = rng.choice(uniquely_titled(world))
        others = sorted({s["artist"] for s in songs(world)} - {song["artist"]})
        return {**song_params(song), "other_artist": rng.choice(others)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = params["title"]
        return phrased(
            zh=[f"歌曲《{title}》的演唱者是谁？", f"《{title}》这首歌是谁唱的？",
                f"查一下《{title}》这首歌的歌手是谁"],
            en=[f"Who sings the song '{title}'?", f"Which artist sings '{title}'?",
                f"Find out who the singer of '{title}' is"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        artists = [artist for artist, _ in CATALOGUE]
        return Text([params["artist"]], others=artists, what="singer")

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return str(params["other_artist"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_music(ui)
        yield from find_song(ui, params)
        subtitle = ui.texts_in(f"song_{params['song']}")[1]  # 'VIP · 歌手 - 专辑'
        yield Answer(text=subtitle.removeprefix("VIP · ").split(" - ")[0])


# -- cross app ------------------------------------------------------------------------------------
def song_titles() -> list[str]:
    """Every song's title, the domain a song named in a note or a message is one of."""
    return [title for _, tracks in CATALOGUE for title, _, _ in tracks]


class ShareNowPlaying(WritesValue, MusicTemplate):
    id = "music.share_now_playing"
    category = Category.CROSS_APP
    apps = (MUSIC, MESSENGER)
    difficulty = 12
    written = f"apps/{MESSENGER}/messages[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        friend = rng.choice(list(messenger_content(world)["friends"]))
        return {
            **song_params(rng.choice(songs(world))),
            "friend": friend["id"],
            "name": shown_name(friend),
        }

    def setup(self, it: Interaction, params: Params) -> None:
        player = it.app_data(MUSIC)["player"]
        if params["song"] not in player["queue"]:
            player["queue"].insert(0, params["song"])
        player.update(song=params["song"], playing=True)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"用微信告诉{name}我现在正在听的歌叫什么名字",
                f"把我正在听的这首歌的歌名用微信发给{name}",
                f"{name}想知道我在听什么歌，在微信上把当前播放的歌名告诉对方"],
            en=[f"Tell {name} on WeChat the name of the song I am listening to now",
                f"Send {name} the title of the song I'm playing right now, on WeChat",
                f"{name} wants to know what I'm listening to: tell them the song's name on WeChat"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        message, problems = one_message(diff, private_chat_id(params["friend"]))
        if message is None:
            return problems
        return problems + self.writing_problems(diff, params, message["text"], what="the message")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        return Text([params["title"]], others=song_titles(), what="song")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_music(ui)
        yield ui.tap("mini_player")
        title, artist = ui.text_of("now_title"), ui.text_of("now_artist")
        yield from open_private_chat(ui, params["name"], params["friend"])
        yield from ui.type_into("input", f"我在听《{title}》- {artist}，超好听")
        yield ui.tap("send")


class PlaylistToNote(WritesValue, _WithTaskPlaylist):
    id = "music.playlist_to_note"
    category = Category.CROSS_APP
    apps = (MUSIC, NOTES)
    difficulty = 12
    size = 4
    written = f"{NOTES_LIST}[*]/body"

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["playlist_name"]
        return phrased(
            zh=[f"把音乐里歌单“{name}”的所有歌名记到备忘录里，备忘录标题写“{name}”",
                f"新建一条标题为“{name}”的备忘录，把音乐歌单“{name}”里每首歌的歌名都写进去",
                f"帮我把歌单“{name}”里的歌名全部抄到备忘录，标题也叫“{name}”"],
            en=[f"Write the titles of all songs in my Music playlist '{name}' into a note titled "
                f"'{name}'",
                f"Create a note titled '{name}' listing every song title in my Music playlist "
                f"'{name}'",
                f"Copy the song titles of my playlist '{name}' in Music into a new note, also "
                f"titled '{name}'"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["playlist_name"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        titles = [song["title"] for song in params["songs"]]
        return TextSet(titles, others=song_titles(), what="song")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_playlist(ui, TASK_PLAYLIST)
        titles: list[str] = []
        for song in params["songs"]:  # scroll through the list, reading every row
            yield from ui.scroll_to(f"song_{song['song']}")
            titles += [t for t in listed_titles(ui) if t not in titles]
        yield ui.open("备忘录")
        yield ui.tap("new_note")
        yield from ui.type_into("title", params["playlist_name"])
        yield from ui.type_into("body", "、".join(titles))
        yield ui.tap("save")


TEMPLATES: tuple[TaskTemplate, ...] = (
    PlaySong(),
    LikeSong(),
    CreatePlaylist(),
    RemoveFromPlaylist(),
    DeletePlaylist(),
    SetPlayMode(),
    PlaylistCount(),
    WhoSings(),
    ShareNowPlaying(),
    PlaylistToNote(),
)
