"""One ADB stream (an OPEN'd service) as a service handler sees it: `write()` sends WRTE packets
no larger than the link allows and waits for the host's OKAY after each (no delayed acks);
`read()` returns what the host wrote and only then acknowledges it, so a host cannot send faster
than the service consumes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from phonebuddy.phoneworld.adb.protocol import A_CLSE, A_OKAY, A_WRTE, Packet

# A host waits for our OKAY after each WRTE; one that does not is cut off after this many.
MAX_QUEUED_WRITES = 16


class StreamClosedError(Exception):
    """The host closed the stream (or the connection went away)."""


class Stream:
    def __init__(
        self, local_id: int, remote_id: int, send: Callable[[Packet], None], max_data: int
    ) -> None:
        self.local_id = local_id
        self.remote_id = remote_id
        self.max_data = max_data
        self._send = send
        self._may_write = asyncio.Event()
        self._may_write.set()  # the OKAY answering OPEN is the first permission to write
        self._incoming: asyncio.Queue[bytes | None] = asyncio.Queue(MAX_QUEUED_WRITES)
        self._buffer = bytearray()
        self.closed = False
        self._close_sent = False

    # -- called by the connection ------------------------------------------------------------
    def on_okay(self) -> None:
        self._may_write.set()

    def on_write(self, payload: bytes) -> bool:
        """Queue host data; False (and the connection closes the stream) when it overflows."""
        if self.closed:
            return True
        try:
            self._incoming.put_nowait(payload)
        except asyncio.QueueFull:
            return False
        return True

    def on_close(self) -> None:
        """The host closed the stream: wake whoever waits on it."""
        self.closed = True
        self._may_write.set()
        while True:
            try:
                self._incoming.put_nowait(None)
                break
            except asyncio.QueueFull:
                self._incoming.get_nowait()

    # -- used by service handlers ------------------------------------------------------------
    async def write(self, data: bytes) -> None:
        view = memoryview(data)
        for start in range(0, len(view), self.max_data):
            await self._may_write.wait()
            if self.closed:
                raise StreamClosedError
            self._may_write.clear()
            self._send(
                Packet(
                    A_WRTE,
                    self.local_id,
                    self.remote_id,
                    bytes(view[start : start + self.max_data]),
                )
            )

    async def read(self) -> bytes | None:
        """The next chunk the host wrote; None once the host closed the stream."""
        if self._buffer:
            data, self._buffer = bytes(self._buffer), bytearray()
            return data
        return await self._next()

    async def read_exactly(self, size: int) -> bytes | None:
        """Exactly `size` bytes, or None if the host closed the stream first."""
        while len(self._buffer) < size:
            chunk = await self._next()
            if chunk is None:
                return None
            self._buffer += chunk
        data = bytes(self._buffer[:size])
        del self._buffer[:size]
        return data

    async def _next(self) -> bytes | None:
        if self.closed and self._incoming.empty():
            return None
        chunk = await self._incoming.get()
        if chunk is not None and not self.closed:
            self._send(Packet(A_OKAY, self.local_id, self.remote_id))
        return chunk

    def close(self) -> None:
        """Close from our side (once); the host answers with its own CLSE, which we ignore.
        After the host closed the stream there is nothing left to tell it."""
        if not self.closed:
            self.closed = True
            self._may_write.set()
            self._send_close()

    def abort(self) -> None:
        """Close a stream whose host broke the rules: wake its service and tell the host."""
        self.on_close()
        self._send_close()

    def _send_close(self) -> None:
        if not self._close_sent:
            self._close_sent = True
            self._send(Packet(A_CLSE, self.local_id, self.remote_id))
