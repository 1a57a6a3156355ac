"""Safe command lines for the device shell, and text encodings for `input text`.

Every command the gateway sends is built from an argument list: each argument is quoted for the
device's POSIX shell (`sh -c` in adbd), so text from a model only ever arrives as one argument
and never as shell syntax. `input text` then has one special sequence of its own, `%s`, which
it types as a space; spaces are sent as `%s` and a literal `%` followed by `s` is split across
two `input text` calls so that nothing the model typed is reinterpreted.

What typing does is the rule every source shares, `phonebuddy.protocol.text_entry`: a line
break is the Enter key, control characters are not typed. PhoneWorld applies the same rule,
so one text leaves the same field contents on a real phone and on a simulated one.
"""

from __future__ import annotations

import base64
import re
from collections.abc import Sequence

from phonebuddy.protocol.text_entry import ENTER, keystrokes

Argv = tuple[str, ...]
"""One command as its argument list, before quoting."""

_SAFE = re.compile(r"[A-Za-z0-9_@%+=:,./-]+")
_INPUT_TEXT_CHARS = frozenset(chr(code) for code in range(0x20, 0x7F))
ENTER_KEY: Argv = ("input", "keyevent", "KEYCODE_ENTER")
ADB_KEYBOARD_ACTION = "ADB_INPUT_B64"
# Old adbd takes service names of at most 4 KiB: keep every command well below.
MAX_TEXT_PER_COMMAND = 500


class UnsafeArgumentError(ValueError):
    """An argument no shell quoting can carry (it holds a NUL byte)."""

    def __init__(self, argument: str) -> None:
        self.argument = argument
        super().__init__(f"argument {argument[:40]!r} holds a NUL byte")


def quote(argument: str) -> str:
    """One argument for a POSIX shell: left bare when it has only safe characters, otherwise
    in single quotes (inside which nothing is special), each `'` written as `'\\''`."""
    if "\x00" in argument:
        raise UnsafeArgumentError(argument)
    if _SAFE.fullmatch(argument):
        return argument
    return "'" + argument.replace("'", "'\\''") + "'"


def command_line(argv: Sequence[str]) -> str:
    """A command line that runs exactly `argv` (no expansion, no operators)."""
    if not argv:
        raise ValueError("a command needs at least its name")
    return " ".join(quote(argument) for argument in argv)


def can_use_input_text(text: str) -> bool:
    """Whether `input text` can type `text`: printable ASCII only. Anything else goes through
    the ADBKeyboard broadcast."""
    return all(ch in _INPUT_TEXT_CHARS for ch in text)


def input_text_chunks(text: str) -> list[str]:
    """Printable ASCII -> the arguments of successive `input text` calls that type it exactly.

    Spaces become `%s`. Android turns every `%s` into a space, so a literal `%` directly
    followed by a literal `s` ends one chunk and the `s` starts the next. Long text is cut
    into chunks of at most MAX_TEXT_PER_COMMAND characters.
    """
    if not all(ch in _INPUT_TEXT_CHARS for ch in text):
        raise ValueError("input text takes printable ASCII only")
    chunks: list[str] = []
    current: list[str] = []
    previous = ""
    for ch in text:
        if (ch == "s" and previous == "%") or len(current) >= MAX_TEXT_PER_COMMAND:
            chunks.append("".join(current))
            current = []
        current.append("%s" if ch == " " else ch)
        previous = ch
    if current:
        chunks.append("".join(current))
    return chunks


def type_commands(text: str) -> list[Argv]:
    """The commands that type `text` into the focused field, keystroke by keystroke
    (`text_entry.keystrokes`): each line break an Enter key event (a new line in a multi-line
    field, the field's action in a single-line one), control characters nothing. A run of
    printable ASCII goes through `input text`, any other run whole, base64-encoded, to the
    ADBKeyboard IME's broadcast. No commands when nothing in `text` can be typed."""
    commands: list[Argv] = []
    for stroke in keystrokes(text):
        if stroke == ENTER:
            commands.append(ENTER_KEY)
        elif can_use_input_text(stroke):
            commands.extend(("input", "text", chunk) for chunk in input_text_chunks(stroke))
        else:
            commands.extend(
                ("am", "broadcast", "-a", ADB_KEYBOARD_ACTION, "--es", "msg", _base64(piece))
                for piece in _pieces(stroke)
            )
    return commands


def _pieces(text: str) -> list[str]:
    return [text[i : i + MAX_TEXT_PER_COMMAND] for i in range(0, len(text), MAX_TEXT_PER_COMMAND)]


def _base64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")
