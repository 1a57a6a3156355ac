"""`input`: taps, swipes, text and key events, in pixels, turned into protocol actions.

Coordinates arrive in pixels as on a real phone; they are converted with the protocol's
`from_pixels` and applied through Device.act, so an ADB tap and a protocol Click are the same
thing. Whether the action had an effect is the device's business: like Android's `input`, the
command says nothing either way.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.adb.keycodes import ALIASES, PRINTABLE, parse_keycode
from phonebuddy.protocol import Click, Key, LongPress, Swipe, Type, from_pixels, text_entry
from phonebuddy.protocol.actions import MAX_TEXT_CHARS, MAX_WAIT_S

if TYPE_CHECKING:
    from phonebuddy.phoneworld.adb.phone import AdbPhone
    from phonebuddy.phoneworld.adb.shell import Command, Invocation

    Inv = Invocation[AdbPhone]

_KEY_EVENTS = {"\n": "ENTER", "\t": "TAB"}  # what the virtual keyboard sends for them
_KEY_CHARS = re.compile("([\n\t])")
LONG_PRESS_MS = 500
TAP_SLOP_PX = 10  # a touch that moves less than this is a tap, as on Android (touch slop)
DEFAULT_SWIPE_MS = 300
_SOURCES = frozenset(
    {"keyboard", "mouse", "touchscreen", "touchpad", "dpad", "stylus", "trackball", "gamepad",
     "joystick", "touchnavigation", "rotaryencoder"}
)  # fmt: skip
USAGE = """Usage: input [<source>] [-d DISPLAY_ID] <command> [<arg>...]

The commands and default sources are:
      text <string> (Default: keyboard)
      keyevent [--longpress|--doubletap] <key code number or name> ... (Default: keyboard)
      tap <x> <y> (Default: touchscreen)
      swipe <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      draganddrop <x1> <y1> <x2> <y2> [duration(ms)] (Default: touchscreen)
      motionevent <DOWN|UP|MOVE|CANCEL> <x> <y> (Default: touchscreen)
"""


class _BadNumberError(ValueError):
    def __init__(self, text: str) -> None:
        self.text = text
        super().__init__(text)


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise _BadNumberError(text) from None
    if not math.isfinite(value):
        raise _BadNumberError(text)
    return value


def _pixel(x: str, y: str) -> tuple[int, int]:
    return round(_number(x)), round(_number(y))


def _on_screen(phone: AdbPhone, x: str, y: str) -> tuple[int, int] | None:
    """The pixel, or None when it is off screen (Android drops such touches)."""
    px, py = _pixel(x, y)
    screen = phone.device.screen
    return (px, py) if 0 <= px < screen.width and 0 <= py < screen.height else None


def _clamped(phone: AdbPhone, x: str, y: str) -> tuple[int, int]:
    """The pixel moved onto the screen (a swipe may start at the very edge or past it)."""
    px, py = _pixel(x, y)
    screen = phone.device.screen
    return min(max(px, 0), screen.width - 1), min(max(py, 0), screen.height - 1)


def tap(phone: AdbPhone, point: tuple[int, int]) -> None:
    phone.act(Click(coordinate=from_pixels(point, phone.device.screen)))


def gesture(
    phone: AdbPhone, start: tuple[int, int], end: tuple[int, int], duration_ms: float
) -> None:
    """A touch from start to end: a tap, a long press (held still >= 500 ms) or a swipe."""
    screen = phone.device.screen
    if math.dist(start, end) < TAP_SLOP_PX:
        if duration_ms >= LONG_PRESS_MS:
            seconds = min(duration_ms / 1000, MAX_WAIT_S)
            phone.act(LongPress(coordinate=from_pixels(start, screen), time=seconds))
        else:
            tap(phone, start)
        return
    phone.act(Swipe(coordinate=from_pixels(start, screen), coordinate2=from_pixels(end, screen)))


def type_text(phone: AdbPhone, text: str, *, from_ime: bool = False) -> None:
    """Type text into the focused field. From the virtual keyboard (`input text`) a newline is
    an Enter key event and a tab a Tab key event of their own. An input method (ADBKeyboard)
    commits the text, which the device types by the rule every source shares
    (`phonebuddy.protocol.text_entry`: a line break is Enter there too); bytes over ADB may
    hold surrogate halves, which that rule joins or replaces before anything else sees them."""
    runs = [text_entry.normalize(text)] if from_ime else _KEY_CHARS.split(text)
    for run in runs:
        if run in _KEY_EVENTS:
            phone.act(Key(text=_KEY_EVENTS[run]))
            continue
        for start in range(0, len(run), MAX_TEXT_CHARS):
            phone.act(Type(text=run[start : start + MAX_TEXT_CHARS]))


def press_key(phone: AdbPhone, name: str) -> None:
    """One key by name (`BACK`, `A`, `SPACE`...): printable keys type their character."""
    char = PRINTABLE.get(name)
    if char is not None:
        phone.act(Type(text=char))
        return
    phone.act(Key(text=ALIASES.get(name, name)))


def android_text(raw: str) -> str:
    """`input text` unescaping, as Android's InputShellCommand does it: `%s` is a space."""
    chars = list(raw)
    escaped = False
    i = 0
    while i < len(chars):
        if escaped:
            escaped = False
            if chars[i] == "s":
                chars[i] = " "
                del chars[i - 1]
                i -= 1
        if chars[i] == "%":
            escaped = True
        i += 1
    return "".join(chars)


def input_(inv: Inv) -> int:
    args = list(inv.args)
    if args and args[0] in _SOURCES:
        args.pop(0)
    if len(args) >= 2 and args[0] == "-d":
        del args[:2]
    if not args:
        inv.err(USAGE)
        return 1
    command, rest = args[0], args[1:]
    handler = _SUBCOMMANDS.get(command)
    if handler is None:
        inv.err(f"Error: Unknown command: {command}\n{USAGE}")
        return 1
    try:
        return handler(inv, rest)
    except _BadNumberError as exc:
        inv.err(
            f"Exception occurred while executing '{command}':\n"
            f'java.lang.NumberFormatException: For input string: "{exc.text}"\n'
        )
        return 255


def _tap(inv: Inv, args: list[str]) -> int:
    if len(args) != 2:
        inv.err(f"Error: Invalid arguments for command: tap\n{USAGE}")
        return 1
    point = _on_screen(inv.phone, args[0], args[1])
    if point is not None:  # Android drops touches outside the display
        tap(inv.phone, point)
    return 0


def _swipe(inv: Inv, args: list[str]) -> int:
    if len(args) not in (4, 5):
        inv.err(f"Error: Invalid arguments for command: {inv.args[0]}\n{USAGE}")
        return 1
    start = _clamped(inv.phone, args[0], args[1])
    end = _clamped(inv.phone, args[2], args[3])
    duration = _number(args[4]) if len(args) == 5 else DEFAULT_SWIPE_MS
    gesture(inv.phone, start, end, duration)
    return 0


def _drag(inv: Inv, args: list[str]) -> int:
    # PhoneWorld has no drag-and-drop targets: a drag moves content like a swipe does.
    return _swipe(inv, args)


def _text(inv: Inv, args: list[str]) -> int:
    if not args:
        inv.err(f"Error: Invalid arguments for command: text\n{USAGE}")
        return 1
    text = android_text(args[0])  # like Android 14, only the first argument is typed
    if any(not (ch.isascii() and (ch.isprintable() or ch in "\n\t")) for ch in text):
        inv.err(
            "Exception occurred while executing 'text':\n"
            "java.lang.IllegalArgumentException: the virtual keyboard cannot type non-ASCII "
            "characters; use ADBKeyboard (am broadcast -a ADB_INPUT_TEXT --es msg TEXT)\n"
        )
        return 255
    if text:
        type_text(inv.phone, text)
    return 0


def _keyevent(inv: Inv, args: list[str]) -> int:
    keys = [a for a in args if not a.startswith("--")]
    if "--delay" in args:  # `--delay MS` takes a value
        index = args.index("--delay")
        keys = [a for i, a in enumerate(args) if not a.startswith("--") and i != index + 1]
    if not keys:
        inv.err(f"Error: Invalid arguments for command: keyevent\n{USAGE}")
        return 1
    names = [parse_keycode(k) for k in keys]
    for key, name in zip(keys, names, strict=True):
        if name is None or name == "UNKNOWN":
            inv.err(f"Error: Unknown keycode: {key}\n")
            return 1
    for name in names:
        assert name is not None  # checked above
        press_key(inv.phone, name)
    return 0


def _motionevent(inv: Inv, args: list[str]) -> int:
    if len(args) not in (1, 3) or args[0].upper() not in ("DOWN", "UP", "MOVE", "CANCEL"):
        inv.err(f"Error: Invalid arguments for command: motionevent\n{USAGE}")
        return 1
    phone = inv.phone
    event = args[0].upper()
    point = _clamped(phone, args[1], args[2]) if len(args) == 3 else None
    if event == "CANCEL":
        phone.touch_down = None
    elif event == "DOWN":
        phone.touch_down = point
    elif event == "UP" and phone.touch_down is not None:
        start, phone.touch_down = phone.touch_down, None
        gesture(phone, start, point or start, DEFAULT_SWIPE_MS)
    return 0


_SUBCOMMANDS = {
    "tap": _tap,
    "swipe": _swipe,
    "draganddrop": _drag,
    "text": _text,
    "keyevent": _keyevent,
    "motionevent": _motionevent,
}

COMMANDS: dict[str, Command[AdbPhone]] = {"input": input_}
