"""The broker's per-run work queues on a real nats-server, used as the broker's own NATS user
(`SERVICE_PERMISSIONS["broker"]`): runs are served in turn, whatever each has queued; items
survive the process that held them; failures are retried, then dead-lettered; an idle run's
consumer is cleaned up by the server, never while one of its items runs."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import nats.errors
import pytest
from nats.aio.msg import Msg
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy
from pydantic import BaseModel

from phonebuddy.broker.queues import RunQueues
from phonebuddy.bus import (
    DEAD_LETTER_REASON_HEADER,
    Bus,
    NatsSettings,
    TransientError,
    connect,
)
from phonebuddy.bus.permissions import SERVICE_PERMISSIONS
from phonebuddy.protocol.subjects import (
    ROLLOUT_EPISODES,
    ROLLOUT_STREAM,
    ROLLOUT_SUBJECTS,
    dead_letter_subject,
)
from phonebuddy.testing import NatsServer

DEAD = dead_letter_subject(ROLLOUT_STREAM)


class Item(BaseModel):
    run: str
    n: int


@pytest.fixture(scope="module")
def server() -> Iterator[NatsServer]:
    with NatsServer(users={"broker": SERVICE_PERMISSIONS["broker"].to_nats()}) as server:
        yield server


@pytest.fixture
async def bus(server: NatsServer) -> AsyncIterator[Bus]:
    """Connected as the broker's user, with a fresh rollout stream."""
    settings = NatsSettings(
        url=server.url, user="broker", password=server.passwords["broker"], request_timeout_s=5
    )
    async with connect(settings) as bus:
        await bus.ensure_stream(ROLLOUT_STREAM, [ROLLOUT_SUBJECTS])
        yield bus
    admin = NatsSettings(url=server.url, user=server.user, password=server.password)
    async with connect(admin) as root:
        with contextlib.suppress(nats.errors.Error):
            await root.jetstream.delete_stream(ROLLOUT_STREAM)


def run_queues(
    bus: Bus, handler: Callable[[Item], Awaitable[None]], **overrides: Any
) -> RunQueues[Item]:
    values: dict[str, Any] = {
        "stream": ROLLOUT_STREAM, "subject": ROLLOUT_EPISODES, "durable": "broker",
        "message_type": Item, "handler": handler, "workers": 2, "dead_letter_subject": DEAD,
        "max_deliver": 3, "backoff_s": (0.1,), "ack_wait_s": 5.0, "poll_s": 0.2,
        "stop_timeout_s": 0.2, **overrides,
    }  # fmt: skip
    return RunQueues(bus, **values)


async def queue(bus: Bus, queues: RunQueues[Item], run: str, count: int) -> None:
    for n in range(count):
        await bus.publish(queues.subject_of(run), Item(run=run, n=n), msg_id=f"{run}/{n}")


async def until(check: Callable[[], bool], timeout_s: float = 20) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def stream_messages(bus: Bus) -> int:
    return (await bus.jetstream.stream_info(ROLLOUT_STREAM)).state.messages


async def test_a_run_queued_behind_another_runs_backlog_gets_the_next_free_worker(
    bus: Bus,
) -> None:
    handled: list[tuple[str, int]] = []

    async def handle(item: Item) -> None:
        await asyncio.sleep(0.05)
        handled.append((item.run, item.n))

    queues = run_queues(bus, handle)
    await queue(bus, queues, "big", 20)  # all queued before the small run's two
    await queue(bus, queues, "small", 2)
    await queues.start()
    try:
        await until(lambda: len(handled) == 22)
    finally:
        await queues.stop()
    # In one queue the small run would come 21st and 22nd; in turns, it is among the first.
    assert handled.index(("small", 1)) < 4, handled
    assert sorted(handled) == sorted([("big", n) for n in range(20)] + [("small", 0), ("small", 1)])
    assert await stream_messages(bus) == 0


async def test_items_a_stopped_process_held_are_found_and_done_once_by_the_next(
    bus: Bus,
) -> None:
    started: list[tuple[str, int]] = []
    never = asyncio.Event()

    async def hang(item: Item) -> None:
        started.append((item.run, item.n))
        await never.wait()

    first = run_queues(bus, hang)
    await first.start()
    await queue(bus, first, "a", 3)
    first.announce("a")
    await queue(bus, first, "b", 3)
    first.announce("b")
    await until(lambda: len(started) == 2)
    await first.stop()  # its two items go back to their queues at once

    done: list[tuple[str, int]] = []

    async def handle(item: Item) -> None:
        done.append((item.run, item.n))

    second = run_queues(bus, handle)  # told nothing: it finds both runs in the stream
    await second.start()
    try:
        await until(lambda: len(done) == 6)
        await asyncio.sleep(0.3)  # nothing comes twice
    finally:
        await second.stop()
    assert sorted(done) == [(run, n) for run in "ab" for n in range(3)]
    assert await stream_messages(bus) == 0


async def test_failures_are_retried_and_what_never_succeeds_is_dead_lettered(bus: Bus) -> None:
    letters: list[Msg] = []

    async def collect(msg: Msg) -> None:
        letters.append(msg)

    await bus.nc.subscribe(DEAD, cb=collect)
    deliveries: dict[tuple[str, int], int] = {}

    async def handle(item: Item) -> None:
        key = (item.run, item.n)
        deliveries[key] = deliveries.get(key, 0) + 1
        if item.run == "flaky" and deliveries[key] == 1:
            raise TransientError("not yet", delay_s=0.05)
        if item.run == "doomed":
            raise RuntimeError("never")

    queues = run_queues(bus, handle)
    await queues.start()
    try:
        await queue(bus, queues, "flaky", 1)
        queues.announce("flaky")
        await queue(bus, queues, "doomed", 1)
        queues.announce("doomed")
        await bus.nc.publish(queues.subject_of("garbled"), b"{not an item")
        await until(lambda: len(letters) == 2 and deliveries.get(("flaky", 0)) == 2)
    finally:
        await queues.stop()
    assert deliveries == {("flaky", 0): 2, ("doomed", 0): 3}
    reasons = {letter.data: (letter.headers or {})[DEAD_LETTER_REASON_HEADER] for letter in letters}
    assert reasons == {
        Item(run="doomed", n=0).model_dump_json().encode(): "max_deliver_exceeded",
        b"{not an item": "invalid_message",
    }
    assert await stream_messages(bus) == 0


async def test_an_idle_runs_consumer_is_deleted_but_never_while_an_item_runs(bus: Bus) -> None:
    done: list[int] = []

    async def slow(item: Item) -> None:
        await asyncio.sleep(4.0 if item.n == 0 else 0)  # twice the idle limit
        done.append(item.n)

    queues = run_queues(bus, slow, workers=1, ack_wait_s=1.0, idle_s=2.0)
    await queues.start()
    try:
        await queue(bus, queues, "long", 1)
        queues.announce("long")
        await until(lambda: queues.in_flight == 1)
        # One worker, busy: nobody pulls from the run while its item runs, so only the item's
        # reports of progress keep the consumer.
        await until(lambda: done == [0])
        await bus.publish(queues.subject_of("long"), Item(run="long", n=1), msg_id="long/1")
        queues.announce("long")
        await until(lambda: done == [0, 1])
        await until(lambda: queues.queued_runs() == [], timeout_s=5)
        info = await bus.jetstream.stream_info(ROLLOUT_STREAM)
        deadline = time.monotonic() + 15
        while info.state.consumer_count:
            assert time.monotonic() < deadline, "the idle consumer was never deleted"
            await asyncio.sleep(0.2)
            info = await bus.jetstream.stream_info(ROLLOUT_STREAM)
    finally:
        await queues.stop()
    assert done == [0, 1]  # each once: the long one was not redelivered
    # A run queued again after its consumer was deleted is served: the consumer comes back.
    again: list[int] = []

    async def handle(item: Item) -> None:
        again.append(item.n)

    revived = run_queues(bus, handle)
    await revived.start()
    try:
        await bus.publish(revived.subject_of("long"), Item(run="long", n=2), msg_id="long/2")
        revived.announce("long")
        await until(lambda: again == [2])
    finally:
        await revived.stop()


async def test_items_an_older_broker_queued_on_the_shared_subject_are_still_served(
    bus: Bus,
) -> None:
    """Before per-run queues every item went to `pb.rollout.episodes` itself, read by the
    durable `broker`; what such a broker left in the stream is served after an upgrade."""
    await bus.jetstream.add_consumer(
        ROLLOUT_STREAM,
        ConsumerConfig(
            name="broker", durable_name="broker", deliver_policy=DeliverPolicy.ALL,
            ack_policy=AckPolicy.EXPLICIT, ack_wait=5.0, max_deliver=3,
            filter_subject=ROLLOUT_EPISODES,
        ),
    )  # fmt: skip
    for n in range(2):
        await bus.publish(ROLLOUT_EPISODES, Item(run="old", n=n), msg_id=f"old/{n}")
    done: list[tuple[str, int]] = []

    async def handle(item: Item) -> None:
        done.append((item.run, item.n))

    queues = run_queues(bus, handle)
    await queues.start()
    try:
        await until(lambda: len(done) == 2)
    finally:
        await queues.stop()
    assert done == [("old", 0), ("old", 1)]
    assert await stream_messages(bus) == 0
