"""微信 (the messenger): chats, contacts, moments, and the frame that hosts mini-programs.

Screens: `home` (tabs 微信/通讯录/发现/我; pulling the chat list down shows the recent
mini-programs), `chat`, `chat_info`, `profile`, `remark`, `groups`, `search`, `moments`,
`compose`, `card`, `settings`, `minis` (the mini-program search), `mini` (every mini-program
page, inside the capsule bar) and `share` (pick the chat a share goes to).
"""

from __future__ import annotations

import random
from typing import Any, cast

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.apps.messenger import content as seed
from phonebuddy.phoneworld.apps.messenger.content import ME
from phonebuddy.phoneworld.apps.messenger.directory import Directory, private_chat_id
from phonebuddy.phoneworld.apps.messenger.miniprograms import PROGRAMS
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import HOST_SCREEN, MiniProgram
from phonebuddy.phoneworld.apps.messenger.miniprograms.parcels import Parcels
from phonebuddy.phoneworld.apps.messenger.timeline import chat_label, list_label, moment_label
from phonebuddy.phoneworld.apps.messenger.widgets import (
    BAR_GREY,
    CHAT_BACKGROUND,
    NICKNAME_BLUE,
    WECHAT_GREEN,
    Avatar,
    Beside,
    CardBubble,
    ChatRow,
    ContactRow,
    MessageBubble,
    MiniProgramBar,
    NavBar,
    Tile,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system import shell
from phonebuddy.phoneworld.system.friction import Friction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Column,
    Dialog,
    IconButton,
    Image,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Toggle,
    Widget,
)

PACKAGE = "com.pw.messenger"
WALLET = "com.pw.wallet"
TABS = (("chats", "微信"), ("contacts", "通讯录"), ("discover", "发现"), ("me", "我"))
RECENT_MINIS_SHOWN = 8
# Minutes of silence after which the chat shows a time stamp again.
STAMP_GAP = 5 * 60
PANEL_DARK = (44, 44, 52)
SETTINGS = (
    ("notify", "新消息通知", "关闭后，收到新消息时不再提醒"),
    ("sound", "声音", "新消息提示音"),
    ("strangers_see_moments", "允许陌生人查看十条朋友圈", ""),
)


class Messenger(App):
    package = PACKAGE
    label = Label(zh="微信", en="WeChat")
    domain = "social"
    theme = AppTheme(primary=WECHAT_GREEN, background=CHAT_BACKGROUND)
    friction = Friction(splash="")
    icon_text = "微"
    accepts_shares = True
    permissions = ("notifications",)
    ignorable = ("read", "recent_minis")

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        programs = {name: random.Random(rng.getrandbits(64)) for name in sorted(PROGRAMS)}
        mini = {name: PROGRAMS[name].build_content(r) for name, r in programs.items()}
        cards = {name: PROGRAMS[name].cards(mini[name], r) for name, r in programs.items()}
        parcels = cast(Parcels, PROGRAMS["parcels"]).shared_parcels(mini["parcels"])
        return {**seed.build(rng, cards, parcels), "mini": mini}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "remarks": {},
            "messages": [],
            "read": {},
            "moments": {"liked": {}, "comments": [], "posts": []},
            "settings": {"notify": True, "sound": True, "strangers_see_moments": False},
            "recent_minis": rng.sample(sorted(PROGRAMS), k=3),
            "mini": {
                name: PROGRAMS[name].initial_data(content["mini"][name], rng)
                for name in sorted(PROGRAMS)
            },
        }

    @staticmethod
    def directory(source: Interaction | View) -> Directory:
        """People and chats as this phone shows them, for a screen or a handler."""
        if isinstance(source, View):
            return Directory(source.content, source.data, int(source.os["clock"]))
        return Directory(source.content, source.data, source.clock)

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

    # -- handlers: contacts --------------------------------------------------------------------
    def save_remark(self, it: Interaction, friend_id: str) -> None:
        remark = it.field("remark").strip()
        directory = self.directory(it)
        if remark != directory.remark(friend_id):
            it.data["remarks"][friend_id] = remark
            it.toast("已保存")
        it.pop()

    @staticmethod
    def clear_remark_field(it: Interaction) -> None:
        if not it.field("remark"):
            it.no_op("the remark field is already empty")
        it.set_field("remark", "")
        it.focus("remark")

    def chat_with(self, it: Interaction, friend_id: str) -> None:
        self.open_chat(it, private_chat_id(friend_id))

    # -- handlers: moments ---------------------------------------------------------------------
    def toggle_like(self, it: Interaction, moment_id: str) -> None:
        liked = it.data["moments"]["liked"]
        if liked.get(moment_id):
            del liked[moment_id]
        else:
            liked[moment_id] = True
        it.set_ui("menu", None)

    def start_comment(self, it: Interaction, moment_id: str) -> None:
        it.set_ui("menu", None)
        it.set_ui("commenting", moment_id)
        it.set_field("comment", "")
        it.focus("comment")

    def send_comment(self, it: Interaction) -> None:
        moment_id, text = it.ui("commenting"), it.field("comment").strip()
        if moment_id is None or not text:
            it.no_op("nothing to comment")
        it.data["moments"]["comments"].append(
            {"id": it.new_id("cm"), "moment": moment_id, "text": text, "time": it.clock}
        )
        it.set_ui("commenting", None)
        it.set_field("comment", "")
        # The comment bar goes away with its field, so the keyboard must go too (Interaction
        # can focus a field but not drop the focus).
        it.device.state["ui"]["focus"] = None

    def publish_moment(self, it: Interaction) -> None:
        text = it.field("moment_text").strip()
        if not text:
            it.toast("说点什么吧")
            it.no_op("an empty moment is not posted")
        it.data["moments"]["posts"].append({"id": it.new_id("mp"), "text": text, "time": it.clock})
        it.pop()

    # -- handlers: mini-programs ---------------------------------------------------------------
    def enter_mini(
        self, it: Interaction, name: str, page: str = "home", args: dict[str, Any] | None = None
    ) -> None:
        recent = [n for n in it.data["recent_minis"] if n != name]
        it.data["recent_minis"] = [name, *recent][:RECENT_MINIS_SHOWN]
        it.set_ui("dialog", None)
        PROGRAMS[name].push(it, page, **dict(args or {}))

    def close_mini(self, it: Interaction) -> None:
        """The capsule's ⊙: leave the mini-program for the screen it was opened from."""
        while it.entry["screen"] == HOST_SCREEN and len(it.device.stack(it.package)) > 1:
            it.pop()

    def restart_mini(self, it: Interaction, name: str) -> None:
        self.close_mini(it)
        self.enter_mini(it, name)

    def share_mini(self, it: Interaction, program: MiniProgram) -> None:
        it.set_ui("dialog", None)
        card = program.card(program.title, program.description, program.home_page)
        it.push("share", payload={"kind": "mini", "title": program.title, "card": card})

    def show_recent_minis(self, it: Interaction) -> None:
        if it.ui("tab", "chats") != "chats":
            it.no_op("only the chat list pulls down to the mini-programs")
        it.set_ui("dialog", "recent_minis")

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

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        name, _, ref = reference.partition(":")
        program = PROGRAMS.get(name)
        if program is not None:
            program.on_payment_result(it, ref, paid)

    def toggle_setting(self, it: Interaction, key: str) -> None:
        it.data["settings"][key] = not it.data["settings"][key]

    # -- screens: home and its tabs ------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "chats")
        directory = self.directory(v)
        if tab == "chats" and v.ui("dialog") == "recent_minis":
            return self._recent_minis_panel(v)
        unread = sum(e.unread for e in directory.chats())
        titles = {
            "chats": f"微信({unread})" if unread else "微信",
            "contacts": "通讯录",
            "discover": "发现",
            "me": "",
        }
        actions = [
            IconButton("search", "搜索", v.go("search"), id="search"),
            IconButton("plus", "更多功能", v.set_ui("dialog", "plus"), id="plus_menu"),
        ]
        body = {
            "chats": self._chat_list,
            "contacts": self._contacts,
            "discover": self._discover,
            "me": self._me,
        }[tab](v, directory)
        overlay = None
        if v.ui("dialog") == "plus":
            overlay = BottomSheet(
                "更多功能",
                [
                    Button("添加朋友", v.go("search"), id="plus_add_friend", style="secondary"),
                    Button(
                        "收付款", lambda it: it.open_app(WALLET), id="plus_pay", style="secondary"
                    ),
                ],
                on_dismiss=v.set_ui("dialog", None),
            )
        return Page(
            None,
            body,
            header=NavBar(titles[tab], actions=actions if tab != "me" else ()),
            bottom=Tabs(TABS, tab, v.on_select("tab"), style="bottom"),
            scroll_id={"chats": "content"}.get(tab, tab),
            background=theme.SURFACE if tab == "chats" else CHAT_BACKGROUND,
            on_pull_down=v.do(self.show_recent_minis) if tab == "chats" else None,
            overlay=overlay,
        )

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

    def _recent_minis_panel(self, v: View) -> Page:
        tiles = [
            Tile(
                PROGRAMS[n].title,
                PROGRAMS[n].glyph,
                PROGRAMS[n].color,
                v.do(self.enter_mini, n),
                id=f"recent_{n}",
                caption_color=theme.WHITE,
            )
            for n in v.data["recent_minis"]
        ]
        rows: list[Widget | None] = [
            Row(list(tiles[i : i + 4]) + [Spacer(0)] * (4 - len(tiles[i : i + 4])), spacing=0)
            for i in range(0, len(tiles), 4)
        ]
        body = [
            Button("搜索小程序", v.go("minis"), id="panel_search", style="secondary"),
            Text("最近使用", size=38, color=(170, 170, 180), padding=20),
            *rows,
            Spacer(60),
            Button("收起", v.set_ui("dialog", None), id="close_panel", style="text"),
        ]
        return Page(
            None,
            body,
            header=NavBar("小程序", fill=PANEL_DARK, color=theme.WHITE),
            background=PANEL_DARK,
            scroll_id="panel",
            body_padding=30,
            spacing=20,
        )

    def _contacts(self, v: View, directory: Directory) -> list[Widget | None]:
        rows: list[Widget | None] = [
            ContactRow("新的朋友", "新", (250, 157, 59), v.go("search"), id="new_friends"),
            ContactRow("群聊", "群", WECHAT_GREEN, v.go("groups"), id="group_chats"),
        ]
        # By index letter, names without a letter ("#") last, as WeChat sorts them.
        people = sorted(
            directory.friends(),
            key=lambda f: (
                seed.initial_of(directory.name(f["id"])).replace("#", "~"),
                directory.name(f["id"]),
            ),
        )
        letter = None
        for friend in people:
            name = directory.name(friend["id"])
            if seed.initial_of(name) != letter:
                letter = seed.initial_of(name)
                rows.append(Text(letter, size=34, color=theme.TEXT_SECONDARY, padding=14))
            rows.append(
                ContactRow(
                    name,
                    name,
                    directory.color(friend["id"]),
                    v.go("profile", friend=friend["id"]),
                    id=f"contact_{friend['id']}",
                )
            )
        rows.append(
            Text(
                f"{len(people)}个朋友",
                size=36,
                color=theme.TEXT_SECONDARY,
                align="center",
                padding=30,
            )
        )
        return rows

    def _discover(self, v: View, directory: Directory) -> list[Widget | None]:
        def entry(
            title: str, glyph: str, color: tuple[int, int, int], on_tap: Any, widget_id: str
        ) -> ListItem:
            return ListItem(
                title, leading=glyph, leading_color=color, on_tap=on_tap, trailing="›", id=widget_id
            )

        return [
            entry("朋友圈", "圈", (255, 140, 60), v.go("moments"), "discover_moments"),
            Spacer(24),
            entry("搜一搜", "搜", (230, 80, 80), v.go("search"), "discover_search"),
            Spacer(24),
            entry("小程序", "小", (120, 90, 220), v.go("minis"), "discover_minis"),
        ]

    def _me(self, v: View, directory: Directory) -> list[Widget | None]:
        me = v.content["me"]
        return [
            Beside(
                Avatar(me["nickname"], directory.color(ME), size=170),
                [
                    Text(me["nickname"], size=56, bold=True, id="my_name"),
                    Text(f"微信号：{me['wxid']}", color=theme.TEXT_SECONDARY, id="my_wxid"),
                    Text(me["signature"], size=36, color=theme.TEXT_SECONDARY),
                ],
                padding=50,
            ),
            Spacer(24),
            ListItem(
                "服务",
                leading="服",
                leading_color=WECHAT_GREEN,
                on_tap=lambda it: it.open_app(WALLET),
                trailing="钱包 ›",
                id="me_services",
            ),
            Spacer(24),
            ListItem(
                "朋友圈",
                leading="圈",
                leading_color=(60, 130, 230),
                on_tap=v.go("moments", author=ME),
                trailing="›",
                id="me_moments",
            ),
            ListItem(
                "设置",
                leading="设",
                leading_color=(120, 144, 156),
                on_tap=v.go("settings"),
                trailing="›",
                id="me_settings",
            ),
        ]

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

    # -- screens: contacts ---------------------------------------------------------------------
    @screen("profile")
    def profile(self, v: View) -> Page:
        directory = self.directory(v)
        friend = directory.friend(v.params["friend"])
        name = directory.name(friend["id"])
        details = [Text(name, size=56, bold=True, id="profile_name")]
        if directory.remark(friend["id"]):
            details.append(
                Text(
                    f"昵称：{friend['nickname']}", color=theme.TEXT_SECONDARY, id="profile_nickname"
                )
            )
        details += [
            Text(f"微信号：{friend['wxid']}", color=theme.TEXT_SECONDARY, id="profile_wxid"),
            Text(f"地区：{friend['region']}", color=theme.TEXT_SECONDARY),
        ]
        body: list[Widget | None] = [
            Beside(Avatar(name, directory.color(friend["id"]), size=180), details, padding=50),
            Spacer(20),
            ListItem(
                "备注",
                trailing=directory.remark(friend["id"]) or "设置备注 ›",
                on_tap=v.go(
                    "remark", friend=friend["id"], fields={"remark": directory.remark(friend["id"])}
                ),
                id="set_remark",
            ),
            ListItem(
                "朋友圈",
                trailing="›",
                on_tap=v.go("moments", author=friend["id"]),
                id="profile_moments",
            ),
            ListItem("个性签名", subtitle=friend["signature"] or "未填写"),
            Spacer(40),
            Column(
                [Button("发消息", v.do(self.chat_with, friend["id"]), id="send_message")],
                padding=40,
            ),
        ]
        return Page(None, body, header=NavBar("", on_back=v.back(), fill=theme.SURFACE))

    @screen("remark")
    def remark(self, v: View) -> Page:
        friend_id = v.params["friend"]
        body = [
            Text("备注名", color=theme.TEXT_SECONDARY),
            Row(
                [
                    TextField(
                        "remark",
                        v.field("remark"),
                        "添加备注名",
                        on_focus=v.focus("remark"),
                        on_submit=v.do(self.save_remark, friend_id),
                    ),
                    IconButton("close", "清除", v.do(self.clear_remark_field), id="remark_clear"),
                ],
                spacing=12,
            ),
            Button("完成", v.do(self.save_remark, friend_id), id="remark_done"),
        ]
        return Page(
            None,
            body,
            header=NavBar("设置备注和标签", on_back=v.back()),
            body_padding=40,
            spacing=30,
        )

    # -- screens: moments ----------------------------------------------------------------------
    @screen("moments")
    def moments(self, v: View) -> Page:
        directory = self.directory(v)
        author = v.params.get("author")
        cover_name = directory.name(author or ME)
        body: list[Widget | None] = [
            Image(f"{cover_name}的朋友圈", height=560, color=(90, 110, 130)),
        ]
        for post in directory.moments(author):
            body.append(self._moment(v, directory, post))
        if len(body) == 1:
            body.append(
                Text("朋友圈暂无内容", color=theme.TEXT_SECONDARY, align="center", padding=60)
            )
        bottom = None
        if v.ui("commenting"):
            bottom = Column(
                [
                    Row(
                        [
                            TextField(
                                "comment",
                                v.field("comment"),
                                "评论",
                                on_focus=v.focus("comment"),
                                on_submit=v.do(self.send_comment),
                            ),
                            Button("发送", v.do(self.send_comment), id="comment_send", height=110),
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
                "朋友圈",
                on_back=v.back(),
                actions=[IconButton("edit", "发表文字", v.go("compose"), id="compose")],
            ),
            bottom=bottom,
            scroll_id="feed",
            background=theme.SURFACE,
        )

    def _moment(self, v: View, directory: Directory, post: dict[str, Any]) -> Widget:
        moment_id = post["id"]
        liked = directory.liked(moment_id)
        likers = [directory.name(f) for f in post["likes"]] + (
            [directory.name(ME)] if liked else []
        )
        comments = [f"{directory.name(c['from'])}：{c['text']}" for c in post["comments"]]
        comments += [f"{directory.name(ME)}：{c['text']}" for c in directory.my_comments(moment_id)]
        parts: list[Widget | None] = [
            Text(
                directory.name(post["author"]),
                size=44,
                bold=True,
                color=NICKNAME_BLUE,
                id=f"author_{moment_id}",
            ),
            Text(post["text"], size=44, id=f"moment_{moment_id}"),
        ]
        if post["photos"]:
            parts.append(
                Image(
                    "照片" if post["photos"] == 1 else f"{post['photos']}张照片",
                    height=320 if post["photos"] == 1 else 240,
                    color=(180, 196, 210),
                )
            )
        parts.append(
            Row(
                [
                    Text(moment_label(post["time"], v.os["clock"]), size=34, color=(160, 160, 160)),
                    IconButton(
                        "more",
                        "赞和评论",
                        v.set_ui("menu", moment_id),
                        id=f"moment_more_{moment_id}",
                        size=90,
                        color=NICKNAME_BLUE,
                    ),
                ]
            )
        )
        if v.ui("menu") == moment_id:
            parts.append(
                Row(
                    [
                        Button(
                            "取消" if liked else "赞",
                            v.do(self.toggle_like, moment_id),
                            id=f"like_{moment_id}",
                            height=100,
                            size=38,
                        ),
                        Button(
                            "评论",
                            v.do(self.start_comment, moment_id),
                            id=f"comment_{moment_id}",
                            height=100,
                            size=38,
                        ),
                    ]
                )
            )
        if likers or comments:
            box: list[Widget | None] = []
            if likers:
                box.append(
                    Text(
                        "♡ " + "，".join(likers),
                        size=38,
                        color=NICKNAME_BLUE,
                        id=f"likes_{moment_id}",
                    )
                )
            box += [Text(c, size=38) for c in comments]
            parts.append(Column(box, spacing=8, padding=20, fill=(247, 247, 247)))
        return Beside(
            Avatar(directory.name(post["author"]), directory.color(post["author"]), size=110),
            parts,
            id=f"post_{moment_id}",
        )

    @screen("compose")
    def compose(self, v: View) -> Page:
        body = [
            TextField(
                "moment_text",
                v.field("moment_text"),
                "这一刻的想法...",
                multiline=True,
                on_focus=v.focus("moment_text"),
            ),
            ListItem("谁可以看", trailing="公开 ›"),
            Button("发表", v.do(self.publish_moment), id="publish"),
        ]
        return Page(
            None,
            body,
            header=NavBar("发表文字", on_back=v.back()),
            background=theme.SURFACE,
            body_padding=40,
            spacing=30,
        )

    # -- screens: me ---------------------------------------------------------------------------
    @screen("settings")
    def settings(self, v: View) -> Page:
        rows = [
            Toggle(
                label,
                bool(v.data["settings"][key]),
                v.do(self.toggle_setting, key),
                id=f"setting_{key}",
                subtitle=subtitle,
            )
            for key, label, subtitle in SETTINGS
        ]
        return Page(None, rows, header=NavBar("设置", on_back=v.back()), spacing=2)

    # -- screens: mini-programs ----------------------------------------------------------------
    @screen("minis")
    def minis(self, v: View) -> Page:
        query = v.field("mini_search").strip()
        if query:
            found = [p for p in PROGRAMS.values() if p.matches(query)]
            heading = "搜索结果" if found else "没有找到相关小程序"
        else:
            found = [PROGRAMS[n] for n in v.data["recent_minis"]]
            heading = "最近使用"
        rows = [
            ListItem(
                p.title,
                subtitle=p.description,
                leading=p.glyph,
                leading_color=p.color,
                on_tap=v.do(self.enter_mini, p.name),
                id=f"mini_{'result' if query else 'recent'}_{p.name}",
            )
            for p in found
        ]
        field = TextField(
            "mini_search", v.field("mini_search"), "搜索小程序", on_focus=v.focus("mini_search")
        )
        return Page(
            None,
            [
                Column([field], padding=24),
                Text(heading, size=38, color=theme.TEXT_SECONDARY, padding=24),
                *rows,
            ],
            header=NavBar("小程序", on_back=v.back()),
        )

    @screen(HOST_SCREEN)
    def mini(self, v: View) -> Page:
        program = PROGRAMS[v.params["program"]]
        page = program.render(v)
        overlay: Dialog | BottomSheet | None = page.overlay
        if v.ui("dialog") == "capsule":
            overlay = BottomSheet(
                program.title,
                [
                    Button(
                        "发送给朋友",
                        v.do(self.share_mini, program),
                        id="capsule_share",
                        style="secondary",
                    ),
                    Button(
                        "重新进入小程序",
                        v.do(self.restart_mini, program.name),
                        id="capsule_restart",
                        style="secondary",
                    ),
                ],
                on_dismiss=v.set_ui("dialog", None),
                id="capsule_menu",
            )
        at_home = v.params.get("page", program.home_page) == program.home_page
        bar = MiniProgramBar(
            page.title or program.title,
            on_more=v.set_ui("dialog", "capsule"),
            on_close=v.do(self.close_mini),
            on_back=None if at_home else v.back(),
        )
        return Page(
            None,
            page.body,
            header=bar,
            bottom=page.bottom,
            background=page.background or CHAT_BACKGROUND,
            body_padding=page.padding,
            spacing=page.spacing,
            overlay=overlay,
        )

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

    # -- direct tools --------------------------------------------------------------------------
    @tool(
        "send_message",
        "Send a text message to a chat, named by the friend's name (remark or "
        "nickname) or the group's name.",
        {"chat": str, "text": str},
    )
    def send_message_tool(self, it: Interaction, chat: str, text: str) -> str:
        directory = self.directory(it)
        found = directory.find_chat(chat)
        if found is None:
            it.no_op(f"no chat named {chat!r}")
        self.post_message(it, found["id"], text)
        return f"sent to {directory.title(found)}"

    @tool(
        "open_mini_program",
        "Open a mini-program by its name or a keyword (咖啡, 停车, 单车, 电影, 快递).",
        {"name": str},
    )
    def open_mini_program_tool(self, it: Interaction, name: str) -> str:
        program = next((p for p in PROGRAMS.values() if p.matches(name)), None)
        if program is None:
            it.no_op(f"no mini-program matches {name!r}")
        self.enter_mini(it, program.name)
        return f"opened {program.title}"
