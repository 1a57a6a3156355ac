import asyncio
import time
from collections.abc import Callable

import pytest

from phonebuddy.bus import BusAuthError, BusConnectError, NatsSettings, connect
from phonebuddy.testing import NatsServer, free_port


async def test_connect_and_close_with_context_manager(settings: NatsSettings) -> None:
    async with connect(settings) as bus:
        assert bus.is_connected
        assert bus.nc.connected_server_version.major >= 2
    assert bus.nc.is_closed


async def test_await_connect_returns_an_open_bus(settings: NatsSettings) -> None:
    bus = await connect(settings)
    try:
        assert bus.is_connected
    finally:
        await bus.close()
    assert not bus.is_connected


async def test_wrong_password_raises_auth_error_naming_server_and_user(
    nats_server: NatsServer, settings_for: Callable[..., NatsSettings]
) -> None:
    settings = settings_for(nats_server, password="not-the-password")
    started = time.monotonic()

    with pytest.raises(BusAuthError) as caught:
        await connect(settings)

    assert time.monotonic() - started < 1.0
    error = caught.value
    assert error.url == nats_server.url
    assert error.user == nats_server.user
    assert str(error) == (
        f"the NATS server at {nats_server.url} rejected the credentials for user "
        f"{nats_server.user!r} (Authorization Violation); "
        "check PHONEBUDDY_NATS_USER and PHONEBUDDY_NATS_PASSWORD"
    )
    assert "not-the-password" not in str(error)
    assert isinstance(error, BusConnectError)


async def test_missing_credentials_raise_auth_error_saying_what_to_set(
    nats_server: NatsServer, settings_for: Callable[..., NatsSettings]
) -> None:
    settings = settings_for(nats_server, user=None, password=None)

    with pytest.raises(BusAuthError, match="rejected a connection without credentials"):
        await connect(settings)


async def test_closed_port_raises_connect_error_quickly() -> None:
    url = f"nats://127.0.0.1:{free_port()}"
    settings = NatsSettings(url=url, connect_timeout_s=2.0)
    started = time.monotonic()

    with pytest.raises(BusConnectError) as caught:
        await connect(settings)

    assert time.monotonic() - started < 1.0
    assert not isinstance(caught.value, BusAuthError)
    assert caught.value.url == url
    assert str(caught.value).startswith(f"could not connect to NATS at {url}: ")
    assert "refused" in caught.value.reason.lower() or "failed" in caught.value.reason.lower()


async def test_server_that_never_answers_times_out_within_connect_timeout() -> None:
    # A listening socket that accepts but never sends INFO.
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()
        writer.close()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    settings = NatsSettings(url=f"nats://127.0.0.1:{port}", connect_timeout_s=0.5)
    started = time.monotonic()
    try:
        with pytest.raises(BusConnectError, match=r"no connection within 0\.5 s"):
            await connect(settings)
    finally:
        server.close()
        await server.wait_closed()
    assert time.monotonic() - started < 1.5


async def test_password_in_url_is_redacted_from_errors(nats_server: NatsServer) -> None:
    url = f"nats://{nats_server.user}:wrong-password@127.0.0.1:{nats_server.port}"

    with pytest.raises(BusAuthError) as caught:
        await connect(NatsSettings(url=url, connect_timeout_s=2.0))

    assert "wrong-password" not in str(caught.value)
    assert f"{nats_server.user}:***@" in str(caught.value)


async def test_bus_reconnects_after_server_restart(
    nats_server_fn: NatsServer, settings_for: Callable[..., NatsSettings]
) -> None:
    settings = settings_for(nats_server_fn, reconnect_wait_s=0.05)
    async with connect(settings) as bus:
        await asyncio.to_thread(nats_server_fn.stop)
        await asyncio.to_thread(nats_server_fn.start)

        deadline = time.monotonic() + 5
        while not bus.is_connected:
            assert time.monotonic() < deadline, "bus did not reconnect within 5 s"
            await asyncio.sleep(0.05)
        await bus.nc.flush(timeout=2)
