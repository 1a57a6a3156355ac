"""Toybox-style file tools on the device's virtual filesystem: ls, cat, rm, mkdir, touch, cp, mv."""

from __future__ import annotations

import datetime as dt
import posixpath
import stat
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.adb.files import FileInfo, FileSystemError, normalize

if TYPE_CHECKING:
    from phonebuddy.phoneworld.adb.phone import AdbPhone
    from phonebuddy.phoneworld.adb.shell import Command, Invocation

    Inv = Invocation[AdbPhone]

_TZ = dt.timezone(dt.timedelta(hours=8))


def _split_flags(args: list[str]) -> tuple[set[str], list[str]]:
    flags: set[str] = set()
    rest: list[str] = []
    only_paths = False
    for arg in args:
        if not only_paths and arg == "--":
            only_paths = True
        elif not only_paths and arg.startswith("-") and len(arg) > 1:
            flags.update(arg[1:])
        else:
            rest.append(arg)
    return flags, rest


def _long(info: FileInfo, name: str) -> str:
    when = dt.datetime.fromtimestamp(info.mtime, _TZ).strftime("%Y-%m-%d %H:%M")
    links = 2 if info.is_dir else 1
    return f"{stat.filemode(info.mode)} {links} shell shell {info.size:>8} {when} {name}"


def ls(inv: Inv) -> int:
    flags, paths = _split_flags(inv.args)
    files = inv.phone.files
    status = 0
    targets = paths or ["."]
    for index, path in enumerate(targets):
        full = normalize(path, inv.session.cwd)
        info = files.stat(full)
        if info is None:
            inv.err(f"ls: {path}: No such file or directory\n")
            status = 1
            continue
        if not info.is_dir or "d" in flags:
            inv.out((_long(info, path) if "l" in flags else path) + "\n")
            continue
        if len(targets) > 1:
            inv.out(("\n" if index else "") + f"{path}:\n")
        entries = [e for e in files.list_dir(full) if "a" in flags or not e.name.startswith(".")]
        if "l" in flags:
            inv.out(f"total {len(entries) * 8}\n")
        for entry in entries:
            inv.out((_long(entry, entry.name) if "l" in flags else entry.name) + "\n")
    return status


def cat(inv: Inv) -> int:
    _, paths = _split_flags(inv.args)
    if not paths:
        inv.out(inv.stdin)
        return 0
    status = 0
    for path in paths:
        if path == "-":
            inv.out(inv.stdin)
            continue
        try:
            inv.out(inv.phone.files.read(normalize(path, inv.session.cwd)))
        except FileSystemError as exc:
            inv.err(f"cat: {path}: {exc.reason}\n")
            status = 1
    return status


def rm(inv: Inv) -> int:
    flags, paths = _split_flags(inv.args)
    recursive, force = bool(flags & {"r", "R"}), "f" in flags
    if not paths and not force:
        return inv.fail("Needs 1 argument")
    status = 0
    for path in paths:
        try:
            inv.phone.files.remove(normalize(path, inv.session.cwd), recursive=recursive)
        except FileSystemError as exc:
            if force and exc.reason == "No such file or directory":
                continue
            inv.err(f"rm: {path}: {exc.reason}\n")
            status = 1
    return status


def mkdir(inv: Inv) -> int:
    flags, paths = _split_flags(inv.args)
    if not paths:
        return inv.fail("Needs 1 argument")
    status = 0
    for path in paths:
        try:
            inv.phone.files.mkdir(normalize(path, inv.session.cwd), parents="p" in flags)
        except FileSystemError as exc:
            inv.err(f"mkdir: {path}: {exc.reason}\n")
            status = 1
    return status


def touch(inv: Inv) -> int:
    _, paths = _split_flags(inv.args)
    if not paths:
        return inv.fail("Needs 1 argument")
    status = 0
    for path in paths:
        try:
            inv.phone.files.touch(normalize(path, inv.session.cwd))
        except FileSystemError as exc:
            inv.err(f"touch: {path}: {exc.reason}\n")
            status = 1
    return status


def _copy(inv: Inv, *, move: bool) -> int:
    _, paths = _split_flags(inv.args)
    if len(paths) < 2:
        return inv.fail("Needs 2 arguments")
    files = inv.phone.files
    *sources, target = paths
    target_full = normalize(target, inv.session.cwd)
    if len(sources) > 1 and not files.is_dir(target_full):
        return inv.fail(f"{target}: Not a directory")
    status = 0
    for source in sources:
        full = normalize(source, inv.session.cwd)
        dest = target_full
        if files.is_dir(target_full):
            dest = posixpath.join(target_full, posixpath.basename(full))
        try:
            files.write(dest, files.read(full))
            if move:
                files.remove(full)
        except FileSystemError as exc:
            inv.err(f"{inv.name}: {exc.path}: {exc.reason}\n")
            status = 1
    return status


def cp(inv: Inv) -> int:
    return _copy(inv, move=False)


def mv(inv: Inv) -> int:
    return _copy(inv, move=True)


COMMANDS: dict[str, Command[AdbPhone]] = {
    "ls": ls,
    "cat": cat,
    "rm": rm,
    "mkdir": mkdir,
    "touch": touch,
    "cp": cp,
    "mv": mv,
}
