"""The adb server through adbutils, made async and bounded in time.

adbutils is blocking, so every call runs in this module's own thread pool (a stuck device never
starves the event loop's default executor) with a socket timeout inside the thread and an
asyncio deadline outside it. Three adbutils behaviours are changed on purpose:
- it starts an adb server when none answers (and leaks that socket); the gateway reports the
  server as unreachable instead (a second server on another port would hide the configured one);
- it asks the server's version before every transport; the version is cached per client;
- it sleeps 10 ms when closing each connection; streams here are read to their end, so the
  socket is closed at once;
- it leaks the socket when the server refuses a transport (device offline or gone).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import socket
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import adbutils
from adbutils import AdbConnection
from adbutils.errors import AdbConnectionError, AdbError

from phonebuddy.device_gateway.quoting import Argv, command_line
from phonebuddy.env_endpoint import DeviceLostError as EnvDeviceLostError

log = logging.getLogger(__name__)
T = TypeVar("T")
READ_CHUNK = 256 * 1024
CONNECT_TIMEOUT_S = 3.0
_TPORT_VERSION = 41  # adb servers from 1.0.41 answer host:tport with a transport id
# The asyncio deadline trails the socket timeout so that the thread normally ends first.
_DEADLINE_GRACE_S = 1.0


class AdbServerError(Exception):
    """The adb server could not be reached or refused a host request."""

    def __init__(self, address: str, reason: str) -> None:
        self.address = address
        self.reason = reason
        super().__init__(f"adb server {address}: {reason}")


class DeviceLostError(EnvDeviceLostError):
    """A device stopped answering: gone from the server, offline, or silent past the timeout
    (the env kit then ends its lease and answers `device_lost`)."""

    def __init__(self, serial: str, reason: str) -> None:
        self.serial = serial
        super().__init__(serial, reason)


@dataclass(frozen=True)
class ShellResult:
    output: bytes
    exit_code: int

    @property
    def text(self) -> str:
        return self.output.decode("utf-8", errors="replace")


class _Connection(AdbConnection):
    def __init__(self, host: str, port: int, timeout_s: float) -> None:
        self._address = (host, port)
        self._timeout_s = timeout_s
        super().__init__(host, port)

    def _safe_connect(self) -> socket.socket:
        # adbutils would run `adb start-server` when nothing answers, and leak the socket.
        try:
            sock = socket.create_connection(self._address, timeout=CONNECT_TIMEOUT_S)
        except OSError as exc:
            raise AdbConnectionError(f"connect to adb server failed: {exc}") from exc
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        sock.settimeout(self._timeout_s)
        return sock


class _Client(adbutils.AdbClient):
    def __init__(self, host: str, port: int, timeout_s: float) -> None:
        super().__init__(host=host, port=port, socket_timeout=timeout_s)
        self._timeout_s = timeout_s
        self._version: int | None = None

    def make_connection(self, timeout: float | None = None) -> AdbConnection:
        return _Connection(self.host, self.port, timeout or self._timeout_s)

    def server_version(self) -> int:
        if self._version is None:
            self._version = int(super().server_version())
        return self._version

    def forget_version(self) -> None:
        self._version = None


def _read_to_end(connection: AdbConnection) -> bytes:
    chunks: list[bytes] = []
    sock = connection.conn
    while chunk := sock.recv(READ_CHUNK):
        chunks.append(chunk)
    return b"".join(chunks)


def _close(connection: AdbConnection) -> None:
    with contextlib.suppress(OSError, AdbError):
        connection.conn.close()


class AdbHost:
    """One adb server: its device list, `adb connect`, and a link to each device."""

    def __init__(
        self, host: str, port: int, *, timeout_s: float = 8.0, max_threads: int = 64
    ) -> None:
        self.host = host
        self.port = port
        self.address = f"{host}:{port}"
        self.timeout_s = timeout_s
        self._client = _Client(host, port, timeout_s)
        self._executor = ThreadPoolExecutor(max_threads, thread_name_prefix="adb")

    async def call(self, work: Callable[[], T], *, timeout_s: float) -> T:
        """Run blocking `work` in the pool; TimeoutError when it outlasts `timeout_s`."""
        loop = asyncio.get_running_loop()
        # asyncio.timeout, not wait_for: in Python 3.11 wait_for swallows a cancellation that
        # arrives as the work finishes, and a cancelled health loop would then run on.
        async with asyncio.timeout(timeout_s + _DEADLINE_GRACE_S):
            return await loop.run_in_executor(self._executor, work)

    async def _host_request(self, work: Callable[[], T], what: str) -> T:
        try:
            return await self.call(work, timeout_s=self.timeout_s)
        except (AdbError, OSError, EOFError, TimeoutError, ValueError) as exc:
            self._client.forget_version()
            raise AdbServerError(self.address, f"{what} failed: {_describe(exc)}") from exc

    async def version(self) -> int:
        return await self._host_request(self._client.server_version, "version")

    async def devices(self) -> dict[str, str]:
        """serial -> state (`device`, `offline`, `unauthorized`...) as `adb devices` lists them."""
        infos = await self._host_request(self._client.list, "listing devices")
        return {info.serial: info.state for info in infos}

    async def connect(self, address: str, *, timeout_s: float = 5.0) -> str:
        """`adb connect HOST:PORT`; returns the server's sentence ("connected to ...")."""
        return await self._host_request(
            lambda: self._client.connect(address, timeout=timeout_s), f"connect {address}"
        )

    async def disconnect(self, address: str) -> str:
        answer = await self._host_request(
            lambda: self._client.disconnect(address), f"disconnect {address}"
        )
        return answer or ""

    def link(self, serial: str) -> DeviceLink:
        return DeviceLink(self, serial)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    # Used by DeviceLink, inside worker threads.
    def _open(self, serial: str, service: str, timeout_s: float) -> AdbConnection:
        # AdbDevice.open_transport, except that a refused transport closes its socket.
        connection = self._client.make_connection(timeout=timeout_s)
        try:
            if self._client.server_version() >= _TPORT_VERSION:
                connection.send_command(f"host:tport:serial:{serial}")
                connection.check_okay()
                connection.read_exact(8)  # the transport id
            else:
                connection.send_command(f"host:transport:{serial}")
                connection.check_okay()
            connection.send_command(service)
            connection.check_okay()
        except BaseException:
            _close(connection)
            raise
        return connection


class DeviceLink:
    """Commands on one device. Every failure to reach it raises DeviceLostError."""

    def __init__(self, host: AdbHost, serial: str) -> None:
        self.host = host
        self.serial = serial

    async def _stream(self, service: str, timeout_s: float | None) -> bytes:
        timeout = timeout_s or self.host.timeout_s

        def work() -> bytes:
            connection = self.host._open(self.serial, service, timeout)
            try:
                return _read_to_end(connection)
            finally:
                _close(connection)

        try:
            return await self.host.call(work, timeout_s=timeout)
        except TimeoutError as exc:
            raise DeviceLostError(self.serial, f"no answer within {timeout:g} s") from exc
        except (AdbError, OSError, EOFError) as exc:
            if isinstance(exc, AdbConnectionError):
                self.host._client.forget_version()
            raise DeviceLostError(self.serial, _describe(exc)) from exc

    async def shell(self, argv: Argv, *, timeout_s: float | None = None) -> ShellResult:
        """Run one command (an argument list, quoted here) and return its output and status."""
        return await self.shell_line(command_line(argv), timeout_s=timeout_s)

    async def shell_line(self, line: str, *, timeout_s: float | None = None) -> ShellResult:
        """Run a command line the gateway composed itself from quoted parts (never model text
        as such); the exit status comes back through a marker only this call knows."""
        marker = f"__pb_exit_{secrets.token_hex(6)}__"
        output = await self._stream(f"shell:{line}; echo {marker}$?", timeout_s)
        index = output.rfind(marker.encode())
        if index == -1:
            raise DeviceLostError(self.serial, "the shell ended before the command finished")
        status = output[index + len(marker) :].strip()
        return ShellResult(output[:index], int(status) if status.isdigit() else 255)

    async def exec_out(self, argv: Argv, *, timeout_s: float | None = None) -> bytes:
        """Binary-safe output of one command (`adb exec-out`)."""
        return await self._stream(f"exec:{command_line(argv)}", timeout_s)


def _describe(exc: BaseException) -> str:
    text = " ".join(str(arg) for arg in exc.args) if exc.args else ""
    return text or type(exc).__name__
