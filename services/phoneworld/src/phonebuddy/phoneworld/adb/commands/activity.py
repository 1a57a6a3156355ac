"""Apps and intents: `am` (start, force-stop, broadcast with ADBKeyboard's text input and
PhoneWorld's task set-up receiver), `monkey` (launch an app) and `pm` (list packages, clear an
app's data, paths)."""

from __future__ import annotations

import base64
import binascii
import contextlib
import json
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.adb import android
from phonebuddy.phoneworld.adb.commands.inputs import press_key, type_text
from phonebuddy.phoneworld.adb.commands.intents import (
    FLAG_ACTIVITY_NEW_TASK,
    FLAG_RECEIVER_FOREGROUND,
    Intent,
    IntentError,
    parse_intent,
)
from phonebuddy.phoneworld.adb.keycodes import KEYCODES
from phonebuddy.phoneworld.adb.task_setup import TASK_SETUP_ACTION, setup_task
from phonebuddy.phoneworld.system.shell import LAUNCHER_PACKAGE
from phonebuddy.phoneworld.world import UnknownAppError
from phonebuddy.protocol import Key, Open, SystemButton, SystemButtonName

if TYPE_CHECKING:
    from phonebuddy.phoneworld.adb.phone import AdbPhone
    from phonebuddy.phoneworld.adb.shell import Command, Invocation

    Inv = Invocation[AdbPhone]

ACTION_MAIN = "android.intent.action.MAIN"
CATEGORY_HOME = "android.intent.category.HOME"
CATEGORY_LAUNCHER = "android.intent.category.LAUNCHER"
SETTINGS_APP = "com.pw.settings"
MAX_CLEARED_CHARS = 10000


def _apps(phone: AdbPhone) -> tuple[str, ...]:
    return phone.device.world.packages


def _launch(phone: AdbPhone, package: str) -> None:
    if package == LAUNCHER_PACKAGE:
        phone.act(SystemButton(button=SystemButtonName.HOME))
    else:
        phone.act(Open(text=package))


def _component(phone: AdbPhone, component: str) -> tuple[str, str] | None:
    """(package, activity class) if the component names an activity that exists."""
    package, _, activity = component.partition("/")
    if activity.startswith("."):
        activity = package + activity
    known = package in _apps(phone) or package == LAUNCHER_PACKAGE
    if known and activity == android.main_activity(package):
        return package, activity
    return None


def _resolve_start(phone: AdbPhone, intent: Intent) -> str | None:
    """The package an activity intent starts, or None when nothing would handle it."""
    if intent.component is not None:
        found = _component(phone, intent.component)
        return found[0] if found else None
    if CATEGORY_HOME in intent.categories:
        return LAUNCHER_PACKAGE
    action = intent.action or ""
    if action.startswith("android.settings.") and SETTINGS_APP in _apps(phone):
        return SETTINGS_APP
    if intent.package in _apps(phone) and action in ("", ACTION_MAIN) and intent.data is None:
        return intent.package
    return None


# -- am --------------------------------------------------------------------------------------
def _am_start(inv: Inv, intent: Intent) -> int:
    phone = inv.phone
    if intent.component is not None and "/" not in intent.component:
        return inv.fail(f"Bad component name: {intent.component}")
    inv.out(f"Starting: {intent.describe()}\n")
    package = _resolve_start(phone, intent)
    if package is None:
        if intent.component is not None:
            pkg, _, activity = intent.component.partition("/")
            full = pkg + activity if activity.startswith(".") else activity
            inv.err(f"Error type 3\nError: Activity class {{{pkg}/{full}}} does not exist.\n")
        else:
            intent.flags |= FLAG_ACTIVITY_NEW_TASK
            inv.err(f"Error: Activity not started, unable to resolve {intent.describe()}\n")
        return 1
    device = phone.device
    if "-S" in intent.options and package != LAUNCHER_PACKAGE:
        device.force_stop(package)
    shown = device.foreground or LAUNCHER_PACKAGE
    if shown == package and device.state["ui"]["overlay"] is None:
        inv.out(
            "Warning: Activity not started, intent has been delivered to currently running "
            "top-most instance.\n"
        )
    _launch(phone, package)
    if "-W" in intent.options:
        component = android.short_component(package, android.main_activity(package))
        inv.out(
            f"Status: ok\nLaunchState: WARM\nActivity: {component}\n"
            "TotalTime: 120\nWaitTime: 125\nComplete\n"
        )
    return 0


def _adb_keyboard(phone: AdbPhone, intent: Intent) -> None:
    """ADBKeyboard's receiver: types what it is sent, if it is the current input method."""
    if phone.ime != android.ADB_KEYBOARD_IME:
        return
    action = intent.action
    msg, chars, code = (intent.extras.get(k) for k in ("msg", "chars", "code"))
    text: str | None = None
    if action == "ADB_INPUT_TEXT" and isinstance(msg, str):
        text = msg
    elif action == "ADB_INPUT_B64" and isinstance(msg, str):
        try:
            decoded = base64.b64decode(msg, validate=True)
        except binascii.Error:
            return
        text = decoded.decode("utf-8", errors="replace")  # Java's `new String(bytes, UTF_8)`
    elif action == "ADB_INPUT_CHARS" and isinstance(chars, list):
        codes = [c for c in chars if isinstance(c, int) and 0 <= c <= 0x10FFFF]
        text = "".join(map(chr, codes))
    elif action == "ADB_INPUT_CODE" and isinstance(code, int):
        name = KEYCODES.get(code)
        if name is not None and name != "UNKNOWN":
            press_key(phone, name)
    elif action == "ADB_EDITOR_CODE":
        phone.act(Key(text="ENTER"))
    elif action == "ADB_CLEAR_TEXT":
        for _ in range(MAX_CLEARED_CHARS):
            if phone.act(Key(text="DEL")).effect != "applied":
                break
    if text:
        type_text(phone, text, from_ime=True)


def _am_broadcast(inv: Inv, intent: Intent) -> int:
    intent.flags |= FLAG_RECEIVER_FOREGROUND
    inv.out(f"Broadcasting: {intent.describe()}\n")
    if intent.action is not None and intent.action.startswith("ADB_"):
        _adb_keyboard(inv.phone, intent)
    elif intent.action == TASK_SETUP_ACTION:
        result = setup_task(inv.phone, intent)
        inv.out(f"Broadcast completed: result={result.code}, data={json.dumps(result.data)}\n")
        return 0
    inv.out("Broadcast completed: result=0\n")
    return 0


def am(inv: Inv) -> int:
    if not inv.args:
        inv.err("Activity manager (activity) commands:\n  start, force-stop, broadcast, kill\n")
        return 1
    sub, rest = inv.args[0], inv.args[1:]
    if sub in ("force-stop", "stop-app", "kill"):
        packages = [a for a in rest if not a.startswith("-") and not a.isdigit()]
        if not packages:
            return inv.fail(f"{sub}: package name expected")
        if sub != "kill":
            for package in packages:
                with contextlib.suppress(UnknownAppError):  # Android says nothing either
                    inv.phone.device.force_stop(package)
        return 0
    if sub in ("start", "start-activity", "broadcast"):
        try:
            intent = parse_intent(rest)
        except IntentError as exc:
            inv.err(f"Error: {exc.reason}\n")
            return 1
        if intent.positional and intent.data is None and sub != "broadcast":
            intent.data = intent.positional[0]
        if sub == "broadcast":
            return _am_broadcast(inv, intent)
        return _am_start(inv, intent)
    inv.err(f"Unknown command: {sub}\n")
    return 1


# -- monkey ------------------------------------------------------------------------------------
def monkey(inv: Inv) -> int:
    """Only what launching needs: `monkey -p PKG -c android.intent.category.LAUNCHER 1`."""
    args = list(inv.args)
    packages: list[str] = []
    count = 0
    lines = [f"  bash arg: {a}" for a in args]
    lines.append(f"args: [{', '.join(args)}]")
    lines += [f' arg: "{a}"' for a in args]
    while args:
        arg = args.pop(0)
        if arg == "-p" and args:
            packages.append(args.pop(0))
        elif arg in ("-c", "-s", "--throttle", "--seed") or arg.startswith("--pct-"):
            if args:
                args.pop(0)
        elif arg.isdigit():
            count = int(arg)
    launchable = [p for p in packages if p in _apps(inv.phone) or p == LAUNCHER_PACKAGE]
    lines += [f'data="{p}"' for p in packages]
    inv.out("\n".join(lines) + "\n")
    if not launchable:
        inv.err("** No activities found to run, monkey aborted.\n")
        return 1
    if count > 0:
        _launch(inv.phone, launchable[0])
    inv.out(
        f"Events injected: {count}\n"
        "## Network stats: elapsed time=12ms (0ms mobile, 0ms wifi, 12ms not connected)\n"
    )
    return 0


# -- pm ----------------------------------------------------------------------------------------
def _apk_path(package: str, apps: tuple[str, ...]) -> str:
    if package in apps:
        token = android.object_id("apk", package)
        return f"/data/app/~~{token}/{package}-{token[::-1]}/base.apk"
    return f"/system/priv-app/{package.rsplit('.', 1)[-1]}/{package.rsplit('.', 1)[-1]}.apk"


def _pm_list_packages(inv: Inv, args: list[str]) -> int:
    apps = _apps(inv.phone)
    flags = {a for a in args if a.startswith("-")}
    words = [a for a in args if not a.startswith("-")]
    if "--user" in flags and words:
        words.pop(0)
    if "-3" in flags:
        packages = list(apps)
    elif "-s" in flags:
        packages = list(android.SYSTEM_PACKAGES)
    elif "-d" in flags:
        packages = []
    else:
        packages = [*android.SYSTEM_PACKAGES, *apps]
    wanted = words[0] if words else ""
    for package in sorted(packages):
        if wanted not in package:
            continue
        path = f"{_apk_path(package, apps)}=" if "-f" in flags else ""
        inv.out(f"package:{path}{package}\n")
    return 0


def pm(inv: Inv) -> int:
    if not inv.args:
        inv.err("Package manager (package) commands:\n  list packages, path, clear\n")
        return 1
    sub, rest = inv.args[0], inv.args[1:]
    apps = _apps(inv.phone)
    known = {*apps, *android.SYSTEM_PACKAGES}
    if sub == "list" and rest[:1] == ["packages"]:
        return _pm_list_packages(inv, rest[1:])
    packages = [a for a in rest if not a.startswith("-") and not a.isdigit()]
    if sub == "path":
        if not packages or packages[0] not in known:
            return 1
        inv.out(f"package:{_apk_path(packages[0], apps)}\n")
        return 0
    if sub == "clear":
        if not packages:
            return inv.fail("no package specified")
        if packages[0] not in known:
            inv.out("Failed\n")
            return 1
        if packages[0] in apps:
            inv.phone.device.clear_app_data(packages[0])
        inv.out("Success\n")
        return 0
    if sub in ("install", "install-create", "uninstall"):
        inv.err(f"Failure [PhoneWorld cannot {sub.split('-')[0]} packages]\n")
        return 1
    inv.err(f"Unknown command: {sub}\n")
    return 1


COMMANDS: dict[str, Command[AdbPhone]] = {"am": am, "monkey": monkey, "pm": pm}
