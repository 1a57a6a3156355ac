"""The messenger's chats: the chat list, a chat with its messages and cards, sending text,
chat info, search, groups, and the share screen other apps hand content to.
"""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.messenger.base import STAMP_GAP, MessengerBase
from phonebuddy.phoneworld.apps.messenger.bubbles import CardBubble, MessageBubble
from phonebuddy.phoneworld.apps.messenger.content import ME
from phonebuddy.phoneworld.apps.messenger.directory import Directory
from phonebuddy.phoneworld.apps.messenger.miniprograms import PROGRAMS
from phonebuddy.phoneworld.apps.messenger.timeline import chat_label, list_label
from phonebuddy.phoneworld.apps.messenger.widgets import (
    BAR_GREY,
    CHAT_BACKGROUND,
    NICKNAME_BLUE,
    ChatRow,
    ContactRow,
    NavBar,
    Tile,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system import shell
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Column,
    Dialog,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Text,
    TextField,
    Widget,
)


class ChatScreens(MessengerBase):
    # -- handlers: chats -----------------------------------------------------------------------
    @staticmethod
    def _scroll_to_end(it: Interaction, scroll_id: str) -> None:
        """Show the newest messages: lay the screen out once to learn how far it scrolls."""
        _, extents = shell.compose(it.device)
        it.entry.setdefault("scroll", {})[scroll_id] = extents.get(scroll_id, 0)

    def open_chat(self, it: Interaction, chat_id: str) -> None:
        it.push("chat", chat=chat_id)
        it.data["read"][chat_id] = it.clock
        self._scroll_to_end(it, "messages")

    def post_message(
        self,
        it: Interaction,
        chat_id: str,
        text: str,
        *,
        kind: str = "text",
        card: dict[str, Any] | None = None,
    ) -> str:
        """Append one message of mine to a chat: a text, or a card ("mini" opens a
        mini-program, "card" is a shared link or note); returns its id."""
        if self.directory(it).chat(chat_id) is None:
            it.no_op(f"no chat {chat_id}")
        if not text.strip():
            it.no_op("an empty message is not sent")
        message = {
            "id": it.new_id("msg"),
            "chat": chat_id,
            "from": ME,
            "kind": kind,
            "text": text.strip(),
            "time": it.clock,
        }
        if card is not None:
            message["card"] = card
        it.data["messages"].append(message)
        it.data["read"][chat_id] = it.clock
        return str(message["id"])

    def send_typed(self, it: Interaction, chat_id: str) -> None:
        self.post_message(it, chat_id, it.field("input"))
        it.set_field("input", "")
        self._scroll_to_end(it, "messages")

    def open_card(self, it: Interaction, kind: str, card: dict[str, Any]) -> None:
        if kind == "mini":
            self.enter_mini(it, card["program"], card["page"], card["args"])
        else:
            it.push("card", card=card)

    # -- handlers: shares and payments ---------------------------------------------------------
    def receive_share(self, it: Interaction, payload: dict[str, Any]) -> None:
        it.push("share", payload=dict(payload))

    def send_share(self, it: Interaction, chat_id: str) -> None:
        payload = it.entry["params"]["payload"]
        note = it.field("share_note")
        if payload.get("kind") == "mini":
            card = payload["card"]
            self.post_message(it, chat_id, card["title"], kind="mini", card=card)
        elif payload.get("title"):
            card = {
                "title": str(payload["title"]),
                "text": str(payload.get("text", "")),
                "source": str(payload.get("source", "")),
            }
            self.post_message(it, chat_id, card["title"], kind="card", card=card)
        else:
            self.post_message(it, chat_id, str(payload.get("text", "")))
        if note.strip():
            self.post_message(it, chat_id, note)
        it.replace("chat", chat=chat_id)
        self._scroll_to_end(it, "messages")
        it.toast("已发送")

    def _chat_list(self, v: View, directory: Directory) -> list[Widget | None]:
        rows: list[Widget | None] = []
        for entry in directory.chats():
            last = entry.last
            preview = ""
            if last is not None:
                preview = self._preview(directory, entry.chat, last)
            label, color = self._chat_avatar(directory, entry.chat)
            rows.append(
                ChatRow(
                    entry.title,
                    preview,
                    list_label(last["time"], v.os["clock"]) if last else "",
                    label,
                    color,
                    v.do(self.open_chat, entry.chat["id"]),
                    id=f"chat_{entry.chat['id']}",
                    unread=entry.unread,
                )
            )
        return rows

    @staticmethod
    def _preview(directory: Directory, chat: Any, message: dict[str, Any]) -> str:
        text = {"mini": "[小程序] ", "card": "[链接] "}.get(message["kind"], "") + message["text"]
        if chat["kind"] == "group" and message["from"] != ME:
            return f"{directory.name(message['from'])}: {text}"
        return text

    @staticmethod
    def _chat_avatar(directory: Directory, chat: Any) -> tuple[str, tuple[int, int, int]]:
        if chat["kind"] == "single":
            return directory.name(chat["friend"]), directory.color(chat["friend"])
        return chat["title"], (120, 144, 156)

    # -- screens: chats ------------------------------------------------------------------------
    @screen("chat")
    def chat(self, v: View) -> Page:
        directory = self.directory(v)
        chat = directory.chat(v.params["chat"])
        title = directory.title(chat)
        if chat["kind"] == "group":
            title += f"({len(chat['members']) + 1})"
        body: list[Widget | None] = []
        previous = None
        for message in directory.messages(chat["id"]):
            if previous is None or message["time"] - previous > STAMP_GAP:
                body.append(
                    Text(
                        chat_label(message["time"], v.os["clock"]),
                        size=32,
                        color=(160, 160, 160),
                        align="center",
                        padding=16,
                    )
                )
            previous = message["time"]
            body.append(self._message(v, directory, chat, message))
        input_bar = Column(
            [
                Row(
                    [
                        TextField(
                            "input",
                            v.field("input"),
                            "",
                            on_focus=v.focus("input"),
                            on_submit=v.do(self.send_typed, chat["id"]),
                        ),
                        Button(
                            "发送",
                            v.do(self.send_typed, chat["id"]),
                            id="send",
                            height=110,
                            enabled=bool(v.field("input").strip()),
                        ),
                    ],
                    weights=(4, 1),
                    spacing=20,
                )
            ],
            padding=20,
            fill=BAR_GREY,
        )
        return Page(
            None,
            body,
            header=NavBar(
                title,
                on_back=v.back(),
                actions=[
                    IconButton(
                        "more", "聊天信息", v.go("chat_info", chat=chat["id"]), id="chat_info"
                    )
                ],
            ),
            bottom=input_bar,
            scroll_id="messages",
            background=CHAT_BACKGROUND,
            spacing=6,
        )

    def _message(self, v: View, directory: Directory, chat: Any, message: Any) -> Widget:
        sender = message["from"]
        mine = sender == ME
        shown = "" if mine or chat["kind"] == "single" else directory.name(sender)
        label, color = directory.name(sender), directory.color(sender)
        if message["kind"] != "text":
            return self._card_message(v, message, mine, shown, label, color)
        return MessageBubble(
            message["text"],
            mine,
            label,
            color,
            id=f"msg_{message['id']}",
            sender=shown,
            on_avatar=None if mine else v.go("profile", friend=sender),
        )

    def _card_message(
        self,
        v: View,
        message: Any,
        mine: bool,
        sender: str,
        label: str,
        color: tuple[int, int, int],
    ) -> Widget:
        card, kind = message["card"], message["kind"]
        if kind == "mini":
            program = PROGRAMS[card["program"]]
            description, footer, accent = (
                card["description"],
                f"小程序 · {program.title}",
                program.color,
            )
        else:
            description, footer = card["text"], f"来自 {card['source'] or '分享'}"
            accent = NICKNAME_BLUE
        return CardBubble(
            card["title"],
            description,
            footer,
            mine,
            label,
            color,
            v.do(self.open_card, kind, dict(card)),
            id=f"msg_{message['id']}",
            sender=sender,
            accent=accent,
        )

    @screen("chat_info")
    def chat_info(self, v: View) -> Page:
        directory = self.directory(v)
        chat = directory.chat(v.params["chat"])
        tiles = [
            Tile(
                directory.name(m),
                directory.name(m)[:1],
                directory.color(m),
                v.go("profile", friend=m),
                id=f"member_{m}",
            )
            for m in chat["members"]
        ]
        rows: list[Widget | None] = [
            Row(list(tiles[i : i + 4]) + [Spacer(0)] * (4 - len(tiles[i : i + 4])), spacing=0)
            for i in range(0, len(tiles), 4)
        ]
        if chat["kind"] == "group":
            rows += [
                ListItem("群聊名称", trailing=chat["title"], id="group_name"),
                ListItem("群成员", trailing=f"{len(chat['members']) + 1}人"),
            ]
        return Page(None, rows, header=NavBar("聊天信息", on_back=v.back()), body_padding=10)

    @screen("card")
    def card(self, v: View) -> Page:
        card = v.params["card"]
        return Page(
            None,
            [
                Text(card["title"], size=52, bold=True, id="card_title"),
                Text(card.get("source") or "", color=theme.TEXT_SECONDARY),
                Text(card.get("text", ""), size=44, id="card_text"),
            ],
            header=NavBar(card.get("source") or "详情", on_back=v.back()),
            background=theme.SURFACE,
            body_padding=48,
            spacing=24,
        )

    @screen("search")
    def search(self, v: View) -> Page:
        directory = self.directory(v)
        query = v.field("query").strip()
        results: list[Widget | None] = []
        if query:
            for friend in directory.friends():
                names = (directory.name(friend["id"]), friend["nickname"], friend["wxid"])
                if any(query.lower() in n.lower() for n in names):
                    results.append(
                        ContactRow(
                            directory.name(friend["id"]),
                            directory.name(friend["id"]),
                            directory.color(friend["id"]),
                            v.do(self.chat_with, friend["id"]),
                            id=f"result_{friend['id']}",
                        )
                    )
            for group in directory.groups():
                if query in group["title"]:
                    results.append(
                        ContactRow(
                            group["title"],
                            group["title"],
                            (120, 144, 156),
                            v.do(self.open_chat, group["id"]),
                            id=f"result_{group['id']}",
                        )
                    )
            if not results:
                results.append(
                    Text("无结果", color=theme.TEXT_SECONDARY, align="center", padding=40)
                )
        field = TextField("query", v.field("query"), "搜索联系人、群聊", on_focus=v.focus("query"))
        return Page(
            None, [Column([field], padding=24), *results], header=NavBar("搜索", on_back=v.back())
        )

    @screen("groups")
    def groups(self, v: View) -> Page:
        rows = [
            ContactRow(
                g["title"],
                g["title"],
                (120, 144, 156),
                v.do(self.open_chat, g["id"]),
                id=f"group_{g['id']}",
            )
            for g in self.directory(v).groups()
        ]
        return Page(None, rows, header=NavBar("群聊", on_back=v.back()))

    @screen("share")
    def share(self, v: View) -> Page:
        directory = self.directory(v)
        payload = v.params["payload"]
        rows = []
        for entry in directory.chats():
            label, color = self._chat_avatar(directory, entry.chat)
            rows.append(
                ContactRow(
                    entry.title,
                    label,
                    color,
                    v.set_ui("target", entry.chat["id"]),
                    id=f"pick_{entry.chat['id']}",
                )
            )
        overlay = None
        target = v.ui("target")
        if target is not None:
            overlay = Dialog(
                f"发送给：{directory.title(directory.chat(target))}",
                message=str(payload.get("title") or payload.get("text", "")),
                body=[
                    TextField(
                        "share_note",
                        v.field("share_note"),
                        "给朋友留言",
                        on_focus=v.focus("share_note"),
                    )
                ],
                buttons=[
                    Button("取消", v.set_ui("target", None), id="share_cancel", style="secondary"),
                    Button("发送", v.do(self.send_share, target), id="share_send"),
                ],
                id="share_dialog",
            )
        return Page(
            None,
            [Text("最近聊天", size=36, color=theme.TEXT_SECONDARY, padding=24), *rows],
            header=NavBar("选择一个聊天", on_back=v.back()),
            overlay=overlay,
        )
