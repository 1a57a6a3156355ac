"""Cloud Drive through the action interface: browsing folders with breadcrumbs and sorting,
search, starring and offline, renaming and new folders with their refusals, moving, the Trash
behind confirmations (restore, delete forever), and sharing: people by email with roles, the
link's access, copying the link."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.drive.base import DRIVE
from phonebuddy.phoneworld.apps.drive.content import ME, link_url, size_label, slug
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(DRIVE)  # type: ignore[no-any-return]

    def file(self, file_id: str) -> dict[str, Any]:
        return next(f for f in self.data["files"] if f["id"] == file_id)

    def shown_files(self) -> set[str]:
        return {i.removeprefix("file_") for i in self.ids() if i.startswith("file_")}

    def search(self, name: str, file_id: str) -> None:
        self.tap("search")
        self.type_into("q", name)
        self.tap(f"file_{file_id}")


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("Cloud Drive")
    return driver


def _mine(world: World, **wanted: Any) -> list[Any]:
    return [f for f in world.content(DRIVE)["files"] if f["owner"] == ME and not f["trashed"]
            and all(f[k] == v for k, v in wanted.items())]  # fmt: skip


def test_folders_open_with_breadcrumbs_and_sort(user: Driver, world: World) -> None:
    assert user.text("storage").endswith("of 15 GB used")
    user.tap("folder_fd-work")
    user.tap("folder_fd-reports")
    assert user.text("toolbar_title") == "Reports"
    in_reports = [f for f in _mine(world) if f["parent"] == "fd-reports"]
    assert user.shown_files() == {f["id"] for f in in_reports}
    user.tap("sort_size")
    biggest = max(in_reports, key=lambda f: f["size"])
    rows = [n.resource_id for n in user.device.ui_tree().walk() if ":id/file_" in n.resource_id]
    assert rows[0].endswith(biggest["id"])
    assert size_label(biggest["size"]) in user.ui.texts_in(f"file_{biggest['id']}")[1]
    user.tap("crumb_fd-work")
    assert user.text("toolbar_title") == "Work"
    user.tap("folder_fd-reports")
    user.tap("crumb_root")
    assert user.visible("storage")


def test_search_finds_files_by_name(user: Driver, world: World) -> None:
    file = _mine(world)[3]
    user.tap("search")
    user.type_into("q", file["name"][:6].lower())
    assert file["id"] in user.shown_files()
    user.tap("clear_search")
    user.type_into("q", "no such file")
    assert user.visible("no_results")
    assert user.shown_files() == set()


def test_star_and_offline_toggle_from_the_details(user: Driver, world: World) -> None:
    file = _mine(world, starred=False, offline=False)[0]
    user.search(file["name"], file["id"])
    assert user.text("file_name") == file["name"]
    user.tap("starred")
    user.tap("offline")
    assert user.file(file["id"])["starred"]
    assert user.file(file["id"])["offline"]
    user.tap("starred")
    assert not user.file(file["id"])["starred"]


def test_renaming_refuses_bad_names_and_saves_a_good_one(user: Driver, world: World) -> None:
    file, other = [f for f in _mine(world) if f["parent"] == "fd-work"][:2]
    user.search(file["name"], file["id"])
    user.tap("rename")
    user.refuse("rename_ok")
    assert user.text("error") == "Name can't be empty"
    user.type_into("new_name", "a/b.docx")
    user.refuse("rename_ok")
    assert "'/'" in user.text("error")
    user.tap("cancel")
    user.tap("rename")
    user.type_into("new_name", other["name"])
    user.refuse("rename_ok")
    assert user.text("error").endswith("already exists in this folder")
    user.tap("cancel")
    user.tap("rename")
    user.type_into("new_name", "Fresh Name.docx")
    user.tap("rename_ok")
    assert user.file(file["id"])["name"] == "Fresh Name.docx"
    user.scroll_to("file_name")
    assert user.text("file_name") == "Fresh Name.docx"


def test_new_folder_is_validated_then_made(user: Driver) -> None:
    user.tap("new_folder")
    user.type_into("folder_name", "work")
    user.refuse("create_folder")
    assert user.text("error") == "'work' already exists in this folder"
    user.tap("cancel")
    user.tap("new_folder")
    user.type_into("folder_name", "Receipts")
    user.tap("create_folder")
    made = [f for f in user.data["folders"] if f["name"] == "Receipts"]
    assert len(made) == 1
    assert made[0]["parent"] == "root"
    assert user.visible(f"folder_{made[0]['id']}")


def test_moving_a_file_through_the_folder_picker(user: Driver, world: World) -> None:
    file = next(f for f in _mine(world) if f["parent"] == "fd-school")
    user.search(file["name"], file["id"])
    user.tap("move")
    user.refuse("dest_fd-school")  # where it already is
    user.tap("dest_fd-archive")
    assert user.file(file["id"])["parent"] == "fd-archive"
    assert "Archive" in user.ui.texts_in("detail_location")[-1]


def test_trash_asks_first_then_restore_and_delete_forever(user: Driver, world: World) -> None:
    file = _mine(world, starred=False)[0]
    user.search(file["name"], file["id"])
    user.tap("trash")
    user.tap("cancel")
    assert not user.file(file["id"])["trashed"]
    user.tap("trash")
    user.tap("confirm_trash")
    assert user.file(file["id"])["trashed"]
    assert user.visible("q")  # back on Search
    user.back()
    user.tap("tab_trash")
    user.tap(f"trash_more_{file['id']}")
    user.tap("restore")
    user.tap("confirm_restore")
    assert not user.file(file["id"])["trashed"]
    gone = next(f for f in user.data["files"] if f["trashed"])
    user.tap(f"trash_more_{gone['id']}")
    user.tap("delete_forever")
    user.tap("cancel")
    assert any(f["id"] == gone["id"] for f in user.data["files"])
    user.tap("delete_forever")
    user.tap("confirm_forever")
    assert all(f["id"] != gone["id"] for f in user.data["files"])


def test_sharing_with_people_and_roles(user: Driver, world: World) -> None:
    file = next(f for f in _mine(world) if not f["shares"])
    user.search(file["name"], file["id"])
    user.tap("share")
    user.type_into("share_email", "not-an-email")
    user.refuse("share_add")
    assert user.text("error") == "Enter a valid email address"
    user.tap("share_email")
    user.type_into("share_email", "@example.com")
    user.tap("role_editor")
    user.tap("share_add")
    email = "not-an-email@example.com"
    assert user.file(file["id"])["shares"] == [{"id": email, "role": "Editor"}]
    user.type_into("share_email", email)
    user.refuse("share_add")  # already has access
    user.tap(f"person_{slug(email)}")
    user.tap("set_commenter")
    assert user.file(file["id"])["shares"][0]["role"] == "Commenter"
    user.tap(f"person_{slug(email)}")
    user.tap("remove_access")
    assert user.file(file["id"])["shares"] == []


def test_link_access_and_copy_link(user: Driver, world: World) -> None:
    file = _mine(world, link="restricted")[0]
    user.search(file["name"], file["id"])
    user.tap("share")
    user.refuse("link_restricted")
    user.tap("link_anyone")
    assert user.file(file["id"])["link"] == "anyone"
    user.tap("copy_link")
    assert user.device.state["os"]["clipboard"] == link_url(file)
    assert user.text("link_url") == link_url(file)


def test_shared_with_me_files_cannot_be_managed(user: Driver, world: World) -> None:
    shared = next(f for f in world.content(DRIVE)["files"] if f["owner"] != ME)
    user.tap("tab_shared")
    user.tap(f"file_{shared['id']}")
    for widget in ("share", "rename", "move", "trash"):
        assert not user.visible(widget)
    assert user.ui.texts_in("detail_owner")[0] != "me"
