"""List rows: `ListItem`, with its avatar, texts, trailing text, badge and action slot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.text import text_width, wrap
from phonebuddy.phoneworld.ui.theme import Color

if TYPE_CHECKING:
    pass
from phonebuddy.phoneworld.ui.widgets.controls import Button, Chip, IconButton
from phonebuddy.phoneworld.ui.widgets.core import (
    Handler,
    LayoutContext,
    Node,
    Rect,
    Widget,
    make_node,
)


@dataclass(slots=True)
class ListItem(Widget):
    """A row: optional avatar letter, title, subtitle, trailing text; tappable as a whole.

    `action` is a slot at the right end for a control of its own (an IconButton's ⋯, a Chip,
    a Toggle-like Button): tapping it runs its handler, not the row's."""

    title: str
    subtitle: str = ""
    trailing: str = ""
    leading: str | None = None
    on_tap: Handler | None = None
    on_long_press: Handler | None = None
    id: str = ""
    leading_color: Color | None = None
    badge: int = 0
    selected: bool = False
    action: IconButton | Chip | Button | None = None

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(200 if self.subtitle else 150)

    def _action_width(self, lc: LayoutContext) -> int:
        if isinstance(self.action, IconButton):
            return lc.px(self.action.size)
        if isinstance(self.action, Chip):
            return self.action.chip_width(lc)
        return lc.px(240) if self.action is not None else 0

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        height = lc.measure(self, width)
        pad = lc.px(40)
        children: list[Node] = []
        text_left = x + pad
        right_end = x + width - pad
        if self.action is not None:
            action_width = self._action_width(lc)
            action_height = lc.measure(self.action, action_width)
            action_left = right_end - action_width
            top = y + (height - action_height) // 2
            children.append(self.action.place(lc, action_left, top, action_width, clip))
            right_end = action_left - lc.px(20)
        if self.leading is not None:
            side = lc.px(120)
            top = y + (height - side) // 2
            children.append(
                make_node(
                    "avatar",
                    lc,
                    (x + pad, top, x + pad + side, top + side),
                    clip,
                    lines=(self.leading[:1],),
                    fill=self.leading_color or lc.theme.primary,
                    radius=side // 2,
                    text_color=theme.WHITE,
                    text_size=lc.px(52),
                    align="center",
                )
            )
            text_left = x + pad + side + lc.px(36)
        trailing_width = 0
        if self.trailing:
            trailing_width = min(text_width(self.trailing, lc.px(36)), width // 3)
            right = right_end
            children.append(
                make_node(
                    "text",
                    lc,
                    (right - trailing_width, y + lc.px(40), right, y + lc.px(100)),
                    clip,
                    text=self.trailing,
                    lines=(self.trailing,),
                    text_color=theme.TEXT_SECONDARY,
                    text_size=lc.px(36),
                    align="right",
                )
            )
        title_width = max(1, right_end - trailing_width - lc.px(20) - text_left)
        title_top = y + (lc.px(36) if self.subtitle else (height - lc.px(66)) // 2)
        children.append(
            make_node(
                "text",
                lc,
                (text_left, title_top, text_left + title_width, title_top + lc.px(66)),
                clip,
                text=self.title,
                lines=wrap(self.title, lc.px(46), False, title_width, 1),
                text_size=lc.px(46),
            )
        )
        if self.subtitle:
            sub_top = title_top + lc.px(72)
            children.append(
                make_node(
                    "text",
                    lc,
                    (text_left, sub_top, text_left + title_width, sub_top + lc.px(56)),
                    clip,
                    text=self.subtitle,
                    text_color=theme.TEXT_SECONDARY,
                    text_size=lc.px(36),
                    lines=wrap(self.subtitle, lc.px(36), False, title_width, 1),
                )
            )
        if self.badge:
            side = lc.px(56)
            right = right_end
            children.append(
                make_node(
                    "badge",
                    lc,
                    (right - side, y + height - side - lc.px(30), right, y + height - lc.px(30)),
                    clip,
                    lines=(str(self.badge),),
                    fill=theme.DANGER,
                    radius=side // 2,
                    text_color=theme.WHITE,
                    text_size=lc.px(30),
                    align="center",
                )
            )
        children.append(
            make_node(
                "divider",
                lc,
                (text_left, y + height - 1, x + width, y + height),
                clip,
                fill=theme.DIVIDER,
            )
        )
        return make_node(
            "list_item",
            lc,
            (x, y, x + width, y + height),
            clip,
            resource_id=lc.rid(self.id),
            on_tap=self.on_tap,
            on_long_press=self.on_long_press,
            clickable=self.on_tap is not None,
            selected=self.selected,
            children=children,
            fill=theme.SURFACE,
        )
