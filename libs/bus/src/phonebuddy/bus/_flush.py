"""`flush()`: wait until the server has processed everything this connection sent so far.

nats-py's `Client.flush()` alone does not promise that. It writes its PING straight to the socket,
while SUB, UNSUB and PUB commands wait in the client's pending buffer until its flusher task writes
them out, so the PING overtakes a SUB queued just before it:

    await nc.subscribe("svc.add", cb=handle)   # SUB goes to the pending buffer
    await nc.flush()                           # wire: PING, then SUB

The server answers the PING before it has read the SUB, `flush()` returns, and a request sent
right away from another connection can still find nobody subscribed (503 no responders).
"""

from __future__ import annotations

import asyncio

import nats.errors
from nats.aio.client import Client as NatsClient


async def flush(nc: NatsClient, *, timeout_s: float) -> None:
    """Return once the server has processed every command this connection sent before the call.

    Two round trips: while the first one is in flight the client's flusher task writes out the
    pending commands (it was woken when they were queued, before the PING went out, so it runs
    before the PONG can be read); the second PING follows them on the wire, and the server
    answers it only after it has processed them.

    Raises `nats.errors.FlushTimeoutError` when both round trips do not finish within
    `timeout_s`, and what `Client.flush()` raises otherwise (for instance on a closed connection).
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout_s
    await nc.flush(timeout=timeout_s)  # type: ignore[arg-type]
    left_s = deadline - loop.time()
    if left_s <= 0:
        raise nats.errors.FlushTimeoutError
    await nc.flush(timeout=left_s)  # type: ignore[arg-type]
