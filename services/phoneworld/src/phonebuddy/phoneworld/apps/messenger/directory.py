"""`Directory`: one device's view of people and chats, merging the shared seeded content
(friends, chat histories, moments) with what this phone changed (remarks, new messages, likes).
Screens, handlers, tools and task oracles all read through it, so they agree on names."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from phonebuddy.phoneworld.apps.messenger.content import ME
from phonebuddy.phoneworld.apps.messenger.timeline import seeded_time
from phonebuddy.phoneworld.ui.theme import Color

MY_COLOR: Color = (96, 125, 139)


def private_chat_id(friend_id: str) -> str:
    return f"p-{friend_id}"


@dataclass(frozen=True, slots=True)
class ChatEntry:
    chat: Any
    title: str
    last: dict[str, Any] | None
    unread: int


class Directory:
    def __init__(self, content: Any, data: Any, clock: int) -> None:
        self.content = content
        self.data = data
        self.clock = clock
        self._friends = {f["id"]: f for f in content["friends"]}
        self._chats = {c["id"]: c for c in content["chats"]}

    # -- people --------------------------------------------------------------------------------
    def friends(self) -> list[Any]:
        return list(self.content["friends"])

    def friend(self, friend_id: str) -> Any:
        return self._friends.get(friend_id)

    def remark(self, friend_id: str) -> str:
        return str(self.data["remarks"].get(friend_id, self._friends[friend_id]["remark"]))

    def name(self, person_id: str) -> str:
        """How this phone shows a person: the remark if one is set, else the nickname."""
        if person_id == ME:
            return str(self.content["me"]["nickname"])
        return self.remark(person_id) or str(self._friends[person_id]["nickname"])

    def color(self, person_id: str) -> Color:
        return MY_COLOR if person_id == ME else tuple(self._friends[person_id]["color"])  # type: ignore[return-value]

    def find_friend(self, query: str) -> Any:
        """A friend by shown name, remark, nickname or WeChat ID."""
        wanted = query.strip()
        for friend in self.content["friends"]:
            names = (self.name(friend["id"]), friend["remark"], friend["nickname"], friend["wxid"])
            if wanted and wanted in names:
                return friend
        return None

    # -- chats ---------------------------------------------------------------------------------
    def chat(self, chat_id: str) -> Any:
        seeded = self._chats.get(chat_id)
        if seeded is not None:
            return seeded
        friend_id = chat_id.removeprefix("p-")
        if chat_id.startswith("p-") and friend_id in self._friends:
            return {
                "id": chat_id,
                "kind": "single",
                "title": None,
                "friend": friend_id,
                "members": [friend_id],
                "messages": (),
                "unread": 0,
            }
        return None

    def title(self, chat: Any) -> str:
        return self.name(chat["friend"]) if chat["kind"] == "single" else str(chat["title"])

    def messages(self, chat_id: str) -> list[dict[str, Any]]:
        """The chat's messages, oldest first, each with its epoch `time`."""
        chat = self.chat(chat_id)
        seeded = [
            {**m, "time": seeded_time(m["ago"], self.clock)}
            for m in (chat or {}).get("messages", ())
        ]
        added = [dict(m) for m in self.data["messages"] if m["chat"] == chat_id]
        return sorted(seeded + added, key=lambda m: m["time"])

    def unread(self, chat: Any) -> int:
        opened = self.data["read"].get(chat["id"])
        fresh = sum(
            1
            for m in self.data["messages"]
            if m["chat"] == chat["id"] and m["from"] != ME and m["time"] > (opened or 0)
        )
        return fresh + (0 if opened is not None else int(chat["unread"]))

    def chats(self) -> list[ChatEntry]:
        """Every chat with messages, the most recent first."""
        ids = [c["id"] for c in self.content["chats"]]
        ids += sorted({m["chat"] for m in self.data["messages"]} - set(ids))
        entries = []
        for chat_id in ids:
            chat = self.chat(chat_id)
            if chat is None:
                continue
            messages = self.messages(chat_id)
            entries.append(
                ChatEntry(
                    chat, self.title(chat), messages[-1] if messages else None, self.unread(chat)
                )
            )
        return sorted(entries, key=lambda e: -(e.last["time"] if e.last else 0))

    def find_chat(self, query: str) -> Any:
        """A chat by its id, its title, or the name of the friend it is with."""
        wanted = query.strip()
        chat = self.chat(wanted)
        if chat is not None:
            return chat
        for seeded in self.content["chats"]:
            if seeded["kind"] == "group" and seeded["title"] == wanted:
                return seeded
        friend = self.find_friend(wanted)
        return self.chat(private_chat_id(friend["id"])) if friend else None

    def groups(self) -> list[Any]:
        return [c for c in self.content["chats"] if c["kind"] == "group"]

    # -- moments -------------------------------------------------------------------------------
    def moments(self, author: str | None = None) -> list[dict[str, Any]]:
        """Posts newest first: friends' seeded ones and this phone's own."""
        posts = [{**m, "time": seeded_time(m["ago"], self.clock)} for m in self.content["moments"]]
        posts += [
            {**p, "author": ME, "photos": 0, "likes": [], "comments": []}
            for p in self.data["moments"]["posts"]
        ]
        if author is not None:
            posts = [p for p in posts if p["author"] == author]
        return sorted(posts, key=lambda p: -p["time"])

    def liked(self, moment_id: str) -> bool:
        return bool(self.data["moments"]["liked"].get(moment_id))

    def my_comments(self, moment_id: str) -> list[Any]:
        return [c for c in self.data["moments"]["comments"] if c["moment"] == moment_id]
