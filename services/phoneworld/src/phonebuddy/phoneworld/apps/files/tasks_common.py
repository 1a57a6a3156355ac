"""What the templates of 文件管理 (Files) share besides the oracle's steps: their wordings'
values (suffixes, folder names, the mails carrying attachments) and setups."""

from __future__ import annotations

import random

from phonebuddy.phoneworld.apps.files.content import (
    APK,
    ARCHIVE,
    FILES,
    IMAGE,
    VIDEO,
    category,
    extension,
)
from phonebuddy.phoneworld.tasks.base import TaskTemplate
from phonebuddy.protocol import Category

MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
SUFFIXES = ("终版", "已签字", "备份", "2026", "定稿", "归档")
FOLDER_NAMES = ("合同", "发票", "资料", "报销", "证件", "学习")
NOTE_TITLES = ("文件位置", "文件路径", "资料存放位置")
KIND_EN = {VIDEO: "video", ARCHIVE: "archive", APK: "APK installer"}
# Each type tidied out of 下载: (category or extension, its words in zh and en, destination).
TIDY = (("pdf", "PDF文件", "PDFs", "文档"), (VIDEO, "视频", "videos", "视频"),
        (IMAGE, "图片", "images", "图片"))  # fmt: skip
ATTACHMENT_MAILS = (
    ("报价单_云帆传媒.pdf", "报价单请查收", "附件是这次活动的报价单，请查收。"),
    ("活动海报终稿.png", "活动海报终稿", "海报终稿发你了，附件里是高清版。"),
    ("合同草案v3.docx", "合同草案 v3", "合同草案第三版在附件里，麻烦看一下条款。"),
    ("培训课件.pptx", "下周培训课件", "下周培训用的课件，请提前熟悉一下。"),
    ("项目资料.zip", "项目资料打包", "项目的全部资料打包在附件里了。"),
)  # fmt: skip
SENDERS = (("张伟", "zhangwei@xinghe-tech.com"), ("刘洋", "liuyang@xinghe-tech.com"),
           ("赵磊", "zhaolei@hzmedia.cn"), ("周杰", "zhoujie1990@163.com"))  # fmt: skip


def new_name(rng: random.Random, name: str) -> str:
    stem, _, ext = name.rpartition(".")
    return f"{stem}_{rng.choice(SUFFIXES)}.{ext}"


def is_kind(name: str, kind: str) -> bool:
    return extension(name) == kind if kind.islower() else category(name) == kind


class FilesTemplate(TaskTemplate):
    """A template of the Files app alone."""

    category = Category.SINGLE_APP
    apps = (FILES,)
