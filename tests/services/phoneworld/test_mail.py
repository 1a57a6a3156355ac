"""The Mail app through the action interface: the folder overview, reading (which only touches
the ignorable read flags), the composer with its draft and no-subject dialogs, the `send_mail`
tool that shares the composer's handler, moving into a new folder, deleting and restoring."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.mail.base import MAIL_PACKAGE, ME_ADDRESS
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.diff import DEFAULT_IGNORABLE, StateDiff
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool


class Driver(testing.Driver):
    """Acts like a user, one step at a time, and insists that every step has an effect."""

    def open_mail(self) -> None:
        self.open("邮件")

    def scroll_to_text(self, text: str) -> None:
        self.scroll_to(text=text)


def records(device: Device) -> dict[str, dict[str, Any]]:
    return {r["id"]: r for r in device.state["apps"][MAIL_PACKAGE]["mails"]}


def new_records(before: dict[str, Any], device: Device) -> list[dict[str, Any]]:
    """Mails on `device` that are not among the records `before`."""
    return [r for mail_id, r in records(device).items() if mail_id not in before]


def seeded(world: World, **match: Any) -> dict[str, Any]:
    """The first seeded mail whose fields (or facts) match."""
    for mail in world.content(MAIL_PACKAGE)["mails"].values():
        fields = {**mail, **mail["facts"]}
        if all(fields.get(key) == value for key, value in match.items()):
            return dict(mail)
    raise LookupError(match)


@pytest.fixture
def driver(device: Device) -> Driver:
    d = Driver(device)
    d.open_mail()
    return d


def test_home_lists_system_and_custom_folders(driver: Driver) -> None:
    ids = driver.ids()
    for folder in ("inbox", "starred", "drafts", "sent", "trash", "folder-work", "folder-bills"):
        assert f"folder_{folder}" in ids
    assert {"search_bar", "compose", "new_folder", "tab_mail", "tab_contacts"} <= ids


def test_reading_a_mail_changes_only_its_read_flag(world: World, driver: Driver) -> None:
    mail = seeded(world, kind="train")
    driver.device.state["apps"][MAIL_PACKAGE]["read"][mail["id"]] = False
    before = driver.device.snapshot()
    driver.tap("folder_inbox")
    driver.scroll_to_text(mail["subject"])
    driver.tap(text=mail["subject"])
    assert driver.ui.find("mail_body").text == mail["body"]
    assert driver.device.state["apps"][MAIL_PACKAGE]["read"][mail["id"]] is True
    ignorable = (*DEFAULT_IGNORABLE, *(f"apps/{MAIL_PACKAGE}/{p}" for p in ("read",)))
    assert StateDiff(before, driver.device.snapshot(), ignorable=ignorable).unexpected() == []


def test_tool_and_composer_write_the_same_mail(world: World) -> None:
    by_gui, by_tool = Device(world), Device(world)
    gui = Driver(by_gui)
    gui.open_mail()
    gui.tap("compose")
    gui.type_into("to", "Friend@Example.com")
    gui.type_into("subject", "周末")
    gui.type_into("body", "一起吃饭？")
    gui.tap("send")
    tool = Driver(by_tool)
    tool.open_mail()
    tool.act(
        CallTool(
            name="send_mail",
            arguments={"to": "Friend@Example.com", "subject": "周末", "body": "一起吃饭？"},
        )
    )
    fresh = records(Device(world))
    (sent_by_gui,) = new_records(fresh, by_gui)
    (sent_by_tool,) = new_records(fresh, by_tool)
    assert {**sent_by_gui, "time": 0} == {**sent_by_tool, "time": 0}
    assert sent_by_gui["folder"] == "sent"
    assert sent_by_gui["to"] == "friend@example.com"
    assert sent_by_gui["from_addr"] == ME_ADDRESS


def test_invalid_recipient_is_a_no_op(driver: Driver) -> None:
    before = records(driver.device)
    result = driver.device.act(
        CallTool(name="send_mail", arguments={"to": "not an address", "subject": "x", "body": ""})
    )
    assert result.effect == "no_op"
    assert records(driver.device) == before


def test_missing_subject_asks_before_sending(driver: Driver) -> None:
    before = records(driver.device)
    driver.tap("compose")
    driver.type_into("to", "a@b.cn")
    driver.tap("send")
    assert "send_anyway" in driver.ids()
    assert records(driver.device) == before
    driver.tap("send_anyway")
    (sent,) = new_records(before, driver.device)
    assert sent["subject"] == ""
    assert sent["to"] == "a@b.cn"


def test_leaving_the_composer_offers_a_draft_that_can_be_sent_later(driver: Driver) -> None:
    before = records(driver.device)
    driver.tap("compose")
    driver.type_into("to", "zhangwei@xinghe-tech.com")
    driver.type_into("subject", "请假")
    driver.tap(f"{MAIL_PACKAGE}:id/back")
    driver.tap("save_draft")
    (draft,) = new_records(before, driver.device)
    assert draft["folder"] == "drafts"
    assert draft["subject"] == "请假"
    driver.tap("folder_drafts")
    driver.tap(f"mail_{draft['id']}")
    assert driver.ui.find("subject").text == "请假"
    driver.type_into("body", "明天请假一天")
    driver.tap("send")
    (sent,) = new_records(before, driver.device)
    assert sent["folder"] == "sent"
    assert sent["body"] == "明天请假一天"
    assert draft["id"] not in records(driver.device)


def test_move_into_a_new_folder_from_the_mail_page(world: World, driver: Driver) -> None:
    mail = seeded(world, kind="order")
    driver.tap("folder_inbox")
    driver.scroll_to_text(mail["subject"])
    driver.tap(text=mail["subject"])
    driver.tap("move")
    driver.tap("move_new_folder")
    driver.type_into("folder_name", "网购")
    driver.tap("create_folder")
    folders = driver.device.state["apps"][MAIL_PACKAGE]["folders"]
    assert folders[-1]["name"] == "网购"
    assert records(driver.device)[mail["id"]]["folder"] == folders[-1]["id"]


def test_duplicate_folder_name_is_refused(driver: Driver) -> None:
    driver.tap("new_folder")
    driver.type_into("folder_name", "工作")
    result = driver.device.act(driver.ui.tap("create_folder"))
    assert result.effect == "no_op"
    assert len(driver.device.state["apps"][MAIL_PACKAGE]["folders"]) == 2


def test_delete_then_restore_from_trash(world: World, driver: Driver) -> None:
    mail = seeded(world, kind="newsletter", folder="inbox")
    driver.tap("folder_inbox")
    driver.scroll_to_text(mail["subject"])
    driver.tap(text=mail["subject"])
    driver.tap("delete")
    assert records(driver.device)[mail["id"]]["folder"] == "trash"
    driver.act(driver.ui.back())
    driver.tap("folder_trash")
    driver.tap(f"mail_{mail['id']}")
    assert {"restore", "purge"} <= driver.ids()
    driver.tap("restore")
    assert records(driver.device)[mail["id"]]["folder"] == "inbox"


def test_search_matches_the_body(world: World, driver: Driver) -> None:
    mail = seeded(world, kind="personal", topic="腊肉")
    driver.tap("search_bar")
    driver.type_into("q", mail["facts"]["tracking"])
    rows = [i for i in driver.ids() if i.startswith("mail_")]
    assert rows == [f"mail_{mail['id']}"]


def test_purging_from_trash_needs_confirmation(world: World, driver: Driver) -> None:
    ad = seeded(world, folder="trash")
    driver.tap("folder_trash")
    driver.tap(f"mail_{ad['id']}")
    driver.tap("delete")
    assert ad["id"] in records(driver.device)
    driver.tap("confirm_purge")
    assert ad["id"] not in records(driver.device)
