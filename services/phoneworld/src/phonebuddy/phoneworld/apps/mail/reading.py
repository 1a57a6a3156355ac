"""Mail's reading side: a mail's page with reply/forward/star/delete/move, and what those do
(trash, purge, restore, move to a folder).
"""

from __future__ import annotations

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.mail.base import (
    ME_ADDRESS,
    QQ_BLUE,
    STAR_GOLD,
    SYSTEM_FOLDERS,
    Mail,
    MailBase,
    Mailbox,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import full_time
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Card,
    Column,
    Dialog,
    IconButton,
    ListItem,
    Page,
    Row,
    Text,
    Widget,
)


class ReadingScreens(MailBase):
    def open_mail(self, it: Interaction, mail_id: str) -> None:
        mail = Mailbox(it.data, it.content).get(mail_id)
        if mail is None:
            it.no_op(f"no mail {mail_id}")
            return
        if mail["folder"] == "drafts":
            fields = {"to": mail["to"], "subject": mail["subject"], "body": mail["body"]}
            it.push(
                "compose",
                mode="draft",
                draft=mail_id,
                reply_to=mail["reply_to"],
                forward_of=mail["forward_of"],
                attachments=list(mail["attachments"]),
                prefill=fields,
                fields=fields,
            )
            return
        it.data["read"][mail_id] = True
        it.push("mail", mail_id=mail_id)

    def toggle_star(self, it: Interaction, mail_id: str) -> None:
        record = self.record(it, mail_id)
        record["starred"] = not record["starred"]
        it.toast("已添加星标" if record["starred"] else "已取消星标")

    def delete_mail(self, it: Interaction, mail_id: str) -> None:
        record = self.record(it, mail_id)
        if record["folder"] == "trash":
            it.set_ui("dialog", "purge")
            return
        record["folder"] = "trash"
        it.pop()
        it.toast("已删除，可在「已删除」中恢复")

    def purge(self, it: Interaction, mail_id: str) -> None:
        self.record(it, mail_id)
        it.data["mails"] = [r for r in it.data["mails"] if r["id"] != mail_id]
        it.pop()
        it.toast("已彻底删除")

    def restore(self, it: Interaction, mail_id: str) -> None:
        mail = Mailbox(it.data, it.content).get(mail_id)
        if mail is None or mail["folder"] != "trash":
            it.no_op("only deleted mail can be restored")
            return
        target = "sent" if mail["from_addr"] == ME_ADDRESS else "inbox"
        self.record(it, mail_id)["folder"] = target
        it.pop()
        it.toast(f"已恢复到「{SYSTEM_FOLDERS[target]}」")

    def move(self, it: Interaction, mail_id: str, folder: str) -> None:
        box = Mailbox(it.data, it.content)
        if folder not in dict(box.move_targets()):
            it.no_op(f"no folder {folder}")
        record = self.record(it, mail_id)
        if record["folder"] == folder:
            it.no_op("the mail is already in that folder")
        record["folder"] = folder
        it.set_ui("dialog", None)
        it.pop()
        it.toast(f"已移动到「{box.folder_name(folder)}」")

    @screen("mail")
    def mail(self, v: View) -> Page:
        box = Mailbox(v.data, v.content)
        mail = box.get(v.params["mail_id"])
        if mail is None:
            return Page("邮件", [Text("该邮件已被删除", padding=60)], on_back=v.back())
        trashed = mail["folder"] == "trash"
        return Page(
            box.folder_name(mail["folder"]),
            self._mail_body(box, mail),
            on_back=v.back(),
            actions=[
                IconButton(
                    "star",
                    "取消星标" if mail["starred"] else "星标",
                    v.do(self.toggle_star, mail["id"]),
                    id="star",
                    color=STAR_GOLD if mail["starred"] else None,
                ),
                IconButton(
                    "delete",
                    "彻底删除" if trashed else "删除",
                    v.do(self.delete_mail, mail["id"]),
                    id="delete",
                ),
                IconButton("more", "移动到", v.set_ui("dialog", "move"), id="move"),
            ],
            bottom=self._mail_actions(v, mail, trashed),
            overlay=self._mail_overlay(v, box, mail),
        )

    def _mail_body(self, box: Mailbox, mail: Mail) -> list[Widget | None]:
        original = box.get(mail.get("reply_to") or mail.get("forward_of") or "")
        return [
            Text(mail["subject"] or "（无主题）", size=54, bold=True, padding=40, id="subject"),
            Card(
                [
                    Text(mail["from_name"], size=44, bold=True, id="sender_name"),
                    Text(
                        mail["from_addr"], size=36, color=theme.TEXT_SECONDARY, id="sender_address"
                    ),
                    Text(f"收件人：{mail['to']}", size=36, color=theme.TEXT_SECONDARY, id="to"),
                    Text(
                        f"时间：{full_time(mail['time'])}",
                        size=36,
                        color=theme.TEXT_SECONDARY,
                        id="time",
                    ),
                ],
                fill=theme.SURFACE,
            ),
            Text(mail["body"] or "（无正文）", size=42, padding=40, id="mail_body"),
            *[
                Card([Text(f"附件  {name}", size=38, color=QQ_BLUE)], id=f"attachment_{i}")
                for i, name in enumerate(mail["attachments"])
            ],
            Card([Text(f"原邮件：{original['subject']}", size=36, color=theme.TEXT_SECONDARY)])
            if original
            else None,
        ]

    def _mail_actions(self, v: View, mail: Mail, trashed: bool) -> Widget:
        if trashed:
            buttons = [
                Button("恢复", v.do(self.restore, mail["id"]), id="restore", style="secondary"),
                Button("彻底删除", v.set_ui("dialog", "purge"), id="purge", style="danger"),
            ]
        else:
            reply_fields = {"to": mail["from_addr"], "subject": f"回复：{mail['subject']}"}
            forward_fields = {"subject": f"转发：{mail['subject']}"}
            buttons = [
                Button(
                    "回复",
                    v.go(
                        "compose",
                        mode="reply",
                        reply_to=mail["id"],
                        fields=reply_fields,
                        prefill=reply_fields,
                    ),
                    id="reply",
                    style="secondary",
                ),
                Button(
                    "转发",
                    v.go(
                        "compose",
                        mode="forward",
                        forward_of=mail["id"],
                        fields=forward_fields,
                        prefill=forward_fields,
                        attachments=list(mail["attachments"]),
                    ),
                    id="forward",
                    style="secondary",
                ),
            ]
        return Column([Row(buttons, spacing=30)], padding=24, fill=theme.SURFACE)

    def _mail_overlay(self, v: View, box: Mailbox, mail: Mail) -> Dialog | BottomSheet | None:
        dialog = v.ui("dialog")
        if dialog == "move":
            targets = [(fid, name) for fid, name in box.move_targets() if fid != mail["folder"]]
            items: list[Widget | None] = [
                ListItem(
                    name,
                    leading=name,
                    leading_color=QQ_BLUE,
                    on_tap=v.do(self.move, mail["id"], fid),
                    id=f"move_to_{fid}",
                )
                for fid, name in targets
            ]
            items.append(
                ListItem(
                    "＋ 新建文件夹", on_tap=v.set_ui("dialog", "new_folder"), id="move_new_folder"
                )
            )
            return BottomSheet(
                "移动到", items, on_dismiss=v.set_ui("dialog", None), id="move_sheet"
            )
        if dialog == "new_folder":
            return self._new_folder_dialog(v, then_move=mail["id"])
        if dialog == "purge":
            return v.confirm(
                "彻底删除这封邮件？",
                v.do(self.purge, mail["id"]),
                message="彻底删除后将无法恢复。",
                label="彻底删除",
                confirm_id="confirm_purge",
                danger=True,
            )
        return None
