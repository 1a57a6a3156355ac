"""System overlays: notification shade, recent apps, share sheet, permission dialog, the
copy/paste text menu, and toasts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from phonebuddy.phoneworld.system import friction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Dialog,
    Handler,
    LayoutContext,
    ListItem,
    Node,
    Rect,
    Text,
    Toggle,
)

if TYPE_CHECKING:
    from phonebuddy.phoneworld.device import Device
    from phonebuddy.phoneworld.interaction import Interaction

SYSTEM_PACKAGE = "com.android.systemui"
PERMISSION_NAMES = {
    "location": "位置信息",
    "camera": "相机",
    "contacts": "通讯录",
    "microphone": "麦克风",
    "notifications": "通知",
    "storage": "照片和文件",
    "calendar": "日历",
}
QUICK_SETTINGS = (
    ("wifi", "WLAN"),
    ("bluetooth", "蓝牙"),
    ("do_not_disturb", "勿扰模式"),
    ("dark_mode", "深色模式"),
    ("airplane_mode", "飞行模式"),
)


def _close(it: Interaction) -> None:
    it.device.state["ui"]["overlay"] = None


def _toggle_setting(key: str) -> Handler:
    def handler(it: Interaction) -> None:
        settings = it.device.state["os"]["settings"]
        settings[key] = not settings[key]

    return handler


def _open_notification(notification_id: str) -> Handler:
    def handler(it: Interaction) -> None:
        device = it.device
        notifications = device.state["os"]["notifications"]
        match = next(n for n in notifications if n["id"] == notification_id)
        notifications.remove(match)
        device.state["ui"]["overlay"] = None
        device.launch(match["package"])
        if match["screen"]:
            device.push_screen(match["package"], match["screen"], match["params"])

    return handler


def _clear_notifications(it: Interaction) -> None:
    it.device.state["os"]["notifications"] = []


def _shade(device: Device) -> BottomSheet:
    settings = device.state["os"]["settings"]
    toggles = [
        Toggle(label, bool(settings[key]), _toggle_setting(key), id=f"qs_{key}")
        for key, label in QUICK_SETTINGS
    ]
    notifications = [
        ListItem(
            n["title"],
            subtitle=n["text"],
            leading=device.world.app(n["package"]).label.zh,
            leading_color=device.world.app(n["package"]).theme.primary,
            on_tap=_open_notification(n["id"]),
            id=f"notification_{n['id']}",
        )
        for n in reversed(device.state["os"]["notifications"])
    ]
    body = [*toggles, Text("通知", size=40, bold=True, padding=10)]
    body += notifications or [Text("没有通知", color=theme.TEXT_SECONDARY, padding=10)]
    if notifications:
        body.append(
            Button("清除全部", _clear_notifications, id="clear_notifications", style="secondary")
        )
    return BottomSheet("快捷设置", body, on_dismiss=_close, id="notification_shade")


def _launch(package: str) -> Handler:
    return lambda it: it.device.launch(package)


def _clear_recents(it: Interaction) -> None:
    """Close every app, as Android's "clear all" does, and show the home screen."""
    ui = it.device.state["ui"]
    ui["recents"] = []
    ui["stacks"] = {}
    it.device.go_home()


def _recents(device: Device) -> BottomSheet:
    items = [
        ListItem(
            device.world.app(p).label.zh,
            subtitle=p,
            leading=device.world.app(p).label.zh,
            leading_color=device.world.app(p).theme.primary,
            on_tap=_launch(p),
            id=f"recent_{p.rsplit('.', 1)[-1]}",
        )
        for p in device.state["ui"]["recents"]
    ]
    if not items:
        items = [Text("没有最近使用的应用", color=theme.TEXT_SECONDARY)]
    else:
        items.append(Button("清除全部", _clear_recents, id="clear_recents", style="secondary"))
    return BottomSheet("最近使用", items, on_dismiss=_close, id="recents")


def _share_to(package: str, payload: dict[str, Any]) -> Handler:
    def handler(it: Interaction) -> None:
        device = it.device
        device.state["ui"]["overlay"] = None
        device.launch(package)
        target = it.for_app(package)
        device.world.app(package).receive_share(target, payload)

    return handler


def _share(device: Device, overlay: dict[str, Any]) -> BottomSheet:
    payload = overlay["payload"]
    targets = [
        ListItem(
            app.label.zh,
            leading=app.icon_text or app.label.zh,
            leading_color=app.theme.primary,
            on_tap=_share_to(app.package, payload),
            id=f"share_{app.package.rsplit('.', 1)[-1]}",
        )
        for app in device.world.apps
        if app.accepts_shares and app.package != overlay["from"]
    ]
    preview = Text(str(payload.get("text", "")), color=theme.TEXT_SECONDARY, max_lines=3)
    return BottomSheet("分享到", [preview, *targets], on_dismiss=_close, id="share_sheet")


def _answer_permission(package: str, permission: str, granted: bool) -> Handler:
    def handler(it: Interaction) -> None:
        device = it.device
        device.state["os"]["permissions"].setdefault(package, {})[permission] = granted
        device.state["ui"]["overlay"] = None
        device.state["ui"]["overlay"] = friction.after_splash(device, package)

    return handler


def _permission(device: Device, overlay: dict[str, Any]) -> Dialog:
    package, permission = overlay["package"], overlay["permission"]
    app = device.world.app(package)
    name = PERMISSION_NAMES.get(permission, permission)
    return Dialog(
        f"允许「{app.label.zh}」访问你的{name}？",
        message="你可以随时在设置中更改。",
        buttons=[
            Button(
                "拒绝",
                _answer_permission(package, permission, False),
                id="permission_deny",
                style="secondary",
            ),
            Button("允许", _answer_permission(package, permission, True), id="permission_allow"),
        ],
        id="permission_dialog",
    )


def _copy(text: str) -> Handler:
    def handler(it: Interaction) -> None:
        it.device.state["os"]["clipboard"] = text
        it.device.state["ui"]["overlay"] = None
        it.device.state["ui"]["toast"] = "已复制"

    return handler


def _paste(it: Interaction) -> None:
    it.device.state["ui"]["overlay"] = None
    it.device.paste(it.device.state["os"]["clipboard"])


def _clear(it: Interaction) -> None:
    it.device.state["ui"]["overlay"] = None
    it.device.clear_focused()


def _text_menu(device: Device, overlay: dict[str, Any]) -> BottomSheet:
    if overlay["kind"] == "copy":
        body = [
            Text(overlay["text"], color=theme.TEXT_SECONDARY, max_lines=3),
            Button("复制", _copy(overlay["text"]), id="menu_copy"),
        ]
    else:  # a focused field: paste the clipboard, or select all and delete
        body = [
            Button("粘贴", _paste, id="menu_paste", enabled=bool(device.state["os"]["clipboard"])),
            Button("清空", _clear, id="menu_clear", style="secondary"),
        ]
    return BottomSheet("文本", body, on_dismiss=_close, id="text_menu")


def place(device: Device, area: Rect) -> Node | None:
    overlay = device.state["ui"]["overlay"]
    if overlay is None:
        return None
    kind = overlay["kind"]
    if kind == "splash":
        return friction.splash(device, overlay, area)
    if kind == "loading":
        return friction.loading(device, overlay, area)
    widget: BottomSheet | Dialog
    if kind == "popup":
        widget = friction.popup(device, overlay)
    elif kind == "login":
        widget = friction.login(device, overlay)
    elif kind == "shade":
        widget = _shade(device)
    elif kind == "recents":
        widget = _recents(device)
    elif kind == "share":
        widget = _share(device, overlay)
    elif kind == "permission":
        widget = _permission(device, overlay)
    else:
        widget = _text_menu(device, overlay)
    # A pop-up and a login sheet are the app's own, with the app's ids; the rest belong to the
    # system.
    package = overlay["package"] if kind in ("popup", "login") else SYSTEM_PACKAGE
    lc = LayoutContext(scale=device.scale, package=package)
    node = widget.place_overlay(lc, area)
    node.z = 6
    node.package = lc.package
    return node


def toast(device: Device, text: str, area: Rect) -> Node:
    scale = device.scale
    size = round(38 * scale)
    width = min(
        area[2] - area[0] - round(160 * scale), round(len(text) * size * 1.1) + round(100 * scale)
    )
    height = round(120 * scale)
    cx = (area[0] + area[2]) // 2
    top = area[3] - height - round(200 * scale)
    rect = (cx - width // 2, top, cx + width // 2, top + height)
    return Node(
        "toast",
        rect,
        rect,
        text=text,
        lines=(text,),
        fill=(50, 50, 50),
        radius=height // 2,
        text_color=theme.WHITE,
        text_size=size,
        align="center",
        z=7,
        package=SYSTEM_PACKAGE,
    )
