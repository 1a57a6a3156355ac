"""The drivers' base for PhoneWorld app tests, and where a new app's tests start from.

A `Driver` acts like a user through the action interface, one step at a time, and insists that
every step has an effect. An app's tests subclass it with that app's own helpers::

    class Driver(testing.Driver):
        def open_notes(self) -> None:
            self.open("笔记")
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from phonebuddy.phoneworld.apps.messenger.steps import open_mini
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.oracle import PERMISSION_ALLOW, OracleUI
from phonebuddy.protocol import Action

ALLOW = PERMISSION_ALLOW
"""允许 in the system permission dialog an app may show on its first launch."""
DENY = "com.android.systemui:id/permission_deny"
"""拒绝 in that dialog."""


class Driver:
    """Acts like a user and insists that every step has an effect."""

    scroll_first: ClassVar[bool] = False
    """Whether `tap` first scrolls the widget into view (for apps of long scrolling screens)."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.ui = OracleUI(device)

    def act(self, action: Action) -> str:
        """Do one action, which must be applied; returns the device's note."""
        result = self.device.act(action)
        assert result.effect == "applied", (action, result.note)
        return result.note

    def refuse(self, widget_id: str) -> str:
        """Tap something that must have no effect; returns the device's reason."""
        result = self.device.act(self.ui.tap(widget_id))
        assert result.effect == "no_op", widget_id
        return result.note

    def tap(self, widget_id: str | None = None, *, text: str | None = None) -> None:
        if self.scroll_first:
            self.scroll_to(widget_id, text=text)
        self.act(self.ui.tap(widget_id, text=text))

    def scroll_to(self, widget_id: str | None = None, *, text: str | None = None) -> None:
        for action in self.ui.scroll_to(widget_id, text=text):
            self.act(action)

    def type_into(self, widget_id: str, text: str) -> None:
        """Focus the field, then type."""
        for action in self.ui.type_into(widget_id, text):
            self.act(action)

    def clear(self, widget_id: str) -> None:
        """Empty a text field through its text menu (清空)."""
        for action in self.ui.clear(widget_id):
            self.act(action)

    def back(self) -> None:
        self.act(self.ui.back())

    def open(self, label: str, *, allow: bool = True) -> None:
        """Open an app by its launcher label and answer the permission dialog if one shows."""
        self.act(self.ui.open(label))
        if self.visible(ALLOW):
            self.tap(ALLOW if allow else DENY)

    def visible(self, widget_id: str | None = None, *, text: str | None = None) -> bool:
        return self.ui.visible(widget_id, text=text)

    def text(self, widget_id: str) -> str:
        node = self.ui.find(widget_id)
        assert node is not None, f"{widget_id} is not on screen"
        return node.text

    def ids(self) -> set[str]:
        """The widget ids on screen, without their package."""
        return {n.resource_id.rpartition(":id/")[2] for n in self.device.ui_tree().walk()}

    def app_state(self, package: str) -> Any:
        """The app's data in the device state."""
        return self.device.state["apps"][package]


# -- mini-programs -------------------------------------------------------------------------------

MESSENGER = "com.pw.messenger"
WALLET = "com.pw.wallet"


class MiniProgramPhone:
    """Drives a mini-program of the messenger like an agent: every step must have an effect and
    taps bring their widget into view first; reads the program's data, content and the wallet."""

    def __init__(self, device: Device) -> None:
        self.device = device
        self.ui = OracleUI(device)

    def run(self, actions: Iterable[Action]) -> None:
        for action in actions:
            result = self.device.act(action)
            assert result.effect == "applied", (action, result.note)

    def tap(self, *widget_ids: str) -> None:
        for widget_id in widget_ids:
            self.run(self.ui.scroll_to(widget_id))
            self.run([self.ui.tap(widget_id)])

    def type_into(self, widget_id: str, text: str) -> None:
        self.run(self.ui.scroll_to(widget_id))
        self.run(self.ui.type_into(widget_id, text))

    def refused(self, widget_id: str) -> bool:
        """Tap something that must have no effect."""
        self.run(self.ui.scroll_to(widget_id))
        return self.device.act(self.ui.tap(widget_id)).effect == "no_op"

    def text(self, widget_id: str) -> str:
        node = self.ui.find(widget_id)
        assert node is not None, widget_id
        return node.text

    def mini(self, name: str) -> Any:
        """The program's data on this phone."""
        return self.device.state["apps"][MESSENGER]["mini"][name]

    def content(self, name: str) -> Any:
        """The program's seeded content."""
        return self.device.world.content(MESSENGER)["mini"][name]

    def balance(self) -> int:
        return int(self.device.state["apps"][WALLET]["balance_cents"])

    def last_bill(self) -> Any:
        return self.device.state["apps"][WALLET]["bills"][-1]


def enter_mini(device: Device, name: str) -> MiniProgramPhone:
    """A phone with the mini-program `name` open at its home page."""
    phone = MiniProgramPhone(device)
    phone.run(open_mini(phone.ui, name))
    return phone
