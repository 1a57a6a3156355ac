"""How the messenger hosts mini-programs: entering, closing, restarting and sharing one, the
recent mini-programs panel and list, the `mini` screen that wraps a program's page, and the
payments a program asks for.
"""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.messenger.base import PANEL_DARK, RECENT_MINIS_SHOWN, MessengerBase
from phonebuddy.phoneworld.apps.messenger.miniprograms import PROGRAMS
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import HOST_SCREEN, MiniProgram
from phonebuddy.phoneworld.apps.messenger.widgets import (
    CHAT_BACKGROUND,
    MiniProgramBar,
    NavBar,
    Tile,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Column,
    Dialog,
    ListItem,
    Page,
    Row,
    Spacer,
    Text,
    TextField,
    Widget,
)


class MiniProgramHost(MessengerBase):
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

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        name, _, ref = reference.partition(":")
        program = PROGRAMS.get(name)
        if program is not None:
            program.on_payment_result(it, ref, paid)

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
