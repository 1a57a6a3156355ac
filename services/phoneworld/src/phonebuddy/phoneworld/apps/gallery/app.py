"""The Gallery app, in the manner of a Chinese phone's 相册: a photo timeline, albums (相机,
截图, 旅行, 工作, the virtual 收藏, user albums) with multi-select, a photo viewer with favourite /
share / rename / move / delete, 最近删除 to restore from, and a 文件 tab of downloads and documents.

Seeded photos are shared read-only content; a device keeps what can change about each of them
(`{"id", "album", "caption", "favorite", "trashed_at"}`) and its own file list.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, full_time, local_time
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Chip,
    Column,
    Dialog,
    Handler,
    IconButton,
    Image,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

GALLERY_PACKAGE = "com.pw.gallery"
MI_ORANGE: Color = (255, 105, 0)
VIEWER_BLACK: Color = (16, 16, 16)
SELECTED_TINT: Color = (255, 138, 61)
GRID_COLUMNS = 3
TRASH_DAYS = 30

SEEDED_ALBUMS = (("camera", "相机"), ("screenshots", "截图"), ("travel", "旅行"), ("work", "工作"))
FAVORITES = "favorites"
FAVORITES_NAME = "收藏"
# fmt: off
# (caption, place); screenshots carry no place.
CAMERA = (
    ("早餐煎饼", "上海市·漕河泾"), ("猫咪午睡", "上海市·田林家中"),
    ("小区樱花", "上海市·田林新村"), ("周末咖啡", "上海市·安福路"),
    ("生日蛋糕", "上海市·港汇恒隆广场"), ("雨后彩虹", "上海市·陆家嘴"),
    ("外滩夜景", "上海市·外滩"), ("公园晨跑", "上海市·徐家汇公园"),
    ("家庭聚餐", "上海市·老吉士酒家"), ("阳台多肉", "上海市·田林家中"),
    ("新买的鞋", "上海市·南京西路"), ("火锅聚会", "上海市·五角场"),
    ("菜市场", "上海市·乌中市集"), ("晚霞", "上海市·徐汇滨江"),
    ("图书馆", "上海市·浦东图书馆"), ("遛狗", "上海市·世纪公园"),
    ("烤肉店", "上海市·静安寺"), ("电影票根", "上海市·大光明电影院"),
    ("演唱会", "上海市·梅赛德斯奔驰文化中心"), ("奶茶", "上海市·来福士广场"),
    ("雪后小区", "上海市·田林新村"), ("桂花", "上海市·桂林公园"),
    ("手工饺子", "上海市·田林家中"), ("篮球场", "上海市·交通大学"),
    ("宜家样板间", "上海市·宜家徐汇商场"), ("老街", "上海市·七宝老街"),
    ("夜市小吃", "上海市·昌里路夜市"), ("武康大楼", "上海市·武康路"),
)
SCREENSHOTS = ("聊天记录", "转账成功", "航班信息", "快递单号", "地图路线", "课程表", "验证码",
               "酒店订单", "天气预报", "购物车", "健身数据", "电子登机牌")
# Trips: (name, first day, ((caption, place), ...)), two photos a day.
TRIPS = (
    ("黄山之旅", dt.date(2025, 5, 1), (("黄山云海", "黄山市·光明顶"), ("宏村", "黄山市·宏村"))),
    ("厦门之旅", dt.date(2025, 7, 20), (("鼓浪屿", "厦门市·鼓浪屿"), ("沙坡尾", "厦门市·沙坡尾"))),
    ("北京之旅", dt.date(2025, 9, 13), (("长城", "北京市·八达岭"), ("故宫角楼", "北京市·故宫"))),
    ("杭州之旅", dt.date(2025, 10, 2), (("西湖日落", "杭州市·西湖"), ("断桥", "杭州市·断桥"),
                                        ("灵隐寺", "杭州市·灵隐寺"))),
    ("云南之旅", dt.date(2025, 12, 29), (("洱海日出", "大理州·洱海"),
                                         ("大理古城", "大理州·大理古城"),
                                         ("玉龙雪山", "丽江市·玉龙雪山"))),
    ("成都之旅", dt.date(2026, 2, 14), (("大熊猫", "成都市·熊猫基地"),
                                        ("宽窄巷子", "成都市·宽窄巷子"))),
)
WORK = (
    ("会议白板", "上海市·星河大厦"), ("发票", "上海市·星河大厦"),
    ("身份证正面", "上海市·田林家中"), ("身份证反面", "上海市·田林家中"),
    ("工牌", "上海市·星河大厦"), ("项目排期", "上海市·星河大厦"),
    ("合同首页", "上海市·星河大厦"), ("名片", "上海市·国家会展中心"),
    ("年会合影", "上海市·外滩茂悦酒店"), ("团建烧烤", "上海市·崇明岛"),
)
SEEDED_FAVORITES = frozenset(
    {"西湖日落", "猫咪午睡", "黄山云海", "外滩夜景", "年会合影", "洱海日出"}
)
PALETTE: tuple[Color, ...] = (
    (86, 119, 153), (120, 144, 96), (176, 106, 80), (96, 125, 139), (141, 110, 99), (84, 110, 122),
    (121, 85, 72), (69, 90, 100), (156, 120, 60), (100, 100, 140), (70, 130, 120), (150, 90, 110),
)
FILES = (
    ("download", "2025年度个税汇算清单.pdf", 1228), ("download", "租房合同_2026.pdf", 3481),
    ("download", "京东电子发票_20260302.pdf", 212), ("download", "杭州旅行攻略.docx", 806),
    ("download", "Python入门课程资料.zip", 56320), ("download", "体检报告_2025.pdf", 4602),
    ("download", "会议录音_0310.m4a", 18944), ("download", "WPS Office 安装包.apk", 122880),
    ("docs", "周报_第11周.docx", 96), ("docs", "Q2产品规划.pptx", 8420),
    ("docs", "项目排期表.xlsx", 188), ("docs", "简历_林晓.pdf", 530),
    ("docs", "读书笔记.txt", 12), ("docs", "3月报销单.xlsx", 64),
    ("docs", "会员体系需求文档V2.docx", 1540),
)
FILE_FOLDERS = (("download", "下载"), ("docs", "文档"))
FILE_BADGES: dict[str, tuple[str, Color]] = {
    "pdf": ("P", (229, 57, 53)), "docx": ("W", (30, 136, 229)), "xlsx": ("X", (67, 160, 71)),
    "pptx": ("P", (244, 81, 30)), "zip": ("Z", (121, 85, 72)), "apk": ("A", (124, 179, 66)),
    "txt": ("T", (117, 117, 117)), "m4a": ("M", (142, 36, 170)),
}
# fmt: on

Photo = Mapping[str, Any]


# -- formatting ----------------------------------------------------------------------------------


def day_heading(epoch: int) -> str:
    t = local_time(epoch)
    return f"{t.year}年{t.month}月{t.day}日"


def file_size(kb: int) -> str:
    return f"{kb} KB" if kb < 1024 else f"{kb / 1024:.1f} MB"


def extension(name: str) -> str:
    return name.rsplit(".", 1)[-1].lower() if "." in name else ""


# -- seeded content ------------------------------------------------------------------------------


def _epoch(day: dt.date, rng: random.Random) -> int:
    moment = dt.datetime(
        day.year,
        day.month,
        day.day,
        rng.randrange(8, 21),
        rng.randrange(60),
        rng.randrange(60),
        tzinfo=BEIJING,
    )
    return int(moment.timestamp())


def _photo(
    caption: str, album: str, place: str, epoch: int, rng: random.Random, *, trip: str = ""
) -> dict[str, Any]:
    stamp = local_time(epoch)
    screenshot = album == "screenshots"
    portrait = screenshot or rng.random() < 0.3
    size_range = (180, 900) if screenshot else (1800, 7200)
    return {
        "caption": caption,
        "album": album,
        "place": place,
        "time": epoch,
        "size_kb": rng.randrange(*size_range),
        "resolution": "1080×2400" if screenshot else ("3000×4000" if portrait else "4000×3000"),
        "file_name": f"Screenshot_{stamp:%Y-%m-%d-%H-%M-%S}.png"
        if screenshot
        else f"IMG_{stamp:%Y%m%d_%H%M%S}.jpg",
        "color": list(rng.choice(PALETTE)),
        "favorite": caption in SEEDED_FAVORITES,
        "trip": trip,
    }


def build_gallery_content(rng: random.Random) -> dict[str, Any]:
    today = local_time(EPOCH_START).date()

    def days_ago(low: int, high: int) -> dt.date:
        return today - dt.timedelta(days=rng.randrange(low, high))

    photos = [_photo(c, "camera", p, _epoch(days_ago(2, 200), rng), rng) for c, p in CAMERA]
    photos += [
        _photo(c, "screenshots", "", _epoch(days_ago(1, 120), rng), rng) for c in SCREENSHOTS
    ]
    for trip, first_day, shots in TRIPS:
        for offset, (caption, place) in enumerate(shots):
            day = first_day + dt.timedelta(days=offset // 2)
            photos.append(_photo(caption, "travel", place, _epoch(day, rng), rng, trip=trip))
    photos += [_photo(c, "work", p, _epoch(days_ago(1, 60), rng), rng) for c, p in WORK]
    photos.sort(key=lambda photo: photo["time"])
    for index, photo in enumerate(photos, start=1):
        photo["id"] = f"p{index:02d}"
    files = [
        {
            "id": f"file-{i:02d}",
            "folder": folder,
            "name": name,
            "size_kb": size_kb,
            "time": _epoch(days_ago(1, 90), rng),
        }
        for i, (folder, name, size_kb) in enumerate(FILES, start=1)
    ]
    return {"photos": {photo["id"]: photo for photo in photos}, "files": files}


# -- reading the gallery -------------------------------------------------------------------------


class Library:
    """A device's photos: seeded content overlaid with the device's mutable records."""

    def __init__(self, data: Mapping[str, Any], content: Mapping[str, Any]) -> None:
        self.data = data
        self.content = content

    def _merge(self, record: Mapping[str, Any]) -> dict[str, Any]:
        return {**self.content["photos"][record["id"]], **record}

    def photos(self, *, trashed: bool = False) -> list[dict[str, Any]]:
        """Newest first; the live ones, or those in 最近删除."""
        chosen = [
            self._merge(r) for r in self.data["photos"] if (r["trashed_at"] is not None) == trashed
        ]
        return sorted(chosen, key=lambda p: p["time"], reverse=True)

    def in_album(self, album: str) -> list[dict[str, Any]]:
        if album == FAVORITES:
            return [p for p in self.photos() if p["favorite"]]
        return [p for p in self.photos() if p["album"] == album]

    def get(self, photo_id: str) -> dict[str, Any] | None:
        record = next((r for r in self.data["photos"] if r["id"] == photo_id), None)
        return self._merge(record) if record is not None else None

    def album_name(self, album: str) -> str:
        if album == FAVORITES:
            return FAVORITES_NAME
        return next((a["name"] for a in self.data["albums"] if a["id"] == album), album)


# -- the app -------------------------------------------------------------------------------------


class Gallery(App):
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

    def toggle_favorite(self, it: Interaction, photo_id: str) -> None:
        record = self.record(it, photo_id)
        record["favorite"] = not record["favorite"]
        it.toast("已收藏" if record["favorite"] else "已取消收藏")

    def share_photo(self, it: Interaction, photo_id: str) -> None:
        record = self.record(it, photo_id)
        it.share({"kind": "photo", "text": record["caption"], "photo_id": photo_id})

    def trash_photos(self, it: Interaction, photo_ids: Sequence[str]) -> None:
        if not photo_ids:
            it.no_op("no photo selected")
        for photo_id in photo_ids:
            self.record(it, photo_id)["trashed_at"] = it.clock
        it.toast(f"已移至最近删除，{TRASH_DAYS}天后将永久删除")

    def trash_viewed_photo(self, it: Interaction, photo_id: str) -> None:
        self.trash_photos(it, [photo_id])
        it.pop()

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

    def move_viewed_photo(self, it: Interaction, photo_id: str, album: str) -> None:
        self.move_photos(it, [photo_id], album)

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

    @staticmethod
    def clear_field(it: Interaction, name: str) -> None:
        if not it.field(name):
            it.no_op(f"{name} is already empty")
        it.set_field(name, "")
        it.focus(name)

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

    # -- shared pieces of screens -----------------------------------------------------------
    @staticmethod
    def _grid(
        photos: Sequence[Photo],
        on_tap: Callable[[Photo], Handler],
        selected: Sequence[str] | None = None,
    ) -> list[Widget | None]:
        """Photos as rows of square-ish tiles; a selected tile is tinted and ticked."""
        rows: list[Widget | None] = []
        for start in range(0, len(photos), GRID_COLUMNS):
            chunk = photos[start : start + GRID_COLUMNS]
            cells: list[Widget | None] = []
            for photo in chunk:
                ticked = selected is not None and photo["id"] in selected
                cells.append(
                    Image(
                        f"✓ {photo['caption']}" if ticked else photo["caption"],
                        height=330,
                        color=SELECTED_TINT if ticked else tuple(photo["color"]),
                        id=f"photo_{photo['id']}",
                        on_tap=on_tap(photo),
                    )
                )
            cells += [Spacer(0)] * (GRID_COLUMNS - len(chunk))
            rows.append(Row(cells, spacing=12))
        return rows

    def _album_sheet(self, v: View, exclude: str, on_pick: Callable[[str], Handler]) -> BottomSheet:
        items: list[Widget | None] = [
            ListItem(
                a["name"],
                leading=a["name"],
                leading_color=MI_ORANGE,
                on_tap=on_pick(a["id"]),
                id=f"move_to_{a['id']}",
            )
            for a in v.data["albums"]
            if a["id"] != exclude
        ]
        items.append(
            ListItem("＋ 新建相册", on_tap=v.set_ui("dialog", "new_album"), id="move_new_album")
        )
        return BottomSheet(
            "移动到相册", items, on_dismiss=v.set_ui("dialog", None), id="album_sheet"
        )

    def _new_album_dialog(self, v: View, then: Callable[[Interaction, str], None]) -> Dialog:
        return Dialog(
            "新建相册",
            body=[
                TextField(
                    "album_name", v.field("album_name"), "相册名称", on_focus=v.focus("album_name")
                )
            ],
            buttons=[
                Button("取消", v.set_ui("dialog", None), id="cancel", style="secondary"),
                Button("确定", v.do(self.create_album, then), id="create_album"),
            ],
        )

    def _name_dialog(
        self, v: View, title: str, field: str, on_confirm: Handler, message: str = ""
    ) -> Dialog:
        """A rename dialog: the current name pre-filled, a clear button beside it."""
        return Dialog(
            title,
            message=message,
            body=[
                Row(
                    [
                        TextField(field, v.field(field), "名称", on_focus=v.focus(field)),
                        IconButton(
                            "close", "清空", v.do(self.clear_field, field), id=f"clear_{field}"
                        ),
                    ],
                    spacing=12,
                )
            ],
            buttons=[
                Button("取消", v.set_ui("dialog", None), id="cancel", style="secondary"),
                Button("确定", on_confirm, id="confirm_rename"),
            ],
        )

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
