"""The seat map of the movie mini-program: rows of seats, sold and chosen ones, and the screen
edge."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from phonebuddy.phoneworld.apps.messenger.widgets import (
    SEAT_FREE_OUTLINE,
    SEAT_SOLD,
    WECHAT_GREEN,
    text_node,
)
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.text import line_height
from phonebuddy.phoneworld.ui.widgets import Handler, LayoutContext, Node, Rect, Widget, make_node


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
                text_node(
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
