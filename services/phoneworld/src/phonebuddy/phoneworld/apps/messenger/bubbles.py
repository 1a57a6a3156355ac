"""Message bubbles of the messenger's chats: text bubbles with the sender's avatar, and the
link, mini-program, transfer and location cards a message may carry."""

from __future__ import annotations

from dataclasses import dataclass

from phonebuddy.phoneworld.apps.messenger.widgets import (
    BUBBLE_GREEN,
    BUBBLE_PADDING,
    WECHAT_GREEN,
    avatar_node,
    text_node,
)
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.text import line_height, text_width, wrap
from phonebuddy.phoneworld.ui.theme import Color
from phonebuddy.phoneworld.ui.widgets import Handler, LayoutContext, Node, Rect, Widget, make_node


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
class _MessageLayout:
    """Where a message's avatar goes, and the left and top of its bubble (under the sender's
    name in a group)."""

    avatar: Rect
    bubble_left: int
    top: int


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
        avatar = avatar_node(lc, layout.avatar, clip, self.avatar_label, self.avatar_color)
        avatar.on_tap, avatar.clickable = self.on_avatar, self.on_avatar is not None
        children = [avatar]
        if self.sender and not self.mine:
            children.append(
                text_node(
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
        children = [avatar_node(lc, layout.avatar, clip, self.avatar_label, self.avatar_color)]
        if self.sender and not self.mine:
            children.append(
                text_node(
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
            text_node(
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
                text_node(
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
            text_node(
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
