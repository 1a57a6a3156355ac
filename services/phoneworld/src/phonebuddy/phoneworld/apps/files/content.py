"""The seeded content of 文件管理 (Files): the folders of the phone's storage and the files in
them (name, size in KB, modified time), and how the app names and prints them (categories by
extension, sizes, times)."""

from __future__ import annotations

import random
import zlib
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.ui.format import local_time
from phonebuddy.phoneworld.ui.theme import Color

FILES = "com.pw.files"
ROOTS = ("下载", "文档", "图片", "视频", "音乐", "录音", "微信")
SUBFOLDERS = ("文档/工作", "文档/个人", "图片/截图", "微信/聊天文件")
ATTACHMENTS = "邮件附件"
"""The folder derived from the Mail app's received attachments (nothing stored here)."""
ILLEGAL = '/\\:*?"<>|'
DOCUMENT, IMAGE, VIDEO, AUDIO = "文档", "图片", "视频", "音频"
ARCHIVE, APK, OTHER = "压缩包", "安装包", "其他"
CATEGORIES = (DOCUMENT, IMAGE, VIDEO, AUDIO, ARCHIVE, APK)
EXTENSIONS = {
    DOCUMENT: ("pdf", "doc", "docx", "xls", "xlsx", "ppt", "pptx", "txt"),
    IMAGE: ("jpg", "jpeg", "png", "gif", "heic"),
    VIDEO: ("mp4", "mov", "mkv"),
    AUDIO: ("mp3", "flac", "m4a", "wav", "aac"),
    ARCHIVE: ("zip", "rar", "7z"),
    APK: ("apk",),
}
CATEGORY_ICONS: dict[str, tuple[str, Color]] = {
    DOCUMENT: ("文", (33, 150, 243)), IMAGE: ("图", (76, 175, 80)), VIDEO: ("视", (233, 30, 99)),
    AUDIO: ("音", (255, 152, 0)), ARCHIVE: ("压", (121, 85, 72)), APK: ("装", (0, 150, 136)),
    OTHER: ("?", (158, 158, 158)),
}  # fmt: skip
FOLDER_ICON: Color = (255, 193, 7)
# KB ranges of each category's sizes.
SIZES = {DOCUMENT: (40, 9000), IMAGE: (300, 6000), VIDEO: (20000, 900000), AUDIO: (2000, 40000),
         ARCHIVE: (3000, 300000), APK: (30000, 400000), OTHER: (1, 500)}  # fmt: skip

# Each folder's pool of names: (how many to take, names).
POOLS: dict[str, tuple[int, tuple[str, ...]]] = {
    "下载": (16, (
        "发票_京东_0312.pdf", "简历模板.pdf", "租房合同扫描件.pdf", "高铁行程单.pdf",
        "驾照体检表.pdf", "产品说明书.pdf", "发布会回放.mp4",
        "健身教程第3集.mp4", "旅行vlog素材.mov", "猫咪视频.mp4",
        "电影预告片.mkv", "网盘客户端.apk", "剪映_12.3.apk", "钉钉_7.5.apk", "学习资料合集.zip",
        "课件备份.rar", "壁纸合集.zip", "会员报名表.docx", "价目表.xlsx", "海报设计.png",
        "二维码.jpg", "头像原图.jpg",
    )),
    "文档": (12, (
        "季度报告.pdf", "会议纪要.pdf", "产品手册.pdf", "体检报告.pdf", "年度计划.pdf",
        "员工手册.pdf", "周报_第11周.docx", "项目计划书.docx", "预算表.xlsx",
        "考勤统计.xlsx", "年终总结.pptx",
        "读书笔记.txt", "购房合同.pdf", "装修清单.xlsx",
    )),
    "文档/工作": (5, ("需求文档v2.docx", "接口说明.docx", "排期表.xlsx", "竞品分析.pptx",
                    "测试用例.xlsx", "上线清单.docx")),
    "文档/个人": (4, ("旅行攻略.docx", "家庭账本.xlsx", "护照复印件.jpg", "学习计划.txt",
                    "菜谱收藏.docx")),
    "图片": (10, tuple(f"IMG_2026{m:02d}{d:02d}_{h:02d}{mi:02d}.jpg"
                      for m, d, h, mi in ((2, 14, 19, 32), (2, 21, 8, 5), (2, 28, 17, 46),
                                          (3, 1, 12, 20), (3, 3, 9, 41), (3, 5, 21, 8),
                                          (3, 7, 15, 55), (3, 8, 10, 2), (3, 9, 18, 27),
                                          (3, 10, 7, 13), (3, 11, 20, 44), (3, 12, 13, 36)))),
    "图片/截图": (5, ("截图_订单详情.png", "截图_聊天记录.png", "截图_航班信息.png",
                    "截图_快递单号.png", "截图_付款成功.png", "截图_课程表.png")),
    "视频": (6, ("VID_20260214_生日聚会.mp4", "VID_20260220_海边.mp4", "VID_20260301_演唱会.mp4",
                "VID_20260305_宝宝走路.mp4", "VID_20260309_年会节目.mp4", "VID_20260311_雪景.mov",
                "屏幕录制_教程.mp4")),
    "音乐": (8, ("晴天.mp3", "稻香.mp3", "夜曲.flac", "平凡之路.mp3", "后来.mp3", "成都.mp3",
                "光年之外.flac", "起风了.mp3", "小幸运.mp3", "演员.mp3")),
    "录音": (6, ("录音_0301_0930.m4a", "录音_0304_1415.m4a", "会议录音_需求评审.m4a",
                "会议录音_周例会.m4a", "课堂录音_英语.m4a", "录音_0311_2010.m4a",
                "采访录音.m4a")),
    "微信": (7, ("微信图片_20260302.jpg", "微信图片_20260306.jpg", "微信视频_20260308.mp4",
                "合同终稿.pdf", "报价单.xlsx", "活动方案.docx", "聚会照片.zip", "语音转文字.txt")),
    "微信/聊天文件": (4, ("方案初稿.docx", "设计稿.pdf", "签到表.xlsx", "照片打包.zip",
                         "课表.pdf")),
}  # fmt: skip


def extension(name: str) -> str:
    return name.rpartition(".")[2].lower() if "." in name else ""


def category(name: str) -> str:
    ext = extension(name)
    return next((c for c, exts in EXTENSIONS.items() if ext in exts), OTHER)


def size_label(kb: int) -> str:
    """'356 KB', '2.4 MB', '1.2 GB'."""
    if kb < 1024:
        return f"{kb} KB"
    if kb < 1024 * 1024:
        return f"{kb / 1024:.1f} MB"
    return f"{kb / 1024 / 1024:.2f} GB"


def time_label(epoch: int) -> str:
    """'2026/03/12 14:05'."""
    t = local_time(epoch)
    return f"{t.year}/{t.month:02d}/{t.day:02d} {t.hour:02d}:{t.minute:02d}"


def attachment_size(name: str) -> int:
    """A mail attachment's size in KB: fixed by its name, so every save gives the same."""
    low, high = SIZES[category(name)]
    return low + zlib.crc32(name.encode()) % (high - low)


def parent(path: str) -> str:
    return path.rpartition("/")[0]


def leaf(path: str) -> str:
    return path.rpartition("/")[2]


def build_files_content(rng: random.Random) -> dict[str, Any]:
    files = []
    for folder, (count, names) in POOLS.items():
        for name in rng.sample(names, min(count, len(names))):
            low, high = SIZES[category(name)]
            files.append(
                {
                    "id": f"f-{len(files) + 1:03d}",
                    "name": name,
                    "folder": folder,
                    "size": rng.randrange(low, high),
                    "modified": EPOCH_START
                    - rng.randrange(1, 40) * 86400
                    - rng.randrange(0, 86400 // 60) * 60,
                    "starred": rng.random() < 0.1,
                    "trashed_at": None,
                }
            )
    folders = [{"id": f"dir-{i + 1:02d}", "path": p} for i, p in enumerate(ROOTS + SUBFOLDERS)]
    return {"files": files, "folders": folders}
