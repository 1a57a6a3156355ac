"""What Huddle's templates share: content look-ups, setup helpers, oracle steps, checks."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.teamchat.base import TEAMCHAT
from phonebuddy.phoneworld.apps.teamchat.content import ME
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

APP_NAME = "Huddle"
MESSAGES_PATH = f"apps/{TEAMCHAT}/messages"
PUBLIC = ("general", "design", "random", "launch", "engineering", "marketing", "support",
          "hiring")  # fmt: skip


def members(world: World) -> list[Any]:
    return list(world.content(TEAMCHAT)["members"])


def member_by_id(world: World, member_id: str) -> Any:
    return next(m for m in members(world) if m["id"] == member_id)


def others(world: World) -> list[Any]:
    """Every member but me."""
    return [m for m in members(world) if m["id"] != ME]


def top_level(world: World, channel: str) -> list[Any]:
    found = [m for m in world.content(TEAMCHAT)["messages"]
             if m["channel"] == channel and not m["parent"]]  # fmt: skip
    return sorted(found, key=lambda m: (-m["day"], m["hm"]))


def quotable(world: World, channel: str, *, mine: bool | None = None) -> list[Any]:
    """Top-level messages of a channel named unambiguously by author and text (no apostrophe,
    which would read as a closing quote), by me or by others when `mine` says so."""
    msgs = top_level(world, channel)
    pairs = [(m["author"], m["text"]) for m in msgs]
    return [m for m in msgs if pairs.count((m["author"], m["text"])) == 1 and "'" not in m["text"]
            and "@" not in m["text"] and len(m["text"]) <= 60
            and (mine is None or (m["author"] == ME) == mine)]  # fmt: skip


def message_params(world: World, msg: Any) -> Params:
    return {"msg_id": msg["id"], "channel": msg["channel"], "text": msg["text"],
            "author": member_by_id(world, msg["author"])["name"]}  # fmt: skip


def pick_message(world: World, rng: random.Random, *, mine: bool | None = False) -> Params:
    pool = [m for c in PUBLIC for m in quotable(world, c, mine=mine)]
    return message_params(world, rng.choice(pool))


def add_message(it: Interaction, msg_id: str, channel: str, author: str, text: str, *,
                hm: str = "08:40", parent: str | None = None) -> None:  # fmt: skip
    """Setup: a message posted this morning (before the reset clock's 09:00)."""
    data = it.app_data(TEAMCHAT)
    data["messages"].append({"id": msg_id, "channel": channel, "author": author, "day": 0,
                             "hm": hm, "text": text, "parent": parent, "reactions": {},
                             "pinned": False, "edited": False})  # fmt: skip
    data["unread"][channel] = data["unread"].get(channel, 0) + 1


# -- verifying ----------------------------------------------------------------------------------


def one_post(diff: StateDiff, channel: str, parent: str | None = None) -> tuple[Any, list[str]]:
    """The single message added in the episode (claimed), posted in `channel` (under `parent`
    when a thread reply is expected), or the problems."""
    added = diff.added(MESSAGES_PATH)
    if len(added) != 1:
        return None, [f"expected one new message, found {len(added)}"]
    msg = added[0]
    problems = []
    if msg["channel"] != channel:
        problems.append(f"posted in {msg['channel']}, expected {channel}")
    if msg["parent"] != parent:
        problems.append(f"the message's thread is {msg['parent']}, expected {parent}")
    return msg, problems


def same_text(said: str, expected: str) -> bool:
    return said.strip().rstrip(".!").lower() == expected.strip().rstrip(".!").lower()


# -- oracle steps -------------------------------------------------------------------------------


def open_home(ui: OracleUI, tab: str = "home") -> Iterator[Action]:
    yield ui.open(APP_NAME)
    for _ in range(6):
        if ui.find("tab_home") is not None:
            break
        yield ui.back()
    if not ui.node(f"tab_{tab}").selected:
        yield ui.tap(f"tab_{tab}")


def open_channel(ui: OracleUI, channel: str) -> Iterator[Action]:
    yield from open_home(ui, "dms" if channel.startswith("dm-") else "home")
    yield from ui.scroll_to(f"channel_{channel}")
    yield ui.tap(f"channel_{channel}")


def message_actions(ui: OracleUI, msg_id: str) -> Iterator[Action]:
    yield from ui.scroll_to(f"more_{msg_id}")
    yield ui.tap(f"more_{msg_id}")


def locate(ui: OracleUI, channel: str, msg_id: str) -> Iterator[Action]:
    """Open the channel and bring the message into view."""
    yield from open_channel(ui, channel)
    yield from ui.scroll_to(f"more_{msg_id}")


def to_top(ui: OracleUI) -> Iterator[Action]:
    """Scroll a conversation (which opens at its newest message) up to its first message."""
    for _ in range(60):
        if ui.device.scroll_room("content")[0] <= 0:
            return
        yield ui.page_down(up=True)


class TeamchatTemplate(TaskTemplate):
    """A template of Huddle alone."""

    category = Category.SINGLE_APP
    apps = (TEAMCHAT,)
