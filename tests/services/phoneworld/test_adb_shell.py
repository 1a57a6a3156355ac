"""The simulated shell on its own (no network): tokenizing, operators, exit codes, redirections,
and the commands' outputs in the formats agent harnesses and adbutils parse."""

from __future__ import annotations

import asyncio
import base64
import io
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from phonebuddy.phoneworld.adb.commands.inputs import android_text
from phonebuddy.phoneworld.adb.files import FileSystemError, VirtualFS
from phonebuddy.phoneworld.adb.phone import AdbPhone
from phonebuddy.phoneworld.adb.shell import ShellSyntaxError, parse
from phonebuddy.phoneworld.adb.uiautomator import dump_xml
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import UINode

NOTES_ICON = (157, 249)  # the launcher's first icon on a 1080x2400 screen
NEW_NOTE = (1004, 169)


@pytest.fixture
def phone(device: Device) -> AdbPhone:
    return AdbPhone(device, asyncio.Lock(), serial="pw-test")


def sh(phone: AdbPhone, line: str) -> tuple[str, str, int]:
    result = phone.run_blocking(line)
    return result.stdout.decode(), result.stderr.decode(), result.exit_code


def xml_nodes(xml: str) -> list[dict[str, str]]:
    """Every node's attributes, depth first (the XML is our own output, hence trusted)."""
    root = ET.fromstring(xml)  # noqa: S314 - produced by the code under test, no DTD
    assert root.tag == "hierarchy"
    return [dict(node.attrib) for node in root.iter("node")]


def tree_nodes(root: UINode) -> list[dict[str, str]]:
    """What uiautomator should say about each node of the protocol's UI tree."""
    flag = {True: "true", False: "false"}
    out = []
    for node in root.walk():
        b = node.bounds
        out.append({
            "text": node.text, "resource-id": node.resource_id, "class": node.class_name,
            "package": node.package, "content-desc": node.content_desc,
            "checkable": flag[node.checkable], "checked": flag[node.checked],
            "clickable": flag[node.clickable], "enabled": flag[node.enabled],
            "focusable": flag[node.focusable], "focused": flag[node.focused],
            "scrollable": flag[node.scrollable], "long-clickable": flag[node.long_clickable],
            "password": "false", "selected": flag[node.selected],
            "bounds": f"[{b.left},{b.top}][{b.right},{b.bottom}]",
        })  # fmt: skip
    return out


def words(line: str) -> list[list[str]]:
    """The argv of each simple command, without expansion (for tokenizer cases)."""
    return [
        ["".join(part.text for part in word.parts) for word in command.words]
        for pipeline in parse(line)
        for command in pipeline.commands
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("echo a b", [["echo", "a", "b"]]),
        ("echo 'a b'  c", [["echo", "a b", "c"]]),
        ('echo "a  b" "" x', [["echo", "a  b", "", "x"]]),
        (r"echo a\ b \"q\" \\", [["echo", "a b", '"q"', "\\"]]),
        (r'echo "say \"hi\" \$x \n"', [["echo", 'say "hi" $x \\n']]),
        ("echo 'it'\\''s'", [["echo", "it's"]]),
        ("echo a;echo b", [["echo", "a"], ["echo", "b"]]),
        ("a && b || c", [["a"], ["b"], ["c"]]),
        ("a | b | c", [["a"], ["b"], ["c"]]),
        ("echo 'a;b&&c|d'", [["echo", "a;b&&c|d"]]),
        ("echo a # comment; rm x", [["echo", "a"]]),
        ("echo a#b", [["echo", "a#b"]]),
        ("echo a\necho b\n", [["echo", "a"], ["echo", "b"]]),
        ("echo a \\\n b", [["echo", "a", "b"]]),
        ("echo a |\n grep a &&\n\n echo b", [["echo", "a"], ["grep", "a"], ["echo", "b"]]),
    ],
)
def test_tokenizer_splits_words_and_commands(line: str, expected: list[list[str]]) -> None:
    assert words(line) == expected


@pytest.mark.parametrize(
    "line",
    ["echo 'open", 'echo "open', "; echo", "echo a &&", "| grep x", "echo a |", "echo $(reboot)",
     "echo `reboot`", "(echo a)", "echo > ", "if true; then echo; fi", "cat <<EOF", "a ;; b"],
)  # fmt: skip
def test_syntax_errors_are_reported_not_run(phone: AdbPhone, line: str) -> None:
    with pytest.raises(ShellSyntaxError):
        parse(line)
    out, err, code = sh(phone, line)
    assert (out, code) == ("", 1)
    assert err.startswith("/system/bin/sh: syntax error: ")
    assert list(phone.history) == []


@pytest.mark.parametrize(
    ("line", "stdout", "code"),
    [
        ("echo hi", "hi\n", 0),
        ("false; echo $?", "1\n", 0),
        ("true; echo $?", "0\n", 0),
        ("false", "", 1),
        ("false && echo no", "", 1),
        ("false || echo yes", "yes\n", 0),
        ("true && echo yes || echo no", "yes\n", 0),
        ("false && echo a || echo b", "b\n", 0),
        ("nosuchcmd; echo $?", "127\n", 0),
        ("nosuchcmd || echo fallback", "fallback\n", 0),
        ("echo \"$?\" '$?'", "0 $?\n", 0),
        ("echo ${?}x", "0x\n", 0),
        ("x='a  b'; echo $x; echo \"$x\"", "a b\na  b\n", 0),
        ("echo $UNSET.", ".\n", 0),
        ("echo -n a; echo b", "ab\n", 0),
        ("exit 3; echo never", "", 3),
        ("echo a | grep b", "", 1),
        ("printf x", "", 127),
        ("/system/bin/echo full path", "full path\n", 0),
        ("echo 'a; rm -rf / && $(reboot)'", "a; rm -rf / && $(reboot)\n", 0),
        ("echo a & echo b", "a\nb\n", 0),
        ("echo one two | wc -w", "2\n", 0),
        ("cd /sdcard && pwd", "/sdcard\n", 0),
    ],
)
def test_operators_expansion_and_exit_codes(
    phone: AdbPhone, line: str, stdout: str, code: int
) -> None:
    out, _, status = sh(phone, line)
    assert (out, status) == (stdout, code)


def test_unknown_command_answers_like_android(phone: AdbPhone) -> None:
    assert sh(phone, "nosuchcmd --flag") == (
        "",
        "/system/bin/sh: nosuchcmd: inaccessible or not found\n",
        127,
    )


def test_adbutils_exit_marker_works(phone: AdbPhone) -> None:
    out, _, _ = sh(phone, "ls /nope; echo X4EXIT:$?")
    assert out.endswith("X4EXIT:1\n")


def test_redirections(phone: AdbPhone) -> None:
    assert sh(phone, "echo a > /sdcard/f; echo b >> /sdcard/f; cat /sdcard/f") == ("a\nb\n", "", 0)
    assert sh(phone, "cat < /sdcard/f | head -n 1") == ("a\n", "", 0)
    assert sh(phone, "ls /nope 2>/dev/null; echo $?") == ("1\n", "", 0)
    assert sh(phone, "ls /nope 2>&1 | grep -c 'No such'") == ("1\n", "", 0)
    assert sh(phone, "echo err >&2") == ("", "err\n", 0)
    assert sh(phone, "nosuch &> /sdcard/both; cat /sdcard/both")[0].endswith("not found\n")
    out, err, code = sh(phone, "echo x > /system/x")
    assert (out, code) == ("", 1)
    assert "Read-only file system" in err
    assert sh(phone, "cd /sdcard; echo rel > r.txt; cat /sdcard/r.txt") == ("rel\n", "", 0)


def test_globs_match_the_virtual_filesystem(phone: AdbPhone) -> None:
    sh(phone, "touch /sdcard/a.png /sdcard/b.png /sdcard/c.txt")
    assert sh(phone, "ls /sdcard/*.png") == ("/sdcard/a.png\n/sdcard/b.png\n", "", 0)
    assert sh(phone, "echo '/sdcard/*.png'") == ("/sdcard/*.png\n", "", 0)
    assert sh(phone, "rm /sdcard/*.png; ls /sdcard/*.png; echo $?")[0] == "1\n"


def test_sleep_advances_the_simulated_clock_at_once(phone: AdbPhone, device: Device) -> None:
    before = device.state["os"]["clock"]
    sh(phone, "sleep 90")
    assert device.state["os"]["clock"] - before == 90
    assert sh(phone, "sleep x")[2] == 1


def test_text_typed_is_only_ever_text(phone: AdbPhone, device: Device) -> None:
    """The security case: shell metacharacters inside a quoted argument stay text."""
    sh(phone, f"input tap {NOTES_ICON[0]} {NOTES_ICON[1]}; input tap {NEW_NOTE[0]} {NEW_NOTE[1]}")
    field = next(n for n in device.ui_tree().walk() if n.focusable)
    x, y = field.bounds.center
    sh(phone, f"input tap {x} {y}")
    nasty = "a; rm -rf / && $(reboot) 'x\" \\"
    sh(phone, "touch /sdcard/keep")
    phone.history.clear()
    quoted = "'" + nasty.replace("'", "'\\''") + "'"
    assert sh(phone, f"input text {quoted}") == ("", "", 0)
    assert [argv[0] for argv in phone.history] == ["input"]
    assert any(n.text == nasty for n in device.ui_tree().walk())
    assert phone.files.exists("/sdcard/keep")


@pytest.mark.parametrize(
    ("raw", "typed"),
    [("hello%sworld", "hello world"), ("100%", "100%"), ("%%s", "% "), ("a%sb%sc", "a b c")],
)
def test_input_text_unescapes_like_android(raw: str, typed: str) -> None:
    assert android_text(raw) == typed


def test_input_text_refuses_what_a_keyboard_cannot_type(phone: AdbPhone) -> None:
    _, err, code = sh(phone, "input text 你好")
    assert code == 255
    assert "ADB_INPUT_TEXT" in err


def test_keyevents_map_to_the_device(phone: AdbPhone, device: Device) -> None:
    sh(phone, f"input tap {NOTES_ICON[0]} {NOTES_ICON[1]}")
    assert device.foreground == "com.pw.notes"
    assert sh(phone, "input keyevent KEYCODE_HOME") == ("", "", 0)
    assert device.foreground is None
    sh(phone, "input keyevent 187")
    assert device.state["ui"]["overlay"] == {"kind": "recents"}
    sh(phone, "input keyevent 4")
    assert device.state["ui"]["overlay"] is None
    assert sh(phone, "input keyevent NOPE") == ("", "Error: Unknown keycode: NOPE\n", 1)


def test_swipe_held_still_is_a_long_press(phone: AdbPhone, device: Device) -> None:
    before = device.state["os"]["clock"]
    sh(phone, "input swipe 540 1200 540 1200 800")
    sh(phone, "input swipe 540 1800 540 600 300")
    assert device.state["os"]["clock"] > before
    assert sh(phone, "input tap 5000 5000") == ("", "", 0)  # off screen: dropped
    assert sh(phone, "input tap x 1")[2] == 255


def test_uiautomator_xml_matches_the_ui_tree(phone: AdbPhone, device: Device) -> None:
    assert sh(phone, "uiautomator dump") == (
        "UI hierchary dumped to: /sdcard/window_dump.xml\n", "", 0
    )  # fmt: skip
    xml = phone.files.read("/sdcard/window_dump.xml").decode()
    assert xml.startswith("<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>")
    assert '<hierarchy rotation="0"><node index="0" text="" resource-id="' in xml
    dumped = xml_nodes(xml)
    assert [{k: v for k, v in n.items() if k != "index"} for n in dumped] == tree_nodes(
        device.ui_tree()
    )
    first = re.search(r"<node ([^>]*?) ?/?>", xml)
    assert first is not None
    attributes = re.findall(r'([\w-]+)="', first.group(1))
    assert attributes == [
        "index", "text", "resource-id", "class", "package", "content-desc", "checkable",
        "checked", "clickable", "enabled", "focusable", "focused", "scrollable",
        "long-clickable", "password", "selected", "bounds",
    ]  # fmt: skip
    out, _, _ = sh(phone, "uiautomator dump /dev/tty")
    assert out == xml + "UI hierchary dumped to: /dev/tty\n"


def test_uiautomator_escapes_text(device: Device) -> None:
    tree = device.ui_tree()
    xml = dump_xml(tree.model_copy(update={"text": 'a<b>&"c"\x01'}))
    assert xml_nodes(xml)[0]["text"] == 'a<b>&"c"?'


def test_screencap_writes_a_png_of_the_screen(phone: AdbPhone, device: Device) -> None:
    result = phone.run_blocking("screencap -p")
    image = Image.open(io.BytesIO(result.stdout))
    assert (image.format, image.size) == ("PNG", (device.screen.width, device.screen.height))
    assert sh(phone, "screencap -p /sdcard/s.png") == ("", "", 0)
    assert phone.files.read("/sdcard/s.png")[:8] == b"\x89PNG\r\n\x1a\n"
    raw = phone.run_blocking("screencap").stdout
    assert len(raw) == 16 + device.screen.width * device.screen.height * 4


@pytest.mark.parametrize(
    ("line", "pattern"),
    [
        ("wm size", r"^Physical size: 1080x2400\n$"),
        ("wm density", r"^Physical density: 420\n$"),
        ("dumpsys display", r"orientation=0.*deviceWidth=1080, deviceHeight=2400"),
        ("dumpsys window windows",
         r"mCurrentFocus=Window\{\w+ u0 com\.pw\.launcher/com\.pw\.launcher\.Launcher\}"),
        ("dumpsys window", r"mCurrentFocus=Window\{\w+ u0 com\.pw\.launcher/"),
        ("dumpsys activity activities",
         r"mResumedActivity: ActivityRecord\{\w+ u0 com\.pw\.launcher/\.Launcher t\d+\}"),
        ("getprop ro.build.version.release", r"^14\n$"),
        ("getprop ro.build.version.sdk", r"^34\n$"),
        ("getprop ro.product.cpu.abi", r"^arm64-v8a\n$"),
        ("getprop", r"\[ro\.product\.model\]: \[PhoneWorld\]"),
        ("id", r"^uid=2000\(shell\) gid=2000\(shell\)"),
        ("whoami", r"^shell\n$"),
        ("pm list packages -3", r"^(package:com\.pw\.\w+\n)+$"),
        ("pm list packages", r"package:com\.android\.adbkeyboard\n"),
        ("ime list -s", r"com\.android\.adbkeyboard/\.AdbIME"),
        ("settings get secure no_such_key", r"^null\n$"),
        ("dumpsys input_method", r"mInputShown=false"),
        ("cmd package list packages notes", r"^package:com\.pw\.notes\n$"),
        ("date +%Y", r"^2026\n$"),
    ],
)  # fmt: skip
def test_output_formats(phone: AdbPhone, line: str, pattern: str) -> None:
    out, err, code = sh(phone, line)
    assert (err, code) == ("", 0)
    assert re.search(pattern, out, re.DOTALL), out


def test_settings_map_onto_device_settings(phone: AdbPhone, device: Device) -> None:
    os_settings = device.state["os"]["settings"]
    assert sh(phone, "settings put system screen_brightness 255") == ("", "", 0)
    assert os_settings["brightness"] == 100
    assert sh(phone, "settings get system screen_brightness")[0] == "255\n"
    for key, os_key in (("wifi_on", "wifi"), ("bluetooth_on", "bluetooth"),
                        ("airplane_mode_on", "airplane_mode")):  # fmt: skip
        sh(phone, f"settings put global {key} 1")
        assert os_settings[os_key] is True
        assert sh(phone, f"settings get global {key}")[0] == "1\n"
        sh(phone, f"settings put global {key} 0")
        assert os_settings[os_key] is False
    assert sh(phone, "settings get system wifi_on")[0] == "null\n"  # wrong namespace
    sh(phone, "settings put secure my_key hello")
    assert sh(phone, "settings get secure my_key")[0] == "hello\n"


def test_apps_start_stop_and_clear(phone: AdbPhone, device: Device, world: World) -> None:
    out, _, code = sh(phone, "monkey -p com.pw.notes -c android.intent.category.LAUNCHER 1")
    assert (code, device.foreground) == (0, "com.pw.notes")
    assert "Events injected: 1" in out
    focus = sh(phone, "dumpsys window windows")[0]
    assert "mCurrentFocus=Window{" in focus
    assert "u0 com.pw.notes/com.pw.notes.MainActivity}" in focus
    sh(phone, "am force-stop com.pw.notes")
    assert device.foreground is None
    assert device.state["ui"]["stacks"].get("com.pw.notes") is None
    out, _, code = sh(phone, "am start -n com.pw.notes/.MainActivity")
    assert (out, code, device.foreground) == (
        "Starting: Intent { cmp=com.pw.notes/.MainActivity }\n", 0, "com.pw.notes"
    )  # fmt: skip
    _, err, code = sh(phone, "am start -n com.pw.notes/.Nope")
    assert code == 1
    assert "does not exist" in err
    fresh = Device(world).state["apps"]["com.pw.notes"]
    device.state["apps"]["com.pw.notes"] = {"changed": True}
    assert sh(phone, "pm clear com.pw.notes") == ("Success\n", "", 0)
    assert device.state["apps"]["com.pw.notes"] == fresh
    assert sh(phone, "pm clear com.nope")[0] == "Failed\n"
    sh(phone, "am start -a android.intent.action.MAIN -c android.intent.category.HOME")
    assert device.foreground is None


def test_adb_keyboard_broadcasts_type_any_text(phone: AdbPhone, device: Device) -> None:
    sh(phone, f"input tap {NOTES_ICON[0]} {NOTES_ICON[1]}; input tap {NEW_NOTE[0]} {NEW_NOTE[1]}")
    field = next(n for n in device.ui_tree().walk() if n.focusable)
    sh(phone, f"input tap {field.bounds.center[0]} {field.bounds.center[1]}")
    out, _, code = sh(phone, "am broadcast -a ADB_INPUT_TEXT --es msg '买菜 😀'")
    assert code == 0
    assert out == (
        "Broadcasting: Intent { act=ADB_INPUT_TEXT flg=0x400000 (has extras) }\n"
        "Broadcast completed: result=0\n"
    )
    b64 = base64.b64encode("和牛奶".encode()).decode()
    sh(phone, f"am broadcast -a ADB_INPUT_B64 --es msg {b64}")
    assert any(n.text == "买菜 😀和牛奶" for n in device.ui_tree().walk())
    sh(phone, "am broadcast -a ADB_CLEAR_TEXT")
    assert not any(n.text == "买菜 😀和牛奶" for n in device.ui_tree().walk())


def test_virtual_filesystem_rules() -> None:
    files = VirtualFS(clock=lambda: 0, max_bytes=100)
    files.write("/storage/emulated/0/x", b"1")
    assert files.read("/sdcard/x") == b"1"
    with pytest.raises(FileSystemError, match="Read-only"):
        files.write("/x", b"")
    with pytest.raises(FileSystemError, match="No space"):
        files.write("/sdcard/big", b"x" * 101)
    with pytest.raises(FileSystemError, match="No such file"):
        files.write("/sdcard/a/b", b"")
    files.write("/sdcard/a/b", b"2", make_parents=True)
    with pytest.raises(FileSystemError, match="Is a directory"):
        files.remove("/sdcard/a")
    files.remove("/sdcard/a", recursive=True)
    assert not files.exists("/sdcard/a/b")
    with pytest.raises(FileSystemError, match="Read-only"):
        files.remove("/system", recursive=True)
