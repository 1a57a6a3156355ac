"""The Files app (文件管理): folders and their files, categories, recent and starred files,
search, a file's details, rename, move/copy through a folder picker, multi-select, the 回收站
and storage totals. The 邮件附件 folder lists the attachments of the mails received in Mail
(read from Mail's data) and saves one into a folder.

The handlers are here; the screens are in `screens.py`.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import Label, tool
from phonebuddy.phoneworld.apps.files.content import (
    ATTACHMENTS,
    FILES,
    ILLEGAL,
    attachment_size,
    build_files_content,
    leaf,
    parent,
)
from phonebuddy.phoneworld.apps.files.screens import FilesScreens
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.theme import AppTheme

MAIL = "com.pw.mail"
ILLEGAL_MESSAGE = '名称不能包含以下字符：/ \\ : * ? " < > |'


def name_problem(name: str, taken: set[str]) -> str | None:
    """What is wrong with a new file or folder name, in the words shown on screen."""
    if not name:
        return "名称不能为空"
    if any(ch in ILLEGAL for ch in name):
        return ILLEGAL_MESSAGE
    if name in (".", ".."):
        return "名称无效"
    if name in taken:
        return "该位置已存在同名文件或文件夹"
    return None


def received_attachments(mail_data: dict[str, Any], mail_content: dict[str, Any]) -> list[Any]:
    """The attachments of the mails received in Mail (not sent, drafts or deleted), newest
    first: (mail id, index, name, mail) tuples."""
    found = []
    for record in mail_data["mails"]:
        mail = {**mail_content["mails"].get(record["id"], {}), **record}
        if mail.get("folder") in ("sent", "drafts", "trash"):
            continue
        for index, name in enumerate(mail.get("attachments") or []):
            found.append((record["id"], index, name, mail))
    return sorted(found, key=lambda a: -int(a[3].get("time", 0)))


class Files(FilesScreens):
    package = FILES
    label = Label(zh="文件管理", en="Files")
    domain = "tools"
    theme = AppTheme(primary=(255, 160, 0), on_primary=(255, 255, 255))
    icon_text = "文"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return build_files_content(rng)

    def initial_data(self, content: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return {"files": clone(content["files"]), "folders": clone(content["folders"])}

    # -- lookups ---------------------------------------------------------------------------------
    @staticmethod
    def find(it: Interaction, file_id: str) -> dict[str, Any]:
        for file in it.data["files"]:
            if file["id"] == file_id:
                return file
        it.no_op(f"no file {file_id}")
        raise AssertionError  # no_op raises

    @staticmethod
    def names_in(data: dict[str, Any], folder: str, *, but: str | None = None) -> set[str]:
        """The names of the files (not in the 回收站) and subfolders in `folder`."""
        names = {
            f["name"]
            for f in data["files"]
            if f["folder"] == folder and f["trashed_at"] is None and f["id"] != but
        }
        return names | {leaf(d["path"]) for d in data["folders"] if parent(d["path"]) == folder}

    @staticmethod
    def folder_exists(data: dict[str, Any], path: str) -> bool:
        return any(d["path"] == path for d in data["folders"])

    # -- handlers (the only place data changes) ---------------------------------------------------
    def create_folder(self, it: Interaction, where: str) -> None:
        name = it.field("folder_name").strip()
        problem = name_problem(name, self.names_in(it.data, where))
        if problem is not None:
            it.set_ui("error", problem)
            it.no_op(f"folder name {name!r}: {problem}")
        it.data["folders"].append({"id": it.new_id("dir"), "path": f"{where}/{name}"})
        it.set_field("folder_name", "")
        it.unfocus()
        it.set_ui("dialog", None)
        it.set_ui("error", None)
        it.toast(f"已新建文件夹“{name}”")

    def rename(self, it: Interaction, file_id: str) -> None:
        file = self.find(it, file_id)
        name = it.field("name").strip()
        if name == file["name"]:
            it.set_ui("error", "文件名未修改")
            it.no_op("the name did not change")
        problem = name_problem(name, self.names_in(it.data, file["folder"], but=file_id))
        if problem is not None:
            it.set_ui("error", problem)
            it.no_op(f"file name {name!r}: {problem}")
        file["name"] = name
        it.pop()
        it.toast("重命名成功")

    def share_file(self, it: Interaction, file_id: str) -> None:
        file = self.find(it, file_id)
        it.share({"kind": "file", "name": file["name"], "text": file["name"]})

    def toggle_star(self, it: Interaction, file_id: str) -> None:
        file = self.find(it, file_id)
        file["starred"] = not file["starred"]
        it.toast("已收藏" if file["starred"] else "已取消收藏")

    def trash(self, it: Interaction, file_ids: list[str], *, leave: bool) -> None:
        """Move files to the 回收站 (after the confirm dialog)."""
        files = [self.find(it, file_id) for file_id in file_ids]
        if not files or any(f["trashed_at"] is not None for f in files):
            it.no_op("nothing to delete")
        for file in files:
            file["trashed_at"] = it.clock
        it.set_ui("dialog", None)
        if leave:
            it.pop()
        else:
            it.set_ui("selecting", False)
            it.set_ui("selected", [])
        it.toast(f"已删除{len(files)}项，可在回收站中恢复")

    def restore(self, it: Interaction, file_id: str) -> None:
        file = self.find(it, file_id)
        if file["trashed_at"] is None:
            it.no_op(f"{file_id} is not in the trash")
        if file["name"] in self.names_in(it.data, file["folder"]):
            it.toast("原位置已存在同名文件，无法恢复")
            it.no_op(f"{file['folder']} already holds a {file['name']}")
        file["trashed_at"] = None
        it.set_ui("dialog", None)
        it.toast(f"已恢复到“{file['folder']}”")

    def empty_trash(self, it: Interaction) -> None:
        files = it.data["files"]
        if all(f["trashed_at"] is None for f in files):
            it.no_op("the trash is empty")
        it.data["files"] = [f for f in files if f["trashed_at"] is None]
        it.set_ui("dialog", None)
        it.toast("回收站已清空")

    def transfer(self, it: Interaction, mode: str, file_ids: list[str], dest: str) -> None:
        """移动/复制到此处 in the folder picker: every file or none."""
        files = [self.find(it, file_id) for file_id in file_ids]
        if not dest or not self.folder_exists(it.data, dest):
            it.no_op(f"no folder {dest!r}")
        if mode == "move" and any(f["folder"] == dest for f in files):
            it.toast("文件已在该文件夹中")
            it.no_op(f"already in {dest}")
        taken = self.names_in(it.data, dest)
        names = [f["name"] for f in files]
        if taken & set(names) or len(set(names)) < len(names):
            it.toast("目标文件夹中已有同名文件")
            it.no_op(f"{dest} already holds one of {names}")
        for file in files:
            if mode == "move":
                file["folder"] = dest
            else:
                copy = {**clone(file), "id": it.new_id("file"), "folder": dest}
                copy["starred"] = False
                it.data["files"].append(copy)
        it.pop()
        it.set_ui("selecting", False)
        it.set_ui("selected", [])
        it.toast(f"已{'移动' if mode == 'move' else '复制'}{len(files)}个文件到“{dest}”")

    def save_attachment(self, it: Interaction, mail_id: str, index: int, dest: str) -> None:
        mail_data = it.app_data(MAIL)
        found = [
            a
            for a in received_attachments(mail_data, it.device.world.content(MAIL))
            if a[0] == mail_id and a[1] == index
        ]
        if not found or not dest or not self.folder_exists(it.data, dest):
            it.no_op(f"no attachment {mail_id}#{index} or no folder {dest!r}")
        name = found[0][2]
        if name in self.names_in(it.data, dest):
            it.toast("目标文件夹中已有同名文件")
            it.no_op(f"{dest} already holds {name}")
        it.data["files"].append(
            {
                "id": it.new_id("file"),
                "name": name,
                "folder": dest,
                "size": attachment_size(name),
                "modified": it.clock,
                "starred": False,
                "trashed_at": None,
            }
        )
        it.pop()
        it.toast(f"已保存到“{dest}”")

    def open_attachments(self, it: Interaction) -> None:
        """邮件附件: what Mail received, read when the folder opens."""
        found = received_attachments(it.app_data(MAIL), it.device.world.content(MAIL))
        listed = [[m, i, name, mail.get("from_name", ""), mail.get("subject", "")]
                  for m, i, name, mail in found]  # fmt: skip
        it.push("attachments", attachments=listed)

    def copy_path(self, it: Interaction, file_id: str) -> None:
        file = self.find(it, file_id)
        it.copy(f"/内部存储/{file['folder']}/{file['name']}")

    # -- direct tools -----------------------------------------------------------------------------
    @tool("find_files", "Search 文件管理 for files whose name contains a keyword.", {"q": str})
    def find_files_tool(self, it: Interaction, q: str) -> str:
        hits = [
            f"{f['folder']}/{f['name']}"
            for f in it.data["files"]
            if f["trashed_at"] is None and q.strip() and q.strip().lower() in f["name"].lower()
        ]
        return "\n".join(hits) if hits else "no file found"


__all__ = ["ATTACHMENTS", "Files", "received_attachments"]
