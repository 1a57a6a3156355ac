"""The services a host can OPEN on a PhoneWorld device: `shell:` (raw output, no exit code),
`shell,v2,...:` (the shell protocol: stdout, stderr and the exit code in framed packets),
`exec:` (raw stdout and stderr, as `adb exec-out` uses) and `sync:` (file transfer). An empty
shell command is an interactive shell that reads lines from the host."""

from __future__ import annotations

import struct
from collections.abc import Awaitable, Callable

from phonebuddy.phoneworld.adb.phone import AdbPhone
from phonebuddy.phoneworld.adb.shell import Session, ShellResult
from phonebuddy.phoneworld.adb.streams import Stream
from phonebuddy.phoneworld.adb.sync import serve_sync

ServiceHandler = Callable[[Stream], Awaitable[None]]

# Shell protocol v2 packet ids.
ID_STDIN, ID_STDOUT, ID_STDERR, ID_EXIT, ID_CLOSE_STDIN, ID_WINDOW_SIZE = 0, 1, 2, 3, 4, 5
V2_HEADER = struct.Struct("<BI")
V2_CHUNK = 16 * 1024  # well under the host's shell-protocol buffer
MAX_LINE = 64 * 1024


def _v2(packet_id: int, data: bytes) -> bytes:
    out = bytearray()
    for start in range(0, max(len(data), 1), V2_CHUNK):
        chunk = data[start : start + V2_CHUNK]
        out += V2_HEADER.pack(packet_id, len(chunk)) + chunk
    return bytes(out)


class _ShellOutput:
    """Frames output for the stream: v2 packets or raw bytes; a pty merges stderr into stdout
    and turns LF into CRLF, as a terminal line discipline does."""

    def __init__(self, stream: Stream, *, v2: bool, pty: bool) -> None:
        self.stream, self.v2, self.pty = stream, v2, pty

    def frame(self, chunks: tuple[tuple[int, bytes], ...]) -> bytes:
        out = bytearray()
        for fd, data in chunks:
            if self.pty:
                fd, data = 1, data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")
            out += _v2(ID_STDOUT if fd == 1 else ID_STDERR, data) if self.v2 else data
        return bytes(out)

    async def result(self, result: ShellResult) -> None:
        await self.stream.write(self.frame(result.chunks))

    async def text(self, data: bytes) -> None:
        await self.stream.write(self.frame(((1, data),)))

    async def exit(self, code: int) -> None:
        if self.v2:
            await self.stream.write(_v2(ID_EXIT, bytes([code & 0xFF])))


def parse_shell_service(name: str) -> tuple[dict[str, str], str] | None:
    """`shell[,v2][,raw|,pty][,TERM=x]:command` -> (options, command)."""
    head, sep, command = name.partition(":")
    if not sep or head.split(",")[0] != "shell":
        return None
    options: dict[str, str] = {}
    for item in head.split(",")[1:]:
        key, _, value = item.partition("=")
        options[key] = value
    return options, command


def open_service(phone: AdbPhone, name: str) -> ServiceHandler | None:
    """The handler for a service name, or None when the device offers no such service."""
    name = name.rstrip("\x00")
    if name == "sync:":
        return lambda stream: serve_sync(stream, phone.files)
    if name.startswith("exec:"):
        command = name.removeprefix("exec:")
        return lambda stream: _run_once(phone, stream, command, v2=False, pty=False)
    parsed = parse_shell_service(name)
    if parsed is None:
        return None
    options, command = parsed
    v2 = "v2" in options
    pty = "pty" in options or (not command and "raw" not in options)
    if not command.strip():
        return lambda stream: _interactive(phone, stream, v2=v2, pty=pty)
    return lambda stream: _run_once(phone, stream, command, v2=v2, pty=pty)


async def _run_once(phone: AdbPhone, stream: Stream, command: str, *, v2: bool, pty: bool) -> None:
    output = _ShellOutput(stream, v2=v2, pty=pty)
    result = await phone.run(command)
    await output.result(result)
    await output.exit(result.exit_code)


class _Stdin:
    """Bytes the host types into an interactive shell (raw, or unwrapped from v2 packets)."""

    def __init__(self, stream: Stream, *, v2: bool) -> None:
        self.stream, self.v2 = stream, v2

    async def read(self) -> bytes | None:
        if not self.v2:
            return await self.stream.read()
        while True:
            header = await self.stream.read_exactly(V2_HEADER.size)
            if header is None:
                return None
            packet_id, length = V2_HEADER.unpack(header)
            if length > MAX_LINE:
                return None
            data = await self.stream.read_exactly(length) if length else b""
            if data is None or packet_id == ID_CLOSE_STDIN:
                return None
            if packet_id == ID_STDIN:
                return data


async def _interactive(phone: AdbPhone, stream: Stream, *, v2: bool, pty: bool) -> None:
    """A line-at-a-time shell: enough for `adb shell` typed by hand or driven by a harness."""
    output = _ShellOutput(stream, v2=v2, pty=pty)
    stdin = _Stdin(stream, v2=v2)
    session = Session()

    def prompt() -> bytes:
        return f"{phone.props['ro.product.device']}:{session.cwd} $ ".encode()

    await output.text(prompt())
    line = bytearray()
    while True:
        data = await stdin.read()
        if data is None:
            break
        echo = bytearray()
        for byte in data:
            char = bytes([byte])
            if char in (b"\r", b"\n"):
                echo += b"\n"
                if pty:
                    await output.text(bytes(echo))
                echo.clear()
                result = await phone.run(line.decode(errors="replace"), session=session)
                line.clear()
                await output.result(result)
                if session.exit_requested:
                    await output.exit(session.status)
                    return
                await output.text(prompt())
            elif char == b"\x03":  # Ctrl-C: drop the line
                line.clear()
                echo += b"^C\n" + prompt()
            elif char == b"\x04" and not line:  # Ctrl-D on an empty line
                break
            elif char in (b"\x7f", b"\x08"):
                if line:
                    del line[-1]
                    echo += b"\b \b"
            elif len(line) < MAX_LINE:
                line += char
                echo += char
        if pty and echo:
            await output.text(bytes(echo))
    await output.exit(session.status)
