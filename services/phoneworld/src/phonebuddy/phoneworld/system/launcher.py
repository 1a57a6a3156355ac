"""The home screen: a grid of app icons, and an app drawer listing every app by name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.app import App
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Handler,
    LayoutContext,
    ListItem,
    Node,
    Page,
    Rect,
    Row,
    Widget,
    make_node,
)

if TYPE_CHECKING:
    from phonebuddy.phoneworld.device import Device
    from phonebuddy.phoneworld.interaction import Interaction

COLUMNS = 4


def icon_id(app: App) -> str:
    return "icon_" + app.package.rsplit(".", 1)[-1]


@dataclass(slots=True)
class AppIcon(Widget):
    app: App
    on_tap: Handler

    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(270)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        side = lc.px(150)
        left = x + (width - side) // 2
        top = y + lc.px(20)
        glyph = self.app.icon_text or self.app.label.zh[:1]
        icon = make_node(
            "avatar",
            lc,
            (left, top, left + side, top + side),
            clip,
            lines=(glyph,),
            fill=self.app.theme.primary,
            radius=lc.px(40),
            text_color=self.app.theme.on_primary,
            text_size=lc.px(60 if len(glyph) == 1 else 44),
            align="center",
        )
        label_top = top + side + lc.px(12)
        label = make_node(
            "text",
            lc,
            (x, label_top, x + width, label_top + lc.px(60)),
            clip,
            text=self.app.label.zh,
            lines=(self.app.label.zh,),
            text_size=lc.px(36),
            align="center",
            text_color=theme.WHITE,
        )
        return make_node(
            "app_icon",
            lc,
            (x, y, x + width, y + lc.px(270)),
            clip,
            resource_id=lc.rid(icon_id(self.app)),
            desc=self.app.label.zh,
            text=self.app.label.zh,
            on_tap=self.on_tap,
            clickable=True,
            children=[icon, label],
        )


def _launch(package: str) -> Handler:
    return lambda it: it.device.launch(package)


def _set_drawer(open_: bool) -> Handler:
    def handler(it: Interaction) -> None:
        it.device.state["ui"]["launcher"] = {"drawer": open_}

    return handler


def page(device: Device) -> Page:
    apps = list(device.world.apps)
    if device.state["ui"]["launcher"].get("drawer"):
        ordered = sorted(apps, key=lambda app: app.label.en.lower())
        items = [
            ListItem(
                app.label.zh,
                subtitle=app.label.en,
                leading=app.icon_text or app.label.zh,
                leading_color=app.theme.primary,
                on_tap=_launch(app.package),
                id=f"drawer_{icon_id(app).removeprefix('icon_')}",
            )
            for app in ordered
        ]
        return Page(
            "全部应用",
            items,
            on_back=_set_drawer(False),
            scroll_id="drawer",
            background=theme.SURFACE,
        )
    rows = []
    for i in range(0, len(apps), COLUMNS):
        cells: list[Widget] = [AppIcon(app, _launch(app.package)) for app in apps[i : i + COLUMNS]]
        # Keep the columns aligned on a short last row.
        cells += [_EmptyCell() for _ in range(COLUMNS - len(cells))]
        rows.append(Row(cells, spacing=0))
    drawer = Button("全部应用", _set_drawer(True), id="all_apps", style="secondary")
    return Page(
        None,
        [*rows, drawer],
        scroll_id="home",
        background=(48, 79, 124),
        body_padding=30,
        spacing=10,
    )


@dataclass(slots=True)
class _EmptyCell(Widget):
    def measure(self, lc: LayoutContext, width: int) -> int:
        return lc.px(270)

    def place(self, lc: LayoutContext, x: int, y: int, width: int, clip: Rect | None) -> Node:
        return make_node("spacer", lc, (x, y, x + width, y + lc.px(270)), clip)
