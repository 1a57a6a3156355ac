"""The system shell: composes status bar, launcher or app screen, keyboard and overlays into
one node tree, and answers what is under a point."""

from __future__ import annotations

from typing import TYPE_CHECKING

from phonebuddy.phoneworld.app import View
from phonebuddy.phoneworld.system import friction, keyboard, launcher, overlays
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import AppBar, Handler, LayoutContext, Node, Page, Rect

if TYPE_CHECKING:
    from phonebuddy.phoneworld.device import Device

LAUNCHER_PACKAGE = "com.pw.launcher"
SYSTEM_PACKAGE = "com.android.systemui"
STATUS_BAR = 84
NAV_BAR = 60


def status_bar_height(scale: float) -> int:
    return round(STATUS_BAR * scale)


def _status_bar(device: Device, width: int) -> Node:
    height = status_bar_height(device.scale)
    clock = device.device_time()[11:16]
    settings = device.state["os"]["settings"]
    icons = " ".join(
        label
        for label, on in (
            ("飞行", settings["airplane_mode"]),
            ("Wi-Fi", settings["wifi"]),
            ("BT", settings["bluetooth"]),
            ("勿扰", settings["do_not_disturb"]),
        )
        if on
    )
    size = round(36 * device.scale)
    pad = round(40 * device.scale)
    children = [
        Node(
            "text",
            (pad, 0, width // 2, height),
            (pad, 0, width // 2, height),
            text=clock,
            lines=(clock,),
            text_size=size,
            bold=True,
            padding=(height - round(size * 1.45)) // 2,
            resource_id=f"{SYSTEM_PACKAGE}:id/clock",
        ),
        Node(
            "text",
            (width // 2, 0, width - pad, height),
            (width // 2, 0, width - pad, height),
            text=f"{icons} 88%".strip(),
            lines=(f"{icons}  88%".strip(),),
            text_size=size,
            align="right",
            padding=(height - round(size * 1.45)) // 2,
        ),
    ]
    dark = settings["dark_mode"]
    for child in children:
        child.text_color = theme.WHITE if dark else theme.TEXT
    rect = (0, 0, width, height)
    return Node(
        "status_bar",
        rect,
        rect,
        children=children,
        z=2,
        package=SYSTEM_PACKAGE,
        fill=(30, 30, 30) if dark else (250, 250, 250),
    )


def _nav_bar(device: Device, width: int, height: int) -> Node:
    bar = round(NAV_BAR * device.scale)
    rect = (0, height - bar, width, height)
    handle_w, handle_h = round(280 * device.scale), max(2, round(12 * device.scale))
    cx, cy = width // 2, height - bar // 2
    handle = (cx - handle_w // 2, cy - handle_h // 2, cx + handle_w // 2, cy + handle_h // 2)
    return Node(
        "nav_bar",
        rect,
        rect,
        z=2,
        package=SYSTEM_PACKAGE,
        fill=(250, 250, 250),
        children=[Node("handle", handle, handle, fill=(60, 60, 60), radius=handle_h // 2)],
    )


def back_handler(page: Page) -> Handler | None:
    """A page's own Back behaviour, from `on_back` or its app bar's."""
    if page.on_back is not None:
        return page.on_back
    return page.title.on_back if isinstance(page.title, AppBar) else None


def current_page(device: Device, package: str) -> Page:
    """The widgets of `package`'s top screen (no layout: cheap)."""
    app = device.world.app(package)
    entry = device.top_entry(package)
    view = View(
        app=app,
        data=device.state["apps"][package],
        content=device.world.content(package),
        entry=entry,
        os_state=device.state["os"],
        all_data=device.state["apps"],
    )
    return app.screens[entry["screen"]](app, view)


def compose(device: Device) -> tuple[Node, dict[str, int]]:
    """The whole screen as one node tree, plus how far each scroll container can scroll."""
    width, height = device.screen.width, device.screen.height
    ui = device.state["ui"]
    top = status_bar_height(device.scale)
    bottom = height - round(NAV_BAR * device.scale)
    package = device.foreground
    focus = ui["focus"]
    show_keyboard = focus is not None and package is not None and focus["package"] == package
    keyboard_node = None
    keyboard_top = None  # where a keyboard drawn over the page begins (the covers friction)
    if show_keyboard:
        keyboard_node = keyboard.place(device, (0, 0, width, bottom))
        if friction.keyboard_covers(device):
            keyboard_top = keyboard_node.bounds[1]
        else:
            bottom = keyboard_node.bounds[1]
    content_rect: Rect = (0, top, width, bottom)
    extents: dict[str, int] = {}

    if package is None:
        lc = LayoutContext(
            scale=device.scale,
            package=LAUNCHER_PACKAGE,
            scroll_offsets=dict(ui["launcher"].get("scroll", {})),
        )
        content = launcher.page(device).place_page(lc, content_rect)
        content.package = LAUNCHER_PACKAGE
        overlay = None
    else:
        app = device.world.app(package)
        entry = device.top_entry(package)
        lc = LayoutContext(
            scale=device.scale,
            package=package,
            theme=app.theme,
            scroll_offsets=dict(entry.get("scroll", {})),
            focused_field=focus["field"] if show_keyboard else None,
            keyboard_top=keyboard_top,
        )
        page = current_page(device, package)
        content = page.place_page(lc, content_rect)
        content.package = package
        overlay = page.overlay.place_overlay(lc, content_rect) if page.overlay else None
        if overlay is not None:
            overlay.package = package
    extents.update(lc.scroll_extents)

    screen_rect = (0, 0, width, height)
    children = [content, _status_bar(device, width), _nav_bar(device, width, height)]
    if overlay is not None:
        children.append(overlay)
    if keyboard_node is not None:
        children.append(keyboard_node)
    system_overlay = overlays.place(device, (0, top, width, height - round(NAV_BAR * device.scale)))
    if system_overlay is not None:
        children.append(system_overlay)
    if ui["toast"]:
        children.append(overlays.toast(device, ui["toast"], content_rect))
    root = Node("screen", screen_rect, screen_rect, children=children, fill=theme.BACKGROUND)
    return root, extents


def paint_order(node: Node) -> list[Node]:
    return sorted(node.children, key=lambda child: child.z)


def _contains(rect: Rect | None, point: tuple[int, int]) -> bool:
    return rect is not None and rect[0] <= point[0] < rect[2] and rect[1] <= point[1] < rect[3]


class _Blocked(Exception):  # noqa: N818 (control flow inside hit_test)
    pass


def hit_test(root: Node, point: tuple[int, int], *, long: bool) -> Node | None:
    """The topmost, deepest node under `point` that reacts to a tap (or long press)."""

    def search(node: Node) -> Node | None:
        if not _contains(node.visible, point):
            return None
        for child in reversed(paint_order(node)):
            found = search(child)
            if found is not None:
                return found
        if long:
            if node.on_long_press is not None:
                return node
            if node.kind == "scrim":  # a modal layer: nothing below it is reachable
                raise _Blocked
            return None
        if (node.clickable and node.on_tap is not None) or node.focusable:
            return node
        return None

    try:
        return search(root)
    except _Blocked:
        return None


def scroll_at(root: Node, point: tuple[int, int]) -> Node | None:
    def search(node: Node) -> Node | None:
        if not _contains(node.visible, point):
            return None
        for child in reversed(paint_order(node)):
            found = search(child)
            if found is not None:
                return found
        if node.kind == "scrim":
            return node  # blocks scrolling of what lies beneath a modal layer
        return node if node.scroll_id is not None else None

    found = search(root)
    return found if found is not None and found.scroll_id is not None else None


def text_at(root: Node, point: tuple[int, int]) -> Node | None:
    """The topmost node showing text under `point` (for the long-press copy/paste menu)."""

    def search(node: Node) -> Node | None:
        if not _contains(node.visible, point):
            return None
        for child in reversed(paint_order(node)):
            found = search(child)
            if found is not None:
                return found
        if node.kind == "scrim":
            raise _Blocked
        if node.kind == "text_field" or (node.kind == "text" and node.text):
            return node
        return None

    try:
        return search(root)
    except _Blocked:
        return None
