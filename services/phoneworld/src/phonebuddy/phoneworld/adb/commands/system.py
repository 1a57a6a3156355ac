"""System services: getprop, settings, wm, svc, ime, and identity (id, whoami, date, uname).

`settings` maps Android's keys onto the device's OS settings where PhoneWorld has them, so
`settings put global airplane_mode_on 1` changes the same state the Settings app shows.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from phonebuddy.phoneworld.adb import android

if TYPE_CHECKING:
    from phonebuddy.phoneworld.adb.phone import AdbPhone
    from phonebuddy.phoneworld.adb.shell import Command, Invocation

    Inv = Invocation[AdbPhone]

_TZ = dt.timezone(dt.timedelta(hours=8))
NAMESPACES = ("system", "secure", "global")


@dataclass(frozen=True)
class SettingMap:
    """An Android setting backed by one of the device's OS settings."""

    namespace: str
    os_key: str
    to_android: Callable[[Any], str]
    from_android: Callable[[str], Any]


def _flag(value: Any) -> str:
    return "1" if value else "0"


def _bool(text: str) -> bool:
    return int(text) != 0


def _clamp(low: int, high: int) -> Callable[[str], int]:
    return lambda text: min(max(int(float(text)), low), high)


SETTINGS: dict[str, SettingMap] = {
    "screen_brightness": SettingMap(
        "system", "brightness",
        lambda v: str(round(int(v) * 255 / 100)),
        lambda t: round(_clamp(0, 255)(t) * 100 / 255),
    ),
    "volume_music": SettingMap(
        "system", "volume",
        lambda v: str(round(int(v) * 15 / 100)),
        lambda t: round(_clamp(0, 15)(t) * 100 / 15),
    ),
    "wifi_on": SettingMap("global", "wifi", _flag, _bool),
    "bluetooth_on": SettingMap("global", "bluetooth", _flag, _bool),
    "airplane_mode_on": SettingMap("global", "airplane_mode", _flag, _bool),
    "zen_mode": SettingMap("global", "do_not_disturb", _flag, _bool),
    "ui_night_mode": SettingMap(
        "secure", "dark_mode", lambda v: "2" if v else "1", lambda t: int(t) == 2
    ),
    "system_locales": SettingMap("system", "language", str, str),
}  # fmt: skip
FIXED_SETTINGS = {("system", "screen_brightness_mode"): "0", ("global", "adb_enabled"): "1",
                  ("secure", "default_input_method"): ""}  # fmt: skip


def getprop(inv: Inv) -> int:
    props = inv.phone.props
    if not inv.args:
        inv.out("".join(f"[{k}]: [{v}]\n" for k, v in sorted(props.items())))
        return 0
    default = inv.args[1] if len(inv.args) > 1 else ""
    inv.out(props.get(inv.args[0], default) + "\n")
    return 0


def _get_setting(phone: AdbPhone, namespace: str, key: str) -> str:
    mapping = SETTINGS.get(key)
    if mapping is not None and mapping.namespace == namespace:
        os_settings = phone.device.state["os"]["settings"]
        if mapping.os_key in os_settings:
            return mapping.to_android(os_settings[mapping.os_key])
    if (namespace, key) == ("secure", "default_input_method"):
        return phone.ime
    if (namespace, key) in phone.extra_settings:
        return phone.extra_settings[(namespace, key)]
    return FIXED_SETTINGS.get((namespace, key), "null")


def settings(inv: Inv) -> int:
    args = list(inv.args)
    if len(args) >= 2 and args[0] == "--user":
        del args[:2]
    if len(args) < 2 or args[0] not in ("get", "put", "delete", "list", "reset"):
        inv.err("usage:  settings [--user <USER_ID>] get|put|delete|list NAMESPACE [KEY [VALUE]]\n")
        return 1
    verb, namespace, rest = args[0], args[1], args[2:]
    if namespace not in NAMESPACES:
        inv.err(f"Invalid namespace '{namespace}'\n")
        return 1
    phone = inv.phone
    if verb == "list":
        keys = sorted(
            {k for k, m in SETTINGS.items() if m.namespace == namespace}
            | {k for ns, k in phone.extra_settings if ns == namespace}
        )
        inv.out("".join(f"{k}={_get_setting(phone, namespace, k)}\n" for k in keys))
        return 0
    if not rest:
        inv.err(f"settings {verb}: a key is required\n")
        return 1
    key = rest[0]
    if verb == "get":
        inv.out(_get_setting(phone, namespace, key) + "\n")
        return 0
    if verb == "delete":
        removed = phone.extra_settings.pop((namespace, key), None) is not None
        inv.out(f"Deleted {int(removed)} rows\n")
        return 0
    if verb == "reset":
        return 0
    if len(rest) < 2:
        inv.err("settings put: a value is required\n")
        return 1
    value = rest[1]
    mapping = SETTINGS.get(key)
    if mapping is not None and mapping.namespace == namespace:
        try:
            converted = mapping.from_android(value)
        except ValueError:
            inv.err(f"settings put: invalid value {value!r} for {key}\n")
            return 1
        phone.device.set_setting(mapping.os_key, converted)
    elif (namespace, key) == ("secure", "default_input_method"):
        phone.ime = value
    else:
        phone.extra_settings[(namespace, key)] = value
    return 0


def wm(inv: Inv) -> int:
    device = inv.phone.device
    sub = inv.args[0] if inv.args else ""
    if sub == "size" and len(inv.args) == 1:
        inv.out(f"Physical size: {device.screen.width}x{device.screen.height}\n")
        return 0
    if sub == "density" and len(inv.args) == 1:
        inv.out(f"Physical density: {android.density(device)}\n")
        return 0
    if sub in ("size", "density") and inv.args[1:] == ["reset"]:
        return 0
    if sub in ("size", "density"):
        inv.err(f"wm {sub}: PhoneWorld screens keep their size and density\n")
        return 1
    inv.err("Window manager (window) commands:\n  size\n  density\n")
    return 1


def svc(inv: Inv) -> int:
    args = inv.args
    toggles = {"wifi": "wifi", "bluetooth": "bluetooth"}
    if len(args) == 2 and args[1] in ("enable", "disable"):
        key = toggles.get(args[0])
        if key is not None:
            inv.phone.device.set_setting(key, args[1] == "enable")
            return 0
        if args[0] in ("data", "nfc", "usb"):
            return 0
    if args[:1] == ["power"]:
        return 0
    inv.err("Available commands:\n    wifi\n    bluetooth\n    data\n    power\n")
    return 1


INPUT_METHODS = (android.ADB_KEYBOARD_IME, android.PINYIN_IME)


def ime(inv: Inv) -> int:
    args = inv.args
    sub = args[0] if args else ""
    if sub == "list":
        for ime_id in INPUT_METHODS:
            if "-s" in args:
                inv.out(ime_id + "\n")
            else:
                package, _, cls = ime_id.partition("/")
                inv.out(f"{ime_id}:\n  mId={ime_id} mSettingsActivity=null\n")
                inv.out(f"  Service:\n    packageName={package}\n    name={package}{cls}\n")
        return 0
    if sub in ("enable", "disable", "set") and len(args) >= 2:
        ime_id = args[-1]
        if ime_id not in INPUT_METHODS:
            inv.err(f"Unknown input method {ime_id} cannot be {sub}d for user #0\n")
            return 1
        if sub == "set":
            inv.phone.ime = ime_id
            inv.out(f"Input method {ime_id} selected for user #0\n")
        elif sub == "enable":
            inv.out(f"Input method {ime_id}: already enabled for user #0\n")
        else:
            inv.out(f"Input method {ime_id}: now disabled for user #0\n")
        return 0
    if sub == "reset":
        inv.phone.ime = android.ADB_KEYBOARD_IME
        return 0
    inv.err("ime <command>:\n  list [-a] [-s]\n  enable ID\n  disable ID\n  set ID\n")
    return 1


def id_(inv: Inv) -> int:
    inv.out(
        "uid=2000(shell) gid=2000(shell) groups=2000(shell),1004(input),1007(log),1011(adb),"
        "1015(sdcard_rw),1028(sdcard_r),1078(ext_data_rw),1079(ext_obb_rw),3001(net_bt_admin),"
        "3002(net_bt),3003(inet),3006(net_bw_stats),3009(readproc),3011(uhid),3012(readtracefs) "
        "context=u:r:shell:s0\n"
    )
    return 0


def whoami(inv: Inv) -> int:
    inv.out("shell\n")
    return 0


def date(inv: Inv) -> int:
    """The simulated clock, in the device's time zone (Asia/Shanghai)."""
    now = dt.datetime.fromtimestamp(inv.phone.device.state["os"]["clock"], _TZ)
    formats = [a for a in inv.args if a.startswith("+")]
    if formats:
        inv.out(now.strftime(formats[0][1:].replace("%Z", "CST")) + "\n")
    else:
        inv.out(now.strftime("%a %b %d %H:%M:%S CST %Y") + "\n")
    return 0


def uname(inv: Inv) -> int:
    parts = {
        "s": "Linux", "n": "localhost", "r": "6.1.75-android14-11-phoneworld",
        "v": "#1 SMP PREEMPT Mon Mar 16 09:00:00 UTC 2026", "m": "aarch64", "o": "Toybox",
    }  # fmt: skip
    flags = "".join(a[1:] for a in inv.args if a.startswith("-")) or "s"
    order = "snrvmo" if "a" in flags else "".join(f for f in "snrvmo" if f in flags)
    inv.out(" ".join(parts[f] for f in order) + "\n")
    return 0


def logcat(inv: Inv) -> int:
    """PhoneWorld keeps no log: `logcat -c` succeeds and a dump is empty."""
    return 0


def getenforce(inv: Inv) -> int:
    inv.out("Enforcing\n")
    return 0


COMMANDS: dict[str, Command[AdbPhone]] = {
    "getprop": getprop,
    "settings": settings,
    "wm": wm,
    "svc": svc,
    "ime": ime,
    "id": id_,
    "whoami": whoami,
    "date": date,
    "uname": uname,
    "logcat": logcat,
    "getenforce": getenforce,
}
