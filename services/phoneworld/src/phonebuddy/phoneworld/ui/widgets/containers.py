"""Containers: columns, rows, wrapping rows, cards, tabs and the app bar."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.text import line_height, wrap
from phonebuddy.phoneworld.ui.theme import Color

if TYPE_CHECKING:
    pass
from phonebuddy.phoneworld.ui.widgets.controls import Chip, IconButton
from phonebuddy.phoneworld.ui.widgets.core import (
    Handler,
    LayoutContext,
    Node,
    Rect,
    Widget,
    make_node,
)


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
