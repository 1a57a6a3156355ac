"""One phone over ADB: probe it, observe it, act on it, reset it.

Only fixed command templates and argument lists quoted by `quoting` reach the device shell.
A failure to reach the phone raises `DeviceLostError` (from `adb_client`); what the phone
answers (a failed launch, an unknown key) is data: a `no_op` effect with a note.
"""

from __future__ import annotations

import asyncio
import io
import logging
import re
import secrets
import struct
from collections.abc import Sequence
from dataclasses import dataclass

from phonebuddy.device_gateway.actions import (
    HOME_KEYCODE,
    ActionPlan,
    AppTable,
    Effect,
    is_package_name,
    plan_action,
)
from phonebuddy.device_gateway.adb_client import DeviceLink, DeviceLostError, ShellResult
from phonebuddy.device_gateway.quoting import Argv, command_line
from phonebuddy.device_gateway.uitree import UiDumpError, parse_ui_dump
from phonebuddy.protocol import Action, Frame, Observation, ScreenSize, UINode
from phonebuddy.protocol.elements import resolve_element
from phonebuddy.protocol.env import ImageFormat

log = logging.getLogger(__name__)

UI_DUMP_PATH = "/data/local/tmp/pb-uidump.xml"
MAX_LINE_BYTES = 3072  # old adbd refuses service names over 4 KiB
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_WM_SIZE = re.compile(r"(Override|Physical) size: (\d+)x(\d+)")
_FOCUS = re.compile(r"mCurrentFocus=Window\{[^}]*?\s(?P<package>[\w.]+)/[^\s}]+\}")
_FOCUSED_APP = re.compile(r"mFocusedApp=.*?ActivityRecord\{[^}]*?\s(?P<package>[\w.]+)/")
_HOME_ACTIVITY = re.compile(r"^(?P<package>[\w.]+)/", re.MULTILINE)
_BROADCAST_RESULT = re.compile(
    r'Broadcast completed: result=(?P<code>-?\d+)(?:, data="(?P<data>.*)")?'
)
RESULT_OK = -1
DEFAULT_PROTECTED = (
    "android",
    "com.android.systemui",
    "com.android.shell",
    "com.android.phone",
    "com.android.adbkeyboard",
    "com.google.android.gms",
)


class DeviceNotReadyError(Exception):
    """The phone answers but is not usable yet (still booting, no screen size)."""

    def __init__(self, serial: str, reason: str) -> None:
        self.serial = serial
        self.reason = reason
        super().__init__(f"device {serial} is not ready: {reason}")


class UnknownPackageError(Exception):
    """A task names apps this phone does not have."""

    def __init__(self, serial: str, packages: Sequence[str]) -> None:
        self.serial = serial
        self.packages = tuple(packages)
        super().__init__(f"device {serial} has no app {', '.join(self.packages)}")


class TaskSetupError(Exception):
    """The phone's task set-up receiver did not answer RESULT_OK."""

    def __init__(self, serial: str, reason: str) -> None:
        self.serial = serial
        self.reason = reason
        super().__init__(f"device {serial} could not set up the task: {reason}")


@dataclass(frozen=True)
class PhoneOptions:
    apps: AppTable
    settle_s: float = 0.0
    jpeg_quality: int = 85
    adb_keyboard_ime: str | None = None
    protected_packages: frozenset[str] = frozenset(DEFAULT_PROTECTED)
    launcher_packages: frozenset[str] = frozenset()
    task_setup_action: str | None = None


@dataclass(frozen=True)
class Observed:
    observation: Observation
    frame: Frame
    ui_error: str | None = None


def parse_wm_size(output: str) -> ScreenSize | None:
    """`wm size` -> the size in effect (an override wins over the physical size)."""
    sizes = {kind: (int(w), int(h)) for kind, w, h in _WM_SIZE.findall(output)}
    size = sizes.get("Override") or sizes.get("Physical")
    return ScreenSize(width=size[0], height=size[1]) if size else None


def parse_focused_package(dumpsys: str) -> str | None:
    """The package of the focused window (`dumpsys window windows`), else the focused app."""
    match = _FOCUS.search(dumpsys) or _FOCUSED_APP.search(dumpsys)
    return match.group("package") if match else None


def png_size(data: bytes) -> ScreenSize:
    """The width and height in a PNG's IHDR chunk."""
    if not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise ValueError("not a PNG image")
    width, height = struct.unpack(">II", data[16:24])
    return ScreenSize(width=width, height=height)


def to_jpeg(png: bytes, quality: int) -> bytes:
    from PIL import Image  # adbutils depends on Pillow; imported where it is needed

    with Image.open(io.BytesIO(png)) as image:
        out = io.BytesIO()
        image.convert("RGB").save(out, "JPEG", quality=quality)
        return out.getvalue()


def joined(commands: Sequence[Argv], separator: str = " && ") -> str:
    """Several quoted commands on one line, joined by an operator chosen here."""
    return separator.join(command_line(argv) for argv in commands)


def batches(commands: Sequence[Argv], limit: int = MAX_LINE_BYTES) -> list[list[Argv]]:
    """Consecutive commands grouped so that each group's joined line stays within `limit`."""
    groups: list[list[Argv]] = []
    size = 0
    for argv in commands:
        length = len(command_line(argv).encode()) + 4
        if not groups or size + length > limit:
            groups.append([])
            size = 0
        groups[-1].append(argv)
        size += length
    return groups


class Phone:
    """A phone the gateway has probed. Not safe for concurrent use: the pool serializes."""

    def __init__(self, link: DeviceLink, options: PhoneOptions) -> None:
        self.link = link
        self.options = options
        self.serial = link.serial
        self.screen: ScreenSize | None = None
        self.home_package: str | None = None
        self.packages: frozenset[str] | None = None
        self.last_frame_size: ScreenSize | None = None
        self.last_tree: UINode | None = None

    # -- health --------------------------------------------------------------------------------
    async def probe(self) -> None:
        """Learn what the phone is: booted, its screen size, home app, packages, IME."""
        booted = await self.link.shell(("getprop", "sys.boot_completed"))
        if booted.text.strip() != "1":
            raise DeviceNotReadyError(self.serial, "sys.boot_completed is not 1")
        size = parse_wm_size((await self.link.shell(("wm", "size"))).text)
        if size is None:
            raise DeviceNotReadyError(self.serial, "`wm size` printed no size")
        self.screen = size
        home = await self.link.shell(
            ("pm", "resolve-activity", "--brief",
             "-a", "android.intent.action.MAIN", "-c", "android.intent.category.HOME")
        )  # fmt: skip
        homes = _HOME_ACTIVITY.findall(home.text) if home.exit_code == 0 else []
        self.home_package = homes[-1] if homes else None
        listed = await self.link.shell(("pm", "list", "packages"))
        if listed.exit_code == 0:
            self.packages = frozenset(
                line.removeprefix("package:").strip()
                for line in listed.text.splitlines()
                if line.startswith("package:")
            )
        if self.options.adb_keyboard_ime:
            ime = self.options.adb_keyboard_ime
            await self.link.shell_line(joined([("ime", "enable", ime), ("ime", "set", ime)]))
        log.info("device %s: %s, home %s", self.serial, size, self.home_package)

    async def ping(self, *, timeout_s: float) -> None:
        """A cheap round trip through the phone's shell; DeviceLostError when it fails."""
        result = await self.link.shell(("echo", "ok"), timeout_s=timeout_s)
        if result.text.strip() != "ok":
            raise DeviceLostError(self.serial, f"`echo ok` answered {result.text[:80]!r}")

    def has_packages(self, packages: Sequence[str]) -> bool:
        return self.packages is None or all(p in self.packages for p in packages)

    # -- observe -------------------------------------------------------------------------------
    async def observe(
        self, *, image_format: ImageFormat = "png", include_ui_tree: bool = True
    ) -> Observed:
        png = await self.link.exec_out(("screencap", "-p"))
        try:
            seen = png_size(png)
        except ValueError as exc:
            raise DeviceLostError(self.serial, f"screencap returned no PNG ({exc})") from exc
        self.last_frame_size = seen
        tree, foreground, ui_error = await self._ui_and_focus(seen, include_ui_tree)
        self.last_tree = tree
        if image_format == "jpeg":
            data = await asyncio.to_thread(to_jpeg, png, self.options.jpeg_quality)
            frame = Frame.from_bytes(data, "image/jpeg")
        else:
            frame = Frame.from_bytes(png, "image/png")
        observation = Observation(
            frame=frame.ref, screen=seen, foreground_app=foreground, ui_tree=tree
        )
        return Observed(observation, frame, ui_error)

    async def _ui_and_focus(
        self, screen: ScreenSize, include_ui_tree: bool
    ) -> tuple[UINode | None, str | None, str | None]:
        split = f"__pb_split_{secrets.token_hex(6)}__"
        dumpsys = command_line(("dumpsys", "window", "windows"))
        if include_ui_tree:
            path = UI_DUMP_PATH
            line = (
                f"{command_line(('rm', '-f', path))}; "
                f"{command_line(('uiautomator', 'dump', path))} >/dev/null 2>&1; "
                f"{command_line(('cat', path))} 2>/dev/null; echo {split}; {dumpsys}"
            )
        else:
            line = f"echo {split}; {dumpsys}"
        result = await self.link.shell_line(line)
        head, found, tail = result.output.partition(split.encode())
        if not found:
            raise DeviceLostError(self.serial, "the observation script ended early")
        foreground = self._app_or_none(parse_focused_package(tail.decode("utf-8", "replace")))
        if not include_ui_tree:
            return None, foreground, None
        try:
            return parse_ui_dump(head.strip(), screen), foreground, None
        except UiDumpError as exc:
            log.warning("device %s: no UI tree this time: %s", self.serial, exc.reason)
            return None, foreground, exc.reason

    def _app_or_none(self, package: str | None) -> str | None:
        if package is None or package == self.home_package:
            return None
        return None if package in self.options.launcher_packages else package

    # -- act -----------------------------------------------------------------------------------
    def action_screen(self) -> ScreenSize:
        """The screen in the orientation the policy last saw (wm size is in natural order)."""
        if self.screen is None:
            raise DeviceNotReadyError(self.serial, "not probed")
        seen = self.last_frame_size
        if seen is not None and (seen.width > seen.height) != (
            self.screen.width > self.screen.height
        ):
            return ScreenSize(width=self.screen.height, height=self.screen.width)
        return self.screen

    def plan(self, action: Action) -> ActionPlan:
        return plan_action(action, self.action_screen(), self.options.apps)

    def resolve(self, action: Action) -> Action:
        """An element action resolved against the UI tree of the last observation (the one the
        policy saw). InvalidActionError when that tree lists no such element."""
        seen = self.last_frame_size or self.screen
        if seen is None:
            raise DeviceNotReadyError(self.serial, "not probed")
        return resolve_element(action, self.last_tree, seen)

    async def act(self, action: Action) -> tuple[Effect, str]:
        plan = self.plan(action)
        if self.packages is not None and plan.package not in (None, *self.packages):
            return "no_op", f"{plan.package} is not installed on this device"
        note = plan.note
        effect = plan.effect
        timeout_s = self.link.host.timeout_s + plan.sleep_s if plan.sleep_s else None
        for group in batches(plan.commands):
            result = await self.link.shell_line(joined(group), timeout_s=timeout_s)
            effect, note = _judge(plan, result)
            if effect != plan.effect:
                break
        if plan.commands and self.options.settle_s:
            await asyncio.sleep(self.options.settle_s)
        return effect, note

    # -- reset ---------------------------------------------------------------------------------
    def resolve_packages(self, apps: Sequence[str]) -> list[str]:
        packages: list[str] = []
        unknown: list[str] = []
        for app in apps:
            package = self.options.apps.resolve(app)
            if package is None or (self.packages is not None and package not in self.packages):
                unknown.append(app)
            else:
                packages.append(package)
        if unknown:
            raise UnknownPackageError(self.serial, unknown)
        return packages

    async def reset(self, apps: Sequence[str]) -> None:
        """Best effort: force-stop and clear the data of the task's apps, then go home.
        Protected packages (system UI, the IME, the home app) are stopped but never cleared."""
        commands: list[Argv] = []
        for package in self.resolve_packages(apps):
            commands.append(("am", "force-stop", package))
            if package not in self._protected():
                commands.append(("pm", "clear", package))
        commands.append(("input", "keyevent", str(HOME_KEYCODE)))
        await self.link.shell_line(joined(commands, "; "))
        if self.options.settle_s:
            await asyncio.sleep(self.options.settle_s)

    async def setup_task(self, template_id: str, seed: int, language: str) -> None:
        """Broadcast the task set-up intent, if the gateway has one, and require RESULT_OK."""
        action = self.options.task_setup_action
        if action is None:
            return
        argv: Argv = (
            "am", "broadcast", "-a", action, "--es", "template_id", template_id,
            "--ei", "seed", str(seed), "--es", "language", language,
        )  # fmt: skip
        result = await self.link.shell_line(command_line(argv))
        match = _BROADCAST_RESULT.search(result.text)
        if match is None:
            raise TaskSetupError(self.serial, f"unexpected answer {result.text.strip()[:200]!r}")
        if int(match["code"]) != RESULT_OK:
            detail = match["data"] or "no receiver for the set-up intent on this phone"
            raise TaskSetupError(self.serial, f"result={match['code']}: {detail}")

    async def tidy(self, packages: Sequence[str]) -> None:
        """After a lease: stop what the last task used and go home (data stays)."""
        commands: list[Argv] = [("am", "force-stop", p) for p in packages if is_package_name(p)]
        commands.append(("input", "keyevent", str(HOME_KEYCODE)))
        await self.link.shell_line(joined(commands, "; "))

    def _protected(self) -> frozenset[str]:
        extra = {self.home_package} if self.home_package else set()
        return self.options.protected_packages | extra


def _judge(plan: ActionPlan, result: ShellResult) -> tuple[Effect, str]:
    text = result.text.strip()
    if result.exit_code != 0 or "monkey aborted" in text or text.startswith("Error"):
        reason = next((line for line in text.splitlines() if line.strip()), "")
        if plan.package is not None and "No activities found" in text:
            reason = f"{plan.package} has no launcher activity on this device"
        return "no_op", reason or f"the command failed with status {result.exit_code}"
    return plan.effect, plan.note
