"""`screencap` and `uiautomator dump`: the device's frame and UI tree, the same ones the protocol
observation carries."""

from __future__ import annotations

import io
import struct
from typing import TYPE_CHECKING

from PIL import Image

from phonebuddy.phoneworld.adb.files import FileSystemError, normalize
from phonebuddy.phoneworld.adb.uiautomator import dump_xml

if TYPE_CHECKING:
    from phonebuddy.phoneworld.adb.phone import AdbPhone
    from phonebuddy.phoneworld.adb.shell import Command, Invocation

    Inv = Invocation[AdbPhone]

DEFAULT_DUMP = "/sdcard/window_dump.xml"
_TERMINALS = ("/dev/tty", "/dev/stdout", "/proc/self/fd/1")
RGBA_8888 = 1
SRGB_DATASPACE = 0


def _raw(png: bytes) -> bytes:
    """screencap's raw format: width, height, pixel format, data space, then RGBA pixels."""
    with Image.open(io.BytesIO(png)) as image:
        rgba = image.convert("RGBA")
        header = struct.pack("<4I", rgba.width, rgba.height, RGBA_8888, SRGB_DATASPACE)
        return header + rgba.tobytes()


def screencap(inv: Inv) -> int:
    args = list(inv.args)
    as_png = False
    path: str | None = None
    while args:
        arg = args.pop(0)
        if arg == "-p":
            as_png = True
        elif arg in ("-d", "-a") and args:
            args.pop(0)  # one display only
        elif arg == "-h":
            inv.err("usage: screencap [-hp] [-d display-id] [FILENAME]\n")
            return 0
        elif arg.startswith("-"):
            inv.err(f"screencap: unknown option {arg}\n")
            return 1
        else:
            path = arg
    png = inv.phone.device.frame("png").data
    if path is None:
        inv.out(png if as_png else _raw(png))
        return 0
    data = png if as_png or path.endswith(".png") else _raw(png)
    try:
        inv.phone.files.write(normalize(path, inv.session.cwd), data)
    except FileSystemError as exc:
        inv.err(f"Error opening file: {path} ({exc.reason})\n")
        return 1
    return 0


def uiautomator(inv: Inv) -> int:
    args = list(inv.args)
    if not args or args[0] != "dump":
        inv.err(
            "Usage: uiautomator <subcommand> [options]\n\nAvailable subcommands:\n\n"
            "dump: creates an XML dump of current UI hierarchy\n"
        )
        return 1
    path = DEFAULT_DUMP
    for arg in args[1:]:
        if not arg.startswith("--"):
            path = arg
    xml = dump_xml(inv.phone.device.ui_tree())
    if path in _TERMINALS:
        inv.out(xml)
    else:
        try:
            inv.phone.files.write(normalize(path, inv.session.cwd), xml.encode())
        except FileSystemError as exc:
            inv.err(f"ERROR: could not write {path}: {exc.reason}\n")
            return 1
    # Sic: Android's uiautomator misspells "hierarchy" here, and clients look for this line.
    inv.out(f"UI hierchary dumped to: {path}\n")
    return 0


COMMANDS: dict[str, Command[AdbPhone]] = {"screencap": screencap, "uiautomator": uiautomator}
