"""The Gallery's photo viewer: favourite, share, rename, move and delete the photo on screen."""

from __future__ import annotations

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.gallery.base import (
    TRASH_DAYS,
    VIEWER_BLACK,
    GalleryBase,
    Library,
    Photo,
    file_size,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import full_time
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Column,
    Dialog,
    IconButton,
    Image,
    Page,
    Row,
    Spacer,
    Text,
    Widget,
)


class PhotoViewer(GalleryBase):
    def toggle_favorite(self, it: Interaction, photo_id: str) -> None:
        record = self.record(it, photo_id)
        record["favorite"] = not record["favorite"]
        it.toast("已收藏" if record["favorite"] else "已取消收藏")

    def share_photo(self, it: Interaction, photo_id: str) -> None:
        record = self.record(it, photo_id)
        it.share({"kind": "photo", "text": record["caption"], "photo_id": photo_id})

    def trash_viewed_photo(self, it: Interaction, photo_id: str) -> None:
        self.trash_photos(it, [photo_id])
        it.pop()

    def move_viewed_photo(self, it: Interaction, photo_id: str, album: str) -> None:
        self.move_photos(it, [photo_id], album)

    def start_rename(self, it: Interaction, photo_id: str) -> None:
        it.set_field("caption", self.record(it, photo_id)["caption"])
        it.set_ui("dialog", "rename")

    def rename_photo(self, it: Interaction, photo_id: str) -> None:
        caption = it.field("caption").strip()
        record = self.record(it, photo_id)
        if not caption or caption == record["caption"]:
            it.no_op("the caption did not change")
        record["caption"] = caption
        it.set_ui("dialog", None)
        it.toast("已重命名")

    @screen("photo")
    def photo(self, v: View) -> Page:
        library = Library(v.data, v.content)
        photo = library.get(v.params["photo_id"])
        if photo is None:
            return Page("照片", [Text("照片已被永久删除", padding=60)], on_back=v.back())
        trashed = photo["trashed_at"] is not None
        body: list[Widget | None] = [
            Spacer(60),
            Image(photo["caption"], height=1000, color=tuple(photo["color"]), id="photo_image"),
            Text(
                full_time(photo["time"]),
                size=38,
                color=theme.WHITE,
                align="center",
                padding=24,
                id="photo_time",
            ),
        ]
        if trashed:
            left = TRASH_DAYS - (v.os["clock"] - photo["trashed_at"]) // 86400
            body.append(
                Text(
                    f"该照片将在 {left} 天后永久删除", size=36, align="center", color=theme.DISABLED
                )
            )
        return Page(
            photo["caption"],
            body,
            on_back=v.back(),
            actions=[IconButton("info", "详情", v.set_ui("dialog", "details"), id="details")],
            background=VIEWER_BLACK,
            bottom=self._viewer_bar(v, photo, trashed),
            overlay=self._photo_overlay(v, library, photo),
        )

    def _viewer_bar(self, v: View, photo: Photo, trashed: bool) -> Widget:
        pid = photo["id"]
        if trashed:
            buttons = [
                Button("恢复", v.do(self.restore_photo, pid), id="restore", style="secondary"),
                Button("彻底删除", v.set_ui("dialog", "purge"), id="purge", style="danger"),
            ]
            return Column([Row(buttons, spacing=30)], padding=24)
        buttons = [
            Button("分享", v.do(self.share_photo, pid), id="share", style="text", size=38),
            Button(
                "已收藏" if photo["favorite"] else "收藏",
                v.do(self.toggle_favorite, pid),
                id="favorite",
                style="text",
                size=38,
            ),
            Button("重命名", v.do(self.start_rename, pid), id="rename", style="text", size=38),
            Button("移动", v.set_ui("dialog", "move"), id="move", style="text", size=38),
            Button("删除", v.set_ui("dialog", "delete"), id="delete", style="text", size=38),
        ]
        return Row(buttons, spacing=0)

    def _photo_overlay(
        self, v: View, library: Library, photo: Photo
    ) -> Dialog | BottomSheet | None:
        dialog = v.ui("dialog")
        pid = photo["id"]
        close = v.set_ui("dialog", None)
        if dialog == "details":
            return BottomSheet(
                "详细信息",
                [
                    Text(f"名称：{photo['file_name']}", id="photo_file_name"),
                    Text(f"时间：{full_time(photo['time'])}", id="photo_taken"),
                    Text(f"地点：{photo['place'] or '无位置信息'}", id="photo_place"),
                    Text(
                        f"大小：{file_size(photo['size_kb'])}（{photo['resolution']}）",
                        id="photo_size",
                    ),
                    Text(f"相册：{library.album_name(photo['album'])}", id="photo_album"),
                ],
                on_dismiss=close,
                id="details_sheet",
            )
        if dialog == "delete":
            return Dialog(
                "删除这张照片？",
                message=f"照片将移至「最近删除」，{TRASH_DAYS}天后永久删除。",
                buttons=[
                    Button("取消", close, id="cancel", style="secondary"),
                    Button(
                        "删除",
                        v.do(self.trash_viewed_photo, pid),
                        id="confirm_delete",
                        style="danger",
                    ),
                ],
            )
        if dialog == "purge":
            return Dialog(
                "永久删除这张照片？",
                message="永久删除后将无法恢复。",
                buttons=[
                    Button("取消", close, id="cancel", style="secondary"),
                    Button(
                        "永久删除", v.do(self.purge_photo, pid), id="confirm_purge", style="danger"
                    ),
                ],
            )
        if dialog == "move":
            return self._album_sheet(
                v, photo["album"], lambda album: v.do(self.move_viewed_photo, pid, album)
            )
        if dialog == "new_album":
            return self._new_album_dialog(
                v, lambda it, album: self.move_viewed_photo(it, pid, album)
            )
        if dialog == "rename":
            return self._name_dialog(v, "重命名", "caption", v.do(self.rename_photo, pid))
        return None
