"""Shell builtins and text tools: echo, true, false, sleep, exit, cd, pwd, grep, head, tail, wc."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.adb.files import FileSystemError, normalize
from phonebuddy.protocol import Wait
from phonebuddy.protocol.actions import MAX_WAIT_S

if TYPE_CHECKING:
    from phonebuddy.phoneworld.adb.phone import AdbPhone
    from phonebuddy.phoneworld.adb.shell import Command, Invocation

    Inv = Invocation[AdbPhone]

MAX_SLEEP_S = 86400.0
_ECHO_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "b": "\b", "r": "\r", "v": "\v"}


def echo(inv: Inv) -> int:
    args = list(inv.args)
    newline, escapes = True, False
    while args and re.fullmatch(r"-[neE]+", args[0]):
        flags = args.pop(0)
        newline = newline and "n" not in flags
        escapes = "e" in flags or (escapes and "E" not in flags)
    text = " ".join(args)
    if escapes:
        text = re.sub(r"\\(.)", lambda m: _ECHO_ESCAPES.get(m.group(1), m.group(0)), text)
    inv.out(text + ("\n" if newline else ""))
    return 0


def true(inv: Inv) -> int:
    return 0


def false(inv: Inv) -> int:
    return 1


def sleep(inv: Inv) -> int:
    """Advances the simulated clock (as Wait actions) and returns at once."""
    if not inv.args:
        return inv.fail("missing operand")
    total = 0.0
    for arg in inv.args:
        match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)", arg)
        if match is None:
            return inv.fail(f"invalid number '{arg}'")
        factor = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[match.group(2)]
        total += float(match.group(1)) * factor
    if total > MAX_SLEEP_S:
        return inv.fail(f"PhoneWorld advances its clock by at most {MAX_SLEEP_S:g} s at a time")
    while total > 0:
        step = min(total, MAX_WAIT_S)
        inv.phone.act(Wait(time=step))
        total -= step
    return 0


def exit_(inv: Inv) -> int:
    inv.session.exit_requested = True
    if not inv.args:
        return inv.session.status
    if not inv.args[0].lstrip("-").isdigit():
        return inv.fail(f"{inv.args[0]}: bad number", 2)
    return int(inv.args[0]) & 0xFF


def cd(inv: Inv) -> int:
    target = normalize(inv.args[0] if inv.args else "/", inv.session.cwd)
    if not inv.phone.files.is_dir(target):
        reason = (
            "not a directory" if inv.phone.files.exists(target) else "No such file or directory"
        )
        inv.err(f"/system/bin/sh: cd: {inv.args[0]}: {reason}\n")
        return 2
    inv.session.cwd = target
    return 0


def pwd(inv: Inv) -> int:
    inv.out(inv.session.cwd + "\n")
    return 0


def _inputs(inv: Inv, paths: list[str]) -> list[tuple[str, bytes]] | None:
    """The named files' contents, or stdin; None (after printing why) when one is missing."""
    if not paths:
        return [("-", inv.stdin)]
    found = []
    for path in paths:
        try:
            found.append((path, inv.phone.files.read(normalize(path, inv.session.cwd))))
        except FileSystemError as exc:
            inv.err(f"{inv.name}: {path}: {exc.reason}\n")
            return None
    return found


def grep(inv: Inv) -> int:
    args = list(inv.args)
    flags: set[str] = set()
    patterns: list[str] = []
    while args and args[0].startswith("-") and args[0] != "-":
        arg = args.pop(0)
        if arg == "--":
            break
        if arg == "-e" and args:
            patterns.append(args.pop(0))
            continue
        flags.update(arg[1:])
    if not patterns:
        if not args:
            return inv.fail("no pattern", 2)
        patterns.append(args.pop(0))
    unknown = flags - set("iEFvcoqnwlsh")
    if unknown:
        return inv.fail(f"unknown option {''.join(sorted(unknown))}", 2)
    sources = _inputs(inv, args)
    if sources is None:
        return 2
    regex_flags = re.IGNORECASE if "i" in flags else 0
    parts = [re.escape(p) if "F" in flags else p for p in patterns]
    if "w" in flags:
        parts = [rf"\b(?:{p})\b" for p in parts]
    try:
        regex = re.compile("|".join(f"(?:{p})" for p in parts), regex_flags)
    except re.error as exc:
        return inv.fail(f"bad regex: {exc}", 2)
    matched = 0
    for name, data in sources:
        for number, line in enumerate(data.decode(errors="replace").splitlines(), 1):
            hit = regex.search(line)
            if bool(hit) == ("v" in flags):
                continue
            matched += 1
            if "q" in flags or "c" in flags or "l" in flags:
                continue
            prefix = f"{name}:" if len(sources) > 1 and "h" not in flags else ""
            prefix += f"{number}:" if "n" in flags else ""
            if "o" in flags and hit is not None:
                for found in regex.finditer(line):
                    inv.out(f"{prefix}{found.group()}\n")
            else:
                inv.out(f"{prefix}{line}\n")
        if "l" in flags and matched:
            inv.out(f"{name}\n")
    if "c" in flags:
        inv.out(f"{matched}\n")
    return 0 if matched else 1


def _count_option(inv: Inv, default: int) -> tuple[int, list[str]] | None:
    args = list(inv.args)
    count = default
    if args and re.fullmatch(r"-\d+", args[0]):
        count = int(args.pop(0)[1:])
    elif args and args[0] == "-n" and len(args) > 1 and args[1].lstrip("+-").isdigit():
        args.pop(0)
        count = int(args.pop(0).lstrip("+"))
    elif args and args[0].startswith("-n") and args[0][2:].isdigit():
        count = int(args.pop(0)[2:])
    elif args and args[0].startswith("-") and args[0] != "-":
        inv.fail(f"unknown option {args[0]}")
        return None
    return count, args


def head(inv: Inv) -> int:
    parsed = _count_option(inv, 10)
    if parsed is None:
        return 1
    count, paths = parsed
    sources = _inputs(inv, paths)
    if sources is None:
        return 1
    for _, data in sources:
        lines = data.splitlines(keepends=True)
        inv.out(b"".join(lines[:count]))
    return 0


def tail(inv: Inv) -> int:
    parsed = _count_option(inv, 10)
    if parsed is None:
        return 1
    count, paths = parsed
    sources = _inputs(inv, paths)
    if sources is None:
        return 1
    for _, data in sources:
        lines = data.splitlines(keepends=True)
        inv.out(b"".join(lines[-count:] if count > 0 else []))
    return 0


def wc(inv: Inv) -> int:
    args = [a for a in inv.args if not a.startswith("-")]
    flags = "".join(a[1:] for a in inv.args if a.startswith("-")) or "lwc"
    sources = _inputs(inv, args)
    if sources is None:
        return 1
    for name, data in sources:
        counts = {"l": data.count(b"\n"), "w": len(data.split()), "c": len(data)}
        numbers = [str(counts[f]) for f in "lwc" if f in flags]
        label = f" {name}" if name != "-" else ""
        inv.out(" ".join(numbers) + label + "\n")
    return 0


COMMANDS: dict[str, Command[AdbPhone]] = {
    "echo": echo,
    "true": true,
    "false": false,
    "sleep": sleep,
    "exit": exit_,
    "cd": cd,
    "pwd": pwd,
    "grep": grep,
    "head": head,
    "tail": tail,
    "wc": wc,
}
