"""What a screen returns and what floats over it: the page (app bar, header, scrolling body,
bottom bar), scroll views, dialogs and bottom sheets."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import Color

if TYPE_CHECKING:
    from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui.widgets.containers import AppBar, Column, Row
from phonebuddy.phoneworld.ui.widgets.controls import Button, IconButton, Text
from phonebuddy.phoneworld.ui.widgets.core import (
    Handler,
    LayoutContext,
    Node,
    Rect,
    Widget,
    make_node,
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
    # A pager: a swipe up that scrolls nothing (the next video), a swipe left or right (the
    # next or previous tab); the body then reports itself scrollable.
    on_swipe_up: Handler | None = None
    on_swipe_left: Handler | None = None
    on_swipe_right: Handler | None = None

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
            on_swipe_up=self.on_swipe_up,
            on_swipe_left=self.on_swipe_left,
            on_swipe_right=self.on_swipe_right,
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
    on_swipe_up: Handler | None = None
    on_swipe_left: Handler | None = None
    on_swipe_right: Handler | None = None

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
            scrollable=max_offset > 0
            or any((self.on_swipe_up, self.on_swipe_left, self.on_swipe_right)),
            scroll_id=self.id,
            on_pull_down=self.on_pull_down,
            on_swipe_up=self.on_swipe_up,
            on_swipe_left=self.on_swipe_left,
            on_swipe_right=self.on_swipe_right,
        )


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
            on_tap=swallow,
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
            on_tap=self.on_dismiss or swallow,
        )

    def measure(self, lc: LayoutContext, width: int) -> int:
        raise TypeError("a BottomSheet is an overlay; use place_overlay")

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        raise TypeError("a BottomSheet is an overlay; use place_overlay")


def swallow(interaction: Interaction) -> None:
    """Taps on a modal scrim are consumed and do nothing (the device refuses them before any
    handler runs, so they cost no rollback copy)."""
    interaction.no_op("tap outside the dialog")


Overlay = Dialog | BottomSheet
