"""Protocol actions -> the device commands that perform them (pure; no I/O).

Coordinates arrive normalized to [0, 1000] and become pixels of the device's screen here.
Every command is an argument list (see `quoting`), never a string a model wrote.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from phonebuddy.device_gateway.quoting import Argv, type_commands
from phonebuddy.protocol import (
    Action,
    Answer,
    CallTool,
    Click,
    Key,
    LongPress,
    Open,
    ScreenSize,
    Swipe,
    SystemButton,
    SystemButtonName,
    Terminate,
    Type,
    Wait,
    to_pixels,
)

Effect = Literal["applied", "no_op", "final"]
SWIPE_MS = 300
LAUNCHER_CATEGORY = "android.intent.category.LAUNCHER"
SYSTEM_BUTTON_KEYCODES: dict[SystemButtonName, int] = {
    SystemButtonName.BACK: 4,
    SystemButtonName.HOME: 3,
    SystemButtonName.MENU: 187,
    SystemButtonName.ENTER: 66,
}
HOME_KEYCODE = SYSTEM_BUTTON_KEYCODES[SystemButtonName.HOME]
NOTHING_TO_TYPE = "nothing to type: the text holds only control characters"
_PACKAGE = re.compile(r"^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$")
# A few well-known apps; `PHONEBUDDY_GATEWAY_APPS` adds to and overrides these.
DEFAULT_APPS: dict[str, str] = {
    "settings": "com.android.settings",
    "设置": "com.android.settings",
    "chrome": "com.android.chrome",
    "camera": "com.android.camera",
    "相机": "com.android.camera",
    "wechat": "com.tencent.mm",
    "微信": "com.tencent.mm",
    "alipay": "com.eg.android.AlipayGphone",
    "支付宝": "com.eg.android.AlipayGphone",
    "taobao": "com.taobao.taobao",
    "淘宝": "com.taobao.taobao",
    "meituan": "com.sankuai.meituan",
    "美团": "com.sankuai.meituan",
    "amap": "com.autonavi.minimap",
    "高德地图": "com.autonavi.minimap",
    "bilibili": "tv.danmaku.bili",
    "哔哩哔哩": "tv.danmaku.bili",
    "xiaohongshu": "com.xingin.xhs",
    "小红书": "com.xingin.xhs",
    "douyin": "com.ss.android.ugc.aweme",
    "抖音": "com.ss.android.ugc.aweme",
}


def is_package_name(text: str) -> bool:
    return _PACKAGE.fullmatch(text) is not None


class AppTable:
    """Display names (any letter case) -> package names."""

    def __init__(self, names: Mapping[str, str] | None = None, *, defaults: bool = True) -> None:
        table = dict(DEFAULT_APPS) if defaults else {}
        table.update(names or {})
        bad = {name: package for name, package in table.items() if not is_package_name(package)}
        if bad:
            raise ValueError(f"not package names: {bad}")
        self._packages = {name.strip().lower(): package for name, package in table.items()}

    def resolve(self, name: str) -> str | None:
        """A package for `name`: the table's entry, or `name` itself if it is a package name."""
        wanted = name.strip()
        found = self._packages.get(wanted.lower())
        if found is not None:
            return found
        return wanted if is_package_name(wanted) else None

    def __len__(self) -> int:
        return len(self._packages)


@dataclass(frozen=True)
class ActionPlan:
    """What to run for one action: shell commands in order."""

    effect: Effect
    commands: tuple[Argv, ...] = ()
    note: str = ""
    # How long the commands take by design (a wait is `sleep` run on the phone, so a real
    # phone waits and PhoneWorld advances its clock): added to the shell call's timeout.
    sleep_s: float = 0.0
    package: str | None = field(default=None, compare=False)


def keycode_argument(text: str) -> str:
    """`enter`, `ENTER`, `KEYCODE_ENTER` -> `KEYCODE_ENTER`; a number stays a number."""
    if text.isdigit():
        return str(int(text))
    name = text.upper()
    return name if name.startswith("KEYCODE_") else f"KEYCODE_{name}"


def launch_command(package: str) -> Argv:
    """Start an app's launcher activity by package name (what `adb shell monkey` does)."""
    if not is_package_name(package):
        raise ValueError(f"{package!r} is not a package name")
    return ("monkey", "-p", package, "-c", LAUNCHER_CATEGORY, "1")


def plan_action(action: Action, screen: ScreenSize, apps: AppTable) -> ActionPlan:
    """The commands for `action` on a device with this screen."""
    match action:
        case Click(coordinate=(int(), int()) as point):
            x, y = to_pixels(point, screen)
            return ActionPlan("applied", (("input", "tap", str(x), str(y)),))
        case LongPress(coordinate=(int(), int()) as point, time=seconds):
            x, y = to_pixels(point, screen)
            ms = str(max(1, round(seconds * 1000)))
            return ActionPlan("applied", (("input", "swipe", str(x), str(y), str(x), str(y), ms),))
        case Swipe():
            start, end = action.endpoints()
            (x1, y1), (x2, y2) = to_pixels(start, screen), to_pixels(end, screen)
            argv = ("input", "swipe", str(x1), str(y1), str(x2), str(y2), str(SWIPE_MS))
            return ActionPlan("applied", (argv,))
        case Type(text=text, coordinate=point):
            commands = tuple(type_commands(text))
            if not commands:
                return ActionPlan("no_op", note=NOTHING_TO_TYPE)
            if point is not None:
                x, y = to_pixels(point, screen)
                commands = (("input", "tap", str(x), str(y)), *commands)
            return ActionPlan("applied", commands)
        case Click() | LongPress():
            return ActionPlan(
                "no_op",
                note=f"{action.action} names element {action.element} "
                "that was not resolved to a point",
            )
        case Key(text=name):
            return ActionPlan("applied", (("input", "keyevent", keycode_argument(name)),))
        case SystemButton(button=button):
            keycode = SYSTEM_BUTTON_KEYCODES[button]
            return ActionPlan("applied", (("input", "keyevent", str(keycode)),))
        case Open(text=name):
            package = apps.resolve(name)
            if package is None:
                return ActionPlan("no_op", note=f"no app named {name!r} is known to the gateway")
            return ActionPlan("applied", (launch_command(package),), package=package)
        case Wait(time=seconds):
            return ActionPlan("applied", (("sleep", f"{seconds:g}"),), sleep_s=seconds)
        case Answer() | Terminate():
            return ActionPlan("final")
        case CallTool(name=name):
            return ActionPlan("no_op", note=f"direct tools ({name!r}) exist in PhoneWorld only")
    raise TypeError(f"unhandled action {type(action).__name__}")  # pragma: no cover
