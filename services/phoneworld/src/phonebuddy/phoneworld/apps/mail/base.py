"""What Mail's screens share: addresses and folders, recipients and previews, and the mailbox
view over seeded and stored mails.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

from phonebuddy.phoneworld.app import App
from phonebuddy.phoneworld.ui.format import local_time
from phonebuddy.phoneworld.ui.theme import Color

MAIL_PACKAGE = "com.pw.mail"
ME_NAME = "林晓"
ME_ADDRESS = "linxiao@qq.com"
QQ_BLUE: Color = (18, 110, 235)
UNREAD_DOT: Color = (18, 110, 235)
STAR_GOLD: Color = (255, 193, 7)

SYSTEM_FOLDERS = {
    "inbox": "收件箱",
    "starred": "星标邮件",
    "drafts": "草稿箱",
    "sent": "已发送",
    "trash": "已删除",
}
FOLDER_BADGES = {
    "inbox": ("收", (18, 110, 235)),
    "starred": ("星", (255, 171, 0)),
    "drafts": ("草", (120, 144, 156)),
    "sent": ("发", (67, 160, 71)),
    "trash": ("删", (158, 158, 158)),
}
SEEDED_FOLDERS = (("folder-work", "工作"), ("folder-bills", "账单"))
ADDRESS = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$")
RECIPIENT_SEPARATORS = re.compile(r"[,;，；\s]+")
WEEKDAYS = "一二三四五六日"

Mail = Mapping[str, Any]


# -- time formatting -----------------------------------------------------------------------------


def list_time(epoch: int, now: int) -> str:
    """'14:30' today, '昨天' yesterday, '3月12日' otherwise, as mail lists show it."""
    t, today = local_time(epoch).date(), local_time(now).date()
    if t == today:
        return f"{local_time(epoch):%H:%M}"
    if (today - t).days == 1:
        return "昨天"
    return f"{t.month}月{t.day}日"


# -- seeded content ------------------------------------------------------------------------------


class Mailbox:
    """A device's mails: seeded content overlaid with the device's mutable records."""

    def __init__(self, data: Mapping[str, Any], content: Mapping[str, Any]) -> None:
        self.data = data
        self.content = content

    def _merge(self, record: Mapping[str, Any]) -> dict[str, Any]:
        seeded = self.content["mails"].get(record["id"])
        return {**seeded, **record} if seeded is not None else dict(record)

    def all(self) -> Iterator[dict[str, Any]]:
        return (self._merge(record) for record in self.data["mails"])

    def get(self, mail_id: str) -> dict[str, Any] | None:
        return next((m for m in self.all() if m["id"] == mail_id), None)

    def is_read(self, mail: Mail) -> bool:
        return bool(self.data["read"].get(mail["id"], True))

    def in_folder(self, folder: str) -> list[dict[str, Any]]:
        if folder == "starred":
            chosen = [m for m in self.all() if m["starred"] and m["folder"] != "trash"]
        else:
            chosen = [m for m in self.all() if m["folder"] == folder]
        return sorted(chosen, key=lambda m: m["time"], reverse=True)

    def unread(self, folder: str) -> int:
        return sum(1 for m in self.in_folder(folder) if not self.is_read(m))

    def search(self, query: str) -> list[dict[str, Any]]:
        words = query.lower().split()
        hits = [
            m
            for m in self.all()
            if m["folder"] != "drafts"
            and all(
                word in f"{m['subject']} {m['from_name']} {m['from_addr']} {m['body']}".lower()
                for word in words
            )
        ]
        return sorted(hits, key=lambda m: m["time"], reverse=True)

    def recipient_names(self, to: str) -> str:
        """'zhangwei@xinghe-tech.com, a@b.cn' -> '张伟、a@b.cn', as mail lists show recipients."""
        names = {c["address"]: c["name"] for c in self.content["contacts"]}
        return "、".join(names.get(address, address) for address in parse_recipients(to))

    def folder_name(self, folder: str) -> str:
        if folder in SYSTEM_FOLDERS:
            return SYSTEM_FOLDERS[folder]
        return next((f["name"] for f in self.data["folders"] if f["id"] == folder), folder)

    def move_targets(self) -> list[tuple[str, str]]:
        """Folders a mail can be moved into (deleting is the way into 已删除)."""
        return [("inbox", "收件箱")] + [(f["id"], f["name"]) for f in self.data["folders"]]


def parse_recipients(text: str) -> list[str]:
    return [part.lower() for part in RECIPIENT_SEPARATORS.split(text.strip()) if part]


def preview(body: str) -> str:
    return " ".join(line.strip() for line in body.splitlines() if line.strip())


# -- the app -------------------------------------------------------------------------------------


class MailBase(App):
    """The base of Mail's screen classes (reading, compose) and of the app that combines them."""
