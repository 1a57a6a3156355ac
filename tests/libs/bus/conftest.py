"""Fixtures for the bus tests: settings and a connected bus for the session's real nats-server."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest

from phonebuddy.bus import Bus, NatsSettings, connect
from phonebuddy.testing import NatsServer

Eventually = Callable[[Callable[[], Awaitable[bool]]], Awaitable[None]]


def _settings_for(server: NatsServer, **overrides: object) -> NatsSettings:
    values: dict[str, object] = {
        "url": server.url,
        "user": server.user,
        "password": server.password,
        "connect_timeout_s": 2.0,
        "request_timeout_s": 2.0,
        "name": "bus-tests",
    }
    values.update(overrides)
    return NatsSettings(**values)


@pytest.fixture
def settings_for() -> Callable[..., NatsSettings]:
    """Build settings for a server, with overrides: `settings_for(server, request_timeout_s=1)`."""
    return _settings_for


@pytest.fixture
def settings(nats_server: NatsServer) -> NatsSettings:
    return _settings_for(nats_server)


@pytest.fixture
async def bus(settings: NatsSettings) -> AsyncIterator[Bus]:
    async with connect(settings) as bus:
        yield bus


@pytest.fixture
async def other_bus(settings: NatsSettings) -> AsyncIterator[Bus]:
    """A second connection, as another process would have."""
    async with connect(settings) as bus:
        yield bus


@pytest.fixture
def eventually() -> Eventually:
    """Poll an async condition until it holds (fails the test after 5 s)."""

    async def wait(condition: Callable[[], Awaitable[bool]], timeout_s: float = 5.0) -> None:
        deadline = time.monotonic() + timeout_s
        while not await condition():
            if time.monotonic() > deadline:
                pytest.fail(f"condition did not hold within {timeout_s} s")
            await asyncio.sleep(0.02)

    return wait
