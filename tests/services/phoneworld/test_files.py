"""The Files app (文件管理) through the action interface: folders, sorting, categories, recent
and starred files, search, a file's page, rename, move/copy through the folder picker,
multi-select, the 回收站, storage totals, the 邮件附件 folder, the find_files tool, and what the
app refuses (bad names, moves that go nowhere, name clashes)."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.files.content import (
    ATTACHMENTS,
    CATEGORIES,
    FILES,
    ROOTS,
    attachment_size,
    category,
    size_label,
)
from phonebuddy.phoneworld.apps.files.steps import shown_files
from phonebuddy.phoneworld.device import Device
from phonebuddy.protocol import CallTool


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""

    @property
    def files(self) -> list[dict[str, Any]]:
        return self.app_state(FILES)["files"]  # type: ignore[no-any-return]

    @property
    def folders(self) -> list[str]:
        return [d["path"] for d in self.app_state(FILES)["folders"]]

    def file(self, file_id: str) -> dict[str, Any]:
        return next(f for f in self.files if f["id"] == file_id)

    def in_folder(self, folder: str) -> list[dict[str, Any]]:
        return [f for f in self.files if f["folder"] == folder and f["trashed_at"] is None]

    def open_folder(self, path: str) -> None:
        for part in path.split("/"):
            self.scroll_to(text=part)
            self.tap(text=part)

    def open_file(self, file: dict[str, Any]) -> None:
        self.scroll_to(f"file_{file['id']}")
        self.tap(f"file_{file['id']}")
        assert self.text("name") == file["name"]

    def names_shown(self) -> list[str]:
        return [name for _, name, _ in shown_files(self.ui)]

    def pick(self, path: str) -> None:
        self.open_folder(path)
        self.tap("pick_here")


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("文件管理")
    return driver


def test_home_lists_the_folders_and_the_mail_attachments(user: Driver) -> None:
    for root in ROOTS:
        assert user.visible(text=root)
    assert user.visible("folder_mail")
    assert user.visible(text=ATTACHMENTS)


def test_a_folder_lists_its_subfolders_and_files_and_sorts_them(user: Driver) -> None:
    user.open_folder("文档")
    assert user.visible(text="工作")
    assert user.visible(text="个人")
    files = user.in_folder("文档")
    assert user.names_shown()[0] == min(f["name"] for f in files)
    user.tap("sort_size")
    assert user.names_shown()[0] == max(files, key=lambda f: f["size"])["name"]
    user.tap("sort_time")
    assert user.names_shown()[0] == max(files, key=lambda f: f["modified"])["name"]
    user.open_folder("工作")
    assert set(user.names_shown()) <= {f["name"] for f in user.in_folder("文档/工作")}


def test_categories_recent_and_starred_tabs(user: Driver) -> None:
    user.tap("tab_category")
    user.tap("cat_2")  # 视频
    videos = {f["name"] for f in user.files if category(f["name"]) == CATEGORIES[2]}
    assert user.names_shown()
    assert set(user.names_shown()) <= videos
    user.tap("tab_recent")
    newest = max(user.files, key=lambda f: f["modified"])
    assert user.names_shown()[0] == newest["name"]
    user.tap("tab_starred")
    starred = {f["name"] for f in user.files if f["starred"]}
    assert set(user.names_shown()) == starred or (not starred and user.visible("empty"))


def test_search_finds_files_by_name_and_says_when_nothing_matches(user: Driver) -> None:
    target = user.in_folder("音乐")[0]
    user.tap("search")
    user.type_into("q", target["name"][:2])
    assert target["name"] in user.names_shown()
    user.type_into("q", "不存在的文件")
    assert user.visible("empty")


def test_a_files_page_shows_its_details_and_copies_its_path(user: Driver) -> None:
    file = user.in_folder("下载")[0]
    user.open_folder("下载")
    user.open_file(file)
    assert user.text("path") == f"/内部存储/下载/{file['name']}"
    assert user.text("size") == f"大小：{size_label(file['size'])}"
    user.scroll_to("copy_path")
    user.tap("copy_path")
    assert user.device.state["os"]["clipboard"] == f"/内部存储/下载/{file['name']}"


def test_starring_toggles(user: Driver) -> None:
    file = next(f for f in user.in_folder("文档") if not f["starred"])
    user.open_folder("文档")
    user.open_file(file)
    user.tap("star")
    assert user.file(file["id"])["starred"]
    assert user.text("starred") == "★ 已收藏"
    user.tap("star")
    assert not user.file(file["id"])["starred"]


def test_renaming_refuses_bad_names_on_screen_and_saves_a_good_one(user: Driver) -> None:
    file, other = user.in_folder("文档")[:2]
    user.open_folder("文档")
    user.open_file(file)
    user.tap("rename")
    user.refuse("save_name")  # unchanged
    assert user.text("error") == "文件名未修改"
    user.tap("clear_name")
    user.refuse("save_name")
    assert user.text("error") == "名称不能为空"
    user.type_into("name", "a/b.pdf")
    user.refuse("save_name")
    assert "不能包含" in user.text("error")
    user.tap("clear_name")
    user.type_into("name", other["name"])
    user.refuse("save_name")
    assert user.text("error") == "该位置已存在同名文件或文件夹"
    assert user.file(file["id"])["name"] == file["name"]
    user.tap("clear_name")
    user.type_into("name", "新名字.pdf")
    user.tap("save_name")
    assert user.file(file["id"])["name"] == "新名字.pdf"
    assert user.text("name") == "新名字.pdf"


def test_a_new_folder_is_validated_then_made(user: Driver) -> None:
    user.open_folder("文档")
    user.tap("new_folder")
    user.refuse("create_folder")
    assert user.text("error") == "名称不能为空"
    user.type_into("folder_name", "工作")
    user.refuse("create_folder")
    assert user.text("error") == "该位置已存在同名文件或文件夹"
    user.tap("cancel")
    assert not user.visible("folder_name")
    user.tap("new_folder")
    user.type_into("folder_name", "合同")
    user.tap("create_folder")
    assert "文档/合同" in user.folders
    assert user.visible(text="合同")


def test_moving_and_copying_through_the_picker(user: Driver) -> None:
    file = user.in_folder("下载")[0]
    user.open_folder("下载")
    user.open_file(file)
    user.tap("move")
    user.refuse("pick_here")  # the top of the storage is no folder
    user.open_folder("下载")
    user.refuse("pick_here")  # already there
    assert user.file(file["id"])["folder"] == "下载"
    user.tap("up")
    user.pick("文档/个人")
    assert user.file(file["id"])["folder"] == "文档/个人"
    assert user.text("path") == f"/内部存储/文档/个人/{file['name']}"
    count = len(user.files)
    user.tap("copy")
    user.pick("下载")
    assert len(user.files) == count + 1
    copy = user.files[-1]
    assert (copy["name"], copy["folder"], copy["size"]) == (file["name"], "下载", file["size"])
    user.tap("copy")
    user.open_folder("下载")
    user.refuse("pick_here")  # a file of that name is there now
    assert len(user.files) == count + 1


def test_multi_select_moves_and_deletes_in_batches(user: Driver) -> None:
    first, second, third = sorted(user.in_folder("下载"), key=lambda f: f["name"])[:3]
    user.open_folder("下载")
    user.tap("select")
    assert not user.ui.find("batch_move").enabled
    user.tap(f"file_{first['id']}")
    user.tap(f"file_{second['id']}")
    user.tap(f"file_{second['id']}")  # unselected again
    user.tap(f"file_{third['id']}")
    user.tap("batch_move")
    user.pick("文档")
    assert [user.file(f["id"])["folder"] for f in (first, second, third)] == [
        "文档",
        "下载",
        "文档",
    ]
    user.act(user.ui.long_press(f"file_{second['id']}"))  # long press: select this one
    user.tap("batch_delete")
    user.tap("cancel")
    assert user.file(second["id"])["trashed_at"] is None
    user.tap("batch_delete")
    user.tap("confirm_delete")
    assert user.file(second["id"])["trashed_at"] == user.device.state["os"]["clock"]
    assert f"file_{second['id']}" not in user.ids()


def test_the_trash_restores_and_empties_after_confirming(user: Driver) -> None:
    a, b = user.in_folder("录音")[:2]
    user.open_folder("录音")
    for file in (a, b):
        user.open_file(file)
        user.tap("delete")
        user.tap("confirm_delete")
    user.back()
    user.tap("trash")
    user.tap(f"restore_{a['id']}")
    user.tap("confirm_restore")
    assert user.file(a["id"])["trashed_at"] is None
    user.tap("empty_trash")
    user.tap("cancel")
    assert any(f["id"] == b["id"] for f in user.files)
    user.tap("empty_trash")
    user.tap("confirm_empty")
    assert all(f["id"] != b["id"] for f in user.files)
    assert user.visible("empty")
    user.refuse("empty_trash")


def test_storage_totals_each_category(user: Driver) -> None:
    user.tap("storage")
    videos = sum(f["size"] for f in user.files if category(f["name"]) == "视频")
    assert user.visible("usage_2")
    assert size_label(videos) in user.ui.texts_in("usage_2")
    assert user.text("file_count") == f"共{len(user.files)}个文件"


def test_mail_attachments_are_saved_into_a_folder_once(user: Driver) -> None:
    user.tap("folder_mail")
    name = "会员接口文档v1.2.pdf"
    assert user.visible(text=name)
    save = next(i for i in user.ids() if i.startswith("save_") and name in str(
        user.ui.texts_in(i.replace("save_", "attachment_", 1))))  # fmt: skip
    user.tap(save)
    user.pick("文档/工作")
    saved = user.files[-1]
    assert (saved["name"], saved["folder"]) == (name, "文档/工作")
    assert saved["size"] == attachment_size(name)
    user.tap(save)
    user.open_folder("文档/工作")
    user.refuse("pick_here")  # saved already


def test_find_files_tool(user: Driver) -> None:
    file = user.in_folder("音乐")[0]
    result = user.device.act(CallTool(name="find_files", arguments={"q": file["name"]}))
    assert result.effect == "applied"
    assert f"音乐/{file['name']}" in result.note
