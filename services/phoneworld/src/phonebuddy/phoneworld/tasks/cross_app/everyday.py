"""Everyday errands between the phone's own apps, part one (with the steps the three parts
share): a song a friend recommends by SMS liked in Music, a road-trip playlist a WeChat friend
lists built in Music, a meeting SMS that decides whether Do Not Disturb goes on, and a Wi-Fi
password texted by a friend."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.messages.tasks import (
    MESSAGES,
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
    write_in_conversation,
)
from phonebuddy.phoneworld.apps.messenger.steps import MESSENGER, friend_says, open_private_chat
from phonebuddy.phoneworld.apps.music.base import MUSIC
from phonebuddy.phoneworld.apps.music.tasks import (
    LIKED,
    PLAYER,
    PLAYLISTS,
    back_home,
    collect_target,
    open_music,
    open_song_sheet,
    song_params,
    songs,
    uniquely_titled,
)
from phonebuddy.phoneworld.apps.settings.app import NETWORKS, SETTINGS, network_id
from phonebuddy.phoneworld.apps.settings.tasks import expect_setting, switch_to
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import friend_with_chat, sent_to_friend
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

CHAT_TEXT = f"apps/{MESSENGER}/messages[*]/text"
WIFI = f"apps/{SETTINGS}/wifi"
PLAYLIST_NAMES = ("自驾路上听", "周末兜风", "公路旅行", "出发去海边")


# -- shared steps ------------------------------------------------------------------------------
def sms_person(world: World, rng: random.Random, key: str = "name") -> Params:
    """Someone in the address book: their name under `key`, their number under "phone"."""
    person = pick(rng, address_book(world))
    return {key: person["name"], "phone": person["phone"]}


def said_in_chat(ui: OracleUI, marker: str) -> str:
    """The text on screen (a chat bubble, an SMS) that holds `marker`."""
    found = next((n.text for n in ui.find_all() if marker in n.text), None)
    if found is None:
        raise OracleError(f"nothing on screen says {marker!r}")
    return str(found)


def reply_by_sms(ui: OracleUI, name: str, text: str) -> Iterator[Action]:
    """Back to 信息, which reopens in the thread left open (else open `name`'s), and reply."""
    yield ui.open("信息")
    if not ui.visible("reply"):
        yield from open_thread(ui, name)
    yield from write_in_conversation(ui, text)


def song_by_title(world: World, title: str) -> Params:
    song = next((s for s in songs(world) if s["title"] == title), None)
    if song is None:
        raise OracleError(f"Music has no song {title!r}")
    return song_params(song)


def send_in_chat(ui: OracleUI, params: Params, text: str) -> Iterator[Action]:
    yield from open_private_chat(ui, params["friend"], params["friend_id"])
    yield from ui.type_into("input", text)
    yield ui.tap("send")


class ChatWrites(WritesValue):
    """A template whose agent tells a WeChat friend a value it found: the messages sent to the
    friend (only them) must state it."""

    written = CHAT_TEXT

    def chat_problems(self, diff: StateDiff, params: Params) -> list[str]:
        said, problems = sent_to_friend(diff, params)
        if not said:
            return problems
        return problems + self.writing_problems(diff, params, "\n".join(said), what="the chat")


# -- Music -------------------------------------------------------------------------------------
class SongTipFromSms(TaskTemplate):
    """Messages → Music: a friend's SMS recommends a song; it goes into the liked songs."""

    id = "cross_app.everyday_song_tip_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, MUSIC)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**song_params(pick(rng, uniquely_titled(world))), **sms_person(world, rng)}

    def setup(self, it: Interaction, params: Params) -> None:
        add_incoming(it, (params["phone"], params["name"]),
                     f"最近单曲循环{params['artist']}的《{params['title']}》，超好听，你也听听！",
                     ago=1500, key="song-tip")  # fmt: skip
        music = it.app_data(MUSIC)
        music["liked"] = [e for e in music["liked"] if e["id"] != params["song"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"{name}发短信给我推荐了一首歌，在音乐里把这首歌加到“我喜欢的音乐”",
                f"看看{name}短信里推荐的是哪首歌，去音乐里收藏到“我喜欢的音乐”",
                f"把{name}短信推荐的那首歌在音乐里点个喜欢，放进“我喜欢的音乐”"],
            en=[f"{name} recommended a song by SMS: add it to my liked songs in Music",
                f"Check which song {name} recommends in their text and like it in Music",
                f"Put the song {name} texted me about into my liked songs in Music"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.touched(PLAYER)  # listening to it on the way is fine
        liked = [e["id"] for e in diff.added(LIKED)]
        if liked != [params["song"]]:
            return [f"liked {liked}, expected [{params['song']!r}]"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["name"])
        tip = re.search(r"《(.+?)》", ui.text_of("msg_task-song-tip"))
        if tip is None:
            raise OracleError("the SMS names no song")
        yield from open_music(ui)
        yield from open_song_sheet(ui, song_by_title(ui.device.world, tip[1]))
        yield ui.tap("sheet_like")


class PlaylistFromChat(TaskTemplate):
    """WeChat → Music, long: a friend names a road-trip playlist and three songs in a chat; the
    playlist is made in Music with exactly those songs."""

    id = "cross_app.everyday_playlist_from_chat"
    category = Category.CROSS_APP
    apps = (MESSENGER, MUSIC)
    difficulty = 30

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, uniquely_titled(world), 3)
        return {"playlist_name": rng.choice(PLAYLIST_NAMES), **friend_with_chat(world, rng),
                "songs": [song_params(s) for s in chosen]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        listed = "".join(f"《{s['title']}》" for s in params["songs"])
        friend_says(it, params["friend_id"], ["周末自驾的歌我挑好了",
                    f"歌单就叫“{params['playlist_name']}”，放这三首：{listed}"],
                    key="everyday")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        friend = params["friend"]
        return phrased(
            zh=[f"{friend}在微信上发了自驾要听的歌单名和三首歌，照他说的在音乐里新建这个歌单，"
                "把这三首歌收藏进去",
                f"按{friend}微信里说的，在音乐里建好自驾歌单：歌单名和歌曲都用他发的",
                f"看{friend}刚在微信发的消息，在音乐里创建他说的歌单，并把他挑的三首歌加进去"],
            en=[f"{friend} sent me on WeChat a playlist name and three songs for our road trip: "
                "create that playlist in Music with those three songs",
                f"Build the road-trip playlist in Music as {friend} said on WeChat: their playlist "
                "name, their songs",
                f"Read what {friend} just sent on WeChat, then create the playlist they named in "
                "Music and add the three songs they picked"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.touched(PLAYER)
        added = diff.added(PLAYLISTS)
        if len(added) != 1:
            return [f"expected one new playlist, found {len(added)}"]
        playlist, problems = added[0], []
        if playlist["name"].strip() != params["playlist_name"]:
            problems.append(f"the playlist is named {playlist['name']!r}")
        expected = sorted(s["song"] for s in params["songs"])
        if sorted(playlist["songs"]) != expected:
            problems.append(f"the playlist holds {playlist['songs']}, expected {expected}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        said = said_in_chat(ui, "歌单就叫")
        named = re.search(r"歌单就叫“(.+?)”", said)
        if named is None:
            raise OracleError("the chat names no playlist")
        titles = re.findall(r"《(.+?)》", said)
        yield from open_music(ui)
        yield ui.tap("tab_mine")
        yield ui.tap("new_playlist")
        yield from ui.type_into("name", named[1])
        yield ui.tap("save_playlist")
        for title in titles:
            yield from back_home(ui)
            yield from open_song_sheet(ui, song_by_title(ui.device.world, title))
            yield ui.tap("sheet_collect")
            yield ui.tap(collect_target(ui, named[1]))


# -- Settings ----------------------------------------------------------------------------------
class MeetingDnd(TaskTemplate):
    """Messages → Settings or Messages, conditional: a colleague's SMS says the meeting starts
    (Do Not Disturb goes on) or is cancelled (a short reply)."""

    id = "cross_app.everyday_meeting_dnd"
    category = Category.CROSS_APP
    apps = (MESSAGES, SETTINGS)
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**sms_person(world, rng), "meeting": rng.random() < 0.5}

    def setup(self, it: Interaction, params: Params) -> None:
        it.os["settings"]["do_not_disturb"] = False
        text = ("会议五分钟后开始，大家把手机调成勿扰模式，谢谢配合" if params["meeting"]
                else "下午的会议取消了，改到下周一，今天手机不用调勿扰了")  # fmt: skip
        add_incoming(it, (params["phone"], params["name"]), text, ago=120, key="meeting")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"看{name}刚发的会议短信：会议照常开的话，打开手机的勿扰模式；会议取消了的话，"
                f"就回复他“收到”",
                f"{name}发短信说了会议的事。如果要开会，把勿扰模式打开；如果取消了，短信回“收到”",
                f"根据{name}的最新短信处理：开会就开启勿扰模式，不开会就回一条“收到”"],
            en=[f"Read {name}'s SMS about the meeting: if it goes ahead, turn on Do Not Disturb; "
                "if it is cancelled, reply '收到'",
                f"{name} texted about the meeting. If it's on, switch Do Not Disturb on; if it's "
                "called off, text back '收到'",
                f"Act on {name}'s latest text: meeting on means Do Not Disturb on, meeting "
                "cancelled means a reply saying '收到'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if params["meeting"]:
            sent = sent_messages(diff)
            problems = [f"the meeting is on, yet {len(sent)} SMS were sent"] if sent else []
            return problems + expect_setting(diff, "do_not_disturb", True)
        return check_one_sms(diff, params["phone"], "收到")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["name"])
        if "取消" in ui.text_of("msg_task-meeting"):
            yield from write_in_conversation(ui, "收到")
            return
        yield ui.open("设置")
        yield from switch_to(ui, "do_not_disturb", True)


class WifiFromSms(TaskTemplate):
    """Messages → Settings → Messages: a friend texts their Wi-Fi name and password; the phone
    joins it and says so."""

    id = "cross_app.everyday_wifi_from_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, SETTINGS)
    difficulty = 13

    def sample(self, world: World, rng: random.Random) -> Params:
        index = rng.choice([i for i, n in enumerate(NETWORKS) if n[1]])
        ssid, _, _, password = NETWORKS[index]
        return {**sms_person(world, rng), "network": network_id(index), "ssid": ssid,
                "password": password}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.os["settings"]["wifi"] = True
        wifi = it.app_data(SETTINGS)["wifi"]
        wifi["saved"] = [n for n in wifi["saved"] if n != params["network"]]
        if wifi["connected"] == params["network"] or wifi["connected"] not in wifi["saved"]:
            wifi["connected"] = wifi["saved"][0]
        add_incoming(it, (params["phone"], params["name"]),
                     f"到了直接连网：{params['ssid']}，密码 {params['password']}", ago=300,
                     key="wifi")  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"{name}短信发来了 WLAN 名称和密码，帮我把手机连上，然后回复他“连上了”",
                f"用{name}短信里给的 WiFi 名和密码连网，连好后短信回“连上了”",
                f"按{name}发的短信连接那个 WLAN，再给他回一句“连上了”"],
            en=[f"{name} texted me a Wi-Fi name and password: connect the phone, then reply "
                "'连上了'",
                f"Join the Wi-Fi from {name}'s SMS with its password, then text back '连上了'",
                f"Connect to the network {name} sent by SMS and reply '连上了' to them"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.touched(WIFI)
        before, after = diff.value_before(WIFI), diff.value_after(WIFI)
        problems = check_one_sms(diff, params["phone"], "连上了")
        if after["connected"] != params["network"]:
            problems.append(f"connected to {after['connected']}, expected {params['network']}")
        if sorted({*before["saved"], params["network"]}) != after["saved"]:
            problems.append(f"saved networks are {after['saved']}, expected one added")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["name"])
        sent = re.search(r"连网：(\S+)，密码 (\S+)", ui.text_of("msg_task-wifi"))
        if sent is None:
            raise OracleError("the SMS holds no network")
        ssid, password = sent[1], sent[2]
        yield ui.open("设置")
        yield ui.tap("wlan")
        yield from ui.scroll_to(text=ssid)
        item = next((n for n in ui.find_all() if n.resource_id.startswith(f"{SETTINGS}:id/network_")
                     and ssid in texts(n)), None)  # fmt: skip
        if item is None:
            raise OracleError(f"network {ssid!r} is not listed")
        yield ui.tap(item.resource_id.rpartition(":id/")[2])
        if ui.visible("password"):
            yield from ui.type_into("password", password)
            yield ui.tap("password_connect")
        yield from reply_by_sms(ui, params["name"], "连上了")


TEMPLATES: tuple[TaskTemplate, ...] = (
    SongTipFromSms(),
    PlaylistFromChat(),
    MeetingDnd(),
    WifiFromSms(),
)
