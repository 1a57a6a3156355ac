"""Friction that real apps put between a user and the task: a splash screen at a cold launch
(skipped with 跳过, or gone after a few seconds), the first-run permission dialog, then a coupon
or upgrade pop-up, each shown at most once per episode; a login wall in front of some screens
(checkout, booking) when the episode starts logged out (tick the agreement, then 一键登录; 暂不登录
or back leaves the screen); a screen that is still loading the first time it opens (wait); and
a keyboard that covers the bottom of the screen instead of making room (hide it with back to
reach a button under it).

Which app shows what in an episode is seeded by (world seed, task seed, package), so a task is
the same every time it is played and a training set holds both the smooth and the rough start.
All of it is UI state: dismissing friction never changes app data, so verifiers stay exact; an
agent only has to learn to get past it. Devices have it only when reset with `friction=True`
(task episodes: `tasks.runner.start`); app tests drive the plain phone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from phonebuddy.phoneworld.interaction import NoOp
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Chip,
    Column,
    Dialog,
    LayoutContext,
    Node,
    Rect,
    Row,
    Spacer,
    Text,
    make_node,
)

if TYPE_CHECKING:
    from phonebuddy.phoneworld.app import App
    from phonebuddy.phoneworld.device import Device
    from phonebuddy.phoneworld.interaction import Interaction

SPLASH_SECONDS = 5
"""A splash ends by itself once the clock passes this (two actions of 3 s, or a wait)."""
SPLASH_CHANCE = 0.5
POPUP_CHANCE = 0.4
LOGIN_CHANCE = 0.3
LOADING_CHANCE = 0.4
LOADING_SECONDS = 4
KEYBOARD_COVERS_CHANCE = 0.3
SYSTEM = "com.android.systemui"
"""The plan's entry for friction of the phone itself rather than of one app."""
"""Longer than one action (3 s): the first tap on a loading screen does nothing; a wait ends it."""


@dataclass(frozen=True, slots=True)
class Popup:
    """A dialog an app shows once after launch: a coupon to claim or an upgrade to take."""

    title: str
    message: str
    action: str  # the call to action (立即领取, 立即更新): it only closes the dialog here
    close: str = "以后再说"
    toast: str = ""  # what the call to action answers with


@dataclass(frozen=True, slots=True)
class Friction:
    """What an app may put in the way: a splash slogan, a pop-up (None: neither), the screens
    behind its login wall and the screens that load for a while the first time they open."""

    splash: str | None = None
    popup: Popup | None = None
    login_screens: tuple[str, ...] = ()
    loading_screens: tuple[str, ...] = ()


NONE = Friction()


def plan(apps: Iterable[App], rng_of: Callable[[str], random.Random]) -> dict[str, list[str]]:
    """For each app, the friction it shows in an episode, in order; `rng_of(package)` is the
    episode's generator for that app (seeded by world seed, task seed and package)."""
    planned: dict[str, list[str]] = {}
    for app in apps:
        rng = rng_of(app.package)
        kinds = []
        if app.friction.splash is not None and rng.random() < SPLASH_CHANCE:
            kinds.append("splash")
        if app.friction.popup is not None and rng.random() < POPUP_CHANCE:
            kinds.append("popup")
        if app.friction.login_screens and rng.random() < LOGIN_CHANCE:
            kinds.append("login")
        if app.friction.loading_screens and rng.random() < LOADING_CHANCE:
            kinds.append("loading")
        if kinds:
            planned[app.package] = kinds
    if rng_of(SYSTEM).random() < KEYBOARD_COVERS_CHANCE:
        planned[SYSTEM] = ["keyboard_covers"]
    return planned


def keyboard_covers(device: Device) -> bool:
    """Whether the keyboard is drawn over the screen's bottom this episode (Android's
    adjustPan) rather than the app being laid out above it (adjustResize)."""
    return "keyboard_covers" in device.state["ui"].get("friction", {}).get(SYSTEM, [])


def _take(device: Device, package: str, kind: str) -> bool:
    pending = device.state["ui"].get("friction", {}).get(package, [])
    if kind not in pending:
        return False
    pending.remove(kind)
    return True


def after_splash(device: Device, package: str) -> dict[str, Any] | None:
    """The overlay that follows: the permission the app still has to ask, else its pop-up."""
    app = device.world.app(package)
    answered = device.state["os"]["permissions"].get(package, {})
    pending = [perm for perm in app.permissions if perm not in answered]
    if pending:
        return {"kind": "permission", "package": package, "permission": pending[0]}
    if _take(device, package, "popup"):
        return {"kind": "popup", "package": package}
    return None


def on_launch(device: Device, package: str, *, cold: bool) -> dict[str, Any] | None:
    """The overlay a launch shows: a splash on a cold start if planned, else what follows it."""
    if cold and _take(device, package, "splash"):
        clock = device.state["os"]["clock"]
        return {"kind": "splash", "package": package, "until": clock + SPLASH_SECONDS}
    return after_splash(device, package)


def on_push(device: Device, package: str, screen: str) -> None:
    """After a screen opens: the login wall in front of it, or its loading state, if planned."""
    ui = device.state["ui"]
    if ui["overlay"] is not None:
        return
    app = device.world.app(package)
    pending = ui.get("friction", {}).get(package, [])
    if "login" in pending and screen in app.friction.login_screens:
        ui["overlay"] = {"kind": "login", "package": package, "agreed": False}
    elif screen in app.friction.loading_screens and _take(device, package, "loading"):
        until = device.state["os"]["clock"] + LOADING_SECONDS
        ui["overlay"] = {"kind": "loading", "package": package, "until": until}


def expire(device: Device) -> None:
    """Before an action: a splash or a loading state whose time is up has gone."""
    overlay = device.state["ui"]["overlay"]
    if not overlay or overlay["kind"] not in ("splash", "loading"):
        return
    if device.state["os"]["clock"] >= overlay["until"]:
        done = overlay["kind"] == "splash"
        device.state["ui"]["overlay"] = after_splash(device, overlay["package"]) if done else None


def leave_login(device: Device) -> None:
    """暂不登录 (or back) at a login wall: the wall stays, the screen behind it closes."""
    overlay = device.state["ui"]["overlay"]
    device.state["ui"]["overlay"] = None
    device.pop_screen(overlay["package"])


def _skip(package: str) -> Any:
    def handler(it: Interaction) -> None:
        it.device.state["ui"]["overlay"] = after_splash(it.device, package)

    return handler


def _wait_for_splash(it: Interaction) -> None:
    raise NoOp("the splash screen is showing: skip it or wait")


def _close_popup(toast: str) -> Any:
    def handler(it: Interaction) -> None:
        it.device.state["ui"]["overlay"] = None
        if toast:
            it.device.state["ui"]["toast"] = toast

    return handler


def splash(device: Device, overlay: dict[str, Any], area: Rect) -> Node:
    """The app's full-screen splash: its name and slogan, 跳过 with the seconds left."""
    app = device.world.app(overlay["package"])
    left = max(1, overlay["until"] - device.state["os"]["clock"])
    lc = LayoutContext(scale=device.scale, package=app.package, theme=app.theme)
    width = area[2] - area[0]
    skip = Row([Spacer(height=0), Button(f"跳过 {left}", _skip(app.package), id="splash_skip",
                                         style="secondary", height=100, size=36)],
               weights=(3, 1))  # fmt: skip
    content = Column(
        [
            skip,
            Spacer(height=round((area[3] - area[1]) * 0.3 / device.scale)),
            Text(app.label.zh, size=96, bold=True, align="center", color=app.theme.on_primary),
            Text(app.friction.splash or "", size=44, align="center", color=app.theme.on_primary),
        ],
        spacing=40,
        padding=40,
    )
    placed = content.place(lc, area[0], area[1], width, area)
    return make_node(
        "page",
        lc,
        area,
        area,
        resource_id=lc.rid("splash"),
        children=placed.children,
        fill=app.theme.primary,
        z=6,
        clickable=True,
        on_tap=_wait_for_splash,
        package=app.package,
    )


def _toggle_agreement(it: Interaction) -> None:
    overlay = it.device.state["ui"]["overlay"]
    overlay["agreed"] = not overlay["agreed"]


def _log_in(it: Interaction) -> None:
    overlay = it.device.state["ui"]["overlay"]
    if not overlay["agreed"]:
        it.device.state["ui"]["toast"] = "请先阅读并勾选同意协议"
        raise NoOp("tick the agreement before logging in")
    it.device.state["ui"]["overlay"] = None
    _take(it.device, overlay["package"], "login")
    it.device.state["ui"]["toast"] = "登录成功"


def _leave_login(it: Interaction) -> None:
    leave_login(it.device)


def login(device: Device, overlay: dict[str, Any]) -> BottomSheet:
    """The app's login sheet: the phone's own number, the agreement to tick, one-tap login."""
    app = device.world.app(overlay["package"])
    agreed = bool(overlay["agreed"])
    return BottomSheet(
        "登录后继续",
        [
            Text(f"{app.label.zh}需要登录后才能继续", color=theme.TEXT_SECONDARY),
            Text("本机号码 138****6024", size=56, bold=True, align="center", id="login_number"),
            Button("本机号码一键登录", _log_in, id="login_one_tap"),
            Chip(
                "我已阅读并同意《用户协议》和《隐私政策》",
                _toggle_agreement,
                selected=agreed,
                id="login_agree",
            ),
            Button("暂不登录", _leave_login, id="login_close", style="secondary"),
        ],
        on_dismiss=_leave_login,
        id="login",
    )


def _still_loading(it: Interaction) -> None:
    raise NoOp("the page is still loading: wait")


def loading(device: Device, overlay: dict[str, Any], area: Rect) -> Node:
    """The app's content area while a page loads: a spinner and 加载中."""
    app = device.world.app(overlay["package"])
    lc = LayoutContext(scale=device.scale, package=app.package, theme=app.theme)
    top = area[1] + (area[3] - area[1]) // 3
    content = Column(
        [
            Text("◌", size=120, align="center", color=app.theme.primary),
            Text("加载中…", size=44, align="center", color=theme.TEXT_SECONDARY),
        ],
        spacing=30,
    )
    placed = content.place(lc, area[0], top, area[2] - area[0], area)
    return make_node(
        "page",
        lc,
        area,
        area,
        resource_id=lc.rid("loading"),
        children=placed.children,
        fill=theme.SURFACE,
        z=6,
        clickable=True,
        on_tap=_still_loading,
        package=app.package,
    )


def popup(device: Device, overlay: dict[str, Any]) -> Dialog:
    app = device.world.app(overlay["package"])
    shown = app.friction.popup
    assert shown is not None
    return Dialog(
        shown.title,
        message=shown.message,
        buttons=[
            Button(shown.close, _close_popup(""), id="popup_close", style="secondary"),
            Button(shown.action, _close_popup(shown.toast), id="popup_action"),
        ],
        id="popup",
    )
