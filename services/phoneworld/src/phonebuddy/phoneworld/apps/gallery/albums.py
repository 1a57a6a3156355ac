"""The Gallery's albums: an album's grid with multi-select (move, delete), picking photos into
an album, and the trash with restore and permanent delete.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.gallery.base import (
    FAVORITES,
    TRASH_DAYS,
    GalleryBase,
    Library,
    Photo,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Column,
    Dialog,
    Handler,
    IconButton,
    Page,
    Row,
    Text,
    Widget,
)


class AlbumScreens(GalleryBase):
    def trash_photos(self, it: Interaction, photo_ids: Sequence[str]) -> None:
        if not photo_ids:
            it.no_op("no photo selected")
        for photo_id in photo_ids:
            self.record(it, photo_id)["trashed_at"] = it.clock
        it.toast(f"已移至最近删除，{TRASH_DAYS}天后将永久删除")

    def restore_photo(self, it: Interaction, photo_id: str) -> None:
        record = self.record(it, photo_id)
        if record["trashed_at"] is None:
            it.no_op("the photo is not deleted")
        record["trashed_at"] = None
        it.pop()
        it.toast("已恢复")

    def purge_photo(self, it: Interaction, photo_id: str) -> None:
        self.record(it, photo_id)
        it.data["photos"] = [r for r in it.data["photos"] if r["id"] != photo_id]
        it.pop()
        it.toast("已永久删除")

    def move_photos(self, it: Interaction, photo_ids: Sequence[str], album: str) -> None:
        if not any(a["id"] == album for a in it.data["albums"]):
            it.no_op(f"no album {album}")
        moving = [self.record(it, pid) for pid in photo_ids]
        if not moving or all(r["album"] == album for r in moving):
            it.no_op("nothing to move")
        for record in moving:
            record["album"] = album
        it.set_ui("dialog", None)
        it.toast(f"已移动 {len(moving)} 张照片")

    def move_selected(self, it: Interaction, album: str) -> None:
        self.move_photos(it, it.ui("selected") or [], album)
        it.set_ui("selected", [])
        it.set_ui("selecting", False)

    def trash_selected(self, it: Interaction) -> None:
        self.trash_photos(it, it.ui("selected") or [])
        it.set_ui("selected", [])
        it.set_ui("selecting", False)
        it.set_ui("dialog", None)

    def confirm_pick(self, it: Interaction) -> None:
        self.move_photos(it, it.ui("selected") or [], it.entry["params"]["album"])
        it.pop()

    @staticmethod
    def toggle_selected(it: Interaction, photo_id: str) -> None:
        selected = list(it.ui("selected") or [])
        if photo_id in selected:
            selected.remove(photo_id)
        else:
            selected.append(photo_id)
        it.set_ui("selected", selected)
        it.set_ui("selecting", True)

    @staticmethod
    def stop_selecting(it: Interaction) -> None:
        it.set_ui("selecting", False)
        it.set_ui("selected", [])

    @screen("album")
    def album(self, v: View) -> Page:
        library = Library(v.data, v.content)
        album = v.params["album"]
        photos = library.in_album(album)
        selecting = bool(v.ui("selecting"))
        selected = list(v.ui("selected") or [])
        on_tap: Callable[[Photo], Handler] = (
            (lambda p: v.do(self.toggle_selected, p["id"]))
            if selecting
            else (lambda p: v.go("photo", photo_id=p["id"]))
        )
        body: list[Widget | None] = [
            Text(f"共 {len(photos)} 张照片", size=36, color=theme.TEXT_SECONDARY, id="photo_count")
        ]
        body += self._grid(photos, on_tap, selected if selecting else None)
        if not photos and album != FAVORITES:
            body += [
                Text("相册里还没有照片", color=theme.TEXT_SECONDARY, padding=40, align="center"),
                Button("添加照片", v.go("pick", album=album), id="add_photos_button"),
            ]
        return Page(
            f"已选择 {len(selected)} 项" if selecting else library.album_name(album),
            [Column(body, spacing=12, padding=24)],
            on_back=v.do(self.stop_selecting) if selecting else v.back(),
            actions=self._album_actions(v, album, selecting, bool(photos)),
            bottom=self._selection_bar(v, selected) if selecting else None,
            overlay=self._album_overlay(v, album, selected),
        )

    def _album_actions(
        self, v: View, album: str, selecting: bool, has_photos: bool
    ) -> list[IconButton]:
        if selecting:
            return []
        actions = []
        if album != FAVORITES:
            actions.append(
                IconButton("plus", "添加照片", v.go("pick", album=album), id="add_photos")
            )
        if has_photos:
            actions.append(IconButton("check", "选择", v.set_ui("selecting", True), id="select"))
        return actions

    def _selection_bar(self, v: View, selected: Sequence[str]) -> Widget:
        return Column(
            [
                Row(
                    [
                        Button(
                            "移动到相册",
                            v.set_ui("dialog", "move"),
                            id="move_selected",
                            style="secondary",
                            enabled=bool(selected),
                        ),
                        Button(
                            "删除",
                            v.set_ui("dialog", "delete"),
                            id="delete_selected",
                            style="danger",
                            enabled=bool(selected),
                        ),
                    ],
                    spacing=30,
                )
            ],
            padding=24,
            fill=theme.SURFACE,
        )

    def _album_overlay(
        self, v: View, album: str, selected: Sequence[str]
    ) -> Dialog | BottomSheet | None:
        dialog = v.ui("dialog")
        if dialog == "move":
            return self._album_sheet(v, album, lambda target: v.do(self.move_selected, target))
        if dialog == "new_album":
            return self._new_album_dialog(v, self.move_selected)
        if dialog == "delete":
            return v.confirm(
                f"删除选中的 {len(selected)} 张照片？",
                v.do(self.trash_selected),
                message=f"照片将移至「最近删除」，{TRASH_DAYS}天后永久删除。",
                label="删除",
                confirm_id="confirm_delete",
                danger=True,
            )
        return None

    @screen("pick")
    def pick(self, v: View) -> Page:
        library = Library(v.data, v.content)
        album = v.params["album"]
        candidates = [p for p in library.photos() if p["album"] != album]
        selected = list(v.ui("selected") or [])
        grid = self._grid(candidates, lambda p: v.do(self.toggle_selected, p["id"]), selected)
        return Page(
            f"添加到「{library.album_name(album)}」",
            [
                Column(
                    [Text("点按照片以选择", size=36, color=theme.TEXT_SECONDARY), *grid],
                    spacing=12,
                    padding=24,
                )
            ],
            on_back=v.back(),
            bottom=Column(
                [
                    Button(
                        f"移动到此相册（{len(selected)}）",
                        v.do(self.confirm_pick),
                        id="pick_confirm",
                        enabled=bool(selected),
                    )
                ],
                padding=24,
                fill=theme.SURFACE,
            ),
        )

    @screen("trash")
    def trash(self, v: View) -> Page:
        photos = Library(v.data, v.content).photos(trashed=True)
        body: list[Widget | None] = [
            Text(
                f"照片删除后保留 {TRASH_DAYS} 天，之后将永久删除",
                size=36,
                color=theme.TEXT_SECONDARY,
            ),
            *self._grid(photos, lambda p: v.go("photo", photo_id=p["id"])),
        ]
        if not photos:
            body.append(
                Text("没有最近删除的照片", color=theme.TEXT_SECONDARY, padding=60, align="center")
            )
        return Page("最近删除", [Column(body, spacing=12, padding=24)], on_back=v.back())
