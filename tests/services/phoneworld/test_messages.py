"""The Messages app through the action interface: compose and the send_sms tool share one
handler, reading a thread clears its badge without being a side effect, verification codes
can be copied, shares land in compose, deleting asks first."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.app import App, Label, View, screen
from phonebuddy.phoneworld.apps.contacts import Contacts
from phonebuddy.phoneworld.apps.contacts.app import CONTACTS, MESSAGES
from phonebuddy.phoneworld.apps.messages import Messages
from phonebuddy.phoneworld.apps.phone import Phone
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.registry import get_template
from phonebuddy.phoneworld.tasks.runner import ignorable_paths
from phonebuddy.phoneworld.ui.widgets import Button, Page
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import CallTool


class Driver(testing.Driver):
    """Acts like a user, one step at a time, and insists that every step has an effect."""

    def texts(self, prefix: str) -> list[str]:
        return [
            n.text
            for n in self.device.ui_tree().walk()
            if n.resource_id.rpartition(":id/")[2].startswith(prefix)
        ]


def threads(device: Device) -> list[dict[str, Any]]:
    return list(device.state["apps"][MESSAGES]["threads"])


def person(device: Device, index: int) -> dict[str, Any]:
    return dict(device.state["apps"][CONTACTS]["contacts"][index])


def compose(user: Driver, to: str, text: str) -> None:
    user.open("信息")
    user.tap("compose")
    user.type_into("to", to)
    user.type_into("body", text)
    user.tap("send")


def test_compose_and_the_send_sms_tool_write_the_same_message(device: Device) -> None:
    friend = person(device, 5)
    by_gui, by_tool = Driver(device), Driver(device.fork("twin"))
    compose(by_gui, friend["name"], "晚上见")
    by_tool.open("信息")
    by_tool.act(CallTool(name="send_sms", arguments={"to": friend["name"], "text": "晚上见"}))
    gui_thread = next(t for t in threads(by_gui.device) if t["address"] == friend["phone"])
    tool_thread = next(t for t in threads(by_tool.device) if t["address"] == friend["phone"])
    strip_time = [{**m, "time": 0} for m in gui_thread["messages"]]
    assert strip_time == [{**m, "time": 0} for m in tool_thread["messages"]]
    assert by_gui.texts("msg_")[-1] == "晚上见"  # compose hands over to the thread


def test_a_number_gets_one_thread_and_later_messages_join_it(device: Device) -> None:
    user = Driver(device)
    compose(user, "139 1234 0000", "第一条")
    user.type_into("reply", "第二条")
    user.tap("send")
    mine = [t for t in threads(device) if t["address"] == "13912340000"]
    assert len(mine) == 1
    assert [m["text"] for m in mine[0]["messages"]] == ["第一条", "第二条"]


def test_unknown_recipients_and_empty_texts_send_nothing(device: Device) -> None:
    user = Driver(device)
    before = threads(device)
    user.open("信息")
    user.tap("compose")
    assert device.act(user.ui.tap("send")).effect == "no_op"
    user.type_into("to", "不存在的人")
    user.type_into("body", "你好")
    assert device.act(user.ui.tap("send")).effect == "no_op"
    assert threads(device) == before


def test_reading_a_thread_clears_its_badge_without_side_effects(device: Device) -> None:
    user = Driver(device)
    unread = device.state["apps"][MESSAGES]["unread"]
    thread_id = next(iter(unread))
    before = device.snapshot()
    user.open("信息")
    for action in user.ui.scroll_to(f"thread_{thread_id}"):
        user.act(action)
    user.tap(f"thread_{thread_id}")
    assert thread_id not in device.state["apps"][MESSAGES]["unread"]
    ignorable = ignorable_paths(device.world, get_template("messages.send"))
    assert StateDiff(before, device.snapshot(), ignorable=ignorable).unexpected() == []


def test_copy_code_puts_the_verification_code_on_the_clipboard(device: Device) -> None:
    user = Driver(device)
    user.open("信息")
    user.tap(text="12306")
    button = next(n for n in device.ui_tree().walk() if ":id/copy_" in n.resource_id)
    user.tap(button.resource_id)
    assert device.state["os"]["clipboard"] == button.text.split()[-1]


class Sharer(App):
    """A minimal app with a share button, standing in for any app that shares text."""

    package = "com.test.sharer"
    label = Label(zh="分享测试", en="Sharer")
    domain = "test"

    @screen("home")
    def home(self, v: View) -> Page:
        share = v.do(lambda it: it.share({"kind": "text", "text": "明天九点开会"}))
        return Page("分享测试", [Button("分享", share, id="share")])


def test_a_share_opens_compose_with_the_text() -> None:
    world = World([Contacts(), Phone(), Messages(), Sharer()])
    user = Driver(Device(world))
    user.open("分享测试")
    user.tap("share")
    user.tap("com.android.systemui:id/share_messages")
    assert user.device.foreground == MESSAGES
    assert user.text("body") == "明天九点开会"
    assert user.text("to") == ""


def test_deleting_a_thread_asks_first(device: Device) -> None:
    user = Driver(device)
    thread = threads(device)[0]
    user.open("信息")
    for action in user.ui.scroll_to(f"thread_{thread['id']}"):
        user.act(action)
    user.tap(f"thread_{thread['id']}")
    user.tap("delete")
    user.tap("cancel")
    assert thread in threads(device)
    user.tap("delete")
    user.tap("confirm_delete")
    assert all(t["id"] != thread["id"] for t in threads(device))
