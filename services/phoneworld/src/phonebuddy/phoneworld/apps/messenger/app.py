"""微信 (the messenger): chats, contacts, moments, and the frame that hosts mini-programs.

Screens: `home` (tabs 微信/通讯录/发现/我; pulling the chat list down shows the recent
mini-programs), `chat`, `chat_info`, `profile`, `remark`, `groups`, `search`, `moments`,
`compose`, `card`, `settings`, `minis` (the mini-program search), `mini` (every mini-program
page, inside the capsule bar) and `share` (pick the chat a share goes to).

The screens live in `chats`, `people` (contacts and moments) and `hosting` (mini-programs),
whose classes this one combines; what they share is in `base`.
"""

from __future__ import annotations

import random
from typing import Any, cast

from phonebuddy.phoneworld.app import Label, View, screen, tool
from phonebuddy.phoneworld.apps.messenger import content as seed
from phonebuddy.phoneworld.apps.messenger.base import PACKAGE, SETTINGS, TABS, WALLET
from phonebuddy.phoneworld.apps.messenger.chats import ChatScreens
from phonebuddy.phoneworld.apps.messenger.content import ME
from phonebuddy.phoneworld.apps.messenger.directory import Directory
from phonebuddy.phoneworld.apps.messenger.hosting import MiniProgramHost
from phonebuddy.phoneworld.apps.messenger.miniprograms import PROGRAMS
from phonebuddy.phoneworld.apps.messenger.miniprograms.parcels import Parcels
from phonebuddy.phoneworld.apps.messenger.people import PeopleScreens
from phonebuddy.phoneworld.apps.messenger.widgets import (
    CHAT_BACKGROUND,
    WECHAT_GREEN,
    Avatar,
    Beside,
    NavBar,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.system.friction import Friction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    IconButton,
    ListItem,
    Page,
    Spacer,
    Tabs,
    Text,
    Toggle,
    Widget,
)
from phonebuddy.phoneworld.world import seeded_rng


class Messenger(ChatScreens, PeopleScreens, MiniProgramHost):
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
        # Each program's rng comes from its name, so adding a program changes no other's data.
        base = rng.getrandbits(64)
        programs = {name: seeded_rng("mini-content", base, name) for name in sorted(PROGRAMS)}
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
                name: PROGRAMS[name].initial_data(content["mini"][name], program_rng)
                for name, program_rng in self._program_rngs(rng).items()
            },
        }

    @staticmethod
    def _program_rngs(rng: random.Random) -> dict[str, random.Random]:
        base = rng.getrandbits(64)
        return {name: seeded_rng("mini-data", base, name) for name in sorted(PROGRAMS)}

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
        "Open a mini-program by its name or a keyword "
        "(咖啡, 停车, 单车, 电影, 快递, 挂号, 生活缴费, 门票).",
        {"name": str},
    )
    def open_mini_program_tool(self, it: Interaction, name: str) -> str:
        wanted = name.strip().lower()
        # A program named exactly so first ('生活缴费' is not 捷停车, whose keywords hold 缴费).
        exact = (p for p in PROGRAMS.values() if wanted in (p.title.lower(), *p.keywords))
        program = next(exact, None) or next((p for p in PROGRAMS.values() if p.matches(name)), None)
        if program is None:
            it.no_op(f"no mini-program matches {name!r}")
        self.enter_mini(it, program.name)
        return f"opened {program.title}"
