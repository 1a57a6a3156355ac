"""Register devices with an adb server so that `adb devices` lists them.

We speak the adb server's host protocol (a 4-hex-digit length, then the request; the answer is
OKAY or FAIL and a length-prefixed string). An adb server on this machine is asked
`host:emulator:PORT`: it connects to PORT and lists the device as `emulator-<PORT-1>`, the serial
harnesses expect. A remote one is asked `host:connect:HOST:PORT` (serial `HOST:PORT`).
Registration keeps checking, so devices come back after the adb server restarts.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from collections.abc import Sequence

log = logging.getLogger(__name__)

REQUEST_TIMEOUT_S = 5.0
RETRY_S = 0.25
CHECK_EVERY_S = 5.0


class AdbHostError(Exception):
    """The adb server refused a request or could not be reached."""

    def __init__(self, request: str, reason: str) -> None:
        self.request = request
        self.reason = reason
        super().__init__(f"adb server: {request}: {reason}")


def parse_host_port(text: str) -> tuple[str, int]:
    """`HOST:PORT` -> (host, port); ValueError with a sentence when it is not one."""
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"expected HOST:PORT (like 127.0.0.1:5037), got {text!r}")
    return host.strip("[]"), int(port)


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


async def host_request(host: str, port: int, request: str) -> str:
    """Send one host request; the reply string ("" when the server sends none)."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(host, port), REQUEST_TIMEOUT_S
        )
    except (OSError, TimeoutError) as exc:
        raise AdbHostError(request, f"cannot reach {host}:{port} ({exc})") from None
    try:
        payload = request.encode()
        writer.write(f"{len(payload):04x}".encode() + payload)
        await writer.drain()
        try:
            status = await asyncio.wait_for(reader.readexactly(4), REQUEST_TIMEOUT_S)
        except asyncio.IncompleteReadError as exc:
            if not exc.partial:
                return ""  # e.g. host:emulator answers by connecting, not in words
            raise AdbHostError(request, "truncated reply") from None
        if status not in (b"OKAY", b"FAIL"):
            raise AdbHostError(request, f"unexpected reply {status!r}")
        try:
            size = int(await asyncio.wait_for(reader.readexactly(4), REQUEST_TIMEOUT_S), 16)
            message = (await asyncio.wait_for(reader.readexactly(size), REQUEST_TIMEOUT_S)).decode()
        except asyncio.IncompleteReadError:
            message = ""
        if status == b"FAIL":
            raise AdbHostError(request, message)
        return message
    except (OSError, TimeoutError, ValueError) as exc:
        raise AdbHostError(request, str(exc) or type(exc).__name__) from None
    finally:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


def parse_devices(listing: str) -> dict[str, str]:
    """`host:devices` output -> {serial: state}."""
    found = {}
    for line in listing.splitlines():
        serial, _, state = line.partition("\t")
        if serial:
            found[serial] = state.strip()
    return found


class Registration:
    """Keeps a set of device ports registered with one adb server."""

    def __init__(
        self, adb_host: str, adb_port: int, *, device_host: str, ports: Sequence[int]
    ) -> None:
        self.adb_host = adb_host
        self.adb_port = adb_port
        self.ports = tuple(ports)
        self.as_emulator = is_loopback(adb_host)
        self.device_host = "127.0.0.1" if device_host in ("0.0.0.0", "::", "") else device_host
        self._task: asyncio.Task[None] | None = None
        self.registered = asyncio.Event()

    def serial(self, port: int) -> str:
        return f"emulator-{port - 1}" if self.as_emulator else f"{self.device_host}:{port}"

    def _request(self, port: int) -> str:
        if self.as_emulator:
            return f"host:emulator:{port}"
        return f"host:connect:{self.device_host}:{port}"

    async def check_once(self) -> bool:
        """Register every port the server does not list; True when all are listed as devices."""
        listed = parse_devices(await host_request(self.adb_host, self.adb_port, "host:devices"))
        for port in self.ports:
            if self.serial(port) not in listed:
                await host_request(self.adb_host, self.adb_port, self._request(port))
        return all(listed.get(self.serial(port)) == "device" for port in self.ports)

    async def _run(self) -> None:
        failing = False
        delay = RETRY_S
        while True:
            try:
                done = await self.check_once()
                if failing:
                    log.info("adb server %s:%d reachable again", self.adb_host, self.adb_port)
                failing = False
            except AdbHostError as exc:
                if not failing:
                    log.warning("registering with the adb server failed: %s", exc)
                failing, done = True, False
            if done and not self.registered.is_set():
                log.info(
                    "registered %d devices with adb server %s:%d",
                    len(self.ports), self.adb_host, self.adb_port,
                )  # fmt: skip
                self.registered.set()
            # Quick retries while devices come up; back off while the server is unreachable.
            delay = CHECK_EVERY_S if done else min(delay * 2, CHECK_EVERY_S) if failing else RETRY_S
            await asyncio.sleep(delay)

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if not self.as_emulator:
            for port in self.ports:
                with contextlib.suppress(AdbHostError):
                    await host_request(
                        self.adb_host, self.adb_port, f"host:disconnect:{self.serial(port)}"
                    )
