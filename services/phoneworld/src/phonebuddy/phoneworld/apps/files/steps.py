"""What the templates of 文件管理 (Files) share: reading the seeded files, claiming a file's
changes in a diff, and the oracle's ways through the app (a folder, a file, the folder picker,
renaming)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.files.content import FILES, category
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.base import Params
from phonebuddy.phoneworld.tasks.diff import A_TIME, StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action

FILE_LIST = f"apps/{FILES}/files"
FOLDER_LIST = f"apps/{FILES}/folders"
MAIL = "com.pw.mail"
ROW = f"{FILES}:id/file_"


def seeded(world: World) -> tuple[Any, ...]:
    return tuple(world.content(FILES)["files"])


def in_folder(world: World, folder: str, kind: str | None = None) -> list[Any]:
    """The seeded files directly in `folder` (of category `kind` when given)."""
    return [
        f for f in seeded(world) if f["folder"] == folder and kind in (None, category(f["name"]))
    ]


def file_params(file: Any) -> Params:
    return {"file_id": file["id"], "name": file["name"], "folder": file["folder"]}


def file_path(file_id: str) -> str:
    return f"{FILE_LIST}[{file_id}]"


def files_before(diff: StateDiff) -> list[dict[str, Any]]:
    return list(diff.before["apps"][FILES]["files"])


def live_before(diff: StateDiff, folder: str) -> list[dict[str, Any]]:
    return [f for f in files_before(diff) if f["folder"] == folder and f["trashed_at"] is None]


def changed(diff: StateDiff, file_id: str, **fields: Any) -> list[str]:
    """Claim the changes of one file: they must be exactly `fields`."""
    path = file_path(file_id)
    return expect_changes(diff, path, {f"{path}/{k}": v for k, v in fields.items()})


def trashed(diff: StateDiff, file_id: str) -> list[str]:
    return changed(diff, file_id, trashed_at=A_TIME)


def trash_in_setup(it: Interaction, file_ids: list[str]) -> None:
    """Setup: these files were deleted to the 回收站, an hour apart."""
    for i, file in enumerate(f for f in it.app_data(FILES)["files"] if f["id"] in file_ids):
        file["trashed_at"] = it.clock - (i + 1) * 3600


# -- the oracle's ways through the app ------------------------------------------------------------


def open_folder(ui: OracleUI, path: str) -> Iterator[Action]:
    """Open 文件管理 and walk down to the folder `path` ('文档/工作')."""
    yield ui.open("文件管理")
    yield from walk(ui, path)


def walk(ui: OracleUI, path: str) -> Iterator[Action]:
    """From the top (the home's folders or the picker's): tap each folder of `path`."""
    for part in path.split("/"):
        yield from ui.scroll_to(text=part)
        yield ui.tap(text=part)


def open_file(ui: OracleUI, folder: str, file_id: str) -> Iterator[Action]:
    yield from open_folder(ui, folder)
    yield from ui.scroll_to(f"file_{file_id}")
    yield ui.tap(f"file_{file_id}")


def pick(ui: OracleUI, dest: str) -> Iterator[Action]:
    """In the folder picker: go to `dest` and tap 移动/复制/保存到此处."""
    yield from walk(ui, dest)
    yield ui.tap("pick_here")


def rename_to(ui: OracleUI, name: str) -> Iterator[Action]:
    """On a file's page: rename it."""
    yield from ui.scroll_to("rename")
    yield ui.tap("rename")
    yield ui.tap("clear_name")
    yield from ui.type_into("name", name)
    yield ui.tap("save_name")


def shown_files(ui: OracleUI) -> list[tuple[str, str, list[str]]]:
    """The file rows wholly on screen, top to bottom: (id, name, other texts)."""
    rows = []
    for node in ui.device.ui_tree().walk():
        if node.resource_id.startswith(ROW):
            found = [n.text for n in node.walk() if n.text]
            if len(found) >= 2:  # a row cut at the list's edge may show only its name
                rows.append((node.resource_id.removeprefix(ROW), found[0], found[1:]))
    return rows


def can_scroll_down(ui: OracleUI) -> bool:
    return ui.device.scroll_room("content")[1] > 0


def first_of_kind(ui: OracleUI, kind: str) -> Iterator[Action]:
    """Scroll a folder's list until a file of category `kind` shows; the caller reads it with
    `shown_files`."""
    for _ in range(20):
        if any(category(name) == kind for _, name, _ in shown_files(ui)):
            return
        if not can_scroll_down(ui):
            raise OracleError(f"no {kind} in the list")
        yield ui.page_down()
