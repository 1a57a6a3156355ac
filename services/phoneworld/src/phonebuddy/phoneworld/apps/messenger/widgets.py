"""Widgets drawn the way WeChat draws them: the grey title bar, rounded-square avatars, chat
rows with unread badges, message bubbles, link and mini-program cards, the mini-program
capsule bar, and the seat map of the movie mini-program.

They produce the same node kinds as the shared widgets (text, avatar, card, chip...), so the
renderer, hit-testing and the UI tree treat them like any other widget.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
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


def _avatar_node(
    lc: LayoutContext, rect: Rect, clip: Rect | None, label: str, color: Color
) -> Node:
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


def _text_node(
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
        title = _text_node(
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
        node = _avatar_node(lc, (x, y, x + side, y + side), clip, self.label, self.color)
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
            _avatar_node(
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
            _text_node(
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
            _text_node(
                lc,
                (text_left, title_top, right - time_width - lc.px(16), title_top + lc.px(66)),
                clip,
                self.title,
                size=lc.px(48),
            )
        )
        preview_top = title_top + lc.px(72)
        children.append(
            _text_node(
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
class _MessageLayout:
    """Where a message's avatar goes, and the left and top of its bubble (under the sender's
    name in a group)."""

    avatar: Rect
    bubble_left: int
    top: int


def _message_layout(
    lc: LayoutContext, x: int, y: int, width: int, mine: bool, sender: str, content_width: int
) -> _MessageLayout:
    pad, side, gap = lc.px(32), lc.px(110), lc.px(22)
    avatar_left = x + width - pad - side if mine else x + pad
    top = y + lc.px(20)
    bubble_top = top + (lc.px(48) if sender and not mine else 0)
    bubble_left = avatar_left - gap - content_width if mine else avatar_left + side + gap
    return _MessageLayout(
        (avatar_left, top, avatar_left + side, top + side), bubble_left, bubble_top
    )


def _max_bubble_width(lc: LayoutContext, width: int) -> int:
    return width - 2 * (lc.px(32) + lc.px(110) + lc.px(22)) - lc.px(90)


@dataclass(slots=True)
class MessageBubble(Widget):
    """One chat message: the avatar on its side, a bubble sized to the text (green for mine).
    The bubble is a text node, so long-pressing it offers the system's copy menu."""

    text: str
    mine: bool
    avatar_label: str
    avatar_color: Color
    id: str
    sender: str = ""
    on_avatar: Handler | None = None

    def _lines(self, lc: LayoutContext, width: int) -> tuple[tuple[str, ...], int, int]:
        """The wrapped lines, and the bubble's width and height."""
        pad = lc.px(BUBBLE_PADDING)
        lines = wrap(self.text, lc.px(44), False, _max_bubble_width(lc, width) - 2 * pad, 60)
        inner = max((text_width(line, lc.px(44)) for line in lines), default=0)
        height = len(lines) * line_height(lc.px(44)) + 2 * pad
        return lines, max(inner, lc.px(20)) + 2 * pad, height

    def measure(self, lc: LayoutContext, width: int) -> int:
        _, bubble_width, bubble_height = self._lines(lc, width)
        layout = _message_layout(lc, 0, 0, width, self.mine, self.sender, bubble_width)
        return max(layout.avatar[3], layout.top + bubble_height) + lc.px(20)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        lines, bubble_width, bubble_height = self._lines(lc, width)
        layout = _message_layout(lc, x, y, width, self.mine, self.sender, bubble_width)
        avatar = _avatar_node(lc, layout.avatar, clip, self.avatar_label, self.avatar_color)
        avatar.on_tap, avatar.clickable = self.on_avatar, self.on_avatar is not None
        children = [avatar]
        if self.sender and not self.mine:
            children.append(
                _text_node(
                    lc,
                    (layout.bubble_left, layout.avatar[1], x + width, layout.avatar[1] + lc.px(44)),
                    clip,
                    self.sender,
                    size=lc.px(32),
                    color=theme.TEXT_SECONDARY,
                )
            )
        bubble = (
            layout.bubble_left,
            layout.top,
            layout.bubble_left + bubble_width,
            layout.top + bubble_height,
        )
        children.append(
            make_node(
                "text",
                lc,
                bubble,
                clip,
                resource_id=lc.rid(self.id),
                text=self.text,
                lines=lines,
                fill=BUBBLE_GREEN if self.mine else theme.SURFACE,
                radius=lc.px(14),
                text_size=lc.px(44),
                padding=lc.px(BUBBLE_PADDING),
            )
        )
        height = self.measure(lc, width)
        return make_node("row", lc, (x, y, x + width, y + height), clip, children=children)


@dataclass(slots=True)
class CardBubble(Widget):
    """A shared link or a mini-program card in a chat: a white card with a title, a line of
    description and a footer naming what it is; tapping it opens it."""

    title: str
    description: str
    footer: str
    mine: bool
    avatar_label: str
    avatar_color: Color
    on_tap: Handler | None
    id: str
    sender: str = ""
    accent: Color = WECHAT_GREEN

    def _width(self, lc: LayoutContext, width: int) -> int:
        return min(lc.px(640), _max_bubble_width(lc, width))

    def _content_height(self, lc: LayoutContext, width: int) -> int:
        inner = self._width(lc, width) - 2 * lc.px(30)
        title_lines = wrap(self.title, lc.px(42), True, inner, 2)
        desc_lines = wrap(self.description, lc.px(36), False, inner, 2) if self.description else ()
        return (
            lc.px(26)
            + len(title_lines) * line_height(lc.px(42))
            + len(desc_lines) * line_height(lc.px(36))
            + lc.px(30)
            + lc.px(70)
        )

    def measure(self, lc: LayoutContext, width: int) -> int:
        layout = _message_layout(lc, 0, 0, width, self.mine, self.sender, self._width(lc, width))
        return max(layout.avatar[3], layout.top + self._content_height(lc, width)) + lc.px(20)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        card_width = self._width(lc, width)
        layout = _message_layout(lc, x, y, width, self.mine, self.sender, card_width)
        children = [_avatar_node(lc, layout.avatar, clip, self.avatar_label, self.avatar_color)]
        if self.sender and not self.mine:
            children.append(
                _text_node(
                    lc,
                    (layout.bubble_left, layout.avatar[1], x + width, layout.avatar[1] + lc.px(44)),
                    clip,
                    self.sender,
                    size=lc.px(32),
                    color=theme.TEXT_SECONDARY,
                )
            )
        left, pad = layout.bubble_left, lc.px(30)
        inner = card_width - 2 * pad
        cursor = layout.top + lc.px(26)
        parts = []
        title_lines = wrap(self.title, lc.px(42), True, inner, 2)
        title_bottom = cursor + len(title_lines) * line_height(lc.px(42))
        parts.append(
            _text_node(
                lc,
                (left + pad, cursor, left + pad + inner, title_bottom),
                clip,
                self.title,
                size=lc.px(42),
                bold=True,
                max_lines=2,
            )
        )
        cursor = title_bottom
        if self.description:
            desc_lines = wrap(self.description, lc.px(36), False, inner, 2)
            desc_bottom = cursor + len(desc_lines) * line_height(lc.px(36))
            parts.append(
                _text_node(
                    lc,
                    (left + pad, cursor, left + pad + inner, desc_bottom),
                    clip,
                    self.description,
                    size=lc.px(36),
                    color=theme.TEXT_SECONDARY,
                    max_lines=2,
                )
            )
            cursor = desc_bottom
        cursor += lc.px(20)
        parts.append(
            make_node(
                "divider",
                lc,
                (left + pad, cursor, left + card_width - pad, cursor + 1),
                clip,
                fill=theme.DIVIDER,
            )
        )
        footer_top = cursor + lc.px(12)
        parts.append(
            _text_node(
                lc,
                (left + pad, footer_top, left + card_width - pad, footer_top + lc.px(50)),
                clip,
                self.footer,
                size=lc.px(32),
                color=self.accent,
            )
        )
        card_rect = (
            left,
            layout.top,
            left + card_width,
            layout.top + self._content_height(lc, width),
        )
        children.append(
            make_node(
                "card",
                lc,
                card_rect,
                clip,
                resource_id=lc.rid(self.id),
                desc=self.title,
                children=parts,
                on_tap=self.on_tap,
                clickable=self.on_tap is not None,
                fill=theme.SURFACE,
                radius=lc.px(14),
            )
        )
        height = self.measure(lc, width)
        return make_node("row", lc, (x, y, x + width, y + height), clip, children=children)


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
        title = _text_node(
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
class SeatMap(Widget):
    """A cinema hall as a grid of seat chips under the screen; sold seats cannot be chosen.
    Each seat's text is "5排6座", the way tickets name it."""

    rows: int
    columns: int
    sold: frozenset[str]
    selected: frozenset[str]
    on_seat: Callable[[str], Handler]

    @staticmethod
    def seat_name(row: int, column: int) -> str:
        return f"{row}排{column}座"

    def _cell(self, lc: LayoutContext, width: int) -> int:
        return min(lc.px(82), (width - lc.px(90)) // self.columns)

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(110) + self.rows * self._cell(lc, width) + lc.px(20)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        cell = self._cell(lc, width)
        grid_left = x + lc.px(90) + (width - lc.px(90) - cell * self.columns) // 2
        screen_rect = (
            grid_left + cell,
            y + lc.px(10),
            grid_left + cell * (self.columns - 1),
            y + lc.px(70),
        )
        children = [
            make_node(
                "text",
                lc,
                screen_rect,
                clip,
                text="银幕中央",
                lines=("银幕中央",),
                fill=(220, 220, 220),
                radius=lc.px(30),
                text_size=lc.px(32),
                text_color=theme.TEXT_SECONDARY,
                align="center",
                padding=(lc.px(60) - line_height(lc.px(32))) // 2,
            )
        ]
        top = y + lc.px(110)
        gap = max(2, lc.px(10))
        for row in range(1, self.rows + 1):
            row_top = top + (row - 1) * cell
            children.append(
                _text_node(
                    lc,
                    (x, row_top, x + lc.px(70), row_top + cell),
                    clip,
                    str(row),
                    size=lc.px(32),
                    color=theme.TEXT_SECONDARY,
                    align="center",
                )
            )
            for column in range(1, self.columns + 1):
                children.append(self._seat(lc, row, column, grid_left, row_top, cell, gap, clip))
        return make_node(
            "wrap",
            lc,
            (x, y, x + width, y + self.measure(lc, width)),
            clip,
            children=children,
            resource_id=lc.rid("seat_map"),
        )

    def _seat(
        self,
        lc: LayoutContext,
        row: int,
        column: int,
        grid_left: int,
        row_top: int,
        cell: int,
        gap: int,
        clip: Rect | None,
    ) -> Node:
        name = self.seat_name(row, column)
        left = grid_left + (column - 1) * cell
        rect = (left + gap // 2, row_top + gap // 2, left + cell - gap // 2, row_top + cell - gap)
        sold, chosen = name in self.sold, name in self.selected
        fill = SEAT_SOLD if sold else (WECHAT_GREEN if chosen else theme.SURFACE)
        return make_node(
            "chip",
            lc,
            rect,
            clip,
            resource_id=lc.rid(f"seat_{row}_{column}"),
            text=name,
            desc="已售" if sold else ("已选" if chosen else "可选"),
            on_tap=None if sold else self.on_seat(name),
            clickable=not sold,
            enabled=not sold,
            checkable=True,
            checked=chosen,
            selected=chosen,
            fill=fill,
            outline=None if sold or chosen else SEAT_FREE_OUTLINE,
            radius=lc.px(10),
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
        caption = _text_node(
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
            _avatar_node(
                lc,
                (x + pad, top, x + pad + side, top + side),
                clip,
                self.avatar_label,
                self.avatar_color,
            ),
            _text_node(
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
