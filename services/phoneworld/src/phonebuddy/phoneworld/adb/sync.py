"""The `sync:` service (classic file sync, what `adb push/pull/ls` speak without the `stat_v2`
and `sendrecv_v2` features): STAT, LIST, RECV, SEND (DATA... DONE) and QUIT, on the device's
virtual filesystem.

Each request is a 4-byte id and a little-endian 32-bit length. A malformed request (unknown id,
a path or data chunk longer than Android allows, a SEND over the space left) gets FAIL and the
stream is closed; it never touches other streams or devices.
"""

from __future__ import annotations

import logging
import struct

from phonebuddy.phoneworld.adb.files import FileSystemError, VirtualFS, normalize
from phonebuddy.phoneworld.adb.streams import Stream

log = logging.getLogger(__name__)

SYNC_DATA_MAX = 64 * 1024
MAX_PATH = 1024
_REQUEST = struct.Struct("<4sI")


def _status(kind: bytes, value: int = 0) -> bytes:
    return kind + struct.pack("<I", value)


def _fail(message: str) -> bytes:
    data = message.encode()
    return _status(b"FAIL", len(data)) + data


async def serve_sync(stream: Stream, files: VirtualFS) -> None:
    """Answer sync requests until QUIT, the host closing, or a protocol error."""
    while True:
        header = await stream.read_exactly(_REQUEST.size)
        if header is None:
            return
        request, length = _REQUEST.unpack(header)
        if request == b"QUIT":
            return
        if request not in (b"STAT", b"LIST", b"RECV", b"SEND") or length > MAX_PATH:
            log.info("sync: bad request %r (length %d); closing the stream", request, length)
            await stream.write(_fail(f"bad sync request {request!r}"))
            return
        raw = await stream.read_exactly(length)
        if raw is None:
            return
        path = raw.decode(errors="replace")
        if request == b"STAT":
            await stream.write(_stat(files, path))
        elif request == b"LIST":
            await stream.write(_list(files, path))
        elif request == b"RECV":
            await stream.write(_recv(files, path))
        elif not await _send(stream, files, path):
            return


def _stat(files: VirtualFS, path: str) -> bytes:
    info = files.stat(normalize(path))
    if info is None:
        return b"STAT" + struct.pack("<III", 0, 0, 0)
    return b"STAT" + struct.pack("<III", info.mode, info.size, info.mtime)


def _list(files: VirtualFS, path: str) -> bytes:
    out = bytearray()
    try:
        entries = files.list_dir(normalize(path))
    except FileSystemError:
        entries = []
    for entry in entries:
        name = entry.name.encode()
        out += b"DENT" + struct.pack("<IIII", entry.mode, entry.size, entry.mtime, len(name))
        out += name
    out += b"DONE" + struct.pack("<IIII", 0, 0, 0, 0)
    return bytes(out)


def _recv(files: VirtualFS, path: str) -> bytes:
    try:
        data = files.read(normalize(path))
    except FileSystemError as exc:
        return _fail(f"open failed: {exc.reason}")
    out = bytearray()
    for start in range(0, len(data), SYNC_DATA_MAX):
        chunk = data[start : start + SYNC_DATA_MAX]
        out += _status(b"DATA", len(chunk)) + chunk
    out += _status(b"DONE")
    return bytes(out)


async def _send(stream: Stream, files: VirtualFS, spec: str) -> bool:
    """Receive one file (`path,mode` then DATA chunks and DONE); False to close the stream."""
    path, _, _mode = spec.rpartition(",")
    path = path or spec
    received = bytearray()
    while True:
        header = await stream.read_exactly(_REQUEST.size)
        if header is None:
            return False
        kind, value = _REQUEST.unpack(header)
        if kind == b"DONE":
            break
        if kind != b"DATA" or value > SYNC_DATA_MAX:
            log.info("sync: bad SEND chunk %r (%d B); closing the stream", kind, value)
            await stream.write(_fail(f"bad SEND chunk {kind!r} of {value} bytes"))
            return False
        chunk = await stream.read_exactly(value)
        if chunk is None:
            return False
        received += chunk
        if len(received) > files.max_bytes:
            await stream.write(_fail(f"{path}: No space left on device"))
            return False
    try:
        files.write(normalize(path), bytes(received), make_parents=True)
    except FileSystemError as exc:
        await stream.write(_fail(f"couldn't create file: {exc.reason}"))
        return True
    await stream.write(_status(b"OKAY"))
    return True
