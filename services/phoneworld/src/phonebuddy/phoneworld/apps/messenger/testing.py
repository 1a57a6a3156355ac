"""Where the mini-programs' tests start from: a phone that drives a mini-program like an agent
(every step must have an effect; taps bring their widget into view first) and reads the
program's data, content and the wallet."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from phonebuddy.phoneworld.apps.messenger.steps import open_mini
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.protocol import Action

MESSENGER = "com.pw.messenger"
WALLET = "com.pw.wallet"


class MiniProgramPhone:
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


def enter(device: Device, name: str) -> MiniProgramPhone:
    """A phone with the mini-program `name` open at its home page."""
    phone = MiniProgramPhone(device)
    phone.run(open_mini(phone.ui, name))
    return phone
