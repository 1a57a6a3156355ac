"""The Mail app, in the manner of QQ Mail: a folder overview, mail lists, a mail page with
reply / forward / star / delete / move, a composer with drafts, search and a contacts tab.

Seeded mails are shared read-only content; a device keeps only what can change about them
(`{"id", "folder", "starred"}`) plus its read flags, and full records for the mails it writes.

The reading screens live in `reading`, the composer in `compose`, the seeded mailbox in
`content`; what they share is in `base`.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import Label, View, screen, tool
from phonebuddy.phoneworld.apps.mail.base import (
    FOLDER_BADGES,
    MAIL_PACKAGE,
    ME_ADDRESS,
    QQ_BLUE,
    SEEDED_FOLDERS,
    SYSTEM_FOLDERS,
    UNREAD_DOT,
    Mail,
    Mailbox,
    list_time,
    preview,
)
from phonebuddy.phoneworld.apps.mail.compose import ComposeScreens
from phonebuddy.phoneworld.apps.mail.content import build_mail_content
from phonebuddy.phoneworld.apps.mail.reading import ReadingScreens
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Column,
    Dialog,
    Divider,
    IconButton,
    ListItem,
    Page,
    Row,
    Tabs,
    Text,
    TextField,
    Widget,
)


class MailApp(ReadingScreens, ComposeScreens):
    package = MAIL_PACKAGE
    label = Label(zh="邮件", en="Mail")
    domain = "communication"
    theme = AppTheme(primary=QQ_BLUE)
    icon_text = "邮"
    accepts_shares = True
    permissions = ("notifications",)
    # Opening a mail marks it read: reading is never a task's effect.
    ignorable = ("read",)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return build_mail_content(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        mails = list(content["mails"].values())
        return {
            "mails": [
                {"id": m["id"], "folder": m["folder"], "starred": m["starred"]} for m in mails
            ],
            # Each device starts with its own (seeded) mix of read and unread inbox mail.
            "read": {m["id"]: m["read"] or rng.random() < 0.3 for m in mails},
            "folders": [{"id": fid, "name": name} for fid, name in SEEDED_FOLDERS],
        }

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def record(it: Interaction, mail_id: str) -> dict[str, Any]:
        """The device's mutable record of a mail."""
        for record in it.data["mails"]:
            if record["id"] == mail_id:
                return record
        it.no_op(f"no mail {mail_id}")
        raise AssertionError  # no_op raises

    def create_folder(self, it: Interaction, then_move: str | None = None) -> None:
        name = it.field("folder_name").strip()
        if not name:
            it.no_op("a folder needs a name")
        taken = set(SYSTEM_FOLDERS.values()) | {f["name"] for f in it.data["folders"]}
        if name in taken:
            it.toast("该文件夹已存在")
            it.no_op(f"a folder named {name} exists")
        folder_id = it.new_id("folder")
        it.data["folders"].append({"id": folder_id, "name": name})
        it.set_field("folder_name", "")
        it.set_ui("dialog", None)
        if then_move is not None:
            self.move(it, then_move, folder_id)
        else:
            it.toast(f"已创建文件夹「{name}」")

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "mail")
        body = self._folders_tab(v) if tab == "mail" else self._contacts_tab(v)
        return Page(
            "邮件" if tab == "mail" else "通讯录",
            body,
            actions=[IconButton("edit", "写邮件", v.go("compose", mode="new"), id="compose")],
            bottom=Tabs(
                [("mail", "邮件"), ("contacts", "通讯录")], tab, v.on_select("tab"), style="bottom"
            ),
            overlay=self._new_folder_dialog(v) if v.ui("dialog") == "new_folder" else None,
        )

    def _folders_tab(self, v: View) -> list[Widget | None]:
        box = Mailbox(v.data, v.content)
        rows: list[Widget | None] = [
            Card(
                [Text("搜索邮件", color=theme.TEXT_SECONDARY, size=40)],
                on_tap=v.go("search"),
                id="search_bar",
                padding=30,
                fill=theme.FIELD_BACKGROUND,
            ),
            Text(ME_ADDRESS, size=36, color=theme.TEXT_SECONDARY, padding=12),
        ]
        for folder, name in SYSTEM_FOLDERS.items():
            letter, color = FOLDER_BADGES[folder]
            count = box.unread(folder) if folder == "inbox" else len(box.in_folder(folder))
            rows.append(
                ListItem(
                    name,
                    trailing=str(count) if count else "",
                    leading=letter,
                    leading_color=color,
                    on_tap=v.go("folder", folder=folder),
                    id=f"folder_{folder}",
                )
            )
        rows.append(Text("我的文件夹", size=38, color=theme.TEXT_SECONDARY, padding=24))
        for folder in v.data["folders"]:
            count = len(box.in_folder(folder["id"]))
            rows.append(
                ListItem(
                    folder["name"],
                    trailing=str(count) if count else "",
                    leading="夹",
                    leading_color=(255, 152, 0),
                    on_tap=v.go("folder", folder=folder["id"]),
                    id=f"folder_{folder['id']}",
                )
            )
        rows.append(
            Button("＋ 新建文件夹", v.set_ui("dialog", "new_folder"), id="new_folder", style="text")
        )
        return [Column(rows, spacing=12, padding=24)]

    def _contacts_tab(self, v: View) -> list[Widget | None]:
        return [
            ListItem(
                c["name"],
                subtitle=f"{c['address']} · {c['note']}",
                leading=c["name"],
                leading_color=QQ_BLUE,
                id=f"contact_{i}",
                on_tap=v.go(
                    "compose", mode="new", fields={"to": c["address"]}, prefill={"to": c["address"]}
                ),
            )
            for i, c in enumerate(v.content["contacts"])
        ]

    def _new_folder_dialog(self, v: View, then_move: str | None = None) -> Dialog:
        return Dialog(
            "新建文件夹",
            body=[
                TextField(
                    "folder_name",
                    v.field("folder_name"),
                    "文件夹名称",
                    on_focus=v.focus("folder_name"),
                )
            ],
            buttons=[
                Button("取消", v.set_ui("dialog", None), id="cancel", style="secondary"),
                Button("确定", v.do(self.create_folder, then_move), id="create_folder"),
            ],
        )

    def _mail_row(self, v: View, box: Mailbox, mail: Mail, row_id: str) -> Widget:
        unread = not box.is_read(mail)
        folder = mail["folder"]
        who = (
            f"发给 {box.recipient_names(mail['to'])}"
            if folder in ("sent", "drafts")
            else mail["from_name"]
        )
        when = list_time(mail["time"], v.os["clock"])
        marks = ("★ " if mail["starred"] else "") + ("附件 " if mail["attachments"] else "")
        return Column(
            [
                Row(
                    [
                        Text("●" if unread else "", color=UNREAD_DOT, size=30),
                        Text(who, bold=unread, size=44, max_lines=1),
                        Text(marks + when, color=theme.TEXT_SECONDARY, size=34, align="right"),
                    ],
                    spacing=8,
                    weights=[0.4, 6, 3],
                ),
                Text(mail["subject"] or "（无主题）", size=40, max_lines=1, bold=unread),
                Text(preview(mail["body"]), size=36, color=theme.TEXT_SECONDARY, max_lines=1),
            ],
            spacing=6,
            padding=30,
            fill=theme.SURFACE,
            on_tap=v.do(self.open_mail, mail["id"]),
            id=row_id,
        )

    def _mail_list(
        self, v: View, box: Mailbox, mails: list[dict[str, Any]], empty: str
    ) -> list[Widget | None]:
        if not mails:
            return [Text(empty, color=theme.TEXT_SECONDARY, padding=60, align="center")]
        rows: list[Widget | None] = []
        for mail in mails:
            rows += [self._mail_row(v, box, mail, f"mail_{mail['id']}"), Divider()]
        return rows

    @screen("folder")
    def folder(self, v: View) -> Page:
        box = Mailbox(v.data, v.content)
        folder = v.params["folder"]
        mails = box.in_folder(folder)
        title = box.folder_name(folder)
        unread = box.unread(folder)
        return Page(
            f"{title}({unread})" if folder == "inbox" and unread else title,
            self._mail_list(v, box, mails, "没有邮件"),
            on_back=v.back(),
            actions=[
                IconButton("search", "搜索", v.go("search"), id="search"),
                IconButton("edit", "写邮件", v.go("compose", mode="new"), id="compose"),
            ],
        )

    @screen("search")
    def search(self, v: View) -> Page:
        box = Mailbox(v.data, v.content)
        query = v.field("q").strip()
        if not query:
            body: list[Widget | None] = [
                Text(
                    "搜索主题、发件人或正文", color=theme.TEXT_SECONDARY, padding=60, align="center"
                )
            ]
        else:
            body = self._mail_list(v, box, box.search(query), "没有找到相关邮件")
        return Page(
            "搜索邮件",
            body,
            header=Column(
                [TextField("q", v.field("q"), "输入关键词", on_focus=v.focus("q"))],
                padding=24,
                fill=theme.SURFACE,
            ),
            on_back=v.back(),
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "send_mail",
        "Send a mail from linxiao@qq.com; `to` holds one or more addresses separated by commas.",
        {"to": str, "subject": str, "body": str},
    )
    def send_mail_tool(self, it: Interaction, to: str, subject: str, body: str) -> str:
        return f"sent {self.deliver(it, to, subject, body)}"
