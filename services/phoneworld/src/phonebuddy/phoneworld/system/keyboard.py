"""The on-screen keyboard, shown while a text field has focus. Every key is a real button:
tapping letters types them, just like the `type` action."""

from __future__ import annotations

from typing import TYPE_CHECKING

from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import Handler, Node, Rect

if TYPE_CHECKING:
    from phonebuddy.phoneworld.device import Device
    from phonebuddy.phoneworld.interaction import Interaction

HEIGHT = 760
ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
PACKAGE = "com.pw.keyboard"


def _type(text: str) -> Handler:
    def handler(it: Interaction) -> None:
        it.device.type_text(text)

    return handler


def _delete(it: Interaction) -> None:
    it.device.delete_char()


def _enter(it: Interaction) -> None:
    it.device.press_enter()


def _hide(it: Interaction) -> None:
    it.device.state["ui"]["focus"] = None


def place(device: Device, area: Rect) -> Node:
    scale = device.scale
    width = area[2] - area[0]
    height = round(HEIGHT * scale)
    top = area[3] - height
    rect = (area[0], top, area[2], area[3])
    pad = round(10 * scale)
    row_h = height // 4
    keys: list[Node] = []

    def key(label: str, x0: int, x1: int, row: int, handler: Handler, rid: str) -> None:
        box = (x0 + pad, top + row * row_h + pad, x1 - pad, top + (row + 1) * row_h - pad)
        keys.append(
            Node(
                "key",
                box,
                box,
                resource_id=f"{PACKAGE}:id/{rid}",
                text=label,
                lines=(label,),
                on_tap=handler,
                clickable=True,
                fill=theme.SURFACE,
                radius=round(14 * scale),
                text_size=round(48 * scale),
                align="center",
                package=PACKAGE,
            )
        )

    unit = width / 10
    for row, letters in enumerate(ROWS):
        offset = (10 - len(letters)) * unit / 2
        if row == 2:
            offset = 1.5 * unit
        for i, letter in enumerate(letters):
            x0 = round(area[0] + offset + i * unit)
            key(letter, x0, round(x0 + unit), row, _type(letter), f"key_{letter}")
    key("删除", round(area[0] + 8.5 * unit), area[2], 2, _delete, "key_delete")
    key("收起", area[0], round(area[0] + 1.5 * unit), 2, _hide, "key_hide")
    key(",", area[0], round(area[0] + 1.5 * unit), 3, _type(","), "key_comma")
    key("空格", round(area[0] + 1.5 * unit), round(area[0] + 7 * unit), 3, _type(" "), "key_space")
    key(".", round(area[0] + 7 * unit), round(area[0] + 8 * unit), 3, _type("."), "key_period")
    key("完成", round(area[0] + 8 * unit), area[2], 3, _enter, "key_enter")
    return Node("keyboard", rect, rect, children=keys, fill=(210, 213, 219), z=3, package=PACKAGE)
