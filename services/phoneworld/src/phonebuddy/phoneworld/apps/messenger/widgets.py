"""Widgets drawn the way WeChat draws them: the grey title bar, rounded-square avatars, chat
rows with unread badges, message bubbles, link and mini-program cards, the mini-program
capsule bar, and the seat map of the movie mini-program.

They produce the same node kinds as the shared widgets (text, avatar, card, chip...), so the
renderer, hit-testing and the UI tree treat them like any other widget.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.text import line_height, text_width, wrap
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import (
    Handler,
    IconButton,
    LayoutContext,
    Node,
    Rect,
    Widget,
    make_node,
)

WECHAT_GREEN: Color = (7, 193, 96)
BUBBLE_GREEN: Color = (149, 236, 105)
BAR_GREY: Color = (237, 237, 237)
CHAT_BACKGROUND: Color = (237, 237, 237)
NICKNAME_BLUE: Color = (87, 107, 149)
LIGHT_TEXT: Color = (178, 178, 178)
SEAT_SOLD: Color = (214, 214, 214)
SEAT_FREE_OUTLINE: Color = (150, 200, 160)
BUBBLE_PADDING = 28
Align = Literal["left", "center", "right"]


def avatar_node(lc: LayoutContext, rect: Rect, clip: Rect | None, label: str, color: Color) -> Node:
    side = rect[2] - rect[0]
    return make_node(
        "avatar",
        lc,
        rect,
        clip,
        lines=(label[:1],),
        fill=color,
        radius=max(4, side // 9),
        text_color=theme.WHITE,
        text_size=side * 2 // 5,
        align="center",
    )


def text_node(
    lc: LayoutContext,
    rect: Rect,
    clip: Rect | None,
    text: str,
    *,
    size: int,
    color: Color = theme.TEXT,
    bold: bool = False,
    max_lines: int = 1,
    align: Align = "left",
    resource_id: str = "",
) -> Node:
    width = max(1, rect[2] - rect[0])
    return make_node(
        "text",
        lc,
        rect,
        clip,
        text=text,
        lines=wrap(text, size, bold, width, max_lines),
        text_size=size,
        text_color=color,
        bold=bold,
        align=align,
        resource_id=resource_id,
    )


@dataclass(slots=True)
class NavBar(Widget):
    """WeChat's title bar: light grey, the title centred, a back arrow and action icons."""

    title: str
    on_back: Handler | None = None
    actions: Sequence[IconButton] = ()
    fill: Color = BAR_GREY
    color: Color = theme.TEXT

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(170)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        height = self.measure(lc, width)
        side = lc.px(120)
        top = y + (height - side) // 2
        children = []
        if self.on_back is not None:
            back = IconButton("back", "返回", self.on_back, id="back", color=self.color)
            children.append(back.place(lc, x + lc.px(16), top, side, clip))
        right = x + width - lc.px(16)
        for action in reversed(list(self.actions)):
            action.color = action.color or self.color
            right -= lc.px(action.size)
            children.append(action.place(lc, right, top, side, clip))
        # Centred on the screen, clear of the wider side.
        margin = max(x + width - right, side + lc.px(16))
        title_rect = (x + margin, top, x + width - margin, top + side)
        title = text_node(
            lc,
            title_rect,
            clip,
            self.title,
            size=lc.px(50),
            bold=True,
            color=self.color,
            align="center",
            resource_id=lc.rid("toolbar_title"),
        )
        title.padding = (side - line_height(lc.px(50))) // 2
        children.append(title)
        return make_node(
            "app_bar", lc, (x, y, x + width, y + height), clip, children=children, fill=self.fill
        )


@dataclass(slots=True)
class Avatar(Widget):
    """A rounded-square avatar showing the first character of a name."""

    label: str
    color: Color
    size: int = 120
    on_tap: Handler | None = None
    id: str = ""

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(self.size)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        side = min(width, lc.px(self.size))
        node = avatar_node(lc, (x, y, x + side, y + side), clip, self.label, self.color)
        node.resource_id = lc.rid(self.id)
        node.desc = self.label
        node.on_tap = self.on_tap
        node.clickable = self.on_tap is not None
        return node


@dataclass(slots=True)
class ChatRow(Widget):
    """A row of the chat list: avatar with an unread badge, name, last message, time."""

    title: str
    preview: str
    time: str
    avatar_label: str
    avatar_color: Color
    on_tap: Handler | None
    id: str
    unread: int = 0

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(190)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        height = self.measure(lc, width)
        pad, side = lc.px(36), lc.px(124)
        top = y + (height - side) // 2
        children = [
            avatar_node(
                lc,
                (x + pad, top, x + pad + side, top + side),
                clip,
                self.avatar_label,
                self.avatar_color,
            )
        ]
        if self.unread:
            dot = lc.px(52)
            label = str(self.unread) if self.unread < 100 else "99+"
            badge = (x + pad + side - dot * 2 // 3, top - dot // 3)
            children.append(
                make_node(
                    "badge",
                    lc,
                    (badge[0], badge[1], badge[0] + dot, badge[1] + dot),
                    clip,
                    text=label,
                    lines=(label,),
                    fill=theme.DANGER,
                    radius=dot // 2,
                    text_color=theme.WHITE,
                    text_size=lc.px(30),
                    align="center",
                )
            )
        text_left = x + pad + side + lc.px(32)
        right = x + width - pad
        time_width = text_width(self.time, lc.px(32)) + lc.px(8)
        title_top = y + lc.px(38)
        children.append(
            text_node(
                lc,
                (right - time_width, title_top, right, title_top + lc.px(56)),
                clip,
                self.time,
                size=lc.px(32),
                color=LIGHT_TEXT,
                align="right",
            )
        )
        children.append(
            text_node(
                lc,
                (text_left, title_top, right - time_width - lc.px(16), title_top + lc.px(66)),
                clip,
                self.title,
                size=lc.px(48),
            )
        )
        preview_top = title_top + lc.px(72)
        children.append(
            text_node(
                lc,
                (text_left, preview_top, right, preview_top + lc.px(56)),
                clip,
                self.preview,
                size=lc.px(38),
                color=LIGHT_TEXT,
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
            text=self.title,
            on_tap=self.on_tap,
            clickable=self.on_tap is not None,
            children=children,
            fill=theme.SURFACE,
        )


@dataclass(slots=True)
class MiniProgramBar(Widget):
    """The host's top bar over a mini-program: its name in the middle and, on the right, the
    capsule (··· for the menu, ⊙ to close) that every mini-program shows instead of an app bar."""

    title: str
    on_more: Handler
    on_close: Handler
    on_back: Handler | None = None
    fill: Color = theme.SURFACE

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(170)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        height = self.measure(lc, width)
        side = lc.px(120)
        top = y + (height - side) // 2
        children = []
        if self.on_back is not None:
            back = IconButton("back", "返回", self.on_back, id="mini_back", color=theme.TEXT)
            children.append(back.place(lc, x + lc.px(16), top, side, clip))
        capsule_w, capsule_h = lc.px(240), lc.px(88)
        capsule_right = x + width - lc.px(30)
        capsule = (
            capsule_right - capsule_w,
            y + (height - capsule_h) // 2,
            capsule_right,
            y + (height + capsule_h) // 2,
        )
        half = capsule_w // 2
        buttons = [
            make_node(
                "icon_button",
                lc,
                (capsule[0], capsule[1], capsule[0] + half, capsule[3]),
                clip,
                resource_id=lc.rid("mini_more"),
                desc="更多",
                icon="more",
                on_tap=self.on_more,
                clickable=True,
                text_color=theme.TEXT,
            ),
            make_node(
                "divider",
                lc,
                (
                    capsule[0] + half,
                    capsule[1] + lc.px(22),
                    capsule[0] + half + max(1, lc.px(2)),
                    capsule[3] - lc.px(22),
                ),
                clip,
                fill=theme.DIVIDER,
            ),
            make_node(
                "icon_button",
                lc,
                (capsule[0] + half, capsule[1], capsule[2], capsule[3]),
                clip,
                resource_id=lc.rid("mini_close"),
                desc="关闭小程序",
                icon="⊙",
                on_tap=self.on_close,
                clickable=True,
                text_color=theme.TEXT,
            ),
        ]
        children.append(
            make_node(
                "card",
                lc,
                capsule,
                clip,
                children=buttons,
                fill=theme.SURFACE,
                outline=theme.DIVIDER,
                radius=capsule_h // 2,
            )
        )
        margin = capsule_w + lc.px(40)
        title = text_node(
            lc,
            (x + margin, top, x + width - margin, top + side),
            clip,
            self.title,
            size=lc.px(48),
            bold=True,
            align="center",
            resource_id=lc.rid("mini_title"),
        )
        title.padding = (side - line_height(lc.px(48))) // 2
        children.append(title)
        return make_node(
            "app_bar", lc, (x, y, x + width, y + height), clip, children=children, fill=self.fill
        )


@dataclass(slots=True)
class Tile(Widget):
    """An icon with a caption under it (the recent mini-programs grid, the service grid)."""

    label: str
    glyph: str
    color: Color
    on_tap: Handler | None
    id: str
    caption_color: Color = theme.TEXT

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(230)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        side = lc.px(130)
        left = x + (width - side) // 2
        icon = make_node(
            "avatar",
            lc,
            (left, y + lc.px(16), left + side, y + lc.px(16) + side),
            clip,
            lines=(self.glyph,),
            fill=self.color,
            radius=side // 2,
            text_color=theme.WHITE,
            text_size=lc.px(50),
            align="center",
        )
        caption_top = y + lc.px(16) + side + lc.px(14)
        caption = text_node(
            lc,
            (x, caption_top, x + width, caption_top + lc.px(56)),
            clip,
            self.label,
            size=lc.px(34),
            color=self.caption_color,
            align="center",
        )
        return make_node(
            "app_icon",
            lc,
            (x, y, x + width, y + self.measure(lc, width)),
            clip,
            resource_id=lc.rid(self.id),
            text=self.label,
            desc=self.label,
            on_tap=self.on_tap,
            clickable=self.on_tap is not None,
            children=[icon, caption],
        )


@dataclass(slots=True)
class ContactRow(Widget):
    """A row of the contact list: a rounded-square avatar and the name."""

    title: str
    avatar_label: str
    avatar_color: Color
    on_tap: Handler | None
    id: str

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(150)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        height = self.measure(lc, width)
        pad, side = lc.px(36), lc.px(100)
        top = y + (height - side) // 2
        text_left = x + pad + side + lc.px(32)
        children = [
            avatar_node(
                lc,
                (x + pad, top, x + pad + side, top + side),
                clip,
                self.avatar_label,
                self.avatar_color,
            ),
            text_node(
                lc,
                (
                    text_left,
                    y + (height - lc.px(66)) // 2,
                    x + width - pad,
                    y + (height + lc.px(66)) // 2,
                ),
                clip,
                self.title,
                size=lc.px(46),
            ),
            make_node(
                "divider",
                lc,
                (text_left, y + height - 1, x + width, y + height),
                clip,
                fill=theme.DIVIDER,
            ),
        ]
        return make_node(
            "list_item",
            lc,
            (x, y, x + width, y + height),
            clip,
            resource_id=lc.rid(self.id),
            text=self.title,
            on_tap=self.on_tap,
            clickable=self.on_tap is not None,
            children=children,
            fill=theme.SURFACE,
        )


@dataclass(slots=True)
class Beside(Widget):
    """An avatar at the top left and a column of content to its right (a moments post)."""

    avatar: Avatar
    children: Sequence[Widget | None]
    spacing: int = 14
    padding: int = 36
    fill: Color = theme.SURFACE
    id: str = ""

    def _column_width(self, lc: LayoutContext, width: int) -> int:
        return width - 2 * lc.px(self.padding) - lc.px(self.avatar.size) - lc.px(28)

    def _kids(self) -> list[Widget]:
        return [child for child in self.children if child is not None]

    def measure(self, lc: LayoutContext, width: int) -> int:
        inner = self._column_width(lc, width)
        kids = self._kids()
        column = sum(kid.measure(lc, inner) for kid in kids)
        column += lc.px(self.spacing) * max(0, len(kids) - 1)
        return max(column, lc.px(self.avatar.size)) + 2 * lc.px(self.padding)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        pad = lc.px(self.padding)
        children = [self.avatar.place(lc, x + pad, y + pad, lc.px(self.avatar.size), clip)]
        left = x + pad + lc.px(self.avatar.size) + lc.px(28)
        inner = self._column_width(lc, width)
        cursor = y + pad
        for kid in self._kids():
            node = kid.place(lc, left, cursor, inner, clip)
            children.append(node)
            cursor = node.bounds[3] + lc.px(self.spacing)
        return make_node(
            "column",
            lc,
            (x, y, x + width, y + self.measure(lc, width)),
            clip,
            children=children,
            fill=self.fill,
            resource_id=lc.rid(self.id),
        )
