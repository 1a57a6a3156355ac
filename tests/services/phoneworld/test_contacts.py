"""The Contacts app through the action interface: the list and its search, the form and the
tool that share one handler, the confirmation before deleting, the hand-over to Phone and
Messages."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.contacts.app import (
    CONTACTS,
    MESSAGES,
    PHONE,
    format_phone,
    pinyin,
)
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.testing import ALLOW
from phonebuddy.protocol import CallTool, Key, Type


class Driver(testing.Driver):
    """Acts like a user, one step at a time, and insists that every step has an effect."""


def contacts(device: Device) -> list[dict[str, Any]]:
    return list(device.state["apps"][CONTACTS]["contacts"])


def roster_entry(device: Device, index: int) -> dict[str, Any]:
    return dict(device.world.content(CONTACTS)["roster"][index])


def open_card(user: Driver, person: dict[str, Any]) -> None:
    user.open("联系人")
    user.type_into("search", person["name"])
    user.tap(f"contact_{person['id']}")


def test_the_list_is_alphabetical_with_sections_and_a_count(device: Device) -> None:
    user = Driver(device)
    user.open("联系人")
    assert user.text("contact_count") == f"共 {len(contacts(device))} 位联系人"
    sections = [i for i in user.ids() if i.startswith("section_")]
    assert sections
    assert all(len(s) == len("section_B") for s in sections)
    known = {c["name"] for c in contacts(device)}
    names = [n.text for n in device.ui_tree().walk() if n.text in known]
    assert names == sorted(names, key=pinyin)


def test_search_finds_by_pinyin_initials_and_number(device: Device) -> None:
    user = Driver(device)
    person = roster_entry(device, 7)
    initials = "".join(s[0] for s in pinyin(person["name"]).split())
    user.open("联系人")
    user.type_into("search", initials)
    assert user.ui.visible(f"contact_{person['id']}")
    for _ in initials:
        user.act(Key(text="DEL"))
    user.act(Type(text=person["phone"][3:9]))
    assert user.ui.visible(f"contact_{person['id']}")
    user.act(Type(text="999999"))
    assert user.ui.visible("no_results")


def test_the_add_contact_tool_writes_what_the_form_writes(device: Device) -> None:
    by_form, by_tool = Driver(device), Driver(device.fork("twin"))
    by_form.open("联系人")
    by_form.tap("new_contact")
    by_form.type_into("name", "林晓峰")
    by_form.type_into("phone", "139 0000 1234")
    by_form.tap("save")
    by_tool.open("联系人")
    by_tool.act(CallTool(name="add_contact", arguments={"name": "林晓峰", "phone": "13900001234"}))
    assert contacts(by_form.device)[-1] == contacts(by_tool.device)[-1]
    assert contacts(by_form.device)[-1]["phone"] == "13900001234"
    assert by_form.text("contact_name") == "林晓峰"  # the form hands over to the new card


def test_saving_an_incomplete_form_changes_nothing(device: Device) -> None:
    user = Driver(device)
    before = contacts(device)
    user.open("联系人")
    user.tap("new_contact")
    user.type_into("name", "只有名字")
    assert device.act(user.ui.tap("save")).effect == "no_op"
    assert contacts(device) == before


def test_editing_keeps_the_other_fields(device: Device) -> None:
    user = Driver(device)
    person = next(c for c in contacts(device) if c["email"] and c["company"])
    open_card(user, person)
    user.tap("edit")
    user.tap("clear_phone")
    user.act(Type(text="13700002222"))
    user.tap("save_top")
    after = next(c for c in contacts(device) if c["id"] == person["id"])
    assert after == {**person, "phone": "13700002222"}
    assert user.text("phone_number") == format_phone("13700002222")


def test_delete_asks_first_and_cancel_keeps_the_contact(device: Device) -> None:
    user = Driver(device)
    person = roster_entry(device, 3)
    open_card(user, person)
    user.tap("delete")
    user.tap("cancel")
    assert any(c["id"] == person["id"] for c in contacts(device))
    user.tap("delete")
    user.tap("confirm_delete")
    assert all(c["id"] != person["id"] for c in contacts(device))
    assert user.ui.visible("contact_count")  # back on the list


def test_favourites_tab_follows_the_star(device: Device) -> None:
    user = Driver(device)
    person = next(c for c in contacts(device) if not c["favorite"])
    user.open("联系人")
    for action in user.ui.scroll_to(text=person["name"]):
        user.act(action)
    user.tap(text=person["name"])
    user.tap("favorite")
    user.act(user.ui.back())
    user.tap("tab_favorites")
    assert user.ui.visible(f"contact_{person['id']}")


def test_call_and_message_buttons_hand_over(device: Device) -> None:
    user = Driver(device)
    person = roster_entry(device, 10)
    open_card(user, person)
    user.tap("call")
    user.tap(ALLOW)
    assert device.foreground == PHONE
    assert user.text("callee") == person["name"]
    call = device.state["apps"][PHONE]["calls"][-1]
    assert (call["number"], call["kind"], call["active"]) == (person["phone"], "outgoing", True)
    user.tap("hang_up")
    user.open("联系人")
    user.tap("message")
    assert device.foreground == MESSAGES
    assert "reply" in user.ids() or user.text("to") == person["name"]
