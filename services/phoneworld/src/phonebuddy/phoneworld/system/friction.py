"""Friction that real apps put between a user and the task: a splash screen at a cold launch
(skipped with 跳过, or gone after a few seconds), the first-run permission dialog, then a coupon
or upgrade pop-up, each shown at most once per episode.

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
from phonebuddy.phoneworld.ui.widgets import (
    Button,
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
    """What an app may put in the way: a splash slogan, a pop-up (None: neither)."""

    splash: str | None = None
    popup: Popup | None = None


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
        if kinds:
            planned[app.package] = kinds
    return planned


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


def expire(device: Device) -> None:
    """Before an action: a splash whose time is up has gone."""
    overlay = device.state["ui"]["overlay"]
    if overlay and overlay["kind"] == "splash" and device.state["os"]["clock"] >= overlay["until"]:
        device.state["ui"]["overlay"] = after_splash(device, overlay["package"])


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
