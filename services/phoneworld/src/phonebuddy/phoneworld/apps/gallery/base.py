"""What the Gallery's screens share: the library over seeded and stored photos, albums,
the photo grid, the album sheet and the naming dialogs.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from phonebuddy.phoneworld.app import App, View
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui.format import BEIJING, local_time
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Dialog,
    Handler,
    IconButton,
    Image,
    ListItem,
    Row,
    Spacer,
    TextField,
    Widget,
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


class GalleryBase(App):
    @staticmethod
    def clear_field(it: Interaction, name: str) -> None:
        if not it.field(name):
            it.no_op(f"{name} is already empty")
        it.set_field(name, "")
        it.focus(name)

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
