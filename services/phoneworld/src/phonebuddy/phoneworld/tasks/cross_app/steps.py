"""What the cross-app templates share: the system clipboard as an agent uses it (long-press a
text, 复制; long-press a focused field, 粘贴), and WeChat friends to send things to."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.apps.messenger.steps import MESSAGES, content, shown_name
from phonebuddy.phoneworld.tasks.answers import normalize
from phonebuddy.phoneworld.tasks.base import Params
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action

SYSTEM_UI = "com.android.systemui"
MENU_COPY = f"{SYSTEM_UI}:id/menu_copy"
MENU_PASTE = f"{SYSTEM_UI}:id/menu_paste"
SHARE_TO_WECHAT = f"{SYSTEM_UI}:id/share_messenger"
MOBILE_PREFIXES = ("135", "138", "139", "150", "152", "158", "177", "186", "187", "189")


# -- the clipboard -----------------------------------------------------------------------------


def copy_text(
    ui: OracleUI, id: str | None = None, *, text: str | None = None, scroll: str = "content"
) -> Iterator[Action]:
    """Bring a text into view, long-press it and choose 复制 in the system text menu."""
    yield from ui.scroll_to(id, text=text, scroll=scroll)
    yield ui.long_press(id, text=text)
    yield ui.tap(MENU_COPY)


def paste_into(ui: OracleUI, field: str) -> Iterator[Action]:
    """Focus a text field, long-press it and choose 粘贴: the clipboard is appended to it."""
    yield ui.tap(field)
    yield ui.long_press(field)
    yield ui.tap(MENU_PASTE)


def paste_into_new_note(ui: OracleUI, title: str) -> Iterator[Action]:
    """Open 备忘录 and save a new note titled `title` whose body is the clipboard."""
    yield ui.open("备忘录")
    yield ui.tap("new_note")
    yield from ui.type_into("title", title)
    yield from paste_into(ui, "body")
    yield ui.tap("save")


def share_sheet_to_friend(ui: OracleUI, friend_id: str) -> Iterator[Action]:
    """From the open system share sheet: WeChat (and its first-use permission), the friend's
    chat, 发送."""
    yield ui.tap(SHARE_TO_WECHAT)
    yield from ui.allow_permission()
    chat = f"pick_{private_chat_id(friend_id)}"
    yield from ui.scroll_to(chat)
    yield ui.tap(chat)
    yield ui.tap("share_send")


# -- WeChat friends ------------------------------------------------------------------------------


def friend_params(friend: Any) -> Params:
    """A WeChat friend as templates name them: the id, and the name a fresh phone shows."""
    return {"friend_id": str(friend["id"]), "friend": shown_name(friend)}


def any_friend(world: World, rng: random.Random) -> Params:
    return friend_params(rng.choice(list(content(world)["friends"])))


def friend_with_chat(world: World, rng: random.Random) -> Params:
    """A friend with a chat history, so that the chat is listed where shares are sent."""
    chatting = {chat["friend"] for chat in content(world)["chats"] if chat["kind"] == "single"}
    friends = [f for f in content(world)["friends"] if f["id"] in chatting]
    return friend_params(rng.choice(friends))


def sent_to_friend(diff: StateDiff, params: Params) -> tuple[list[str], list[str]]:
    """The texts of the WeChat messages sent in the episode (claimed), and the problems: none
    sent, or some sent elsewhere than the chat with `params["friend_id"]`. People often split
    what they send ("张伟的电话", then the number), so more than one message is fine."""
    chat = private_chat_id(params["friend_id"])
    sent = diff.added(MESSAGES)
    problems = [f"a message went to {m['chat']}, not to {chat}" for m in sent if m["chat"] != chat]
    texts = [m["text"] for m in sent if m["chat"] == chat]
    if not texts:
        problems.append(f"nothing was sent to {params['friend']}")
    return texts, problems


def contains_text(said: str, expected: str) -> bool:
    """Whether `said` holds `expected`, ignoring blanks and punctuation."""
    return normalize(expected) in normalize(said)


def mobile_number(rng: random.Random) -> str:
    return rng.choice(MOBILE_PREFIXES) + f"{rng.randrange(10**8):08d}"
