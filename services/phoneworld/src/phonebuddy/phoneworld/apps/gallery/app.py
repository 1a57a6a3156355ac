"""The Gallery app, in the manner of a Chinese phone's 相册: a photo timeline, albums (相机,
截图, 旅行, 工作, the virtual 收藏, user albums) with multi-select, a photo viewer with favourite /
share / rename / move / delete, 最近删除 to restore from, and a 文件 tab of downloads and documents.

Seeded photos are shared read-only content; a device keeps what can change about each of them
(`{"id", "album", "caption", "favorite", "trashed_at"}`) and its own file list.

The album, picker and trash screens live in `albums`, the photo viewer in `viewer`; what the
screens share (the library view, grids, sheets and dialogs) is in `base`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from phonebuddy.phoneworld.app import Label, View, screen
from phonebuddy.phoneworld.apps.gallery.albums import AlbumScreens
from phonebuddy.phoneworld.apps.gallery.base import (
    FAVORITES,
    FAVORITES_NAME,
    FILE_BADGES,
    FILE_FOLDERS,
    GALLERY_PACKAGE,
    MI_ORANGE,
    SEEDED_ALBUMS,
    Library,
    build_gallery_content,
    day_heading,
    extension,
    file_size,
)
from phonebuddy.phoneworld.apps.gallery.viewer import PhotoViewer
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import full_time
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Chip,
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
    Widget,
    Wrap,
)


class Gallery(AlbumScreens, PhotoViewer):
    package = GALLERY_PACKAGE
    label = Label(zh="相册", en="Gallery")
    domain = "media"
    theme = AppTheme(primary=MI_ORANGE)
    icon_text = "图"
    permissions = ("storage",)
    # The first-launch cloud backup prompt: answering it is never a task's effect.
    ignorable = ("cloud_prompt",)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return build_gallery_content(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "albums": [{"id": album, "name": name} for album, name in SEEDED_ALBUMS],
            "photos": [
                {
                    "id": p["id"],
                    "album": p["album"],
                    "caption": p["caption"],
                    "favorite": p["favorite"],
                    "trashed_at": None,
                }
                for p in content["photos"].values()
            ],
            "files": [dict(f) for f in content["files"]],
            "cloud_prompt": "pending",
        }

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def record(it: Interaction, photo_id: str) -> dict[str, Any]:
        for record in it.data["photos"]:
            if record["id"] == photo_id:
                return record
        it.no_op(f"no photo {photo_id}")
        raise AssertionError  # no_op raises

    @staticmethod
    def answer_cloud_prompt(it: Interaction, answer: str) -> None:
        it.data["cloud_prompt"] = answer
        if answer == "enabled":
            it.toast("已开启云备份")

    @staticmethod
    def grant_storage(it: Interaction) -> None:
        it.os["permissions"].setdefault(GALLERY_PACKAGE, {})["storage"] = True

    def create_album(self, it: Interaction, then: Callable[[Interaction, str], None]) -> None:
        name = it.field("album_name").strip()
        if not name:
            it.no_op("an album needs a name")
        taken = {a["name"] for a in it.data["albums"]} | {FAVORITES_NAME, "最近删除"}
        if name in taken:
            it.toast("已有同名相册")
            it.no_op(f"an album named {name} exists")
        album = it.new_id("album")
        it.data["albums"].append({"id": album, "name": name})
        it.set_field("album_name", "")
        it.set_ui("dialog", None)
        then(it, album)

    @staticmethod
    def open_album(it: Interaction, album: str) -> None:
        it.toast("相册已创建")
        it.push("album", album=album)

    @staticmethod
    def file(it: Interaction, file_id: str) -> dict[str, Any]:
        for record in it.data["files"]:
            if record["id"] == file_id:
                return record
        it.no_op(f"no file {file_id}")
        raise AssertionError  # no_op raises

    def start_file_rename(self, it: Interaction, file_id: str) -> None:
        it.set_field("file_name", self.file(it, file_id)["name"])
        it.set_ui("dialog", "rename_file")

    def rename_file(self, it: Interaction, file_id: str) -> None:
        name = it.field("file_name").strip()
        record = self.file(it, file_id)
        if not name or name == record["name"]:
            it.no_op("the name did not change")
        if any(f["name"] == name for f in it.data["files"] if f["folder"] == record["folder"]):
            it.toast("已有同名文件")
            it.no_op(f"a file named {name} exists")
        record["name"] = name
        it.set_ui("dialog", None)
        it.set_ui("file", None)
        it.toast("已重命名")

    def delete_file(self, it: Interaction, file_id: str) -> None:
        self.file(it, file_id)
        it.data["files"] = [f for f in it.data["files"] if f["id"] != file_id]
        it.set_ui("dialog", None)
        it.set_ui("file", None)
        it.toast("已删除")

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "photos")
        denied = v.os["permissions"].get(GALLERY_PACKAGE, {}).get("storage") is False
        if denied:
            body = self._permission_needed(v)
        elif tab == "albums":
            body = self._albums_tab(v)
        elif tab == "files":
            body = self._files_tab(v)
        else:
            body = self._photos_tab(v)
        actions = []
        if tab == "albums" and not denied:
            actions.append(
                IconButton("plus", "新建相册", v.set_ui("dialog", "new_album"), id="new_album")
            )
        return Page(
            "相册",
            body,
            header=Tabs(
                [("photos", "照片"), ("albums", "相册"), ("files", "文件")], tab, v.on_select("tab")
            ),
            actions=actions,
            overlay=None if denied else self._home_overlay(v),
        )

    def _permission_needed(self, v: View) -> list[Widget | None]:
        return [
            Text(
                "需要「照片和文件」权限才能查看相册",
                color=theme.TEXT_SECONDARY,
                padding=60,
                align="center",
            ),
            Button("授予权限", v.do(self.grant_storage), id="grant_storage"),
        ]

    def _photos_tab(self, v: View) -> list[Widget | None]:
        library = Library(v.data, v.content)
        body: list[Widget | None] = []
        by_day: dict[str, list[dict[str, Any]]] = {}
        for photo in library.photos():
            by_day.setdefault(day_heading(photo["time"]), []).append(photo)
        for heading, photos in by_day.items():
            body.append(Text(heading, size=38, bold=True, padding=12))
            body += self._grid(photos, lambda p: v.go("photo", photo_id=p["id"]))
        return [Column(body, spacing=12, padding=24)]

    def _albums_tab(self, v: View) -> list[Widget | None]:
        library = Library(v.data, v.content)
        albums = [(a["id"], a["name"]) for a in v.data["albums"]]
        albums.insert(2, (FAVORITES, FAVORITES_NAME))
        tiles: list[Widget | None] = []
        for album, name in albums:
            photos = library.in_album(album)
            cover = photos[0] if photos else None
            tiles.append(
                Column(
                    [
                        Image(
                            cover["caption"] if cover else "空相册",
                            height=420,
                            color=tuple(cover["color"]) if cover else theme.DISABLED,
                        ),
                        Text(name, size=42, bold=True),
                        Text(f"{len(photos)} 张", size=36, color=theme.TEXT_SECONDARY),
                    ],
                    spacing=8,
                    on_tap=v.go("album", album=album),
                    id=f"album_{album}",
                )
            )
        rows: list[Widget | None] = [
            Row([*tiles[i : i + 2], *([Spacer(0)] * (2 - len(tiles[i : i + 2])))], spacing=30)
            for i in range(0, len(tiles), 2)
        ]
        trashed = len(library.photos(trashed=True))
        rows += [
            Text("其他相册", size=38, color=theme.TEXT_SECONDARY, padding=12),
            ListItem(
                "最近删除",
                subtitle=f"{trashed} 张",
                leading="删",
                leading_color=theme.TEXT_SECONDARY,
                on_tap=v.go("trash"),
                id="album_trash",
            ),
        ]
        return [Column(rows, spacing=30, padding=30)]

    def _files_tab(self, v: View) -> list[Widget | None]:
        folder = v.ui("files_folder", "download")
        files = sorted(
            (f for f in v.data["files"] if f["folder"] == folder),
            key=lambda f: f["time"],
            reverse=True,
        )
        chips = Wrap(
            [
                Chip(
                    name, v.set_ui("files_folder", key), selected=key == folder, id=f"folder_{key}"
                )
                for key, name in FILE_FOLDERS
            ]
        )
        rows: list[Widget | None] = [Column([chips], padding=30)]
        for f in files:
            letter, color = FILE_BADGES.get(extension(f["name"]), ("?", theme.TEXT_SECONDARY))
            rows.append(
                ListItem(
                    f["name"],
                    subtitle=f"{file_size(f['size_kb'])} · {day_heading(f['time'])}",
                    leading=letter,
                    leading_color=color,
                    on_tap=v.set_ui("file", f["id"]),
                    id=f"file_{f['id']}",
                )
            )
        if not files:
            rows.append(Text("没有文件", color=theme.TEXT_SECONDARY, padding=60, align="center"))
        return rows

    def _home_overlay(self, v: View) -> Dialog | BottomSheet | None:
        dialog = v.ui("dialog")
        if v.data["cloud_prompt"] == "pending":
            return Dialog(
                "开启云备份，照片永不丢失",
                message="登录小米账号即可自动备份照片和视频，换新手机也能一键恢复。",
                buttons=[
                    Button(
                        "暂不开启",
                        v.do(self.answer_cloud_prompt, "declined"),
                        id="cloud_later",
                        style="secondary",
                    ),
                    Button(
                        "立即开启", v.do(self.answer_cloud_prompt, "enabled"), id="cloud_enable"
                    ),
                ],
            )
        if dialog == "new_album":
            return self._new_album_dialog(v, self.open_album)
        file_id = v.ui("file")
        record = next((f for f in v.data["files"] if f["id"] == file_id), None)
        if record is None:
            return None
        if dialog == "rename_file":
            return self._name_dialog(v, "重命名文件", "file_name", v.do(self.rename_file, file_id))
        if dialog == "delete_file":
            return v.confirm(
                "删除文件？",
                v.do(self.delete_file, file_id),
                message=f"「{record['name']}」删除后无法恢复。",
                label="删除",
                confirm_id="confirm_file_delete",
                danger=True,
            )
        return BottomSheet(
            record["name"],
            [
                Text(
                    f"{file_size(record['size_kb'])} · {full_time(record['time'])}",
                    color=theme.TEXT_SECONDARY,
                ),
                ListItem(
                    "重命名",
                    leading="改",
                    on_tap=v.do(self.start_file_rename, file_id),
                    id="file_rename",
                ),
                ListItem(
                    "删除",
                    leading="删",
                    leading_color=theme.DANGER,
                    on_tap=v.set_ui("dialog", "delete_file"),
                    id="file_delete",
                ),
            ],
            on_dismiss=v.set_ui("file", None),
            id="file_sheet",
        )
