"""One NATS user per service, each limited to its subjects (`SERVICE_PERMISSIONS`), against a
real nats-server configured from that table."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import AbstractAsyncContextManager, suppress

import nats.errors
import pytest
from nats.aio.msg import Msg
from pydantic import BaseModel

from phonebuddy.bus import (
    DEAD_LETTER_REASON_HEADER,
    Bus,
    DeadLetterReason,
    NatsSettings,
    Opening,
    PermissionDeniedError,
    connect,
)
from phonebuddy.bus.permissions import (
    CLIENT,
    SERVICE_PERMISSIONS,
    Permissions,
    inbox_prefix,
    nats_users,
)
from phonebuddy.protocol import Source
from phonebuddy.protocol.subjects import (
    JUDGE_SUBJECT,
    ROLLOUT_EPISODES,
    ROLLOUT_STATUS,
    ROLLOUT_STREAM,
    ROLLOUT_SUBJECTS,
    ROLLOUT_SUBMIT,
    WORLD_ORACLE,
    WORLD_TASKS,
    EnvVerb,
    dead_letter_subject,
    env_lease_subject,
    env_verb_subject,
    rollout_events_subject,
)
from phonebuddy.testing import NatsServer

DELETE_ROLLOUT_STREAM = f"$JS.API.STREAM.DELETE.{ROLLOUT_STREAM}"


class Ping(BaseModel):
    n: int = 0


async def pong(ping: Ping) -> Ping:
    return Ping(n=ping.n + 1)


@pytest.fixture(scope="module")
def server() -> Iterator[NatsServer]:
    users = {name: permissions.to_nats() for name, permissions in SERVICE_PERMISSIONS.items()}
    with NatsServer(users=users) as server:
        yield server


As = Callable[[str], Opening[Bus]]


@pytest.fixture
def as_user(server: NatsServer) -> As:
    """Connect as one of the table's users (or the server's full-access user)."""

    def open_(user: str) -> Opening[Bus]:
        password = server.password if user == server.user else server.passwords[user]
        return connect(
            NatsSettings(
                url=server.url, user=user, password=password, request_timeout_s=5.0, name=user
            )
        )

    return open_


@pytest.fixture
async def admin(server: NatsServer, as_user: As) -> AsyncIterator[Bus]:
    async with as_user(server.user) as bus:
        yield bus


@pytest.fixture
async def rollout_stream(admin: Bus) -> AsyncIterator[None]:
    yield
    with suppress(nats.errors.Error):
        await admin.jetstream.delete_stream(ROLLOUT_STREAM)


async def received_nothing(admin: Bus, subject: str, send: Callable[[], object]) -> list[Msg]:
    """What a full-access subscriber on `subject` sees while `send` runs."""
    seen: list[Msg] = []

    async def collect(msg: Msg) -> None:
        seen.append(msg)

    subscription = await admin.nc.subscribe(subject, cb=collect)
    await admin.nc.flush()
    try:
        await send()  # type: ignore[misc]
        await admin.nc.flush()
        await asyncio.sleep(0.2)
    finally:
        await subscription.unsubscribe()
    return seen


async def test_every_service_does_its_job_as_its_own_user(
    as_user: As, admin: Bus, rollout_stream: None
) -> None:
    served: list[AbstractAsyncContextManager[object]] = []
    async with (
        as_user("phoneworld") as world,
        as_user("device-gateway") as gateway,
        as_user("judge") as judge,
        as_user("broker") as broker,
        as_user("policy") as teacher,
        as_user(CLIENT) as client,
    ):
        served = [
            world.serve(env_lease_subject(Source.SIM), Ping, pong, queue="pb-env-sim"),
            world.serve(env_verb_subject(Source.SIM, "local", EnvVerb.ACT), Ping, pong),
            world.serve(WORLD_TASKS, Ping, pong, queue="pb-world"),
            world.serve(WORLD_ORACLE, Ping, pong, queue="pb-world"),
            gateway.serve(env_lease_subject(Source.REAL), Ping, pong, queue="pb-env-real"),
            gateway.serve(env_verb_subject(Source.REAL, "local", EnvVerb.OBSERVE), Ping, pong),
            judge.serve(JUDGE_SUBJECT, Ping, pong, queue="pb-judge"),
            broker.serve(ROLLOUT_SUBMIT, Ping, pong, queue="pb-broker"),
            broker.serve(ROLLOUT_STATUS, Ping, pong, queue="pb-broker"),
        ]
        for opening in served:
            await opening.__aenter__()
        # The broker leases and drives both sources, asks the judge and PhoneWorld's catalogue.
        for subject in (
            env_lease_subject(Source.SIM),
            env_verb_subject(Source.SIM, "local", EnvVerb.ACT),
            env_lease_subject(Source.REAL),
            env_verb_subject(Source.REAL, "local", EnvVerb.OBSERVE),
            JUDGE_SUBJECT,
            WORLD_TASKS,
        ):
            assert await broker.request(subject, Ping(n=1), Ping) == Ping(n=2), subject
        # The teacher asks PhoneWorld for a task and its oracle; the client submits rollouts.
        assert await teacher.request(WORLD_TASKS, Ping(n=2), Ping) == Ping(n=3)
        assert await teacher.request(WORLD_ORACLE, Ping(n=2), Ping) == Ping(n=3)
        assert await client.request(ROLLOUT_SUBMIT, Ping(n=3), Ping) == Ping(n=4)
        assert await client.request(ROLLOUT_STATUS, Ping(n=4), Ping) == Ping(n=5)

        # The client follows a run's events, which the broker publishes.
        events: asyncio.Queue[Msg] = asyncio.Queue()
        await client.nc.subscribe(rollout_events_subject("run-1"), cb=events.put)
        await client.nc.flush()
        await broker.nc.publish(rollout_events_subject("run-1"), b"{}")
        assert (await asyncio.wait_for(events.get(), 5)).data == b"{}"

        # The broker owns its stream: creates it, queues work, consumes and acks it.
        await broker.ensure_stream(ROLLOUT_STREAM, [ROLLOUT_SUBJECTS])
        await broker.ensure_stream(ROLLOUT_STREAM, [ROLLOUT_SUBJECTS])  # updating is allowed
        handled: asyncio.Queue[Ping] = asyncio.Queue()
        async with broker.consume(
            stream=ROLLOUT_STREAM, durable="broker", subject=ROLLOUT_EPISODES,
            message_type=Ping, handler=handled.put,
            dead_letter_subject=dead_letter_subject(ROLLOUT_STREAM), fetch_timeout_s=1.0,
        ):  # fmt: skip
            await broker.publish(ROLLOUT_EPISODES, Ping(n=7), msg_id="episode-7")
            assert await asyncio.wait_for(handled.get(), 5) == Ping(n=7)
            for _ in range(50):
                if (await admin.jetstream.stream_info(ROLLOUT_STREAM)).state.messages == 0:
                    break
                await asyncio.sleep(0.1)
        assert (await admin.jetstream.stream_info(ROLLOUT_STREAM)).state.messages == 0
        for opening in reversed(served):
            await opening.__aexit__(None, None, None)


async def test_broker_dead_letters_work_whose_worker_died_with_its_own_user(
    as_user: As, admin: Bus, rollout_stream: None
) -> None:
    """The max-deliveries path (advisory, reading the message back, deleting it) is allowed."""
    dead: asyncio.Queue[Msg] = asyncio.Queue()
    got_it = asyncio.Event()

    async def hang(ping: Ping) -> None:
        got_it.set()
        await asyncio.Event().wait()

    async def never_called(ping: Ping) -> None:
        raise AssertionError("a message past max_deliver reached a handler")

    options = {
        "stream": ROLLOUT_STREAM, "durable": "broker", "subject": ROLLOUT_EPISODES,
        "message_type": Ping, "dead_letter_subject": dead_letter_subject(ROLLOUT_STREAM),
        "max_deliver": 1, "ack_wait_s": 1.0, "fetch_timeout_s": 1.0, "stop_timeout_s": 0.1,
    }  # fmt: skip
    async with as_user("broker") as survivor:
        await survivor.ensure_stream(ROLLOUT_STREAM, [ROLLOUT_SUBJECTS])
        await survivor.nc.subscribe(dead_letter_subject(ROLLOUT_STREAM), cb=dead.put)
        dying = await as_user("broker")
        await dying.consume(handler=hang, **options)  # type: ignore[arg-type]
        await survivor.publish(ROLLOUT_EPISODES, Ping(n=1))
        await asyncio.wait_for(got_it.wait(), 5)
        await dying.nc.close()
        async with survivor.consume(handler=never_called, **options):  # type: ignore[arg-type]
            letter = await asyncio.wait_for(dead.get(), 10)
        await dying.close()

    assert letter.headers is not None
    assert letter.headers[DEAD_LETTER_REASON_HEADER] == DeadLetterReason.MAX_DELIVER_EXCEEDED
    assert (await admin.jetstream.stream_info(ROLLOUT_STREAM)).state.messages == 0


@pytest.mark.parametrize(
    ("user", "subject"),
    [
        ("phoneworld", ROLLOUT_SUBMIT),  # a service posing as a client of the broker
        ("judge", ROLLOUT_STATUS),
        ("phoneworld", DELETE_ROLLOUT_STREAM),
        ("phoneworld", env_lease_subject(Source.REAL)),
        ("device-gateway", JUDGE_SUBJECT),
        ("judge", env_verb_subject(Source.SIM, "local", EnvVerb.ACT)),
        ("policy", env_lease_subject(Source.SIM)),
        (CLIENT, ROLLOUT_EPISODES),  # work straight into the queue, past the broker
        (CLIENT, env_lease_subject(Source.SIM)),
        (CLIENT, DELETE_ROLLOUT_STREAM),
        (CLIENT, "$JS.API.INFO"),
        (CLIENT, f"$JS.API.STREAM.CREATE.{ROLLOUT_STREAM}"),
        ("broker", DELETE_ROLLOUT_STREAM),  # not even the broker deletes its stream
        ("broker", f"$JS.API.STREAM.PURGE.{ROLLOUT_STREAM}"),
        ("broker", "$JS.API.STREAM.CREATE.OTHER"),
    ],
)
async def test_a_user_cannot_publish_to_subjects_outside_its_permissions(
    as_user: As, admin: Bus, user: str, subject: str
) -> None:
    async with as_user(user) as bus:

        async def send() -> None:
            started = time.monotonic()
            with pytest.raises(PermissionDeniedError) as denied:
                await bus.request(subject, Ping(), Ping)
            assert time.monotonic() - started < 2.0, "the refusal should not wait for a timeout"
            assert denied.value.subject == subject
            assert denied.value.user == user

        assert await received_nothing(admin, subject, send) == []


@pytest.mark.parametrize(
    ("user", "subject"),
    [
        ("device-gateway", env_lease_subject(Source.SIM)),  # taking another source's leases
        ("phoneworld", ROLLOUT_SUBMIT),
        (CLIENT, ROLLOUT_STATUS),  # asking, not answering: only a broker says where a run is
        ("phoneworld", ROLLOUT_STATUS),
        ("judge", ROLLOUT_EPISODES),
        (CLIENT, JUDGE_SUBJECT),
        ("broker", WORLD_ORACLE),
        # Nobody reads replies meant for others: not all inboxes, not another user's.
        ("phoneworld", "_INBOX.>"),
        (CLIENT, f"{inbox_prefix('broker')}.>"),
        ("broker", f"{inbox_prefix(CLIENT)}.>"),
    ],
)
async def test_a_user_cannot_subscribe_to_subjects_outside_its_permissions(
    as_user: As, user: str, subject: str
) -> None:
    async with as_user(user) as bus:
        with pytest.raises(PermissionDeniedError, match="subscribe"):
            await bus.serve(subject, Ping, pong)


async def test_phoneworld_cannot_delete_the_rollout_stream(
    as_user: As, admin: Bus, rollout_stream: None
) -> None:
    await admin.ensure_stream(ROLLOUT_STREAM, [ROLLOUT_SUBJECTS])
    async with as_user("phoneworld") as world:
        with pytest.raises(TimeoutError):  # the server drops the request: no answer comes
            await asyncio.wait_for(world.jetstream.delete_stream(ROLLOUT_STREAM), 1.0)

    info = await admin.jetstream.stream_info(ROLLOUT_STREAM)
    assert info.config.name == ROLLOUT_STREAM


async def test_the_rollout_client_cannot_call_jetstream_admin(as_user: As) -> None:
    async with as_user(CLIENT) as client:
        for call in (
            client.jetstream.account_info(),
            client.jetstream.streams_info(),
            client.jetstream.delete_stream(ROLLOUT_STREAM),
        ):
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(call, 1.0)


def test_the_server_config_names_only_known_users() -> None:
    users = nats_users({"broker": "b", "phoneworld": "p"})
    assert [(u["user"], u["password"]) for u in users] == [("broker", "b"), ("phoneworld", "p")]
    assert users[0]["permissions"] == SERVICE_PERMISSIONS["broker"].to_nats()
    with pytest.raises(KeyError, match="no NATS permissions for trainer"):
        nats_users({"trainer": "t"})


def test_permissions_merge_without_repeating_subjects() -> None:
    merged = Permissions(publish=("a", "b")) | Permissions(publish=("b", "c"), responds=True)
    assert merged == Permissions(publish=("a", "b", "c"), responds=True)
    assert merged.to_nats() == {
        "publish": {"allow": ["a", "b", "c"]},
        "subscribe": {"allow": []},
        "allow_responses": True,
    }
