"""The command table of the simulated shell: every name it knows, each a Python function that
acts on the simulated phone (see `shell.py`: no command ever starts a process)."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from phonebuddy.phoneworld.adb.commands import (
    activity,
    basic,
    dumpsys,
    fileutils,
    inputs,
    screen,
    system,
)

if TYPE_CHECKING:
    from phonebuddy.phoneworld.adb.phone import AdbPhone
    from phonebuddy.phoneworld.adb.shell import Command, Invocation

# `cmd SERVICE ...` reaches the same commands through their binder service names.
CMD_SERVICES = {
    "package": "pm",
    "activity": "am",
    "window": "wm",
    "input": "input",
    "settings": "settings",
}


def cmd(inv: Invocation[AdbPhone]) -> int:
    if not inv.args:
        inv.err("cmd: No service specified; use -l to list all running services.\n")
        return 20
    if inv.args[0] == "-l":
        inv.out("Currently running services:\n" + "".join(f"  {s}\n" for s in CMD_SERVICES))
        return 0
    name = CMD_SERVICES.get(inv.args[0])
    if name is None:
        inv.err(f"cmd: Can't find service: {inv.args[0]}\n")
        return 20
    return COMMANDS[name](dataclasses.replace(inv, name=name, args=inv.args[1:]))


COMMANDS: dict[str, Command[AdbPhone]] = {
    **basic.COMMANDS,
    **fileutils.COMMANDS,
    **inputs.COMMANDS,
    **screen.COMMANDS,
    **activity.COMMANDS,
    **system.COMMANDS,
    **dumpsys.COMMANDS,
    "cmd": cmd,
}
