"""Leaf widgets: text, buttons, icon buttons, text fields, images, dividers, spacers, toggles
and chips."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.text import line_height, one_line, text_width, wrap
from phonebuddy.phoneworld.ui.theme import Color

if TYPE_CHECKING:
    pass
from phonebuddy.phoneworld.ui.widgets.core import (
    Handler,
    LayoutContext,
    Node,
    Rect,
    Widget,
    make_node,
)


@dataclass(slots=True)
class Text(Widget):
    text: str
    size: int = 40
    color: Color = theme.TEXT
    bold: bool = False
    max_lines: int = 50
    align: Literal["left", "center", "right"] = "left"
    id: str = ""
    on_tap: Handler | None = None
    on_long_press: Handler | None = None
    padding: int = 0

    def _lines(self, lc: LayoutContext, width: int) -> tuple[str, ...]:
        inner = max(1, width - 2 * lc.px(self.padding))
        return wrap(self.text, lc.px(self.size), self.bold, inner, self.max_lines)

    def measure(self, lc: LayoutContext, width: int) -> int:
        lines = self._lines(lc, width)
        return len(lines) * line_height(lc.px(self.size)) + 2 * lc.px(self.padding)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        height = lc.measure(self, width)
        return make_node(
            "text",
            lc,
            (x, y, x + width, y + height),
            clip,
            resource_id=lc.rid(self.id),
            text=self.text,
            lines=self._lines(lc, width),
            text_color=self.color,
            text_size=lc.px(self.size),
            bold=self.bold,
            align=self.align,
            on_tap=self.on_tap,
            on_long_press=self.on_long_press,
            clickable=self.on_tap is not None,
            padding=lc.px(self.padding),
        )


@dataclass(slots=True)
class Button(Widget):
    text: str
    on_tap: Handler | None
    id: str = ""
    style: Literal["primary", "secondary", "text", "danger"] = "primary"
    enabled: bool = True
    height: int = 130
    size: int = 42

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(self.height)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        fill: Color | None
        if not self.enabled:
            fill, color, outline = theme.DISABLED, theme.WHITE, None
        elif self.style == "primary":
            fill, color, outline = lc.theme.primary, lc.theme.on_primary, None
        elif self.style == "danger":
            fill, color, outline = theme.DANGER, theme.WHITE, None
        elif self.style == "secondary":
            fill, color, outline = theme.SURFACE, lc.theme.text_accent, lc.theme.text_accent
        else:
            fill, color, outline = None, lc.theme.text_accent, None
        rect = (x, y, x + width, y + lc.px(self.height))
        return make_node(
            "button",
            lc,
            rect,
            clip,
            resource_id=lc.rid(self.id),
            text=self.text,
            lines=(self.text,),
            on_tap=self.on_tap if self.enabled else None,
            clickable=self.enabled and self.on_tap is not None,
            enabled=self.enabled,
            fill=fill,
            outline=outline,
            radius=lc.px(self.height) // 2,
            text_color=color,
            text_size=lc.px(self.size),
            bold=True,
            align="center",
        )


@dataclass(slots=True)
class IconButton(Widget):
    """A square button showing a drawn icon (search, back, close, plus, more, ...) or a glyph."""

    icon: str
    desc: str
    on_tap: Handler | None
    id: str = ""
    size: int = 120
    color: Color | None = None
    badge: int = 0

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(self.size)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        side = lc.px(self.size)
        text = str(self.badge) if self.badge else ""
        return make_node(
            "icon_button",
            lc,
            (x, y, x + side, y + side),
            clip,
            resource_id=lc.rid(self.id),
            desc=self.desc,
            icon=self.icon,
            on_tap=self.on_tap,
            clickable=self.on_tap is not None,
            text_color=self.color or theme.TEXT,
            text=text,
            text_size=lc.px(self.size * 0.4),
        )


@dataclass(slots=True)
class TextField(Widget):
    """An editable field. `value` is its current text (kept in UI state by the screen);
    tapping it focuses it, after which `type` actions and the keyboard write into it."""

    id: str
    value: str = ""
    placeholder: str = ""
    on_focus: Handler | None = None
    on_submit: Handler | None = None
    multiline: bool = False
    size: int = 42

    def measure(self, lc: LayoutContext, width: int) -> int:
        if not self.multiline:
            return lc.px(130)
        inner = width - 2 * lc.px(36)
        lines = wrap(self.value or self.placeholder, lc.px(self.size), False, inner, 12)
        return max(lc.px(260), len(lines) * line_height(lc.px(self.size)) + lc.px(60))

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        height = lc.measure(self, width)
        focused = lc.focused_field == self.id
        shown = self.value or self.placeholder
        inner = width - 2 * lc.px(36)
        if self.multiline:
            lines = wrap(shown, lc.px(self.size), False, inner, 12)
        else:  # a single-line field shows line breaks as spaces, as Android's does
            lines = wrap(one_line(shown), lc.px(self.size), False, inner, 1)
        return make_node(
            "text_field",
            lc,
            (x, y, x + width, y + height),
            clip,
            resource_id=lc.rid(self.id),
            text=self.value,
            desc=self.placeholder,
            lines=lines,
            on_tap=self.on_focus,
            on_submit=self.on_submit,
            clickable=True,
            focusable=True,
            focused=focused,
            multiline=self.multiline,
            fill=theme.FIELD_BACKGROUND,
            outline=lc.theme.primary if focused else None,
            radius=lc.px(24),
            text_color=theme.TEXT if self.value else theme.TEXT_SECONDARY,
            text_size=lc.px(self.size),
            padding=lc.px(36),
        )


@dataclass(slots=True)
class Image(Widget):
    """A placeholder picture: a coloured block with a caption (product photo, poster, map)."""

    label: str
    height: int = 400
    color: Color = (200, 214, 229)
    id: str = ""
    on_tap: Handler | None = None

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(self.height)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        rect = (x, y, x + width, y + lc.px(self.height))
        return make_node(
            "image",
            lc,
            rect,
            clip,
            resource_id=lc.rid(self.id),
            desc=self.label,
            lines=(self.label,),
            fill=self.color,
            radius=lc.px(20),
            text_color=theme.WHITE,
            text_size=lc.px(44),
            align="center",
            on_tap=self.on_tap,
            clickable=self.on_tap is not None,
        )


@dataclass(slots=True)
class Divider(Widget):
    def measure(self, lc: LayoutContext, width: int) -> int:
        return max(1, lc.px(2))

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        return make_node(
            "divider", lc, (x, y, x + width, y + self.measure(lc, width)), clip, fill=theme.DIVIDER
        )


@dataclass(slots=True)
class Spacer(Widget):
    height: int = 24

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(self.height)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        return make_node("spacer", lc, (x, y, x + width, y + lc.px(self.height)), clip)


@dataclass(slots=True)
class Toggle(Widget):
    label: str
    checked: bool
    on_toggle: Handler | None
    id: str = ""
    subtitle: str = ""

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(190 if self.subtitle else 150)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        height = lc.measure(self, width)
        pad = lc.px(40)
        switch_w, switch_h = lc.px(130), lc.px(70)
        sx, sy = x + width - pad - switch_w, y + (height - switch_h) // 2
        label_width = sx - x - 2 * pad
        title_top = y + (lc.px(30) if self.subtitle else (height - lc.px(66)) // 2)
        children = [
            make_node(
                "text",
                lc,
                (x + pad, title_top, sx - pad, title_top + lc.px(66)),
                clip,
                text=self.label,
                lines=wrap(self.label, lc.px(46), False, label_width, 1),
                text_size=lc.px(46),
            ),
            make_node(
                "switch",
                lc,
                (sx, sy, sx + switch_w, sy + switch_h),
                clip,
                checked=self.checked,
                fill=lc.theme.primary if self.checked else theme.DISABLED,
                radius=switch_h // 2,
            ),
        ]
        if self.subtitle:
            top = title_top + lc.px(70)
            children.append(
                make_node(
                    "text",
                    lc,
                    (x + pad, top, sx - pad, top + lc.px(56)),
                    clip,
                    text=self.subtitle,
                    lines=wrap(self.subtitle, lc.px(34), False, label_width, 1),
                    text_color=theme.TEXT_SECONDARY,
                    text_size=lc.px(34),
                )
            )
        return make_node(
            "toggle",
            lc,
            (x, y, x + width, y + height),
            clip,
            resource_id=lc.rid(self.id),
            text=self.label,
            on_tap=self.on_toggle,
            clickable=self.on_toggle is not None,
            checkable=True,
            checked=self.checked,
            children=children,
            fill=theme.SURFACE,
        )


@dataclass(slots=True)
class Chip(Widget):
    """A small selectable pill (filters, SKU options, tags)."""

    text: str
    on_tap: Handler | None
    selected: bool = False
    id: str = ""

    def chip_width(self, lc: LayoutContext) -> int:
        return text_width(self.text, lc.px(38)) + 2 * lc.px(40)

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(100)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        rect = (x, y, x + min(width, self.chip_width(lc)), y + lc.px(100))
        primary = lc.theme.primary
        return make_node(
            "chip",
            lc,
            rect,
            clip,
            resource_id=lc.rid(self.id),
            text=self.text,
            lines=(self.text,),
            on_tap=self.on_tap,
            clickable=self.on_tap is not None,
            selected=self.selected,
            checkable=True,
            checked=self.selected,
            fill=primary if self.selected else theme.FIELD_BACKGROUND,
            text_color=lc.theme.on_primary if self.selected else theme.TEXT,
            radius=lc.px(50),
            text_size=lc.px(38),
            align="center",
        )
