"""Phones that vanish, hang, come back or are forgotten by their client; an adb server that is
not there; many phones at once. Every caller gets a typed answer in bounded time."""

from __future__ import annotations

import asyncio
import time

import pytest

from phonebuddy.bus import RemoteError
from phonebuddy.device_gateway.app import create_app
from phonebuddy.device_gateway.settings import GatewaySettings
from phonebuddy.protocol import Click, ErrorCode, Open, SystemButton, SystemButtonName
from phonebuddy.testing import free_port, port_accepts, serve_asgi

HOME = SystemButton(button=SystemButtonName.HOME)


async def wait_until(condition, timeout_s: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout_s
    while not await condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout_s} s")
        await asyncio.sleep(0.05)


async def test_a_phone_lost_mid_episode_is_a_typed_error_and_the_others_keep_serving(
    start_world, start_gateway
) -> None:
    async with start_world(devices=2) as phones, start_gateway(phones.addresses) as gateway:
        first, second = await gateway.lease(), await gateway.lease()
        lost_address = first.device_id
        await gateway.act(first, Open(text="Notes"))
        await phones.unplug(lost_address)

        started = time.monotonic()
        with pytest.raises(RemoteError) as raised:
            await gateway.act(first, HOME)
        assert time.monotonic() - started < 5  # adb_timeout_s is 3: nobody hangs
        assert raised.value.code == ErrorCode.DEVICE_LOST
        assert raised.value.retryable
        assert lost_address in raised.value.message
        with pytest.raises(RemoteError) as raised:  # the lease is gone, and the reason stays
            await gateway.observe(first)
        assert raised.value.code == ErrorCode.DEVICE_LOST

        assert (await gateway.act(second, Open(text="Notes"))).effect == "applied"
        assert (await gateway.observe(second)).observation.foreground_app == "com.pw.notes"
        with pytest.raises(RemoteError) as raised:  # the lost phone is not leased out again
            await gateway.lease()
        assert raised.value.code == ErrorCode.NO_DEVICE_AVAILABLE
        assert (await gateway.http("/readyz")).status_code == 200
        devices = {d["serial"]: d for d in (await gateway.http("/devices")).json()["devices"]}
        assert not devices[lost_address]["healthy"]
        assert devices[second.device_id]["healthy"]
        metrics = await gateway.metrics()
        assert f'phonebuddy_gateway_failures_total{{device="{lost_address}",reason="lost"}}' in (
            metrics
        )
        assert "phonebuddy_gateway_active_leases 1.0" in metrics


async def test_a_lost_phone_reconnects_and_is_leased_again(start_world, start_gateway) -> None:
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        [address] = phones.addresses
        lease = await gateway.lease()
        await phones.unplug(address)

        async def lost() -> bool:
            return gateway.service.pool.healthy == 0

        await wait_until(lost)  # the health loop notices without any verb
        with pytest.raises(RemoteError) as raised:
            await gateway.observe(lease)
        assert raised.value.code == ErrorCode.DEVICE_LOST
        assert (await gateway.http("/readyz")).status_code == 503

        await phones.plug_in(address)

        async def back() -> bool:
            return gateway.service.pool.healthy == 1

        await wait_until(back)
        again = await gateway.lease()
        assert again.device_id == address
        assert (await gateway.act(again, Open(text="Notes"))).effect == "applied"
        assert (await gateway.http("/readyz")).status_code == 200
        assert f'phonebuddy_gateway_reconnects_total{{device="{address}"}} 1.0' in (
            await gateway.metrics()
        )


async def test_a_hung_phone_times_out_as_lost_instead_of_hanging_the_caller(
    start_world, start_gateway
) -> None:
    async with (
        start_world(devices=1) as phones,
        start_gateway(phones.addresses, adb_timeout_s=1, health_interval_s=30) as gateway,
    ):
        [address] = phones.addresses
        lease = await gateway.lease()
        async with phones.lock(address):  # the phone accepts commands but never runs them
            started = time.monotonic()
            with pytest.raises(RemoteError) as raised:
                await gateway.act(lease, Click(coordinate=(500, 500)))
            waited = time.monotonic() - started
        assert raised.value.code == ErrorCode.DEVICE_LOST
        assert "no answer within 1 s" in raised.value.message
        assert waited < 3


async def test_an_expired_lease_is_reclaimed_and_its_phone_tidied(
    start_world, start_gateway
) -> None:
    async with start_world(devices=1) as phones, start_gateway(phones.addresses) as gateway:
        [address] = phones.addresses
        lease = await gateway.lease(ttl_s=0.5)
        await gateway.act(lease, Open(text="Notes"))
        assert phones.device(address).foreground == "com.pw.notes"
        await asyncio.sleep(1.0)
        with pytest.raises(RemoteError) as raised:
            await gateway.act(lease, HOME)
        assert raised.value.code == ErrorCode.LEASE_NOT_FOUND
        again = await gateway.lease()  # the only phone is free again, back home
        assert again.device_id == address
        assert (await gateway.observe(again)).observation.foreground_app is None
        assert "phonebuddy_gateway_expired_leases_total 1.0" in await gateway.metrics()


async def test_readyz_fails_until_a_device_is_attached(start_world, start_gateway) -> None:
    async with start_world(devices=1) as phones:
        [address] = phones.addresses
        await phones.unplug(address)
        async with start_gateway(phones.addresses) as gateway:
            ready = await gateway.http("/readyz")
            assert ready.status_code == 503
            assert ready.json()["checks"] == {"device": False, "nats": True}
            assert (await gateway.http("/livez")).status_code == 200
            await phones.plug_in(address)

            async def ready_now() -> bool:
                return (await gateway.http("/readyz")).status_code == 200

            await wait_until(ready_now)


async def test_an_unreachable_adb_server_is_reported_and_not_started(
    nats_server, unique_name: str
) -> None:
    port = free_port()
    settings = GatewaySettings(
        adb_server=f"127.0.0.1:{port}", instance_id=unique_name, port=0, health_interval_s=0.1
    )
    async with serve_asgi(create_app(settings, None)) as url:
        import httpx

        async with httpx.AsyncClient(base_url=url) as client:
            ready = await client.get("/readyz")
            devices = (await client.get("/devices")).json()
    assert ready.status_code == 503
    assert devices["adb_server_reachable"] is False
    assert not port_accepts(port)  # adbutils would have started a server here


# Twenty templates over many apps whose oracles use only what ADB can express (no `wait`, no
# direct tools): taps, swipes, long presses, Chinese and ASCII typing, keys, answers.
TWENTY = (
    "notes.create", "notes.pin", "contacts.add", "contacts.favorite", "phone.dial_number",
    "messages.send", "messages.reply", "messenger.send_message", "messenger.set_remark",
    "settings.brightness", "settings.rename_device", "clock.alarm_once", "calendar.create_event",
    "mail.star", "gallery.favorite", "shop.add_to_cart", "wallet.balance", "food.add_address",
    "weather.add_city", "music.like_song",
)  # fmt: skip


async def test_twenty_phones_at_once_each_solve_a_verified_task(
    start_world, start_gateway, solve
) -> None:
    async with (
        start_world(devices=len(TWENTY)) as phones,
        start_gateway(phones.addresses) as gateway,
    ):
        assert gateway.service.pool.healthy == len(TWENTY)
        results = await asyncio.gather(*(solve(gateway, phones, t) for t in TWENTY))
        failed = {t: reason for t, (ok, reason) in zip(TWENTY, results, strict=True) if not ok}
        assert not failed
        assert "phonebuddy_gateway_active_leases 0.0" in await gateway.metrics()
