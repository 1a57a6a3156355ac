"""The layout machinery every widget shares: the layout context (scale, theme, scroll and
focus state, measurement cache), the placed `Node`, clipping and the `Widget` base."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from phonebuddy.phoneworld.ui import theme
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
    # A pager's swipes (a feed of videos, tabs side by side): up past the end, left, right.
    on_swipe_up: Handler | None = None
    on_swipe_left: Handler | None = None
    on_swipe_right: Handler | None = None
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


def clip_rect(rect: Rect, clip: Rect | None) -> Rect | None:
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
    return Node(kind=kind, bounds=rect, visible=clip_rect(rect, clip), **props)
