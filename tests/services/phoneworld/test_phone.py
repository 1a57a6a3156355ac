"""The Phone app through the action interface: the dial pad, the in-call screen and hanging
up, the missed-calls filter, the contacts permission, and the hand-over to Contacts."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.contacts.app import CONTACTS, PHONE, format_phone
from phonebuddy.phoneworld.clock import SECONDS_PER_ACTION
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.testing import ALLOW, DENY
from phonebuddy.protocol import CallTool


class Driver(testing.Driver):
    """Acts like a user, one step at a time, and insists that every step has an effect."""

    def open_phone(self, *, allow_contacts: bool = True) -> None:
        """Unlike `open`, insists that the contacts permission dialog shows."""
        self.act(self.ui.open("电话"))
        self.tap(ALLOW if allow_contacts else DENY)

    def ids(self, prefix: str) -> list[str]:  # type: ignore[override]
        rids = (n.resource_id.rpartition(":id/")[2] for n in self.device.ui_tree().walk())
        return [i for i in rids if i.startswith(prefix)]


def calls(device: Device) -> list[dict[str, Any]]:
    return list(device.state["apps"][PHONE]["calls"])


def test_the_dial_pad_places_a_call_and_hanging_up_ends_it(device: Device) -> None:
    user = Driver(device)
    user.open_phone()
    user.tap("tab_dialpad")
    for digit in "13800001111":
        user.tap(f"dial_{digit}")
    assert user.text("number") == format_phone("13800001111")
    user.tap("dial_call")
    call = calls(device)[-1]
    assert (call["number"], call["kind"], call["duration"], call["active"]) == (
        "13800001111",
        "outgoing",
        0,
        True,
    )
    assert user.text("call_status") == "正在呼叫…"
    user.tap("hang_up")
    call = calls(device)[-1]
    assert not call["active"]
    assert call["duration"] == SECONDS_PER_ACTION
    assert user.text("number") == ""  # back on the dial pad, emptied


def test_empty_dial_pad_keys_are_no_ops(device: Device) -> None:
    user = Driver(device)
    user.open_phone()
    user.tap("tab_dialpad")
    before = calls(device)
    assert device.act(user.ui.tap("dial_delete")).effect == "no_op"
    assert device.act(user.ui.tap("dial_call")).effect == "no_op"
    assert calls(device) == before


def test_the_call_tool_logs_what_the_dial_pad_logs(device: Device) -> None:
    by_pad, by_tool = Driver(device), Driver(device.fork("twin"))
    for user in (by_pad, by_tool):
        user.open_phone()
    by_pad.tap("tab_dialpad")
    for digit in "10086":
        by_pad.tap(f"dial_{digit}")
    by_pad.tap("dial_call")
    by_tool.act(CallTool(name="call", arguments={"number": "10086"}))
    pad_call, tool_call = calls(by_pad.device)[-1], calls(by_tool.device)[-1]
    assert {**pad_call, "time": 0} == {**tool_call, "time": 0}
    assert by_tool.text("callee") == "中国移动"


def test_missed_filter_shows_only_missed_calls_newest_first(device: Device) -> None:
    user = Driver(device)
    user.open_phone()
    user.tap("filter_missed")
    shown = [rid.removeprefix("call_") for rid in user.ids("call_")]
    missed = sorted((c for c in calls(device) if c["kind"] == "missed"), key=lambda c: -c["time"])
    assert shown
    assert shown == [c["id"] for c in missed][: len(shown)]
    assert all(user.text(f"summary_{i}").startswith("未接") for i in shown)


def test_denying_contacts_shows_numbers_instead_of_names(device: Device) -> None:
    user = Driver(device)
    user.open_phone(allow_contacts=False)
    names = {c["name"] for c in device.state["apps"][CONTACTS]["contacts"]}
    shown = {user.text(rid) for rid in user.ids("name_")}
    assert shown
    assert not shown & names
    user.tap("tab_contacts")
    assert user.ids("no_permission")


def test_details_of_a_stranger_offer_a_new_contact_with_the_number(device: Device) -> None:
    user = Driver(device)
    known = {c["phone"] for c in device.state["apps"][CONTACTS]["contacts"]}
    stranger = next(c for c in calls(device) if c["number"] not in known)
    user.open_phone()
    for action in user.ui.scroll_to(f"info_{stranger['id']}"):
        user.act(action)
    user.tap(f"info_{stranger['id']}")
    assert user.text("detail_number") == format_phone(stranger["number"])
    user.tap("detail_add_contact")
    assert device.foreground == CONTACTS
    assert user.text("phone") == format_phone(stranger["number"])
