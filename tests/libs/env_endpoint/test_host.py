"""The env verbs over a memory backend, with no transport: leases, TTL reclaim, one verb at a
time per device, lost and busy devices, the shared metrics."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from phonebuddy.bus import ServiceError
from phonebuddy.env_endpoint import EnvHost
from phonebuddy.env_endpoint.testing import MemoryBackend
from phonebuddy.protocol import Click, ErrorCode, Instruction, TaskSpec, Terminate
from phonebuddy.protocol import env as m

from .conftest import FakeClock, make_host

TASK = TaskSpec(
    template_id="notes.create", instruction=Instruction(en="Create a note", zh="新建笔记"),
    category="single_app", apps=("com.example.notes",),
)  # fmt: skip


async def lease(host: EnvHost, ttl_s: float = 30, apps: tuple[str, ...] = ()) -> m.Lease:
    return await host.lease(m.LeaseRequest(client_id="t", ttl_s=ttl_s, apps=apps))


async def act(host: EnvHost, lease_id: str, *, observe: bool = False) -> m.ActReply:
    click = Click(coordinate=(1, 1))
    return await host.act(m.ActRequest(lease_id=lease_id, action=click, observe=observe))


def metrics(host: EnvHost) -> str:
    return host.registry.render().decode()  # type: ignore[attr-defined]


async def test_leases_take_free_fitting_devices_in_order_until_none_is_left(
    host: EnvHost, backend: MemoryBackend
) -> None:
    got = [await lease(host) for _ in range(3)]
    assert [g.device_id for g in got] == ["mem-0", "mem-1", "mem-2"]
    assert {g.instance_id for g in got} == {"mem"}
    with pytest.raises(ServiceError) as raised:
        await lease(host)
    assert raised.value.code == ErrorCode.NO_DEVICE_AVAILABLE
    assert raised.value.retryable
    assert "3 device(s) of mem fit, all leased" in raised.value.message
    assert "phonebuddy_kit_active_leases 3.0" in metrics(host)


async def test_a_lease_for_an_unknown_app_is_refused(host: EnvHost) -> None:
    with pytest.raises(ServiceError) as raised:
        await lease(host, apps=("com.example.absent",))
    assert raised.value.code == ErrorCode.UNKNOWN_APP


async def test_only_devices_with_the_apps_and_healthy_ones_are_leased(
    host: EnvHost, backend: MemoryBackend
) -> None:
    backend.devices["mem-0"].apps = frozenset({"com.example.notes"})
    backend.devices["mem-1"].healthy = False
    got = await lease(host, apps=("com.example.mail",))
    assert got.device_id == "mem-2"
    with pytest.raises(ServiceError) as raised:
        await lease(host, apps=("com.example.mail",))
    assert raised.value.code == ErrorCode.NO_DEVICE_AVAILABLE


async def test_expires_at_is_the_wall_clock_plus_the_remaining_ttl(
    backend: MemoryBackend, clock: FakeClock
) -> None:
    wall = dt.datetime(2030, 1, 1, tzinfo=dt.UTC)
    host = make_host(backend, wall_clock=lambda: wall)
    got = await lease(host, ttl_s=30)
    assert got.expires_at == wall + dt.timedelta(seconds=30)
    clock.advance(10)
    renewed = await host.renew(m.RenewRequest(lease_id=got.lease_id, ttl_s=5))
    assert renewed.expires_at == wall + dt.timedelta(seconds=5)
    assert (renewed.lease_id, renewed.device_id) == (got.lease_id, got.device_id)


async def test_an_expired_lease_is_reclaimed_and_its_device_tidied(
    host: EnvHost, backend: MemoryBackend, clock: FakeClock
) -> None:
    short, long = await lease(host, ttl_s=5), await lease(host, ttl_s=60)
    await host.reset(m.ResetRequest(lease_id=short.lease_id, task=TASK))
    await act(host, short.lease_id)
    clock.advance(4.9)
    assert await host.reap_expired() == []
    clock.advance(0.1)
    assert await host.reap_expired() == [short.lease_id]
    device = backend.devices[short.device_id]
    assert (device.tidied, device.task, device.actions) == (1, None, [])
    with pytest.raises(ServiceError) as raised:
        await act(host, short.lease_id)
    assert raised.value.code == ErrorCode.LEASE_NOT_FOUND
    assert (await act(host, long.lease_id)).effect == "applied"  # the other lease lives on
    assert (await lease(host)).device_id == short.device_id  # free again
    text = metrics(host)
    assert "phonebuddy_kit_expired_leases_total 1.0" in text
    assert "phonebuddy_kit_active_leases 2.0" in text


async def test_a_renewed_lease_is_not_reclaimed(host: EnvHost, clock: FakeClock) -> None:
    got = await lease(host, ttl_s=5)
    clock.advance(4)
    await host.renew(m.RenewRequest(lease_id=got.lease_id, ttl_s=5))
    clock.advance(4)
    assert await host.reap_expired() == []
    assert (await act(host, got.lease_id)).effect == "applied"


async def test_the_reaper_runs_until_cancelled(host: EnvHost, clock: FakeClock) -> None:
    got = await lease(host, ttl_s=1)
    clock.advance(2)
    reaper = asyncio.create_task(host.reap_forever(0.01))
    for _ in range(200):
        if got.lease_id not in host.leases:
            break
        await asyncio.sleep(0.01)
    reaper.cancel()
    with pytest.raises(asyncio.CancelledError):
        await reaper
    assert got.lease_id not in host.leases


async def test_the_device_verbs_run_on_the_leased_device(
    host: EnvHost, backend: MemoryBackend
) -> None:
    got = await lease(host)
    reset = await host.reset(m.ResetRequest(lease_id=got.lease_id, task=TASK))
    assert reset.frame is not None
    with_obs = await act(host, got.lease_id, observe=True)
    assert with_obs.observation is not None
    assert with_obs.frame is not None
    final = await host.act(m.ActRequest(lease_id=got.lease_id, action=Terminate(status="success")))
    assert final.effect == "final"
    observed = await host.observe(m.ObserveRequest(lease_id=got.lease_id, include_frame=False))
    assert observed.frame is None
    verdict = await host.verify(m.VerifyRequest(lease_id=got.lease_id))
    assert verdict.verdict.success
    assert len(backend.devices[got.device_id].actions) == 2
    text = metrics(host)
    assert 'phonebuddy_kit_steps_total{outcome="applied"} 1.0' in text
    assert 'phonebuddy_kit_steps_total{outcome="final"} 1.0' in text
    latency = f'step_latency_seconds_count{{device="{got.device_id}",verb="act"}} 2.0'
    assert f"phonebuddy_kit_{latency}" in text


async def test_a_backend_without_a_verifier_answers_unsupported(clock: FakeClock) -> None:
    host = make_host(MemoryBackend(1, verifies=False, clock=clock))
    got = await lease(host)
    with pytest.raises(ServiceError) as raised:
        await host.verify(m.VerifyRequest(lease_id=got.lease_id))
    assert raised.value.code == ErrorCode.UNSUPPORTED


async def test_release_tidies_the_device_and_ends_the_lease(
    host: EnvHost, backend: MemoryBackend
) -> None:
    got = await lease(host)
    await act(host, got.lease_id)
    assert (await host.release(m.ReleaseRequest(lease_id=got.lease_id))).released
    assert not (await host.release(m.ReleaseRequest(lease_id=got.lease_id))).released
    assert backend.devices[got.device_id].tidied == 1
    for verb in (
        host.observe(m.ObserveRequest(lease_id=got.lease_id)),
        host.renew(m.RenewRequest(lease_id=got.lease_id)),
    ):
        with pytest.raises(ServiceError) as raised:
            await verb
        assert raised.value.code == ErrorCode.LEASE_NOT_FOUND


async def test_a_device_lost_during_a_verb_ends_its_lease_with_a_typed_error(
    host: EnvHost, backend: MemoryBackend
) -> None:
    got = await lease(host)
    backend.lose(got.device_id, "unplugged")
    with pytest.raises(ServiceError) as raised:
        await act(host, got.lease_id)
    assert raised.value.code == ErrorCode.DEVICE_LOST
    assert raised.value.retryable
    assert raised.value.details == {"device": got.device_id}
    assert f"device {got.device_id} was lost: unplugged" == raised.value.message
    assert backend.lost == [(got.device_id, "unplugged", "lost")]
    with pytest.raises(ServiceError) as raised:  # the reason stays for the holder
        await host.observe(m.ObserveRequest(lease_id=got.lease_id))
    assert raised.value.code == ErrorCode.DEVICE_LOST
    others = [await lease(host) for _ in range(2)]
    assert got.device_id not in {o.device_id for o in others}  # not leased out again
    assert not (await host.release(m.ReleaseRequest(lease_id=got.lease_id))).released


async def test_a_device_the_backend_finds_lost_ends_its_lease(
    host: EnvHost, backend: MemoryBackend
) -> None:
    got = await lease(host)
    host.device_lost(got.device_id, "gone from the adb server")
    with pytest.raises(ServiceError) as raised:
        await act(host, got.lease_id)
    assert raised.value.code == ErrorCode.DEVICE_LOST
    assert "gone from the adb server" in raised.value.message


async def test_a_busy_device_answers_a_retryable_timeout(
    host: EnvHost, backend: MemoryBackend
) -> None:
    got = await lease(host)
    async with backend.lock(got.device_id):  # someone else drives the device
        with pytest.raises(ServiceError) as raised:
            await act(host, got.lease_id)
    assert raised.value.code == ErrorCode.TIMEOUT
    assert raised.value.retryable
    assert "stayed busy for 0.2 s" in raised.value.message
    assert (await act(host, got.lease_id)).effect == "applied"  # the lock was given back


async def test_verbs_on_one_device_run_one_at_a_time(host: EnvHost, backend: MemoryBackend) -> None:
    host.lock_timeout_s = None
    got = await lease(host)
    gate = backend.hold(got.device_id)
    first = asyncio.create_task(act(host, got.lease_id))
    second = asyncio.create_task(act(host, got.lease_id))
    await asyncio.sleep(0.05)
    assert backend.lock(got.device_id).locked()
    assert not first.done()
    assert not second.done()
    gate.set()
    assert [r.effect for r in await asyncio.gather(first, second)] == ["applied", "applied"]


async def test_a_lease_released_while_a_verb_waits_answers_lease_expired(
    host: EnvHost, backend: MemoryBackend
) -> None:
    host.lock_timeout_s = None
    got = await lease(host)
    gate = backend.hold(got.device_id)
    running = asyncio.create_task(act(host, got.lease_id))
    await asyncio.sleep(0.02)
    waiting = asyncio.create_task(act(host, got.lease_id))
    await asyncio.sleep(0.02)
    release = asyncio.create_task(host.release(m.ReleaseRequest(lease_id=got.lease_id)))
    await asyncio.sleep(0.02)
    gate.set()
    assert (await running).effect == "applied"
    with pytest.raises(ServiceError) as raised:
        await waiting
    assert raised.value.code == ErrorCode.LEASE_EXPIRED
    assert (await release).released


async def test_a_device_is_not_leased_again_until_it_is_tidied(
    host: EnvHost, backend: MemoryBackend
) -> None:
    host.lock_timeout_s = None
    only = MemoryBackend(1, clock=backend.leases.clock)
    host = make_host(only)
    got = await lease(host)
    gate = only.hold(got.device_id)  # tidying waits
    release = asyncio.create_task(host.release(m.ReleaseRequest(lease_id=got.lease_id)))
    await asyncio.sleep(0.02)
    with pytest.raises(ServiceError) as raised:
        await lease(host)
    assert raised.value.code == ErrorCode.NO_DEVICE_AVAILABLE
    gate.set()
    assert (await release).released
    assert (await lease(host)).device_id == got.device_id


async def test_a_release_that_finds_the_device_busy_reports_it_lost(
    host: EnvHost, backend: MemoryBackend
) -> None:
    got = await lease(host)
    async with backend.lock(got.device_id):
        assert (await host.release(m.ReleaseRequest(lease_id=got.lease_id))).released
    assert backend.lost == [
        (got.device_id, "busy past the lock timeout while being released", "timeout")
    ]
    assert backend.devices[got.device_id].tidied == 0


async def test_a_device_lost_while_being_tidied_is_reported(
    host: EnvHost, backend: MemoryBackend
) -> None:
    got = await lease(host)
    backend.lose(got.device_id, "cable")
    assert (await host.release(m.ReleaseRequest(lease_id=got.lease_id))).released
    assert backend.lost == [(got.device_id, "cable", "lost")]


def test_a_lock_timeout_must_be_positive(backend: MemoryBackend) -> None:
    with pytest.raises(ValueError, match="lock_timeout_s"):
        make_host(backend, lock_timeout_s=0)


async def test_a_verb_waiting_on_a_device_that_is_lost_hears_device_lost(
    host: EnvHost, backend: MemoryBackend
) -> None:
    host.lock_timeout_s = None
    got = await lease(host)
    gate = backend.hold(got.device_id)
    running = asyncio.create_task(act(host, got.lease_id))
    await asyncio.sleep(0.02)
    waiting = asyncio.create_task(act(host, got.lease_id))
    await asyncio.sleep(0.02)
    host.device_lost(got.device_id, "offline")  # the backend's health check noticed
    gate.set()
    await running
    with pytest.raises(ServiceError) as raised:
        await waiting
    assert raised.value.code == ErrorCode.DEVICE_LOST
    assert raised.value.message == f"device {got.device_id} was lost: offline"


async def test_a_lease_renewed_while_the_reaper_tidies_another_is_kept(
    host: EnvHost, backend: MemoryBackend, clock: FakeClock
) -> None:
    host.lock_timeout_s = None
    first, second = await lease(host, ttl_s=5), await lease(host, ttl_s=5)
    clock.advance(6)  # both expired
    gate = backend.hold(first.device_id)  # tidying the first device takes a while
    reaping = asyncio.create_task(host.reap_expired())
    await asyncio.sleep(0.02)
    await host.renew(m.RenewRequest(lease_id=second.lease_id, ttl_s=30))  # just in time
    gate.set()
    assert await reaping == [first.lease_id]
    assert (await act(host, second.lease_id)).effect == "applied"
