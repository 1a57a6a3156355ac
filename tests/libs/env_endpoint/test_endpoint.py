"""The seven env verbs over a real nats-server, on the subjects of `phonebuddy.protocol`, with
typed error replies; instances of one source share the lease queue group. Each test has a
nats-server of its own, so no other env instance answers its lease requests."""

from __future__ import annotations

from typing import TypeVar

import pytest
from pydantic import BaseModel

from phonebuddy.bus import Bus, NatsSettings, NoRespondersError, RemoteError, connect
from phonebuddy.env_endpoint import EnvEndpoint
from phonebuddy.env_endpoint.testing import MemoryBackend
from phonebuddy.protocol import Click, ErrorCode, Source
from phonebuddy.protocol import env as m
from phonebuddy.protocol.subjects import EnvVerb, env_lease_subject, env_verb_subject
from phonebuddy.testing import NatsServer

from .conftest import make_host
from .test_host import TASK


def settings(server: NatsServer) -> NatsSettings:
    return NatsSettings(url=server.url, user=server.user, password=server.password)


ReplyT = TypeVar("ReplyT", bound=BaseModel)


async def call(
    bus: Bus, lease: m.Lease, verb: EnvVerb, request: BaseModel, reply: type[ReplyT]
) -> ReplyT:
    subject = env_verb_subject(lease.source, lease.instance_id, verb)
    return await bus.request(subject, request, reply, timeout_s=5)


async def test_a_full_episode_over_nats(nats_server_fn: NatsServer, unique_name: str) -> None:
    backend = MemoryBackend(1, source=Source.REAL, instance_id=unique_name)
    host = make_host(backend)
    async with connect(settings(nats_server_fn)) as bus, EnvEndpoint(host, bus) as endpoint:
        assert endpoint.subjects()["lease"] == env_lease_subject(Source.REAL)
        assert endpoint.subjects()["act"] == env_verb_subject(Source.REAL, unique_name, "act")
        lease = await bus.request(
            env_lease_subject(Source.REAL), m.LeaseRequest(client_id="t"), m.Lease
        )
        assert (lease.source, lease.instance_id) == (Source.REAL, unique_name)
        reset = await call(
            bus,
            lease,
            EnvVerb.RESET,
            m.ResetRequest(lease_id=lease.lease_id, task=TASK),
            m.ObserveReply,
        )
        assert reset.frame is not None
        acted = await call(
            bus,
            lease,
            EnvVerb.ACT,
            m.ActRequest(lease_id=lease.lease_id, action=Click(coordinate=(5, 5)), observe=True),
            m.ActReply,
        )
        assert acted.effect == "applied"
        observed = await call(
            bus, lease, EnvVerb.OBSERVE, m.ObserveRequest(lease_id=lease.lease_id), m.ObserveReply
        )
        assert observed.observation.frame == acted.observation.frame
        verdict = await call(
            bus, lease, EnvVerb.VERIFY, m.VerifyRequest(lease_id=lease.lease_id), m.VerifyReply
        )
        assert verdict.verdict.success
        renewed = await call(
            bus, lease, EnvVerb.RENEW, m.RenewRequest(lease_id=lease.lease_id, ttl_s=9), m.Lease
        )
        assert renewed.lease_id == lease.lease_id
        released = await call(
            bus, lease, EnvVerb.RELEASE, m.ReleaseRequest(lease_id=lease.lease_id), m.ReleaseReply
        )
        assert released.released
        assert backend.devices[lease.device_id].tidied == 1


async def test_errors_arrive_typed(nats_server_fn: NatsServer, unique_name: str) -> None:
    backend = MemoryBackend(1, instance_id=unique_name, verifies=False)
    async with connect(settings(nats_server_fn)) as bus, EnvEndpoint(make_host(backend), bus):
        lease_subject = env_lease_subject(Source.SIM)
        lease = await bus.request(lease_subject, m.LeaseRequest(client_id="t"), m.Lease)
        with pytest.raises(RemoteError) as raised:
            await bus.request(lease_subject, m.LeaseRequest(client_id="t"), m.Lease)
        assert raised.value.code == ErrorCode.NO_DEVICE_AVAILABLE
        assert raised.value.retryable
        with pytest.raises(RemoteError) as raised:
            await bus.request(lease_subject, m.LeaseRequest(client_id="t", apps=("x.y",)), m.Lease)
        assert raised.value.code == ErrorCode.UNKNOWN_APP
        with pytest.raises(RemoteError) as raised:
            await call(
                bus, lease, EnvVerb.VERIFY, m.VerifyRequest(lease_id=lease.lease_id), m.VerifyReply
            )
        assert raised.value.code == ErrorCode.UNSUPPORTED
        backend.lose(lease.device_id)
        with pytest.raises(RemoteError) as raised:
            await call(
                bus,
                lease,
                EnvVerb.OBSERVE,
                m.ObserveRequest(lease_id=lease.lease_id),
                m.ObserveReply,
            )
        assert raised.value.code == ErrorCode.DEVICE_LOST
        assert raised.value.details == {"device": lease.device_id}
        with pytest.raises(RemoteError) as raised:
            await call(
                bus, lease, EnvVerb.OBSERVE, m.ObserveRequest(lease_id="0" * 24), m.ObserveReply
            )
        assert raised.value.code == ErrorCode.LEASE_NOT_FOUND


async def test_instances_of_one_source_share_the_lease_queue(
    nats_server_fn: NatsServer, unique_name: str
) -> None:
    first = MemoryBackend(1, source=Source.REAL, instance_id=f"{unique_name}a")
    second = MemoryBackend(1, source=Source.REAL, instance_id=f"{unique_name}b")
    async with (
        connect(settings(nats_server_fn)) as bus,
        EnvEndpoint(make_host(first), bus),
        EnvEndpoint(make_host(second), bus),
    ):
        subject = env_lease_subject(Source.REAL)
        got: set[str] = set()
        refusals: list[ErrorCode] = []
        for _ in range(20):  # queue members answer in turn; a full one says so and we retry
            try:
                lease = await bus.request(subject, m.LeaseRequest(client_id="t"), m.Lease)
            except RemoteError as exc:
                refusals.append(exc.code)
                continue
            got.add(lease.instance_id)
            if len(got) == 2:
                break
        assert got == {first.instance_id, second.instance_id}
        assert set(refusals) <= {ErrorCode.NO_DEVICE_AVAILABLE}


async def test_a_stopped_endpoint_answers_nothing(
    nats_server_fn: NatsServer, unique_name: str
) -> None:
    backend = MemoryBackend(1, instance_id=unique_name)
    async with connect(settings(nats_server_fn)) as bus:
        async with EnvEndpoint(make_host(backend), bus) as endpoint:
            lease = await bus.request(
                env_lease_subject(Source.SIM), m.LeaseRequest(client_id="t"), m.Lease
            )
        assert endpoint._services == []
        with pytest.raises(NoRespondersError):
            await call(
                bus,
                lease,
                EnvVerb.OBSERVE,
                m.ObserveRequest(lease_id=lease.lease_id),
                m.ObserveReply,
            )
