"""PhoneWorld devices as ADB devices.

Each device can listen on a TCP port and speak the device side of the ADB protocol, so the real
`adb` CLI, adb servers and libraries such as adbutils drive it like a phone: `adb connect`,
`adb shell input tap X Y`, `adb exec-out screencap -p`, `uiautomator dump`, push/pull. Every
command reaches the same Device objects (and locks) as the NATS endpoint; the shell is a
simulation (`shell.py`) that never runs a real process.

Modules: `protocol` (packets), `server` (TCP listener, streams), `services` (shell, exec, sync),
`shell` (the parser and dispatcher), `commands/` (the command set), `files` (the in-memory
filesystem), `sync` (file transfer), `uiautomator` (XML dumps), `register` (adb server
registration), `hub` (a pool's listeners).
"""

from phonebuddy.phoneworld.adb.hub import AdbHub
from phonebuddy.phoneworld.adb.phone import AdbPhone
from phonebuddy.phoneworld.adb.register import AdbHostError, Registration, parse_host_port
from phonebuddy.phoneworld.adb.server import AdbDeviceServer

__all__ = [
    "AdbDeviceServer",
    "AdbHostError",
    "AdbHub",
    "AdbPhone",
    "Registration",
    "parse_host_port",
]
