"""What Cloud Drive's templates share: content look-ups, checks of a file's changes, and the
oracle's ways through the app (search a file, walk down folders, share with people)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.drive.base import DRIVE
from phonebuddy.phoneworld.apps.drive.content import BIG_MB, ME, ROOT
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import A_TIME, StateDiff, expect_changes
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

LABEL = "Cloud Drive"
FILES = f"apps/{DRIVE}/files"
FOLDERS = f"apps/{DRIVE}/folders"
MAIL = "com.pw.mail"
MESSAGES = "com.pw.messages"
MESSENGER = "com.pw.messenger"
NOTES = "com.pw.notes"
CONTACTS = "com.pw.contacts"
CALENDAR = "com.pw.calendar"


# -- content --------------------------------------------------------------------------------------


def all_files(world: World) -> list[Any]:
    return list(world.content(DRIVE)["files"])


def folders(world: World) -> list[Any]:
    return list(world.content(DRIVE)["folders"])


def my_files(world: World, **wanted: Any) -> list[Any]:
    """My files outside the Trash after a reset, with the field values in `wanted`."""
    return [f for f in all_files(world) if f["owner"] == ME and not f["trashed"]
            and all(f[k] == v for k, v in wanted.items())]  # fmt: skip


def folder_name(world: World, folder_id: str) -> str:
    if folder_id == ROOT:
        return "My Drive"
    return str(next(f["name"] for f in folders(world) if f["id"] == folder_id))


def trail(world: World, folder_id: str) -> list[str]:
    """The folder ids below My Drive down to `folder_id` (empty for My Drive)."""
    by_id = {f["id"]: f for f in folders(world)}
    chain = []
    while folder_id in by_id:
        chain.append(folder_id)
        folder_id = by_id[folder_id]["parent"]
    return list(reversed(chain))


def file_params(world: World, file: Any) -> Params:
    return {
        "file_id": file["id"],
        "name": file["name"],
        "folder": folder_name(world, file["parent"]),
    }


def is_big(file: Any) -> bool:
    return bool(file["size"] > BIG_MB * 1000)


def mb(kb: int) -> float:
    return round(kb / 1000, 2)


# -- checks ---------------------------------------------------------------------------------------


def file_path(file_id: str) -> str:
    return f"{FILES}[{file_id}]"


def changed(diff: StateDiff, file_id: str, **fields: Any) -> list[str]:
    """Every change to the file is one of `fields` (name -> new value)."""
    path = file_path(file_id)
    return expect_changes(diff, path, {f"{path}/{k}": v for k, v in fields.items()})


def renamed(diff: StateDiff, file_id: str, name: str) -> list[str]:
    return changed(diff, file_id, name=name, modified=A_TIME)


def shared_with(diff: StateDiff, file_id: str, people: dict[str, str]) -> list[str]:
    """The file's only changes: these people (email -> role) were given access."""
    path = file_path(file_id)
    return expect_changes(diff, path, {f"{path}/shares[{email}]": {"id": email, "role": role}
                                       for email, role in people.items()})  # fmt: skip


# -- oracle steps ---------------------------------------------------------------------------------


def open_drive(ui: OracleUI) -> Iterator[Action]:
    yield from ui.open_app(LABEL)


def find_file(ui: OracleUI, file_id: str, name: str) -> Iterator[Action]:
    """Open Cloud Drive, search the file by name and open its details."""
    yield from open_drive(ui)
    yield ui.tap("search")
    yield from ui.type_into("q", name)
    yield ui.tap(f"file_{file_id}")


def search_again(ui: OracleUI, file_id: str, name: str) -> Iterator[Action]:
    """From a file's details opened from Search: back to Search, search another file, open it."""
    yield ui.back()
    yield ui.tap("clear_search")
    yield from ui.type_into("q", name)
    yield ui.tap(f"file_{file_id}")


def open_folder(ui: OracleUI, folder_ids: list[str]) -> Iterator[Action]:
    """From My Drive, tap down the folders of `folder_ids` (a `trail`)."""
    yield from open_drive(ui)
    for folder_id in folder_ids:
        yield from ui.scroll_to(f"folder_{folder_id}")
        yield ui.tap(f"folder_{folder_id}")


def add_people(ui: OracleUI, people: list[tuple[str, str]]) -> Iterator[Action]:
    """On a file's details: Share, then each (email, role) added."""
    yield ui.tap("share")
    for email, role in people:
        yield from ui.type_into("share_email", email)
        if role != "Viewer":
            yield ui.tap(f"role_{role.lower()}")
        yield ui.tap("share_add")


def collect_rows(ui: OracleUI, prefix: str, into: dict[str, list[str]]) -> Iterator[Action]:
    """Scroll the list to its end, keeping the texts of every row whose id starts with
    `prefix` ('file_') in `into`, by widget id (the fullest reading of each: a row cut at the
    list's edge shows only some of its texts)."""
    rid = f"{DRIVE}:id/{prefix}"
    while True:
        for node in ui.device.ui_tree().walk():
            if node.resource_id.startswith(rid):
                key = node.resource_id.rpartition(":id/")[2]
                found = [n.text for n in node.walk() if n.text]
                if len(found) >= len(into.get(key, [])):
                    into[key] = found
        if ui.device.scroll_room("content")[1] <= 0:
            return
        yield ui.page_down()


def parse_size(text: str) -> float:
    """'450 KB' or '12.3 MB' (the start of a row's subtitle) in MB."""
    number, unit = text.split(" · ")[0].split()
    return float(number) / 1000 if unit == "KB" else float(number)


class DriveTemplate(TaskTemplate):
    """A template of Cloud Drive alone."""

    category = Category.SINGLE_APP
    apps = (DRIVE,)
