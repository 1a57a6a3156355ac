"""Whatever an agent types leaves the device working, on the NATS path (`Device.act(Type)`) and
the ADB path alike (`input text`, ADBKeyboard broadcasts, raw bytes through a real adb server).

Every code point class is typed into a single-line and a multi-line field; then the device still
observes (a screenshot, the UI tree, the uiautomator XML) and acts (the next tap saves the
note), and the field holds what the shared rule (`phonebuddy.protocol.text_entry`) says.
"""

from __future__ import annotations

import asyncio
import base64
import os
import time
from collections.abc import AsyncIterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from phonebuddy.phoneworld.adb import AdbDeviceServer, AdbPhone
from phonebuddy.phoneworld.adb.uiautomator import dump_xml
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.ui.render import render
from phonebuddy.phoneworld.ui.text import laid_out, text_width, wrap
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Click, LongPress, Type, Wait, from_pixels
from phonebuddy.protocol.actions import MAX_TEXT_CHARS
from phonebuddy.protocol.text_entry import normalize
from phonebuddy.testing import AdbServer, free_port

NOTES, MESSAGES = "com.pw.notes", "com.pw.messages"
TITLE, BODY = f"{NOTES}:id/title", f"{NOTES}:id/body"
PREFIX = "记 "  # the title starts with it, so saving the note always applies


def _chars(*ranges: tuple[int, int]) -> list[str]:
    return [chr(c) for low, high in ranges for c in range(low, high + 1)]


# The classes of code points a model can emit (and, over ADB, what bytes can hold).
CLASSES: dict[str, st.SearchStrategy[str]] = {
    "c0_c1_controls": st.sampled_from(_chars((0, 0x1F), (0x7F, 0x9F))),
    "line_breaks": st.sampled_from(["\n", "\r", "\r\n", "\x85", "\u2028", "\u2029", "\x0b"]),
    "bidi_paragraph": st.sampled_from(["\x1c", "\x1d", "\x1e", "\x1f"]),
    "combining": st.characters(categories=("Mn", "Me")),
    "emoji": st.sampled_from(
        [
            "🙂",
            "👍🏽",
            "👩\u200d👩\u200d👧\u200d👦",
            "🏳️\u200d🌈",
            "🇨🇳",
            "1\ufe0f\u20e3",
            "🧑🏿\u200d🚀",
        ]
    ),
    "rtl": st.sampled_from(
        ["مرحبا", "שלום", "\u202eabc", "\u2067עברית", "\u200f", "\u061c", "ن\u0651\u064e"]
    ),
    "cjk": st.characters(min_codepoint=0x4E00, max_codepoint=0x9FFF),
    "format": st.characters(categories=("Cf",)),
    "private_and_unassigned": st.characters(categories=("Co", "Cn")),
    "noncharacters": st.sampled_from(["\ufffe", "\uffff", "\ufdd0", "\U0010ffff"]),
    "anything": st.characters(codec="utf-8"),
    "ascii": st.characters(min_codepoint=0x20, max_codepoint=0x7E),
}
MIXED = st.lists(st.one_of(*CLASSES.values()), min_size=1, max_size=40).map("".join)


def tap(device: Device, resource_id: str) -> Click:
    [node] = device.ui_tree().find(resource_id=resource_id)
    return Click(coordinate=from_pixels(node.bounds.center, device.screen))


def new_note(world: World) -> Device:
    device = Device(world)
    device.launch(NOTES)
    device.act(tap(device, f"{NOTES}:id/new_note"))
    return device


def field_text(device: Device, resource_id: str) -> str:
    [node] = device.ui_tree().find(resource_id=resource_id)
    return node.text


def still_works(device: Device, title: str, body: str) -> None:
    """The device observes (every view of the screen) and acts (the next tap saves the note)."""
    assert device.frame("png").data.startswith(b"\x89PNG")
    tree = device.ui_tree()
    dump_xml(tree).encode("utf-8")
    tree.model_dump_json().encode("utf-8")
    assert device.act(tap(device, f"{NOTES}:id/save")).effect == "applied"
    saved = device.state["apps"][NOTES]["notes"][0]
    assert (saved["title"], saved["body"]) == (title.strip(), body)
    device.frame("jpeg")


def typed_into(device: Device, field: str, text: str) -> None:
    device.act(tap(device, field))
    for start in range(0, len(text), MAX_TEXT_CHARS):
        device.act(Type(text=text[start : start + MAX_TEXT_CHARS]))


FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(text=MIXED)
def test_any_text_typed_over_nats_leaves_the_device_working(world: World, text: str) -> None:
    device = new_note(world)
    typed_into(device, TITLE, PREFIX + text)
    typed_into(device, BODY, text)
    # A single-line field with no action: Enter does nothing there; a multi-line one: a new line.
    title = PREFIX + normalize(text).replace("\n", "")
    assert field_text(device, TITLE) == title
    assert field_text(device, BODY) == normalize(text)
    still_works(device, title, normalize(text))


@pytest.mark.parametrize("name", sorted(CLASSES))
@settings(max_examples=4, deadline=None)
@given(data=st.data())
def test_every_class_alone_renders_and_types(world: World, name: str, data: st.DataObject) -> None:
    """Each class on its own, many characters of it, through both fields."""
    text = "".join(data.draw(st.lists(CLASSES[name], min_size=16, max_size=64)))
    device = new_note(world)
    typed_into(device, TITLE, PREFIX + text)
    typed_into(device, BODY, text)
    title = PREFIX + normalize(text).replace("\n", "")
    still_works(device, title, normalize(text))


@pytest.mark.parametrize(
    "text", ["a" * MAX_TEXT_CHARS * 3, "中" * MAX_TEXT_CHARS * 3, "e\u0301" * MAX_TEXT_CHARS]
)
def test_very_long_text_stays_cheap_to_draw(world: World, text: str) -> None:
    device = new_note(world)
    typed_into(device, TITLE, text)
    typed_into(device, BODY, text)
    started = time.perf_counter()
    device.frame("png")
    assert time.perf_counter() - started < 2.0  # it took 13 s at 16 k characters before
    still_works(device, text, text)


def test_enter_in_a_single_line_field_runs_its_action(world: World) -> None:
    """Messages' reply box sends on Enter: "hi\\r\\nthere" sends "hi" and leaves "there"; an
    Enter on the empty box sends nothing and changes nothing, and typing goes on."""
    device = Device(world)
    device.launch(MESSAGES)
    thread_node = next(
        n for n in device.ui_tree().walk() if n.resource_id.startswith(f"{MESSAGES}:id/thread_")
    )
    thread_id = thread_node.resource_id.removeprefix(f"{MESSAGES}:id/thread_")
    device.act(Click(coordinate=from_pixels(thread_node.bounds.center, device.screen)))
    device.act(tap(device, f"{MESSAGES}:id/reply"))
    before = device.snapshot()
    assert device.act(Type(text="\nhi\r\nthere")).effect == "applied"
    assert field_text(device, f"{MESSAGES}:id/reply") == "there"
    [thread] = (t for t in device.state["apps"][MESSAGES]["threads"] if t["id"] == thread_id)
    [earlier] = (t for t in before["apps"][MESSAGES]["threads"] if t["id"] == thread_id)
    assert [m["text"] for m in thread["messages"]] == [m["text"] for m in earlier["messages"]] + [
        "hi"
    ]


@pytest.mark.parametrize(("field", "pasted"), [(TITLE, "a b c"), (BODY, "a\nb\nc")])
def test_paste_is_whole_text_and_never_presses_enter(world: World, field: str, pasted: str) -> None:
    """Pasting a multi-line clipboard: a new line per break in a multi-line field, a space per
    break in a single-line one; no Enter (nothing is submitted), no control characters."""
    device = new_note(world)
    device.state["os"]["clipboard"] = "a\r\nb\x00\u2029c"
    device.act(tap(device, field))
    [node] = device.ui_tree().find(resource_id=field)
    device.act(LongPress(coordinate=from_pixels(node.bounds.center, device.screen)))
    assert device.act(tap(device, "com.android.systemui:id/menu_paste")).effect == "applied"
    assert field_text(device, field) == pasted


def test_control_characters_alone_type_nothing(world: World) -> None:
    device = new_note(world)
    device.act(tap(device, TITLE))
    result = device.act(Type(text="\t\x00\x1b"))
    assert result.effect == "no_op"
    assert "nothing to type" in result.note
    assert field_text(device, TITLE) == ""


@given(st.text(st.characters(codec=None, categories=None), max_size=30))
@settings(max_examples=200, deadline=None)
def test_the_renderer_draws_any_string(text: str) -> None:
    """Measuring, wrapping and drawing never fail, whatever reaches them (app content, a
    restored state), surrogate halves and bidi paragraph separators included."""
    for size in (30, 42):
        text_width(text, size)
        lines = wrap(text, size, False, 600, 3)
        assert 1 <= len(lines) <= 3
        assert laid_out(text, size, True, lambda face, line: face.getbbox(line), None)


def test_a_line_raqm_refuses_is_laid_out_without_shaping() -> None:
    """The safety net: `laid_out` falls back to the basic engine when raqm fails on a line (here
    a raw U+2029, which the shaping engine refuses inside a line)."""
    refused = "a\u2029b"
    bbox = laid_out("x", 42, False, lambda face, _: face.getbbox(refused), None)
    assert bbox is not None
    assert bbox[2] > 0


def test_a_node_with_odd_text_still_renders(device: Device) -> None:
    """Text that did not come through typing (content, a pre-filled field) draws too."""
    device.launch(NOTES)
    device.act(tap(device, f"{NOTES}:id/new_note"))
    entry = device.top_entry(NOTES)
    entry["fields"]["title"] = entry["fields"]["body"] = "a\rb\x1c\x85c\u2029\ud800"
    device.act(Wait(time=1))  # a new version: the screen is laid out again
    [title] = (n for n in device.layout().walk() if n.resource_id == TITLE)
    assert title.lines == ("a b c \ufffd",)
    render(device.layout(), device.screen)


# -- ADB -------------------------------------------------------------------------------------


def sh(phone: AdbPhone, line: str) -> int:
    return phone.run_blocking(line).exit_code


def ime_commands(text: str) -> list[str]:
    """Ways to hand `text` to ADBKeyboard over ADB: text, base64, code points."""
    b64 = base64.b64encode(text.encode("utf-8", "surrogatepass")).decode()
    codes = ",".join(str(ord(c)) for c in text)
    return [
        f"am broadcast -a ADB_INPUT_B64 --es msg {b64}",
        f"am broadcast -a ADB_INPUT_CHARS --eia chars {codes}",
    ]


@FUZZ
@given(text=MIXED, way=st.integers(0, 1))
def test_any_text_typed_over_adb_matches_the_nats_path(world: World, text: str, way: int) -> None:
    over_nats = new_note(world)
    typed_into(over_nats, BODY, text)
    device = new_note(world)
    phone = AdbPhone(device, asyncio.Lock(), serial="fuzz")
    device.act(tap(device, BODY))
    assert sh(phone, ime_commands(text)[way]) == 0
    assert field_text(device, BODY) == field_text(over_nats, BODY) == normalize(text)
    device.act(tap(device, TITLE))
    sh(phone, "input text x")
    still_works(device, "x", normalize(text))


@given(
    halves=st.lists(
        st.one_of(st.integers(0xD800, 0xDFFF), st.sampled_from([0x61, 0x4E2D, 0x1F642])),
        min_size=1,
        max_size=12,
    )
)
@settings(max_examples=30, deadline=None)
def test_surrogate_halves_over_adb_are_joined_or_replaced(world: World, halves: list[int]) -> None:
    """Code units sent one by one (ADB_INPUT_CHARS): a pair is its character, as in Java."""
    device = new_note(world)
    phone = AdbPhone(device, asyncio.Lock(), serial="fuzz")
    device.act(tap(device, BODY))
    sh(phone, f"am broadcast -a ADB_INPUT_CHARS --eia chars {','.join(map(str, halves))}")
    expected = normalize("".join(map(chr, halves)))
    assert field_text(device, BODY) == expected
    assert all(not 0xD800 <= ord(c) <= 0xDFFF for c in expected)
    device.act(tap(device, TITLE))
    sh(phone, "input text x")
    still_works(device, "x", expected)


@pytest.mark.parametrize(
    "raw",
    [
        b"\xed\xa0\xbd\xed\xb8\x82",  # CESU-8 for U+1F642: two encoded surrogate halves
        b"a\xed\xa0\x80b",  # one encoded high surrogate
        b"\xff\xfe\xc0\x80",  # never valid UTF-8
        b"ok\xe4\xb8",  # cut short in a character
    ],
)
def test_bytes_that_are_not_utf8_type_replacement_characters(world: World, raw: bytes) -> None:
    device = new_note(world)
    phone = AdbPhone(device, asyncio.Lock(), serial="fuzz")
    device.act(tap(device, BODY))
    assert (
        sh(phone, f"am broadcast -a ADB_INPUT_B64 --es msg {base64.b64encode(raw).decode()}") == 0
    )
    assert field_text(device, BODY) == raw.decode("utf-8", "replace")
    device.act(tap(device, TITLE))
    sh(phone, "input text x")
    still_works(device, "x", raw.decode("utf-8", "replace"))


def test_input_text_line_breaks_are_enter_and_tabs_the_tab_key(world: World) -> None:
    device = new_note(world)
    phone = AdbPhone(device, asyncio.Lock(), serial="fuzz")
    device.act(tap(device, BODY))
    assert sh(phone, "input text 'a\nb\tc'") == 0
    assert field_text(device, BODY) == "a\nbc"
    device.act(tap(device, TITLE))
    assert sh(phone, "input text 'x\ny\tz'") == 0
    assert field_text(device, TITLE) == "xyz"
    assert [argv[:2] for argv in phone.history] == [("input", "text")] * 2


@pytest.fixture
async def attached(world: World, adb_server: AdbServer) -> AsyncIterator[tuple[Device, str]]:
    device = Device(world, device_id="raw")
    phone = AdbPhone(device, asyncio.Lock(), serial="raw")
    server = AdbDeviceServer(phone, port=free_port())
    await server.start()
    serial = f"127.0.0.1:{server.port}"
    try:
        result = await asyncio.to_thread(adb_server.run, "connect", serial)
        assert f"connected to {serial}" in result.stdout, result
        for _ in range(100):
            if adb_server.devices().get(serial) == "device":
                break
            await asyncio.sleep(0.02)
        yield device, serial
    finally:
        await asyncio.to_thread(adb_server.run, "disconnect", serial)
        await server.close()


async def test_raw_bytes_through_a_real_adb_server_leave_the_phone_working(
    attached: tuple[Device, str], adb_server: AdbServer
) -> None:
    """Bytes no UTF-8 decoder accepts, in the command line itself (`am broadcast --es msg`)."""
    device, serial = attached

    async def shell(command: bytes) -> str:
        # os.fsdecode keeps the bytes: subprocess hands them to adb unchanged.
        done = await asyncio.to_thread(adb_server.run, "-s", serial, "shell", os.fsdecode(command))
        return done.stdout

    await shell(b"monkey -p com.pw.notes -c android.intent.category.LAUNCHER 1")
    device.act(tap(device, f"{NOTES}:id/new_note"))
    device.act(tap(device, BODY))
    raw = b"x\xed\xa0\xbd\xed\xb8\x82\r\n\xc0\x1d\xe2\x80\xa9y"
    out = await shell(b"am broadcast -a ADB_INPUT_TEXT --es msg '" + raw + b"'")
    assert "Broadcast completed" in out
    expected = normalize(raw.decode("utf-8", "replace"))
    assert field_text(device, BODY) == expected
    assert "\n" in expected
    assert "\ufffd" in expected
    png = await asyncio.to_thread(
        adb_server.run, "-s", serial, "exec-out", "screencap -p", text=False
    )
    assert png.stdout.startswith(b"\x89PNG")
    dumped = await shell(b"uiautomator dump /sdcard/ui.xml >/dev/null && cat /sdcard/ui.xml")
    assert 'resource-id="com.pw.notes:id/body"' in dumped
    x, y = device.ui_tree().find(resource_id=TITLE)[0].bounds.center
    await shell(f"input tap {x} {y}; input text T; input keyevent 66".encode())
    assert field_text(device, TITLE) == "T"
    save = device.ui_tree().find(resource_id=f"{NOTES}:id/save")[0].bounds.center
    await shell(f"input tap {save[0]} {save[1]}".encode())
    assert device.state["apps"][NOTES]["notes"][0]["body"] == expected
