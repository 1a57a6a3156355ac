"""The widget set and its layout pass.

A screen is a function of (app data, UI state) that returns a tree of these widgets. `place()`
turns the tree into `Node`s with pixel bounds; the renderer draws those nodes, and hit-testing
and the UI tree read the very same nodes, so what is drawn is what is tapped.

Sizes are design pixels for a 1080-pixel-wide screen (`LayoutContext.px` scales them).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.text import line_height, one_line, text_width, wrap
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

if TYPE_CHECKING:
    from phonebuddy.phoneworld.interaction import Interaction

Handler = Callable[["Interaction"], None]
Rect = tuple[int, int, int, int]


@dataclass(slots=True)
class LayoutContext:
    """What layout needs besides the widgets: scale, theme, view state of scrolls and focus."""

    scale: float
    package: str
    theme: AppTheme = theme.DEFAULT_THEME
    scroll_offsets: dict[str, int] = field(default_factory=dict)
    focused_field: str | None = None
    # With the keyboard drawn over the page (adjustPan), where it begins: a page's scrolling
    # body ends there, so fields can be scrolled into view, but its bottom bar stays under it.
    keyboard_top: int | None = None
    # Filled during layout: content height of every scroll container, for clamping swipes.
    scroll_extents: dict[str, int] = field(default_factory=dict)
    # Heights measured in this layout pass. Containers measure children, then place them, and
    # placing measures again, so without this a deep tree is measured once per level. The
    # widget is kept in the value so its id() cannot be reused within the pass.
    _heights: dict[tuple[int, int], tuple[Widget, int]] = field(default_factory=dict)
    _pixels: dict[float, int] = field(default_factory=dict)

    def measure(self, widget: Widget, width: int) -> int:
        key = (id(widget), width)
        cached = self._heights.get(key)
        if cached is None:
            cached = (widget, widget.measure(self, width))
            self._heights[key] = cached
        return cached[1]

    def px(self, design: float) -> int:
        # Called ~10,000 times per layout of a long page with a few dozen distinct values.
        cached = self._pixels.get(design)
        if cached is None:
            cached = self._pixels[design] = max(0, round(design * self.scale))
        return cached

    def rid(self, widget_id: str) -> str:
        return f"{self.package}:id/{widget_id}" if widget_id else ""


@dataclass(slots=True, eq=False)
class Node:
    """A widget placed on screen. `visible` is the part not clipped away by a scroll container
    (None when fully hidden); only that part can be tapped and appears in the UI tree."""

    kind: str
    bounds: Rect
    visible: Rect | None = None
    resource_id: str = ""
    text: str = ""
    desc: str = ""
    on_tap: Handler | None = None
    on_long_press: Handler | None = None
    on_submit: Handler | None = None
    on_pull_down: Handler | None = None
    clickable: bool = False
    focusable: bool = False
    focused: bool = False
    multiline: bool = False  # a text field where Enter starts a new line
    checkable: bool = False
    checked: bool = False
    selected: bool = False
    enabled: bool = True
    scroll_id: str | None = None
    scrollable: bool = False
    package: str | None = None
    z: int = 0
    children: list[Node] = field(default_factory=list)
    # Drawing only:
    fill: Color | None = None
    outline: Color | None = None
    radius: int = 0
    text_color: Color = theme.TEXT
    text_size: int = 40
    bold: bool = False
    lines: tuple[str, ...] = ()
    align: Literal["left", "center", "right"] = "left"
    icon: str | None = None
    padding: int = 0

    def walk(self) -> list[Node]:
        nodes = [self]
        for child in self.children:
            nodes.extend(child.walk())
        return nodes


def _clip(rect: Rect, clip: Rect | None) -> Rect | None:
    if clip is None:
        return rect
    left, top = max(rect[0], clip[0]), max(rect[1], clip[1])
    right, bottom = min(rect[2], clip[2]), min(rect[3], clip[3])
    if right <= left or bottom <= top:
        return None
    return (left, top, right, bottom)


class Widget:
    """Base: `measure` says how tall the widget is at a width; `place` builds its Node."""

    def measure(self, lc: LayoutContext, width: int) -> int:
        raise NotImplementedError

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        raise NotImplementedError


def make_node(kind: str, lc: LayoutContext, rect: Rect, clip: Rect | None, **props: Any) -> Node:
    """A node at `rect`, visible where `clip` allows; for custom widgets' `place()`."""
    return Node(kind=kind, bounds=rect, visible=_clip(rect, clip), **props)


# -- content widgets -------------------------------------------------------------------------


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


# -- containers ------------------------------------------------------------------------------


@dataclass(slots=True)
class Column(Widget):
    children: Sequence[Widget | None]
    spacing: int = 0
    padding: int = 0
    fill: Color | None = None
    id: str = ""
    on_tap: Handler | None = None

    def _kids(self) -> list[Widget]:
        return [child for child in self.children if child is not None]

    def measure(self, lc: LayoutContext, width: int) -> int:
        inner = width - 2 * lc.px(self.padding)
        kids = self._kids()
        heights = sum(lc.measure(child, inner) for child in kids)
        return heights + lc.px(self.spacing) * max(0, len(kids) - 1) + 2 * lc.px(self.padding)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        pad = lc.px(self.padding)
        inner = width - 2 * pad
        spacing = lc.px(self.spacing)
        nodes = []
        cursor = y + pad
        last_bottom = y
        for child in self._kids():
            # A child wholly outside the clip would be dropped from the tree and not drawn:
            # it only takes its (already measured) room. Long lists lay out what shows. While
            # a field has focus everything is laid out: Enter submits the focused field even
            # when the keyboard hides it.
            if clip is not None and lc.focused_field is None:
                height = lc.measure(child, inner)
                if cursor >= clip[3] or cursor + height <= clip[1]:
                    last_bottom = cursor + height
                    cursor = last_bottom + spacing
                    continue
            node = child.place(lc, x + pad, cursor, inner, clip)
            nodes.append(node)
            last_bottom = node.bounds[3]
            cursor = last_bottom + spacing
        bottom = last_bottom + pad
        return make_node(
            "column",
            lc,
            (x, y, x + width, bottom),
            clip,
            children=nodes,
            fill=self.fill,
            resource_id=lc.rid(self.id),
            on_tap=self.on_tap,
            clickable=self.on_tap is not None,
        )


@dataclass(slots=True)
class Row(Widget):
    """Children side by side. Fixed-width children (icon buttons, chips) keep their width; the
    rest share what is left, in proportion to `weights` (equal by default)."""

    children: Sequence[Widget | None]
    spacing: int = 24
    weights: Sequence[float] | None = None
    id: str = ""
    align: Literal["center", "top"] = "center"

    def _kids(self) -> list[Widget]:
        return [child for child in self.children if child is not None]

    def _widths(self, lc: LayoutContext, width: int) -> list[int]:
        kids = self._kids()
        gap = lc.px(self.spacing) * max(0, len(kids) - 1)
        fixed = {
            i: (lc.px(kid.size) if isinstance(kid, IconButton) else kid.chip_width(lc))
            for i, kid in enumerate(kids)
            if isinstance(kid, IconButton | Chip)
        }
        flexible = [i for i in range(len(kids)) if i not in fixed]
        weights = list(self.weights) if self.weights else [1.0] * len(kids)
        total_weight = sum(weights[i] for i in flexible) or 1.0
        free = max(0, width - gap - sum(fixed.values()))
        return [
            fixed[i] if i in fixed else int(free * weights[i] / total_weight)
            for i in range(len(kids))
        ]

    def measure(self, lc: LayoutContext, width: int) -> int:
        kids = self._kids()
        widths = self._widths(lc, width)
        return max((lc.measure(kid, w) for kid, w in zip(kids, widths, strict=True)), default=0)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        nodes = []
        cursor = x
        height = lc.measure(self, width)
        for kid, kid_width in zip(self._kids(), self._widths(lc, width), strict=True):
            kid_height = lc.measure(kid, kid_width)
            top = y if self.align == "top" else y + (height - kid_height) // 2
            node = kid.place(lc, cursor, top, kid_width, clip)
            nodes.append(node)
            cursor += kid_width + lc.px(self.spacing)
        return make_node(
            "row",
            lc,
            (x, y, x + width, y + height),
            clip,
            children=nodes,
            resource_id=lc.rid(self.id),
        )


@dataclass(slots=True)
class Wrap(Widget):
    """Chips flowing onto as many lines as they need."""

    children: Sequence[Chip]
    spacing: int = 24
    id: str = ""

    def _positions(self, lc: LayoutContext, width: int) -> list[tuple[int, int]]:
        positions = []
        cx = cy = 0
        gap = lc.px(self.spacing)
        line = lc.px(100) + gap
        for chip in self.children:
            w = min(width, chip.chip_width(lc))
            if cx and cx + w > width:
                cx, cy = 0, cy + line
            positions.append((cx, cy))
            cx += w + gap
        return positions

    def measure(self, lc: LayoutContext, width: int) -> int:
        positions = self._positions(lc, width)
        return positions[-1][1] + lc.px(100) if positions else 0

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        nodes = [
            chip.place(lc, x + dx, y + dy, width - dx, clip)
            for chip, (dx, dy) in zip(self.children, self._positions(lc, width), strict=True)
        ]
        height = lc.measure(self, width)
        return make_node(
            "wrap",
            lc,
            (x, y, x + width, y + height),
            clip,
            children=nodes,
            resource_id=lc.rid(self.id),
        )


@dataclass(slots=True)
class Card(Widget):
    children: Sequence[Widget | None]
    on_tap: Handler | None = None
    on_long_press: Handler | None = None
    id: str = ""
    padding: int = 36
    spacing: int = 12
    fill: Color = theme.SURFACE

    def _column(self) -> Column:
        return Column(self.children, spacing=self.spacing, padding=self.padding)

    def measure(self, lc: LayoutContext, width: int) -> int:
        return self._column().measure(lc, width)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        inner = self._column().place(lc, x, y, width, clip)
        return make_node(
            "card",
            lc,
            inner.bounds,
            clip,
            resource_id=lc.rid(self.id),
            children=inner.children,
            on_tap=self.on_tap,
            on_long_press=self.on_long_press,
            clickable=self.on_tap is not None,
            fill=self.fill,
            radius=lc.px(28),
        )


@dataclass(slots=True)
class Tabs(Widget):
    """A tab strip (`top`) or a bottom navigation bar (`bottom`); `on_select(tab_id)` gives the
    handler of each tab."""

    items: Sequence[tuple[str, str]]
    selected: str
    on_select: Callable[[str], Handler]
    style: Literal["top", "bottom"] = "top"
    id: str = "tabs"

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(150 if self.style == "bottom" else 130)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        height = lc.measure(self, width)
        n = max(1, len(self.items))
        nodes = []
        for i, (tab_id, label) in enumerate(self.items):
            left = x + width * i // n
            right = x + width * (i + 1) // n
            selected = tab_id == self.selected
            color = lc.theme.text_accent if selected else theme.TEXT_SECONDARY
            underline = []
            if selected and self.style == "top":
                thick = max(2, lc.px(8))
                bar = (left + lc.px(40), y + height - thick, right - lc.px(40), y + height)
                underline.append(make_node("divider", lc, bar, clip, fill=lc.theme.primary))
            nodes.append(
                make_node(
                    "tab",
                    lc,
                    (left, y, right, y + height),
                    clip,
                    resource_id=lc.rid(f"tab_{tab_id}"),
                    text=label,
                    lines=(label,),
                    on_tap=self.on_select(tab_id),
                    clickable=True,
                    selected=selected,
                    text_color=color,
                    text_size=lc.px(40),
                    bold=selected,
                    align="center",
                    children=underline,
                )
            )
        return make_node(
            "tabs",
            lc,
            (x, y, x + width, y + height),
            clip,
            resource_id=lc.rid(self.id),
            children=nodes,
            fill=theme.SURFACE,
            outline=theme.DIVIDER,
        )


@dataclass(slots=True)
class AppBar(Widget):
    title: str
    on_back: Handler | None = None
    actions: Sequence[IconButton] = ()
    subtitle: str = ""

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(170)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        height = lc.measure(self, width)
        side = lc.px(120)
        top = y + (height - side) // 2
        children = []
        left = x + lc.px(16)
        if self.on_back is not None:
            back = IconButton("back", "返回", self.on_back, id="back", color=lc.theme.on_primary)
            children.append(back.place(lc, left, top, side, clip))
            left += side
        right = x + width - lc.px(16)
        for action in reversed(list(self.actions)):
            action.color = action.color or lc.theme.on_primary
            right -= lc.px(action.size)
            children.append(action.place(lc, right, top, side, clip))
        title_left = left + lc.px(24)
        children.append(
            make_node(
                "text",
                lc,
                (title_left, top, right, top + side),
                clip,
                resource_id=lc.rid("toolbar_title"),
                text=self.title,
                lines=wrap(self.title, lc.px(52), True, max(1, right - title_left), 1),
                text_color=lc.theme.on_primary,
                text_size=lc.px(52),
                bold=True,
                padding=(side - line_height(lc.px(52))) // 2,
            )
        )
        return make_node(
            "app_bar",
            lc,
            (x, y, x + width, y + height),
            clip,
            children=children,
            fill=lc.theme.primary,
            z=1,
        )


@dataclass(slots=True)
class Page(Widget):
    """An app screen: an app bar, a scrolling body filling the middle, an optional fixed bottom
    (tabs or an action bar). The body scrolls under the bars, which are drawn on top."""

    title: str | AppBar | None
    body: Sequence[Widget | None]
    bottom: Widget | None = None
    header: Widget | None = None
    scroll_id: str = "content"
    on_back: Handler | None = None
    actions: Sequence[IconButton] = ()
    background: Color | None = None
    body_padding: int = 0
    spacing: int = 0
    overlay: Dialog | BottomSheet | None = None
    on_pull_down: Handler | None = None

    def measure(self, lc: LayoutContext, width: int) -> int:
        raise TypeError("a Page fills the screen; lay it out with place_page")

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        raise TypeError("a Page fills the screen; lay it out with place_page")

    def place_page(self, lc: LayoutContext, rect: Rect) -> Node:
        x, y, right, bottom = rect
        width = right - x
        children = []
        cursor = y
        bar = (
            self.title
            if isinstance(self.title, AppBar)
            else (
                AppBar(self.title, on_back=self.on_back, actions=self.actions)
                if self.title is not None
                else None
            )
        )
        fixed_top: list[Node] = []
        if bar is not None:
            fixed_top.append(bar.place(lc, x, cursor, width, rect))
            cursor = fixed_top[-1].bounds[3]
        if self.header is not None:
            header = self.header.place(lc, x, cursor, width, rect)
            header.z = 1
            fixed_top.append(header)
            cursor = header.bounds[3]
        bottom_node = None
        body_bottom = bottom
        if self.bottom is not None:
            height = lc.measure(self.bottom, width)
            bottom_node = self.bottom.place(lc, x, bottom - height, width, rect)
            if lc.keyboard_top is not None and any(n.focused for n in bottom_node.walk()):
                # the field being typed in is panned into view with its bar (a chat's input)
                bottom = lc.keyboard_top
                bottom_node = self.bottom.place(lc, x, bottom - height, width, rect)
            bottom_node.z = 1
            body_bottom = bottom - height
        if lc.keyboard_top is not None:
            body_bottom = min(body_bottom, lc.keyboard_top)
        body = ScrollView(
            self.scroll_id,
            self.body,
            padding=self.body_padding,
            spacing=self.spacing,
            on_pull_down=self.on_pull_down,
        ).place_viewport(lc, (x, cursor, right, body_bottom))
        children = [*fixed_top, body]
        if bottom_node is not None:
            children.append(bottom_node)
        return make_node(
            "page", lc, rect, rect, children=children, fill=self.background or lc.theme.background
        )


@dataclass(slots=True)
class ScrollView(Widget):
    """A vertical scroll container: its content is laid out at full height and shifted by the
    scroll offset kept in UI state; what falls outside the viewport is clipped."""

    id: str
    children: Sequence[Widget | None]
    padding: int = 0
    spacing: int = 0
    on_pull_down: Handler | None = None

    def measure(self, lc: LayoutContext, width: int) -> int:
        raise TypeError("a ScrollView fills the space it is given; use place_viewport")

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        raise TypeError("a ScrollView fills the space it is given; use place_viewport")

    def place_viewport(self, lc: LayoutContext, viewport: Rect) -> Node:
        x, y, right, bottom = viewport
        content = Column(self.children, spacing=self.spacing, padding=self.padding)
        content_height = content.measure(lc, right - x)
        max_offset = max(0, content_height - (bottom - y))
        offset = min(max(0, lc.scroll_offsets.get(self.id, 0)), max_offset)
        lc.scroll_offsets[self.id] = offset
        lc.scroll_extents[self.id] = max_offset
        placed = content.place(lc, x, y - offset, right - x, viewport)
        return make_node(
            "scroll",
            lc,
            viewport,
            viewport,
            resource_id=lc.rid(self.id),
            children=placed.children,
            scrollable=max_offset > 0,
            scroll_id=self.id,
            on_pull_down=self.on_pull_down,
        )


# -- overlays --------------------------------------------------------------------------------


@dataclass(slots=True)
class Dialog(Widget):
    """A modal dialog centred over a scrim. Taps outside it do nothing."""

    title: str
    message: str = ""
    buttons: Sequence[Button] = ()
    body: Sequence[Widget | None] = ()
    id: str = "dialog"

    def place_overlay(self, lc: LayoutContext, screen: Rect) -> Node:
        width = (screen[2] - screen[0]) - 2 * lc.px(90)
        content = Column(
            [
                Text(self.title, size=50, bold=True),
                Text(self.message, size=40, color=theme.TEXT_SECONDARY) if self.message else None,
                *self.body,
                Row(list(self.buttons), spacing=24) if self.buttons else None,
            ],
            spacing=40,
            padding=60,
        )
        height = content.measure(lc, width)
        x = screen[0] + lc.px(90)
        y = screen[1] + ((screen[3] - screen[1]) - height) // 2
        placed = content.place(lc, x, y, width, screen)
        box = make_node(
            "dialog",
            lc,
            placed.bounds,
            screen,
            resource_id=lc.rid(self.id),
            children=placed.children,
            fill=theme.SURFACE,
            radius=lc.px(40),
        )
        return make_node(
            "scrim",
            lc,
            screen,
            screen,
            children=[box],
            fill=theme.SCRIM,
            z=5,
            clickable=True,
            on_tap=_swallow,
        )

    def measure(self, lc: LayoutContext, width: int) -> int:
        raise TypeError("a Dialog is an overlay; use place_overlay")

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        raise TypeError("a Dialog is an overlay; use place_overlay")


@dataclass(slots=True)
class BottomSheet(Widget):
    """A sheet rising from the bottom over a scrim; tapping the scrim runs `on_dismiss`."""

    title: str
    children: Sequence[Widget | None]
    on_dismiss: Handler | None = None
    id: str = "sheet"

    def place_overlay(self, lc: LayoutContext, screen: Rect) -> Node:
        width = screen[2] - screen[0]
        content = Column(
            [Text(self.title, size=48, bold=True), *self.children], spacing=24, padding=48
        )
        full_height = content.measure(lc, width)
        height = min(full_height, (screen[3] - screen[1]) * 3 // 4)
        top = screen[3] - height
        sheet_rect = (screen[0], top, screen[2], screen[3])
        if full_height > height:  # too tall: the sheet's content scrolls
            scroller = ScrollView(
                f"{self.id}_scroll", [Text(self.title, size=48, bold=True), *self.children],
                spacing=24, padding=48,
            ).place_viewport(lc, sheet_rect)  # fmt: skip
            children = [scroller]
        else:
            children = content.place(lc, screen[0], top, width, sheet_rect).children
        sheet = make_node(
            "sheet",
            lc,
            sheet_rect,
            screen,
            resource_id=lc.rid(self.id),
            children=children,
            fill=theme.SURFACE,
            radius=lc.px(40),
        )
        return make_node(
            "scrim",
            lc,
            screen,
            screen,
            children=[sheet],
            fill=theme.SCRIM,
            z=5,
            resource_id=lc.rid(f"{self.id}_scrim"),
            clickable=True,
            on_tap=self.on_dismiss or _swallow,
        )

    def measure(self, lc: LayoutContext, width: int) -> int:
        raise TypeError("a BottomSheet is an overlay; use place_overlay")

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        raise TypeError("a BottomSheet is an overlay; use place_overlay")


def _swallow(interaction: Interaction) -> None:
    """Taps on a modal scrim are consumed and do nothing."""
    interaction.no_op("tap outside the dialog")


Overlay = Dialog | BottomSheet
