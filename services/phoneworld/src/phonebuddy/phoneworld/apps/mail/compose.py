"""Mail's composer: new mails, replies and forwards with quoted text, drafts, sending and
delivery of the replies people send back, and shares from other apps.
"""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.mail.base import (
    ADDRESS,
    ME_ADDRESS,
    ME_NAME,
    QQ_BLUE,
    Mail,
    MailBase,
    Mailbox,
    parse_recipients,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Dialog,
    IconButton,
    Page,
    Text,
    TextField,
    Widget,
)


class ComposeScreens(MailBase):
    def deliver(
        self,
        it: Interaction,
        to: str,
        subject: str,
        body: str,
        *,
        reply_to: str | None = None,
        forward_of: str | None = None,
        attachments: list[str] | None = None,
    ) -> str:
        """Send a mail: it lands in 已发送. Shared by the composer and the `send_mail` tool."""
        recipients = parse_recipients(to)
        if not recipients or not all(ADDRESS.match(r) for r in recipients):
            it.toast("请填写正确的收件人地址")
            it.no_op(f"invalid recipients {to!r}")
        mail_id = it.new_id("mail")
        it.data["mails"].append(
            {
                "id": mail_id,
                "folder": "sent",
                "starred": False,
                "from_name": ME_NAME,
                "from_addr": ME_ADDRESS,
                "to": ", ".join(recipients),
                "subject": subject.strip(),
                "body": body,
                "time": it.clock,
                "attachments": list(attachments or []),
                "reply_to": reply_to,
                "forward_of": forward_of,
            }
        )
        return mail_id

    @staticmethod
    def _editor_references(it: Interaction) -> dict[str, Any]:
        params = it.entry["params"]
        return {
            "reply_to": params.get("reply_to"),
            "forward_of": params.get("forward_of"),
            "attachments": list(params.get("attachments") or []),
        }

    def send_from_editor(self, it: Interaction, *, confirmed: bool = False) -> None:
        to, subject, body = it.field("to"), it.field("subject"), it.field("body")
        if not subject.strip() and not confirmed:
            it.set_ui("dialog", "no_subject")
            return
        self.deliver(it, to, subject, body, **self._editor_references(it))
        draft = it.entry["params"].get("draft")
        if draft is not None:
            it.data["mails"] = [r for r in it.data["mails"] if r["id"] != draft]
        it.pop()
        it.toast("发送成功")

    def leave_editor(self, it: Interaction) -> None:
        prefill = it.entry["params"].get("prefill") or {}
        typed = {name: it.field(name) for name in ("to", "subject", "body")}
        if any(value != prefill.get(name, "") for name, value in typed.items()):
            it.set_ui("dialog", "save_draft")
        else:
            it.pop()

    def save_draft(self, it: Interaction) -> None:
        params = it.entry["params"]
        fields = {"to": it.field("to"), "subject": it.field("subject"), "body": it.field("body")}
        draft = params.get("draft")
        if draft is not None:
            self.record(it, draft).update({**fields, "time": it.clock})
        else:
            it.data["mails"].append(
                {
                    "id": it.new_id("mail"),
                    "folder": "drafts",
                    "starred": False,
                    "from_name": ME_NAME,
                    "from_addr": ME_ADDRESS,
                    **fields,
                    "time": it.clock,
                    **self._editor_references(it),
                }
            )
        it.pop()
        it.toast("已保存到草稿箱")

    def receive_share(self, it: Interaction, payload: dict[str, Any]) -> None:
        text = str(payload.get("text", ""))
        kind = payload.get("kind")
        attachments = [f"{text or '图片'}.jpg"] if kind == "photo" else []
        if kind == "file":  # a file from 文件管理: attached as it is named, the body left empty
            attachments, text = [str(payload["name"])], ""
        fields = {"body": text}
        it.push("compose", mode="new", prefill=fields, fields=fields, attachments=attachments)

    @screen("compose")
    def compose(self, v: View) -> Page:
        mode = v.params.get("mode", "new")
        box = Mailbox(v.data, v.content)
        original = box.get(v.params.get("reply_to") or v.params.get("forward_of") or "")
        title = {"reply": "回复邮件", "forward": "转发邮件", "draft": "编辑草稿"}.get(
            mode, "写邮件"
        )
        body: list[Widget | None] = [
            TextField("to", v.field("to"), "收件人", on_focus=v.focus("to")),
            TextField("subject", v.field("subject"), "主题", on_focus=v.focus("subject")),
            TextField("body", v.field("body"), "正文", multiline=True, on_focus=v.focus("body")),
            *[
                Card([Text(f"附件  {name}", size=38, color=QQ_BLUE)], id=f"attachment_{i}")
                for i, name in enumerate(v.params.get("attachments") or [])
            ],
        ]
        if original is not None:
            body.append(self._quoted(original))
        return Page(
            title,
            body,
            on_back=v.do(self.leave_editor),
            actions=[IconButton("send", "发送", v.do(self.send_from_editor), id="send")],
            body_padding=36,
            spacing=24,
            overlay=self._compose_dialog(v),
        )

    @staticmethod
    def _quoted(original: Mail) -> Widget:
        return Card(
            [
                Text("—————— 原始邮件 ——————", size=34, color=theme.TEXT_SECONDARY),
                Text(
                    f"发件人：{original['from_name']} <{original['from_addr']}>",
                    size=34,
                    color=theme.TEXT_SECONDARY,
                ),
                Text(f"主题：{original['subject']}", size=34, color=theme.TEXT_SECONDARY),
                Text(original["body"], size=34, color=theme.TEXT_SECONDARY, max_lines=8),
            ],
            fill=theme.FIELD_BACKGROUND,
        )

    def _compose_dialog(self, v: View) -> Dialog | None:
        dialog = v.ui("dialog")
        close = v.set_ui("dialog", None)
        if dialog == "save_draft":
            return Dialog(
                "保存为草稿？",
                message="不保存的话，已填写的内容将会丢失。",
                buttons=[
                    Button("不保存", v.back(), id="discard", style="secondary"),
                    Button("保存", v.do(self.save_draft), id="save_draft"),
                ],
            )
        if dialog == "no_subject":
            return Dialog(
                "邮件没有主题",
                message="确定不填写主题直接发送吗？",
                buttons=[
                    Button("取消", close, id="cancel", style="secondary"),
                    Button("发送", v.do(self.send_from_editor, confirmed=True), id="send_anyway"),
                ],
            )
        return None
