"""PhoneWorld devices driven through a real adb server by the real adb CLI and by adbutils.

Every device listens on a free loopback port and is attached with `adb connect`; nothing is
mocked: packets, streams, shell protocol v2 and file sync all go through adb as with a phone.
"""

from __future__ import annotations

import asyncio
import io
import shlex
import socket
import struct
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import adbutils
import pytest
from PIL import Image

from phonebuddy.phoneworld.adb import AdbDeviceServer, AdbPhone
from phonebuddy.phoneworld.adb.protocol import (
    A_CLSE,
    A_CNXN,
    A_OKAY,
    A_OPEN,
    A_VERSION,
    HEADER,
    MAX_PAYLOAD,
    Packet,
)
from phonebuddy.phoneworld.adb.uiautomator import dump_xml
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World
from phonebuddy.testing import AdbServer, free_port

NOTES_ICON = (157, 249)
NEW_NOTE = (1004, 169)


@dataclass
class Attached:
    """One PhoneWorld device attached to the adb server as `serial`."""

    device: Device
    phone: AdbPhone
    server: AdbDeviceServer
    adb: AdbServer
    serial: str

    async def cli(self, *args: str, text: bool = True) -> subprocess.CompletedProcess[Any]:
        return await asyncio.to_thread(self.adb.run, "-s", self.serial, *args, text=text)

    async def shell(self, command: str) -> subprocess.CompletedProcess[Any]:
        return await self.cli("shell", command)

    def adbutils_device(self) -> adbutils.AdbDevice:
        client = adbutils.AdbClient(host=self.adb.host, port=self.adb.port)
        return client.device(serial=self.serial)


async def attach(world: World, adb: AdbServer, name: str) -> Attached:
    device = Device(world, device_id=name)
    phone = AdbPhone(device, asyncio.Lock(), serial=name)
    server = AdbDeviceServer(phone, port=free_port())
    await server.start()
    serial = f"127.0.0.1:{server.port}"
    result = await asyncio.to_thread(adb.run, "connect", serial)
    assert f"connected to {serial}" in result.stdout, result
    for _ in range(100):
        if adb.devices().get(serial) == "device":
            break
        await asyncio.sleep(0.02)
    return Attached(device, phone, server, adb, serial)


async def detach(attached: Attached) -> None:
    await asyncio.to_thread(attached.adb.run, "disconnect", attached.serial)
    await attached.server.close()


@pytest.fixture
async def phone(world: World, adb_server: AdbServer) -> AsyncIterator[Attached]:
    attached = await attach(world, adb_server, "pw-a")
    yield attached
    await detach(attached)


@pytest.fixture
async def other_phone(world: World, adb_server: AdbServer) -> AsyncIterator[Attached]:
    attached = await attach(world, adb_server, "pw-b")
    yield attached
    await detach(attached)


async def focus_new_note(phone: Attached) -> None:
    """Open Notes, start a note and put the cursor in its first text field."""
    await phone.shell(
        f"input tap {NOTES_ICON[0]} {NOTES_ICON[1]} && input tap {NEW_NOTE[0]} {NEW_NOTE[1]}"
    )
    field = next(n for n in phone.device.ui_tree().walk() if n.focusable)
    await phone.shell("input tap {} {}".format(*field.bounds.center))
    assert phone.device.state["ui"]["focus"] is not None


def texts(device: Device) -> list[str]:
    return [node.text for node in device.ui_tree().walk() if node.text]


# -- the adb CLI ---------------------------------------------------------------------------------
async def test_adb_devices_lists_a_connected_device(phone: Attached) -> None:
    listing = (await asyncio.to_thread(phone.adb.run, "devices", "-l")).stdout
    line = next(row for row in listing.splitlines() if row.startswith(phone.serial))
    assert line.split()[1] == "device"
    assert "product:phoneworld model:PhoneWorld device:phoneworld" in line


async def test_adb_shell_tap_opens_the_app_under_the_finger(phone: Attached) -> None:
    assert phone.device.foreground is None
    result = await phone.shell(f"input tap {NOTES_ICON[0]} {NOTES_ICON[1]}")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert phone.device.foreground == "com.pw.notes"


async def test_exec_out_screencap_is_a_png_of_the_screen(phone: Attached) -> None:
    result = await phone.cli("exec-out", "screencap -p", text=False)
    image = Image.open(io.BytesIO(result.stdout))
    assert image.format == "PNG"
    assert image.size == (phone.device.screen.width, phone.device.screen.height)
    assert result.stdout == phone.device.frame("png").data


async def test_uiautomator_dump_then_pull_gives_the_ui_tree(
    phone: Attached, tmp_path: Path
) -> None:
    await phone.shell(f"input tap {NOTES_ICON[0]} {NOTES_ICON[1]}")
    dumped = await phone.shell("uiautomator dump")
    assert dumped.stdout == "UI hierchary dumped to: /sdcard/window_dump.xml\n"
    target = tmp_path / "window_dump.xml"
    pulled = await phone.cli("pull", "/sdcard/window_dump.xml", str(target))
    assert pulled.returncode == 0, pulled.stderr
    # Exactly the dump of the protocol's UI tree (test_adb_shell checks that dump node by node).
    assert target.read_text() == dump_xml(phone.device.ui_tree())
    assert 'resource-id="com.pw.notes:id/new_note"' in target.read_text()


async def test_exit_codes_reach_the_adb_cli(phone: Attached) -> None:
    result = await phone.shell("false; echo $?")
    assert (result.returncode, result.stdout) == (0, "1\n")
    result = await phone.shell("nosuchcmd")
    assert result.returncode == 127
    assert result.stderr == "/system/bin/sh: nosuchcmd: inaccessible or not found\n"
    assert (await phone.shell("exit 3")).returncode == 3
    result = await phone.shell("echo out; echo err >&2; true && echo and || echo or")
    assert (result.stdout, result.stderr) == ("out\nand\n", "err\n")


async def test_interactive_shell_reads_lines(phone: Attached) -> None:
    adb = phone.adb
    result = await asyncio.to_thread(
        subprocess.run,
        [adb.binary, "-P", str(adb.port), "-s", phone.serial, "shell"],
        input="echo one\ncd /sdcard; pwd\nexit 5\n",
        capture_output=True, text=True, timeout=30, env=adb.environment(),
    )  # fmt: skip
    assert "one\n" in result.stdout
    assert "/sdcard\n" in result.stdout
    assert result.returncode == 5


async def test_push_and_pull_round_trip_large_files(phone: Attached, tmp_path: Path) -> None:
    payload = bytes(range(256)) * 6000  # 1.5 MB: several sync chunks, more than one packet
    local = tmp_path / "blob.bin"
    local.write_bytes(payload)
    pushed = await phone.cli("push", str(local), "/sdcard/Download/")
    assert pushed.returncode == 0, pushed.stderr
    assert phone.phone.files.read("/sdcard/Download/blob.bin") == payload
    listing = await phone.shell("ls -l /sdcard/Download")
    assert f"{len(payload)}" in listing.stdout
    back = tmp_path / "back.bin"
    pulled = await phone.cli("pull", "/storage/emulated/0/Download/blob.bin", str(back))
    assert pulled.returncode == 0, pulled.stderr
    assert back.read_bytes() == payload
    missing = await phone.cli("pull", "/sdcard/nope", str(tmp_path / "nope"))
    assert missing.returncode != 0
    assert "does not exist" in missing.stdout + missing.stderr  # adb 29 prints to stdout


async def test_adb_keyboard_types_chinese_into_the_focused_field(phone: Attached) -> None:
    await focus_new_note(phone)
    result = await phone.shell("am broadcast -a ADB_INPUT_TEXT --es msg '你好，世界'")
    assert "Broadcast completed: result=0" in result.stdout
    assert "你好，世界" in texts(phone.device)


async def test_typed_shell_metacharacters_stay_text(phone: Attached) -> None:
    nasty = "a; rm -rf / && $(reboot) 'x\" \\"
    await focus_new_note(phone)
    await phone.shell("touch /sdcard/keep")
    phone.phone.history.clear()
    result = await phone.shell(f"input text {shlex.quote(nasty)}")
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")
    assert nasty in texts(phone.device)
    assert list(phone.phone.history) == [("input", "text", nasty)]
    assert phone.phone.files.exists("/sdcard/keep")


async def test_one_lock_per_device_never_stalls_another_device(
    phone: Attached, other_phone: Attached
) -> None:
    async with phone.phone.lock:  # as if the NATS endpoint were rendering on this device
        waiting = asyncio.create_task(phone.shell("echo a"))
        other = await other_phone.shell("echo b")
        assert other.stdout == "b\n"
        await asyncio.sleep(0.05)
        assert not waiting.done()
    assert (await waiting).stdout == "a\n"


# -- protocol robustness ---------------------------------------------------------------------------
def _raw(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5)


def _read_packet(sock: socket.socket) -> Packet | None:
    header = b""
    while len(header) < HEADER.size:
        chunk = sock.recv(HEADER.size - len(header))
        if not chunk:
            return None
        header += chunk
    command, arg0, arg1, length, _, _ = HEADER.unpack(header)
    payload = b""
    while len(payload) < length:
        payload += sock.recv(length - len(payload))
    return Packet(command, arg0, arg1, payload)


def _handshake(sock: socket.socket) -> Packet | None:
    sock.sendall(Packet(A_CNXN, A_VERSION, MAX_PAYLOAD, b"host::features=shell_v2").encode())
    return _read_packet(sock)


@pytest.mark.parametrize(
    "bad",
    [
        b"\x00" * 24,  # bad magic
        struct.pack("<6I", A_OPEN, 1, 0, 2 * MAX_PAYLOAD, 0, A_OPEN ^ 0xFFFFFFFF),  # too big
        struct.pack("<6I", 0x12345678, 0, 0, 0, 0, 0x12345678 ^ 0xFFFFFFFF),  # unknown
    ],
)
async def test_malformed_packets_close_only_their_connection(
    phone: Attached, other_phone: Attached, bad: bytes
) -> None:
    def abuse() -> bytes:
        with _raw(phone.server.port) as sock:
            cnxn = _handshake(sock)
            assert cnxn is not None
            assert cnxn.payload.startswith(b"device::ro.product.name=phoneworld;")
            sock.sendall(bad)
            return sock.recv(100)

    assert await asyncio.to_thread(abuse) == b""  # closed
    assert (await phone.shell("echo still")).stdout == "still\n"
    assert (await other_phone.shell("echo fine")).stdout == "fine\n"


async def test_unknown_services_are_refused_and_stale_packets_ignored(phone: Attached) -> None:
    def talk() -> tuple[Packet | None, Packet | None]:
        with _raw(phone.server.port) as sock:
            _handshake(sock)
            sock.sendall(Packet(A_OKAY, 7, 999).encode())  # a stream that does not exist
            sock.sendall(Packet(A_OPEN, 5, 0, b"jdwp:1234\x00").encode())
            refused = _read_packet(sock)
            sock.sendall(Packet(A_OPEN, 6, 0, b"shell:echo hi\x00").encode())
            return refused, _read_packet(sock)

    refused, opened = await asyncio.to_thread(talk)
    assert refused == Packet(A_CLSE, 0, 5)
    assert opened is not None
    assert (opened.command, opened.arg1) == (A_OKAY, 6)


async def test_packets_before_the_handshake_close_the_connection(phone: Attached) -> None:
    def talk() -> bytes:
        with _raw(phone.server.port) as sock:
            sock.sendall(Packet(A_OPEN, 1, 0, b"shell:id\x00").encode())
            return sock.recv(100)

    assert await asyncio.to_thread(talk) == b""


# -- adbutils ------------------------------------------------------------------------------------
async def test_adbutils_shell_and_properties(phone: Attached) -> None:
    def calls() -> None:
        d = phone.adbutils_device()
        assert d.shell("echo hi") == "hi"
        assert d.shell(["echo", "a b", "&", "$x"]) == "a b & $x"
        assert d.shell2("ls /nope").returncode == 1
        assert d.shell2("echo ok").output == "ok\n"
        v2 = d.shell2("echo out; echo err >&2; exit 4", v2=True)
        assert (v2.returncode, v2.stdout, v2.stderr) == (4, "out\n", "err\n")
        assert d.getprop("ro.build.version.sdk") == "34"
        assert d.prop.model == "PhoneWorld"
        assert "shell_v2" in d.get_features()
        assert d.window_size() == (1080, 2400)
        assert d.rotation() == 0
        packages = d.list_packages()
        assert "com.pw.notes" in packages
        assert "com.android.adbkeyboard" in packages
        assert all(p.startswith("com.pw.") for p in d.list_packages(["-3"]))

    await asyncio.to_thread(calls)


async def test_adbutils_input_and_screens(phone: Attached) -> None:
    device = phone.device

    def calls() -> None:
        d = phone.adbutils_device()
        image = d.screenshot()
        assert image.size == (1080, 2400)
        d.click(*NOTES_ICON)
        assert device.foreground == "com.pw.notes"
        d.click(*NEW_NOTE)
        field = next(n for n in device.ui_tree().walk() if n.focusable)
        d.click(*field.bounds.center)
        d.send_keys("hello world")
        assert "hello world" in texts(device)
        xml = d.dump_hierarchy()
        assert xml.startswith("<?xml")
        assert 'text="hello world"' in xml
        d.keyevent("BACK")  # hides the keyboard
        d.keyevent("HOME")
        assert device.foreground is None
        before = device.state["os"]["clock"]
        d.swipe(540, 1800, 540, 600, 0.3)
        assert device.state["os"]["clock"] > before

    await asyncio.to_thread(calls)


async def test_adbutils_app_lifecycle(phone: Attached, world: World) -> None:
    device = phone.device

    def calls() -> None:
        d = phone.adbutils_device()
        current = d.app_current()
        assert (current.package, current.activity) == (
            "com.pw.launcher", "com.pw.launcher.Launcher"
        )  # fmt: skip
        d.app_start("com.pw.notes")
        assert device.foreground == "com.pw.notes"
        current = d.app_current()
        assert (current.package, current.activity) == ("com.pw.notes", "com.pw.notes.MainActivity")
        d.app_stop("com.pw.notes")
        assert device.foreground is None
        d.app_start("com.pw.notes", ".MainActivity")
        assert device.foreground == "com.pw.notes"
        device.state["apps"]["com.pw.notes"] = {"scribbled": True}
        d.app_clear("com.pw.notes")
        assert device.state["apps"]["com.pw.notes"] == Device(world).state["apps"]["com.pw.notes"]
        assert device.foreground is None

    await asyncio.to_thread(calls)


async def test_adbutils_push_and_pull(phone: Attached, tmp_path: Path) -> None:
    def calls() -> None:
        d = phone.adbutils_device()
        payload = "中文 bytes\n".encode() * 20000
        assert d.sync.push(payload, "/data/local/tmp/x.txt") == len(payload)
        assert d.sync.read_bytes("/data/local/tmp/x.txt") == payload
        local = tmp_path / "a.txt"
        local.write_text("from the host")
        d.sync.push(str(local), "/sdcard/Documents")  # a directory: keeps the file's name
        assert d.sync.read_text("/sdcard/Documents/a.txt") == "from the host"
        d.sync.pull("/data/local/tmp/x.txt", str(tmp_path / "x.txt"))
        assert (tmp_path / "x.txt").read_bytes() == payload
        names = [entry.path for entry in d.sync.list("/sdcard")]
        assert "Documents" in names
        assert d.sync.exists("/sdcard/Documents/a.txt")
        assert not d.sync.exists("/sdcard/nope")

    await asyncio.to_thread(calls)
