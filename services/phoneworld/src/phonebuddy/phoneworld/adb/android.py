"""What a PhoneWorld device claims to be as an Android 14 phone: its properties, the system
packages beside the PhoneWorld apps, and the activity and window names `dumpsys` and `am` use.
"""

from __future__ import annotations

import hashlib

from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.system.shell import LAUNCHER_PACKAGE

LAUNCHER_ACTIVITY = f"{LAUNCHER_PACKAGE}.Launcher"
ADB_KEYBOARD_PACKAGE = "com.android.adbkeyboard"
ADB_KEYBOARD_IME = f"{ADB_KEYBOARD_PACKAGE}/.AdbIME"
PINYIN_IME = "com.pw.keyboard/.PinyinIME"
PERMISSION_PACKAGE = "com.android.permissioncontroller"
PERMISSION_ACTIVITY = f"{PERMISSION_PACKAGE}.permission.ui.GrantPermissionsActivity"
# Packages that are not PhoneWorld apps but that harnesses look for (`pm list packages -s`).
SYSTEM_PACKAGES = (
    "android",
    "com.android.shell",
    "com.android.systemui",
    "com.android.settings.intelligence",
    PERMISSION_PACKAGE,
    ADB_KEYBOARD_PACKAGE,
    "com.pw.keyboard",
    LAUNCHER_PACKAGE,
)
BASE_DENSITY = 420
FEATURES = ("shell_v2", "cmd", "fixed_push_mkdir", "fixed_push_symlink_timestamp")


def main_activity(package: str) -> str:
    """The fully qualified class of the activity an app starts with."""
    if package == LAUNCHER_PACKAGE:
        return LAUNCHER_ACTIVITY
    return f"{package}.MainActivity"


def short_component(package: str, activity: str) -> str:
    """`pkg/.Act` when the class lives in the package (as `am` and ActivityRecord print it)."""
    if activity.startswith(package + "."):
        activity = activity[len(package) :]
    return f"{package}/{activity}"


def object_id(*parts: object) -> str:
    """A stable 7-hex-digit identity hash, like the ones Android prints for objects."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:7]


def pid_of(package: str) -> int:
    return 10000 + int(hashlib.sha256(package.encode()).hexdigest()[:4], 16) % 20000


def density(device: Device) -> int:
    return round(BASE_DENSITY * device.scale)


def properties(device: Device, serial: str) -> dict[str, str]:
    """`getprop` for this device; the first three also go into the CNXN banner."""
    language = str(device.state["os"]["settings"].get("language", "zh-CN"))
    return {
        "ro.product.name": "phoneworld",
        "ro.product.model": "PhoneWorld",
        "ro.product.device": "phoneworld",
        "ro.product.brand": "PhoneBuddy",
        "ro.product.manufacturer": "PhoneBuddy",
        "ro.product.board": "phoneworld",
        "ro.product.cpu.abi": "arm64-v8a",
        "ro.product.cpu.abilist": "arm64-v8a,armeabi-v7a,armeabi",
        "ro.product.locale": language,
        "ro.build.version.release": "14",
        "ro.build.version.sdk": "34",
        "ro.build.version.security_patch": "2026-03-05",
        "ro.build.id": "UP1A.231005.007",
        "ro.build.display.id": "UP1A.231005.007",
        "ro.build.type": "user",
        "ro.build.tags": "release-keys",
        "ro.build.fingerprint": (
            "PhoneBuddy/phoneworld/phoneworld:14/UP1A.231005.007/1:user/release-keys"
        ),
        "ro.serialno": serial,
        "ro.sf.lcd_density": str(density(device)),
        "ro.debuggable": "0",
        "ro.secure": "1",
        "ro.kernel.qemu": "0",
        "persist.sys.locale": language,
        "persist.sys.timezone": "Asia/Shanghai",
        "sys.boot_completed": "1",
        "dev.bootcomplete": "1",
        "init.svc.bootanim": "stopped",
        "service.adb.root": "0",
    }
