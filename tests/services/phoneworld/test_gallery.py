"""The Gallery app through the action interface: the first-launch permission and cloud prompt,
the viewer's delete / restore round trip, multi-select moves, renaming with the clear button,
the files tab, and sharing a photo into Mail's composer."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.gallery.base import GALLERY_PACKAGE
from phonebuddy.phoneworld.apps.mail.base import MAIL_PACKAGE
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.testing import ALLOW, DENY
from phonebuddy.phoneworld.world import World


class Driver(testing.Driver):
    """Acts like a user, one step at a time, and insists that every step has an effect."""

    def open_gallery(self) -> None:
        """Unlike `open`, insists that the permission dialog and the cloud prompt show."""
        self.act(self.ui.open("相册"))
        self.tap(ALLOW)
        self.tap("cloud_later")

    def open_photo(self, photo: dict[str, Any]) -> None:
        self.tap("tab_albums")
        self.tap(f"album_{photo['album']}")
        self.scroll_to(f"photo_{photo['id']}")
        self.tap(f"photo_{photo['id']}")


def records(device: Device) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in device.state["apps"][GALLERY_PACKAGE]["photos"]}


def seeded(world: World, caption: str) -> dict[str, Any]:
    photos = world.content(GALLERY_PACKAGE)["photos"].values()
    return dict(next(p for p in photos if p["caption"] == caption))


@pytest.fixture
def driver(device: Device) -> Driver:
    d = Driver(device)
    d.open_gallery()
    return d


def test_first_launch_asks_for_storage_then_offers_cloud_backup_once(device: Device) -> None:
    d = Driver(device)
    d.act(d.ui.open("相册"))
    assert d.ui.visible(ALLOW)
    d.tap(ALLOW)
    assert {"cloud_later", "cloud_enable"} <= d.ids()
    d.tap("cloud_enable")
    assert device.state["apps"][GALLERY_PACKAGE]["cloud_prompt"] == "enabled"
    d.act(d.ui.back())
    d.act(d.ui.open("相册"))
    assert "cloud_later" not in d.ids()


def test_denied_storage_shows_a_way_to_grant_it(device: Device) -> None:
    d = Driver(device)
    d.act(d.ui.open("相册"))
    d.tap(DENY)
    assert not any(i.startswith("photo_") for i in d.ids())
    d.tap("grant_storage")
    d.tap("cloud_later")
    assert any(i.startswith("photo_") for i in d.ids())


def test_delete_and_restore_return_the_photo(world: World, driver: Driver) -> None:
    photo = seeded(world, "西湖日落")
    start = records(driver.device)
    driver.open_photo(photo)
    driver.tap("delete")
    driver.tap("confirm_delete")
    assert records(driver.device)[photo["id"]]["trashed_at"] == driver.device.state["os"]["clock"]
    assert f"photo_{photo['id']}" not in driver.ids()
    driver.act(driver.ui.back())
    driver.scroll_to("album_trash")
    driver.tap("album_trash")
    driver.tap(f"photo_{photo['id']}")
    driver.tap("restore")
    assert records(driver.device) == start


def test_details_show_the_place_and_size(world: World, driver: Driver) -> None:
    photo = seeded(world, "黄山云海")
    driver.open_photo(photo)
    driver.tap("details")
    assert driver.ui.find("photo_place").text == "地点：黄山市·光明顶"
    assert driver.ui.find("photo_size").text.startswith("大小：")


def test_select_two_photos_and_move_them(world: World, driver: Driver) -> None:
    first, second = seeded(world, "断桥"), seeded(world, "灵隐寺")
    driver.tap("tab_albums")
    driver.tap("album_travel")
    driver.tap("select")
    driver.tap(f"photo_{first['id']}")
    driver.tap(f"photo_{second['id']}")
    assert driver.ui.find(f"{GALLERY_PACKAGE}:id/toolbar_title").text == "已选择 2 项"
    driver.tap("move_selected")
    driver.tap("move_to_camera")
    moved = records(driver.device)
    assert moved[first["id"]]["album"] == "camera"
    assert moved[second["id"]]["album"] == "camera"
    assert "move_selected" not in driver.ids()


def test_rename_uses_the_clear_button_and_refuses_an_empty_clear(
    world: World, driver: Driver
) -> None:
    photo = seeded(world, "发票")
    driver.open_photo(photo)
    driver.tap("rename")
    assert driver.ui.find("caption").text == "发票"
    driver.tap("clear_caption")
    assert driver.device.act(driver.ui.tap("clear_caption")).effect == "no_op"
    driver.type_into("caption", "报销发票")
    driver.tap("confirm_rename")
    assert records(driver.device)[photo["id"]]["caption"] == "报销发票"


def test_renaming_a_file_to_a_taken_name_is_a_no_op(driver: Driver) -> None:
    files = driver.device.state["apps"][GALLERY_PACKAGE]["files"]
    first, second = [dict(f) for f in files if f["folder"] == "docs"][:2]
    driver.tap("tab_files")
    driver.tap("folder_docs")
    driver.scroll_to(f"file_{first['id']}")
    driver.tap(f"file_{first['id']}")
    driver.tap("file_rename")
    driver.tap("clear_file_name")
    driver.type_into("file_name", second["name"])
    assert driver.device.act(driver.ui.tap("confirm_rename")).effect == "no_op"
    names = {f["id"]: f["name"] for f in driver.device.state["apps"][GALLERY_PACKAGE]["files"]}
    assert names[first["id"]] == first["name"]


def test_sharing_a_photo_opens_mail_with_it_attached(world: World, driver: Driver) -> None:
    photo = seeded(world, "年会合影")
    driver.open_photo(photo)
    driver.tap("share")
    driver.tap("com.android.systemui:id/share_mail")
    driver.tap(ALLOW)
    assert driver.device.foreground == MAIL_PACKAGE
    assert driver.ui.find("body").text == "年会合影"
    assert driver.ui.find("attachment_0") is not None


def test_permanent_delete_asks_first_and_removes_the_photo(world: World, driver: Driver) -> None:
    photo = seeded(world, "菜市场")
    driver.open_photo(photo)
    driver.tap("delete")
    driver.tap("confirm_delete")
    driver.act(driver.ui.back())
    driver.scroll_to("album_trash")
    driver.tap("album_trash")
    driver.tap(f"photo_{photo['id']}")
    driver.tap("purge")
    assert photo["id"] in records(driver.device)
    driver.tap("confirm_purge")
    assert photo["id"] not in records(driver.device)
    assert "没有最近删除的照片" in {n.text for n in driver.device.ui_tree().walk()}
