"""Shell quoting and `input text` encoding: model text reaches the device as one argument and is
typed exactly, whatever it holds."""

from __future__ import annotations

import base64
import shlex
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phonebuddy.device_gateway.phone import MAX_LINE_BYTES, batches, joined
from phonebuddy.device_gateway.quoting import (
    UnsafeArgumentError,
    can_use_input_text,
    command_line,
    input_text_chunks,
    quote,
    type_commands,
)

HOSTILE = "a; rm -rf / && $(reboot) 'x\" \\"
PRINTABLE_ASCII = st.text(alphabet=[chr(c) for c in range(0x20, 0x7F)], min_size=1, max_size=60)


def android_input_text(argument: str) -> str:
    """Android's InputShellCommand.sendText, transcribed: `%s` becomes a space."""
    text = list(argument)
    escape = False
    i = 0
    while i < len(text):
        if escape:
            escape = False
            if text[i] == "s":
                text[i] = " "
                del text[i - 1]
                i -= 1
        if text[i] == "%":
            escape = True
        i += 1
    return "".join(text)


@pytest.mark.parametrize(
    ("argument", "quoted"),
    [
        ("tap", "tap"),
        ("540", "540"),
        ("com.pw.notes", "com.pw.notes"),
        ("KEYCODE_ENTER", "KEYCODE_ENTER"),
        ("a%sb", "a%sb"),
        ("", "''"),
        ("a b", "'a b'"),
        ("a;b", "'a;b'"),
        ("$(reboot)", "'$(reboot)'"),
        ("`id`", "'`id`'"),
        ("a&&b||c|d", "'a&&b||c|d'"),
        ("x>y<z", "'x>y<z'"),
        ("it's", "'it'\\''s'"),
        ('say "hi"', "'say \"hi\"'"),
        ("back\\slash", "'back\\slash'"),
        ("*?[]", "'*?[]'"),
        ("~root", "'~root'"),
        ("#comment", "'#comment'"),
        ("line\nbreak", "'line\nbreak'"),
        ("$HOME", "'$HOME'"),
    ],
)
def test_quote_table(argument: str, quoted: str) -> None:
    assert quote(argument) == quoted
    assert shlex.split(quoted) == [argument]


def test_a_nul_byte_cannot_be_quoted() -> None:
    with pytest.raises(UnsafeArgumentError):
        quote("a\x00b")


@given(st.lists(st.text(alphabet=st.characters(exclude_characters="\x00")), min_size=1))
def test_command_line_runs_exactly_its_arguments(argv: list[str]) -> None:
    assert shlex.split(command_line(argv)) == argv


@pytest.mark.parametrize(
    ("text", "chunks"),
    [
        ("hello", ["hello"]),
        ("hello world", ["hello%sworld"]),
        ("  ", ["%s%s"]),
        ("100%", ["100%"]),
        ("100% sure", ["100%%ssure"]),
        ("50%s", ["50%", "s"]),
        ("%s%s", ["%", "s%", "s"]),
        ("%%s", ["%%", "s"]),
        (HOSTILE, ["a;%srm%s-rf%s/%s&&%s$(reboot)%s'x\"%s\\"]),
    ],
)
def test_input_text_chunks_table(text: str, chunks: list[str]) -> None:
    assert input_text_chunks(text) == chunks
    assert "".join(android_input_text(chunk) for chunk in chunks) == text


@given(PRINTABLE_ASCII)
def test_input_text_types_any_printable_ascii_exactly(text: str) -> None:
    chunks = input_text_chunks(text)
    assert all(" " not in chunk for chunk in chunks)
    assert "".join(android_input_text(chunk) for chunk in chunks) == text


def test_type_commands_uses_input_text_for_ascii() -> None:
    assert type_commands(HOSTILE) == [("input", "text", input_text_chunks(HOSTILE)[0])]
    line = command_line(type_commands(HOSTILE)[0])
    assert shlex.split(line) == ["input", "text", "a;%srm%s-rf%s/%s&&%s$(reboot)%s'x\"%s\\"]


def test_line_breaks_are_enter_and_controls_are_not_typed() -> None:
    """The shared rule (phonebuddy.protocol.text_entry): each line break, whatever its form,
    is one Enter key event; tab, NUL and other controls send nothing."""
    assert type_commands("a b\nc\td\r\n\x00e\u2029中\x85") == [
        ("input", "text", "a%sb"),
        ("input", "keyevent", "KEYCODE_ENTER"),
        ("input", "text", "cd"),
        ("input", "keyevent", "KEYCODE_ENTER"),
        ("input", "text", "e"),
        ("input", "keyevent", "KEYCODE_ENTER"),
        ("am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg", "5Lit"),
        ("input", "keyevent", "KEYCODE_ENTER"),
    ]
    assert type_commands("\t\x00\x1b\x7f\x9f\ufffe") == []


@pytest.mark.parametrize("text", ["周末计划", "café", "emoji 🙂", "中文 and ASCII"])
def test_other_text_goes_whole_through_the_adb_keyboard(text: str) -> None:
    assert not can_use_input_text(text)
    [command] = type_commands(text)
    assert command[:6] == ("am", "broadcast", "-a", "ADB_INPUT_B64", "--es", "msg")
    assert base64.b64decode(command[6]).decode() == text
    assert set(command[6]) <= set(string.ascii_letters + string.digits + "+/=")


def test_nothing_to_type_is_no_command() -> None:
    assert type_commands("") == []


@pytest.mark.parametrize("text", ["x y%" * 1024, "中文，" * 1365, "a\n" * 2048])
def test_long_text_is_cut_into_commands_that_old_adbd_accepts(text: str) -> None:
    commands = type_commands(text)
    groups = batches(commands)
    assert [argv for group in groups for argv in group] == commands
    assert all(len(joined(group).encode()) <= MAX_LINE_BYTES for group in groups)
    typed = []
    for argv in commands:
        if argv[:2] == ("input", "text"):
            typed.append(android_input_text(argv[2]))
        elif argv[:2] == ("input", "keyevent"):
            typed.append("\n")
        else:
            typed.append(base64.b64decode(argv[6]).decode())
    assert "".join(typed) == text
