"""Giving memory back after large requests.

A request with large images passes hundreds of megabytes through the allocator (its JSON body,
base64 text, compressed and decoded images). Freed, that memory mostly stays with glibc's heaps
(fragmented arenas, pages below the top of a heap) instead of going back to the system, and RSS
ratchets up request after request. `MemoryReturn` counts such traffic and, once no request is in
flight, asks glibc to return its free pages (`malloc_trim(0)`, on a thread). Without glibc (musl,
macOS) it does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import time
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

log = logging.getLogger(__name__)
TRIM_AFTER_BYTES = 64 * 2**20  # below this a request leaves too little behind to matter
IDLE_S = 0.5  # the server's own references (connection buffers, the response) go first

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim = ctypes.CDLL(None).malloc_trim
    except (AttributeError, OSError):
        return None
    trim.argtypes = [ctypes.c_size_t]
    trim.restype = ctypes.c_int
    return trim  # type: ignore[no-any-return]


_TRIM = _malloc_trim()


def release_free_memory() -> bool:
    """Hand the allocator's free pages back to the system (blocking: tens of milliseconds after
    a large request). False where the C library has no `malloc_trim`."""
    if _TRIM is None:
        return False
    _TRIM(0)
    return True


class MemoryReturn:
    """`note(nbytes)` counts bytes that passed through memory; `idle_s` after the last request
    in flight ended with at least `threshold` noted, free heap pages go back to the system (a
    request arriving meanwhile postpones it to its own end)."""

    def __init__(self, *, threshold: int = TRIM_AFTER_BYTES, idle_s: float = IDLE_S) -> None:
        self.threshold = threshold
        self.idle_s = idle_s
        self.trims = 0
        self._noted = 0
        self._in_flight = 0
        self._task: asyncio.Task[None] | None = None

    def note(self, nbytes: int) -> None:
        self._noted += nbytes

    def started(self) -> None:
        self._in_flight += 1

    def finished(self) -> None:
        self._in_flight -= 1
        if self._in_flight == 0 and self._noted >= self.threshold and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._give_back())

    async def _give_back(self) -> None:
        try:
            await asyncio.sleep(self.idle_s)
            while self._in_flight == 0 and self._noted >= self.threshold:
                self._noted = 0
                started = time.perf_counter()
                await asyncio.to_thread(release_free_memory)
                self.trims += 1
                log.debug("returned free memory in %.3f s", time.perf_counter() - started)
        finally:
            self._task = None

    async def settled(self) -> None:
        """Returns once no release is pending."""
        while self._task is not None:
            await asyncio.shield(self._task)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class ReturnMemoryMiddleware:
    """ASGI middleware: HTTP requests count as in flight for `memory`, their bodies as noted."""

    def __init__(self, app: ASGIApp, *, memory: MemoryReturn) -> None:
        self.app = app
        self.memory = memory

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def counting_receive() -> Message:
            message = await receive()
            self.memory.note(len(message.get("body", b"")))
            return message

        self.memory.started()
        try:
            await self.app(scope, counting_receive, send)
        finally:
            self.memory.finished()
