"""The screens of 文件管理 (Files); they only read, the handlers in `app.py` change data."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import App, View, screen
from phonebuddy.phoneworld.apps.files.content import (
    ATTACHMENTS,
    CATEGORIES,
    CATEGORY_ICONS,
    FOLDER_ICON,
    ROOTS,
    category,
    leaf,
    parent,
    size_label,
    time_label,
)
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Dialog,
    Handler,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
)

TABS = (("browse", "浏览"), ("category", "分类"), ("recent", "最近"), ("starred", "收藏"))
SORTS = (("name", "名称"), ("size", "大小"), ("time", "时间"))
RECENT = 20
MODE_LABELS = {"move": "移动到此处", "copy": "复制到此处", "save": "保存到此处"}


def live(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The files not in the 回收站."""
    return [f for f in data["files"] if f["trashed_at"] is None]


def sort_files(files: list[dict[str, Any]], how: str) -> list[dict[str, Any]]:
    if how == "size":
        return sorted(files, key=lambda f: (-f["size"], f["name"]))
    if how == "time":
        return sorted(files, key=lambda f: (-f["modified"], f["name"]))
    return sorted(files, key=lambda f: f["name"])


def subfolders(data: dict[str, Any], path: str) -> list[str]:
    return sorted(d["path"] for d in data["folders"] if parent(d["path"]) == path)


def empty(text: str) -> Text:
    return Text(text, color=theme.TEXT_SECONDARY, padding=40, align="center", id="empty")


def error_text(message: str | None) -> Text | None:
    return Text(message, size=36, color=theme.DANGER, id="error") if message else None


class FilesScreens(App):
    """The screens; `Files` (app.py) adds the handlers they call."""

    def file_row(
        self,
        v: View,
        file: dict[str, Any],
        *,
        subtitle: str = "",
        on_tap: Handler | None = None,
        on_long_press: Handler | None = None,
        selected: bool = False,
        prefix: str = "file_",
        action: Chip | None = None,
    ) -> ListItem:
        letter, colour = CATEGORY_ICONS[category(file["name"])]
        star = "★ " if file["starred"] else ""
        return ListItem(
            file["name"],
            subtitle=subtitle
            or f"{star}{size_label(file['size'])}  {time_label(file['modified'])}",
            trailing="✓" if selected else "",
            leading=letter,
            leading_color=colour,
            on_tap=on_tap or v.go("file", file_id=file["id"]),
            on_long_press=on_long_press,
            selected=selected,
            id=f"{prefix}{file['id']}",
            action=action,
        )

    def folder_row(self, v: View, path: str, on_tap: Handler, prefix: str = "folder_") -> ListItem:
        count = sum(1 for f in live(v.data) if f["folder"] == path) + len(subfolders(v.data, path))
        return ListItem(
            leaf(path),
            subtitle=f"{count}项",
            leading="夹",
            leading_color=FOLDER_ICON,
            on_tap=on_tap,
            id=prefix + next((d["id"] for d in v.data["folders"] if d["path"] == path), path),
        )

    # -- home -------------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "browse")
        rows: list[Widget | None] = []
        files = live(v.data)
        if tab == "browse":
            rows = [self.folder_row(v, root, v.go("folder", path=root)) for root in ROOTS]
            rows.append(
                ListItem(ATTACHMENTS, subtitle="邮件中收到的附件", leading="邮",
                         leading_color=(18, 110, 235),
                         on_tap=v.do(self.open_attachments),  # type: ignore[attr-defined]
                         id="folder_mail")
            )  # fmt: skip
        elif tab == "category":
            chosen = v.ui("category", CATEGORIES[0])
            chips = [
                Chip(c, v.set_ui("category", c), selected=c == chosen, id=f"cat_{i}")
                for i, c in enumerate(CATEGORIES)
            ]
            rows = [Row(chips[:3], spacing=16), Row(chips[3:], spacing=16)]
            mine = sort_files([f for f in files if category(f["name"]) == chosen], "time")
            rows += [self.file_row(v, f, subtitle=self.where(f)) for f in mine]
            if not mine:
                rows.append(empty(f"暂无{chosen}"))
        elif tab == "recent":
            recent = sort_files(files, "time")[:RECENT]
            rows = [self.file_row(v, f, subtitle=self.where(f)) for f in recent]
        else:
            starred = sort_files([f for f in files if f["starred"]], "name")
            rows = [self.file_row(v, f, subtitle=self.where(f)) for f in starred]
            if not starred:
                rows.append(empty("还没有收藏的文件"))
        return Page(
            "文件管理",
            [*rows, Spacer(60)],
            header=Tabs(TABS, tab, v.on_select("tab")),
            actions=[
                IconButton("search", "搜索", v.go("search", fields={"q": ""}), id="search"),
                IconButton("delete", "回收站", v.go("trash"), id="trash"),
                IconButton("settings", "存储空间", v.go("storage"), id="storage"),
            ],
        )

    @staticmethod
    def where(file: dict[str, Any]) -> str:
        return f"{file['folder']}｜{size_label(file['size'])}  {time_label(file['modified'])}"

    # -- a folder ---------------------------------------------------------------------------------
    @screen("folder")
    def folder(self, v: View) -> Page:
        path = v.params["path"]
        how = v.ui("sort", "name")
        selecting = bool(v.ui("selecting", False))
        selected: list[str] = list(v.ui("selected", []))
        files = sort_files([f for f in live(v.data) if f["folder"] == path], how)
        chips = [Chip(f"按{label}", v.set_ui("sort", key), selected=how == key, id=f"sort_{key}")
                 for key, label in SORTS]  # fmt: skip
        rows: list[Widget | None] = [Row(chips, spacing=16)]
        if not selecting:
            rows += [
                self.folder_row(v, d, v.go("folder", path=d)) for d in subfolders(v.data, path)
            ]
        for file in files:
            on = file["id"] in selected
            toggle = v.set_ui("selected", [i for i in selected if i != file["id"]] if on
                              else [*selected, file["id"]])  # fmt: skip
            start = self.start_selecting(file["id"])
            rows.append(
                self.file_row(v, file, on_tap=toggle if selecting else None,
                              on_long_press=None if selecting else start, selected=on)
            )  # fmt: skip
        if len(rows) == 1:
            rows.append(empty("空文件夹"))
        bottom = None
        if selecting:
            some = bool(selected)
            bottom = Row(
                [
                    Button("移动", v.go("picker", mode="move", file_ids=selected, at=""),
                           id="batch_move", enabled=some, style="secondary", height=110, size=38),
                    Button("复制", v.go("picker", mode="copy", file_ids=selected, at=""),
                           id="batch_copy", enabled=some, style="secondary", height=110, size=38),
                    Button("删除", v.set_ui("dialog", "delete"), id="batch_delete",
                           enabled=some, style="danger", height=110, size=38),
                ],
                spacing=16,
            )  # fmt: skip
        overlay = None
        if v.ui("dialog") == "delete" and selected:
            overlay = v.confirm(
                f"删除选中的{len(selected)}个文件？",
                v.do(self.trash, selected, leave=False),  # type: ignore[attr-defined]
                message="删除的文件可在回收站中恢复。",
                label="删除",
                confirm_id="confirm_delete",
                danger=True,
            )
        elif v.ui("dialog") == "new_folder":
            overlay = Dialog(
                "新建文件夹",
                body=[
                    TextField("folder_name", v.field("folder_name"), "文件夹名称",
                              on_focus=v.focus("folder_name")),
                    error_text(v.ui("error")),
                ],
                buttons=[
                    Button("取消", self.close_dialog(), id="cancel", style="secondary"),
                    Button("确定", v.do(self.create_folder, path),  # type: ignore[attr-defined]
                           id="create_folder"),
                ],
            )  # fmt: skip
        title = f"已选择{len(selected)}项" if selecting else leaf(path)
        actions = [
            IconButton("close" if selecting else "check", "取消选择" if selecting else "选择",
                       self.toggle_selecting(not selecting), id="select"),
        ]  # fmt: skip
        if not selecting:
            actions.append(IconButton("plus", "新建文件夹", v.set_ui("dialog", "new_folder"),
                                      id="new_folder"))  # fmt: skip
        return Page(title, rows, bottom=bottom, on_back=v.back(), actions=actions,
                    overlay=overlay)  # fmt: skip

    @staticmethod
    def start_selecting(file_id: str) -> Handler:
        def start(it: Any) -> None:
            it.set_ui("selecting", True)
            it.set_ui("selected", [file_id])

        return start

    @staticmethod
    def toggle_selecting(on: bool) -> Handler:
        def toggle(it: Any) -> None:
            it.set_ui("selecting", on)
            it.set_ui("selected", [])

        return toggle

    @staticmethod
    def clear_field(name: str) -> Handler:
        def clear(it: Any) -> None:
            it.set_field(name, "")
            it.focus(name)

        return clear

    @staticmethod
    def close_dialog() -> Handler:
        def close(it: Any) -> None:
            it.set_field("folder_name", "")
            it.unfocus()
            it.set_ui("dialog", None)
            it.set_ui("error", None)

        return close

    # -- a file -----------------------------------------------------------------------------------
    @screen("file")
    def file(self, v: View) -> Page:
        file = next((f for f in v.data["files"] if f["id"] == v.params["file_id"]), None)
        if file is None or file["trashed_at"] is not None:
            return Page("文件详情", [empty("文件已删除")], on_back=v.back())
        path = f"/内部存储/{file['folder']}/{file['name']}"
        h = self  # the handlers live in app.py
        overlay = None
        if v.ui("dialog") == "delete":
            overlay = v.confirm(
                "删除这个文件？",
                v.do(h.trash, [file["id"]], leave=True),  # type: ignore[attr-defined]
                message=f"“{file['name']}”将被移到回收站，30天内可恢复。",
                label="删除",
                confirm_id="confirm_delete",
                danger=True,
            )
        star = "取消收藏" if file["starred"] else "收藏"
        return Page(
            "文件详情",
            [
                Card(
                    [
                        Text(file["name"], size=48, bold=True, id="name"),
                        Text(f"类型：{category(file['name'])}", size=36, id="kind"),
                        Text(f"大小：{size_label(file['size'])}", size=36, id="size"),
                        Text(f"修改时间：{time_label(file['modified'])}", size=36, id="modified"),
                        Text("路径", size=34, color=theme.TEXT_SECONDARY),
                        Text(path, size=36, id="path"),
                        Text("★ 已收藏" if file["starred"] else "", size=34, id="starred"),
                    ],
                    padding=30,
                    spacing=10,
                ),
                Button("重命名", v.go("rename", file_id=file["id"], fields={"name": file["name"]}),
                       id="rename", style="secondary"),
                Button("移动到…", v.go("picker", mode="move", file_ids=[file["id"]], at=""),
                       id="move", style="secondary"),
                Button("复制到…", v.go("picker", mode="copy", file_ids=[file["id"]], at=""),
                       id="copy", style="secondary"),
                Button("复制路径", v.do(h.copy_path, file["id"]),  # type: ignore[attr-defined]
                       id="copy_path", style="secondary"),
                Button("分享", v.do(h.share_file, file["id"]),  # type: ignore[attr-defined]
                       id="share", style="secondary"),
                Button("删除", v.set_ui("dialog", "delete"), id="delete", style="danger"),
                Spacer(60),
            ],
            on_back=v.back(),
            actions=[IconButton("star", star, v.do(h.toggle_star, file["id"]),  # type: ignore[attr-defined]
                                id="star")],
            body_padding=30,
            spacing=20,
            overlay=overlay,
        )  # fmt: skip

    @screen("rename")
    def rename_page(self, v: View) -> Page:
        file_id = v.params["file_id"]
        return Page(
            "重命名",
            [
                Row(
                    [
                        TextField("name", v.field("name"), "文件名", on_focus=v.focus("name")),
                        IconButton("close", "清空", self.clear_field("name"), id="clear_name"),
                    ],
                    spacing=12,
                ),
                error_text(v.ui("error")),
                Button("确定", v.do(self.rename, file_id), id="save_name"),  # type: ignore[attr-defined]
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )

    # -- the folder picker (move, copy, save an attachment) --------------------------------------
    @screen("picker")
    def picker(self, v: View) -> Page:
        mode = v.params["mode"]
        at = v.ui("at", "")
        where = Text(f"当前位置：/内部存储/{at}", size=36, color=theme.TEXT_SECONDARY, id="at",
                     padding=24)  # fmt: skip
        rows: list[Widget | None] = [where]
        if at:
            rows.append(ListItem("上一级", leading="↑", leading_color=theme.TEXT_SECONDARY,
                                 on_tap=v.set_ui("at", parent(at)), id="up"))  # fmt: skip
        targets = subfolders(v.data, at) if at else list(ROOTS)
        rows += [self.folder_row(v, d, v.set_ui("at", d), prefix="pick_") for d in targets]
        if mode == "save":
            here = v.do(self.save_attachment, v.params["mail_id"], v.params["index"], at)  # type: ignore[attr-defined]
        else:
            here = v.do(self.transfer, mode, v.params["file_ids"], at)  # type: ignore[attr-defined]
        return Page(
            "选择目标文件夹",
            [*rows, Spacer(40)],
            bottom=Button(MODE_LABELS[mode], here, id="pick_here", enabled=bool(at)),
            on_back=v.back(),
        )

    # -- the 邮件附件 folder ---------------------------------------------------------------------
    @screen("attachments")
    def attachments(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for mail_id, index, name, sender, subject in v.params["attachments"]:
            letter, colour = CATEGORY_ICONS[category(name)]
            rows.append(
                ListItem(
                    name,
                    subtitle=f"{sender}｜{subject}",
                    leading=letter,
                    leading_color=colour,
                    id=f"attachment_{mail_id}_{index}",
                    action=Chip("保存", v.go("picker", mode="save", mail_id=mail_id,
                                             index=index, at=""),
                                id=f"save_{mail_id}_{index}"),
                )
            )  # fmt: skip
        if not rows:
            rows.append(empty("邮件里还没有收到附件"))
        return Page(ATTACHMENTS, [*rows, Spacer(60)], on_back=v.back())

    # -- search, 回收站, storage ------------------------------------------------------------------
    @screen("search")
    def search(self, v: View) -> Page:
        query = v.field("q").strip().lower()
        rows: list[Widget | None] = [
            TextField("q", v.field("q"), "搜索文件名", on_focus=v.focus("q"))
        ]
        if query:
            hits = sort_files([f for f in live(v.data) if query in f["name"].lower()], "name")
            rows += [self.file_row(v, f, subtitle=self.where(f)) for f in hits]
            if not hits:
                rows.append(empty(f"没有找到“{v.field('q').strip()}”"))
        return Page("搜索", [*rows, Spacer(60)], on_back=v.back())

    @screen("trash")
    def trash_page(self, v: View) -> Page:
        trashed = sorted((f for f in v.data["files"] if f["trashed_at"] is not None),
                         key=lambda f: (-f["trashed_at"], f["name"]))  # fmt: skip
        rows: list[Widget | None] = [
            self.file_row(
                v, f, subtitle=f"原位置：{f['folder']}｜{size_label(f['size'])}",
                on_tap=v.set_ui("dialog", f"restore:{f['id']}"), prefix="trashed_",
                action=Chip("恢复", v.set_ui("dialog", f"restore:{f['id']}"),
                            id=f"restore_{f['id']}"),
            )
            for f in trashed
        ]  # fmt: skip
        if not rows:
            rows.append(empty("回收站是空的"))
        overlay = None
        dialog = v.ui("dialog") or ""
        if dialog == "empty":
            overlay = v.confirm("清空回收站？", v.do(self.empty_trash),  # type: ignore[attr-defined]
                                message="清空后文件将无法恢复。", label="清空",
                                confirm_id="confirm_empty", danger=True)  # fmt: skip
        elif dialog.startswith("restore:"):
            file_id = dialog.partition(":")[2]
            overlay = v.confirm("恢复这个文件？", v.do(self.restore, file_id),  # type: ignore[attr-defined]
                                label="恢复", confirm_id="confirm_restore")  # fmt: skip
        return Page(
            "回收站",
            [Text("回收站中的文件保留30天", size=34, color=theme.TEXT_SECONDARY, padding=20),
             *rows, Spacer(60)],
            on_back=v.back(),
            bottom=Button("清空回收站", v.set_ui("dialog", "empty"), id="empty_trash",
                          style="danger", enabled=bool(trashed)),
            overlay=overlay,
        )  # fmt: skip

    @screen("storage")
    def storage(self, v: View) -> Page:
        files = live(v.data)
        totals = {c: sum(f["size"] for f in files if category(f["name"]) == c) for c in CATEGORIES}
        other = sum(f["size"] for f in files) - sum(totals.values())
        used = sum(f["size"] for f in files)
        rows: list[Widget | None] = [
            Card([Text("已用空间", size=34, color=theme.TEXT_SECONDARY),
                  Text(size_label(used), size=60, bold=True, id="used"),
                  Text(f"共{len(files)}个文件", size=34, id="file_count")], padding=30),
        ]  # fmt: skip
        for i, c in enumerate(CATEGORIES):
            count = sum(1 for f in files if category(f["name"]) == c)
            letter, colour = CATEGORY_ICONS[c]
            rows.append(ListItem(c, subtitle=f"{count}个文件", trailing=size_label(totals[c]),
                                 leading=letter, leading_color=colour,
                                 id=f"usage_{i}"))  # fmt: skip
        if other:
            rows.append(ListItem("其他", trailing=size_label(other), leading="?", id="usage_other"))
        return Page("存储空间", [*rows, Spacer(60)], on_back=v.back(), body_padding=20,
                    spacing=12)  # fmt: skip
