"""ADB transport packets: a 24-byte little-endian header (command, arg0, arg1, payload length,
payload checksum, magic = command ^ 0xffffffff) and a payload of at most `max_payload` bytes.

Only what a device needs is here. The host ignores the checksum since protocol version
0x01000001, but we still fill it in so that older hosts accept our packets too.
"""

from __future__ import annotations

import asyncio
import struct
from dataclasses import dataclass

A_SYNC = 0x434E5953
A_CNXN = 0x4E584E43
A_OPEN = 0x4E45504F
A_OKAY = 0x59414B4F
A_CLSE = 0x45534C43
A_WRTE = 0x45545257
A_AUTH = 0x48545541
A_STLS = 0x534C5453

COMMAND_NAMES = {
    A_SYNC: "SYNC",
    A_CNXN: "CNXN",
    A_OPEN: "OPEN",
    A_OKAY: "OKAY",
    A_CLSE: "CLSE",
    A_WRTE: "WRTE",
    A_AUTH: "AUTH",
    A_STLS: "STLS",
}

A_VERSION = 0x01000001
MAX_PAYLOAD = 1024 * 1024
HEADER = struct.Struct("<6I")
# How long the rest of a packet may take once its header arrived (an idle link may wait forever).
PAYLOAD_TIMEOUT_S = 30.0


class PacketError(Exception):
    """A packet that breaks the protocol; the connection that sent it is closed."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


@dataclass(frozen=True, slots=True)
class Packet:
    command: int
    arg0: int
    arg1: int
    payload: bytes = b""

    @property
    def name(self) -> str:
        return COMMAND_NAMES.get(self.command, f"0x{self.command:08x}")

    def encode(self) -> bytes:
        checksum = sum(self.payload) & 0xFFFFFFFF
        header = HEADER.pack(
            self.command,
            self.arg0,
            self.arg1,
            len(self.payload),
            checksum,
            self.command ^ 0xFFFFFFFF,
        )
        return header + self.payload

    def __repr__(self) -> str:
        preview = self.payload[:32]
        return f"Packet({self.name}, {self.arg0}, {self.arg1}, {len(self.payload)} B {preview!r})"


def parse_header(header: bytes, max_payload: int) -> tuple[int, int, int, int]:
    """Check a header; return (command, arg0, arg1, payload length)."""
    command, arg0, arg1, length, _checksum, magic = HEADER.unpack(header)
    if magic != command ^ 0xFFFFFFFF:
        raise PacketError(f"bad magic 0x{magic:08x} for command 0x{command:08x}")
    if command not in COMMAND_NAMES:
        raise PacketError(f"unknown command 0x{command:08x}")
    if length > max_payload:
        raise PacketError(f"{COMMAND_NAMES[command]} payload of {length} B exceeds {max_payload} B")
    return command, arg0, arg1, length


async def read_packet(reader: asyncio.StreamReader, max_payload: int = MAX_PAYLOAD) -> Packet:
    """The next packet; IncompleteReadError when the peer closed, PacketError when malformed."""
    header = await reader.readexactly(HEADER.size)
    command, arg0, arg1, length = parse_header(header, max_payload)
    payload = b""
    if length:
        try:
            payload = await asyncio.wait_for(reader.readexactly(length), PAYLOAD_TIMEOUT_S)
        except TimeoutError:
            raise PacketError(f"payload of {length} B did not arrive in time") from None
    return Packet(command, arg0, arg1, payload)


def connect_banner(props: dict[str, str], features: tuple[str, ...]) -> bytes:
    """The CNXN payload a device sends: `device::k=v;k=v;features=a,b`."""
    keys = ("ro.product.name", "ro.product.model", "ro.product.device")
    fields = [f"{key}={props[key]}" for key in keys if key in props]
    fields.append("features=" + ",".join(features))
    return ("device::" + ";".join(fields)).encode()
