"""One PhoneWorld device as ADB sees it: the Device and its lock (the very ones the NATS endpoint
uses), a virtual filesystem, its properties, and the shell that runs commands on it.

Every command line runs whole in a worker thread while holding the device's lock: rendering and
layout never stall the event loop (other devices, other connections), and a device runs one
command at a time, whoever sent it.
"""

from __future__ import annotations

import asyncio
from collections import deque

from phonebuddy.phoneworld.adb import android
from phonebuddy.phoneworld.adb.commands import COMMANDS
from phonebuddy.phoneworld.adb.files import VirtualFS
from phonebuddy.phoneworld.adb.shell import Session, Shell, ShellResult
from phonebuddy.phoneworld.device import ActResult, Device
from phonebuddy.protocol import Action

HISTORY = 512
_SHELL: Shell[AdbPhone] = Shell(COMMANDS)


class AdbPhone:
    def __init__(self, device: Device, lock: asyncio.Lock, *, serial: str) -> None:
        self.device = device
        self.lock = lock
        self.serial = serial
        self.files = VirtualFS(clock=lambda: int(device.state["os"]["clock"]))
        # Settings Android would store but PhoneWorld has no state for, so that `settings put`
        # then `settings get` round-trips.
        self.extra_settings: dict[tuple[str, str], str] = {}
        self.ime = android.ADB_KEYBOARD_IME
        self.touch_down: tuple[int, int] | None = None  # `input motionevent DOWN`, until UP
        # The argv of every command that ran, newest last: for logs, tests and debugging.
        self.history: deque[tuple[str, ...]] = deque(maxlen=HISTORY)

    @property
    def props(self) -> dict[str, str]:
        return android.properties(self.device, self.serial)

    def act(self, action: Action) -> ActResult:
        """Apply one protocol action, exactly as the NATS endpoint would."""
        return self.device.act(action)

    def run_blocking(
        self, line: str, *, stdin: bytes = b"", session: Session | None = None
    ) -> ShellResult:
        """Run a command line now, in this thread (the caller holds the lock)."""
        return _SHELL.run(
            line,
            self,
            self.files,
            stdin=stdin,
            session=session,
            on_command=lambda argv: self.history.append(tuple(argv)),
        )

    async def run(
        self, line: str, *, stdin: bytes = b"", session: Session | None = None
    ) -> ShellResult:
        """Run a command line in a worker thread, one at a time per device."""
        async with self.lock:
            work = asyncio.ensure_future(
                asyncio.to_thread(self.run_blocking, line, stdin=stdin, session=session)
            )
            try:
                return await asyncio.shield(work)
            except asyncio.CancelledError:
                # A thread cannot be stopped: keep the device locked until the command is done.
                await asyncio.wait([work])
                raise
