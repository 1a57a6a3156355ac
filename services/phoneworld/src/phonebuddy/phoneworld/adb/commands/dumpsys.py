"""`dumpsys`: the parts of Android's service dumps that harnesses parse (focused window, resumed
activity, display size and orientation, keyboard shown, power, battery, package info), built
from the device's state. Layout follows Android 14 closely enough for the usual regexes."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.adb import android
from phonebuddy.phoneworld.system.shell import LAUNCHER_PACKAGE

if TYPE_CHECKING:
    from phonebuddy.phoneworld.adb.phone import AdbPhone
    from phonebuddy.phoneworld.adb.shell import Command, Invocation
    from phonebuddy.phoneworld.device import Device

    Inv = Invocation[AdbPhone]

_TZ = dt.timezone(dt.timedelta(hours=8))


def _focus(device: Device) -> tuple[str, str]:
    """(package, activity class) of the window that has focus."""
    overlay = device.state["ui"]["overlay"]
    if overlay is not None and overlay.get("kind") == "permission":
        return android.PERMISSION_PACKAGE, android.PERMISSION_ACTIVITY
    package = device.foreground or LAUNCHER_PACKAGE
    return package, android.main_activity(package)


def _top_app(device: Device) -> tuple[str, str]:
    package = device.foreground or LAUNCHER_PACKAGE
    return package, android.main_activity(package)


def _window(package: str, activity: str) -> str:
    return f"Window{{{android.object_id('window', package)} u0 {package}/{activity}}}"


def _record(package: str, activity: str) -> str:
    task = 100 + android.pid_of(package) % 900
    component = android.short_component(package, activity)
    return f"ActivityRecord{{{android.object_id('record', package)} u0 {component} t{task}}}"


def _windows(phone: AdbPhone) -> str:
    device = phone.device
    w, h = device.screen.width, device.screen.height
    focus_pkg, focus_act = _focus(device)
    app_pkg, app_act = _top_app(device)
    shade = (device.state["ui"]["overlay"] or {}).get("kind") == "shade"
    current = "Window{4f1e2d3 u0 NotificationShade}" if shade else _window(focus_pkg, focus_act)
    lines = ["WINDOW MANAGER WINDOWS (dumpsys window windows)"]
    shown = [(focus_pkg, focus_act)]
    if (app_pkg, app_act) != (focus_pkg, focus_act):
        shown.append((app_pkg, app_act))
    for index, (package, activity) in enumerate(shown):
        lines += [
            f"  Window #{index} {_window(package, activity)}:",
            f"    mDisplayId=0 rootTaskId=1 mSession=Session{{{android.object_id('s', package)}"
            f" {android.pid_of(package)}:u0a10{index}}} mClient=android.os.BinderProxy",
            f"    mOwnerUid=10{index:03d} showForAllUsers=false package={package} appop=NONE",
            "    mAttrs={(0,0)(fillxfill) sim={adjust=resize} ty=BASE_APPLICATION fmt=TRANSLUCENT}",
            f"    Requested w={w} h={h} mLayoutSeq={device.version}",
            "    mHasSurface=true isReadyForDisplay()=true mWindowRemovalAllowed=false",
        ]
    lines += [
        "",
        f"  mGlobalConfiguration={{1.0 ?mcc?mnc [zh_CN] ldltr sw{w} w{w} h{h} port finger}}",
        f"  mCurrentFocus={current}",
        f"  mFocusedApp={_record(app_pkg, app_act)}",
        f"  mInputMethodWindow=Window{{{android.object_id('ime')} u0 InputMethod}}",
    ]
    return "\n".join(lines) + "\n"


def _displays(phone: AdbPhone) -> str:
    device = phone.device
    w, h = device.screen.width, device.screen.height
    return (
        "WINDOW MANAGER DISPLAY CONTENTS (dumpsys window displays)\n"
        "  Display: mDisplayId=0 rootTasks=1\n"
        f"    init={w}x{h} {android.density(device)}dpi base={w}x{h} cur={w}x{h} app={w}x{h}"
        f" rng={w}x{w}-{h}x{h}\n"
        "    mCurrentRotation=ROTATION_0 mLastOrientation=-1\n"
    )


def window(phone: AdbPhone, args: list[str]) -> str:
    if args[:1] == ["windows"]:
        return _windows(phone)
    if args[:1] == ["displays"]:
        return _displays(phone)
    return _displays(phone) + "\n" + _windows(phone)


def activity(phone: AdbPhone, args: list[str]) -> str:
    device = phone.device
    package, act = _top_app(device)
    record = _record(package, act)
    if args[:1] == ["top"]:
        return (
            "TASK 10001:" + package + f" id={100 + android.pid_of(package) % 900} userId=0\n"
            f"  ACTIVITY {android.short_component(package, act)} "
            f"{android.object_id('top', package)} pid={android.pid_of(package)}\n"
        )
    lines = [
        "ACTIVITY MANAGER ACTIVITIES (dumpsys activity activities)",
        "Display #0 (activities from top to bottom):",
    ]
    recents = [package] + [p for p in device.state["ui"]["recents"] if p != package]
    for pkg in recents:
        pkg_act = android.main_activity(pkg)
        task = 100 + android.pid_of(pkg) % 900
        lines += [
            f"  * Task{{{android.object_id('task', pkg)} #{task} type=standard A=10000:{pkg}"
            f" U=0 visible={str(pkg == package).lower()} mode=fullscreen sz=1}}",
            f"    * Hist  #0: {_record(pkg, pkg_act)}",
        ]
    lines += [
        "",
        f"  ResumedActivity: {record}",
        f"  mResumedActivity: {record}",
        f"  mFocusedApp={record}",
    ]
    return "\n".join(lines) + "\n"


def display(phone: AdbPhone, args: list[str]) -> str:
    device = phone.device
    w, h = device.screen.width, device.screen.height
    dpi = android.density(device)
    viewport = (
        "DisplayViewport{type=INTERNAL, valid=true, isActive=true, displayId=0, "
        f"uniqueId='local:0', physicalPort=0, orientation=0, logicalFrame=Rect(0, 0 - {w}, {h}),"
        f" physicalFrame=Rect(0, 0 - {w}, {h}), deviceWidth={w}, deviceHeight={h}}}"
    )
    return (
        "DISPLAY MANAGER (dumpsys display)\n"
        "  mOnlyCore=false\n"
        f"  mViewports=[{viewport}]\n"
        "  Display Devices: size=1\n"
        f'  DisplayDeviceInfo{{"Built-in Screen": uniqueId="local:0", {w} x {h}, modeId 1, '
        f"defaultModeId 1, density {dpi}, {dpi}.0 x {dpi}.0 dpi, rotation 0, type INTERNAL, "
        "state ON, FLAG_DEFAULT_DISPLAY}\n"
        f"  mCurrentOrientation=0\n"
        f"  mDefaultViewport={viewport}\n"
    )


def input_method(phone: AdbPhone, args: list[str]) -> str:
    shown = str(phone.device.state["ui"]["focus"] is not None).lower()
    return (
        f"  mCurMethodId={phone.ime}\n"
        f"  mCurFocusedWindowSoftInputMode=STATE_UNSPECIFIED|ADJUST_RESIZE\n"
        f"  mInputShown={shown}\n"
        f"  mShowRequested={shown} mShowExplicitlyRequested=false\n"
        f"  mIsInputViewShown={shown}\n"
    )


def power(phone: AdbPhone, args: list[str]) -> str:
    return (
        "POWER MANAGER (dumpsys power)\n"
        "  mWakefulness=Awake\n"
        "  mHoldingDisplaySuspendBlocker=true\n"
        "  mHoldingWakeLockSuspendBlocker=false\n"
        "  Display Power: state=ON\n"
    )


def battery(phone: AdbPhone, args: list[str]) -> str:
    return (
        "Current Battery Service state:\n"
        "  AC powered: false\n  USB powered: true\n  Wireless powered: false\n"
        "  Dock powered: false\n  Max charging current: 500000\n"
        "  Max charging voltage: 5000000\n  Charge counter: 4000000\n  status: 2\n"
        "  health: 2\n  present: true\n  level: 100\n  scale: 100\n  voltage: 4350\n"
        "  temperature: 250\n  technology: Li-ion\n"
    )


def package(phone: AdbPhone, args: list[str]) -> str:
    names = [a for a in args if not a.startswith("-")]
    apps = phone.device.world.packages
    if not names or names[0] not in apps:
        return ""
    name = names[0]
    installed = dt.datetime(2026, 3, 1, 9, 0, tzinfo=_TZ).strftime("%Y-%m-%d %H:%M:%S")
    return (
        "Packages:\n"
        f"  Package [{name}] ({android.object_id('pkg', name)}):\n"
        f"    userId=10{apps.index(name):03d}\n"
        f"    versionCode=1 minSdk=28 targetSdk=34\n"
        f"    versionName=1.0\n"
        "    pkgFlags=[ HAS_CODE ALLOW_CLEAR_USER_DATA ALLOW_BACKUP ]\n"
        f"    firstInstallTime={installed}\n"
        f"    lastUpdateTime={installed}\n"
        f"    PackageSignatures{{{android.object_id('sig', name)} version:3, signatures:"
        f"[{android.object_id('cert', name)}], past signatures:[]}}\n"
    )


SERVICES = {
    "window": window,
    "activity": activity,
    "display": display,
    "input_method": input_method,
    "power": power,
    "battery": battery,
    "package": package,
}


def dumpsys(inv: Inv) -> int:
    if not inv.args or inv.args[0] == "-l":
        inv.out("Currently running services:\n" + "".join(f"  {s}\n" for s in SERVICES))
        return 0
    service = SERVICES.get(inv.args[0])
    if service is None:
        inv.err(f"Can't find service: {inv.args[0]}\n")
        return 0
    inv.out(service(inv.phone, inv.args[1:]))
    return 0


COMMANDS: dict[str, Command[AdbPhone]] = {"dumpsys": dumpsys}
