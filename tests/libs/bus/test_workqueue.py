import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from nats.aio.msg import Msg
from nats.js.api import RetentionPolicy, StorageType
from pydantic import BaseModel

from phonebuddy.bus import (
    DEAD_LETTER_DELIVERIES_HEADER,
    DEAD_LETTER_ERROR_HEADER,
    DEAD_LETTER_MSG_ID_HEADER,
    DEAD_LETTER_REASON_HEADER,
    DEAD_LETTER_SEQUENCE_HEADER,
    DEAD_LETTER_STREAM_HEADER,
    DEAD_LETTER_SUBJECT_HEADER,
    Bus,
    Consumer,
    DeadLetterReason,
    NatsSettings,
    Opening,
    PublishError,
    Retention,
    TransientError,
    connect,
)

Eventually = Callable[[Callable[[], Awaitable[bool]]], Awaitable[None]]


class Job(BaseModel):
    id: str
    steps: int = 1


class Names:
    """Stream and subjects of one test."""

    def __init__(self, unique_name: str) -> None:
        self.stream = unique_name.upper()
        self.subject = f"{unique_name}.jobs"
        self.dead_letters = f"{unique_name}.dlq"
        self.durable = "workers"


@pytest.fixture
async def names(bus: Bus, unique_name: str) -> AsyncIterator[Names]:
    names = Names(unique_name)
    await bus.ensure_stream(names.stream, [names.subject])
    yield names
    await bus.jetstream.delete_stream(names.stream)


@pytest.fixture
async def dead_letters(bus: Bus, names: Names) -> AsyncIterator[asyncio.Queue[Msg]]:
    """Dead letters as they go out on core NATS (no stream stores them in most tests)."""
    received: asyncio.Queue[Msg] = asyncio.Queue()

    async def collect(msg: Msg) -> None:
        await received.put(msg)

    subscription = await bus.nc.subscribe(names.dead_letters, cb=collect)
    await bus.nc.flush()
    yield received
    await subscription.unsubscribe()


def consume(
    bus: Bus, names: Names, handler: Callable[[Job], Awaitable[None]], **options: object
) -> Opening[Consumer]:
    defaults: dict[str, object] = {"backoff_s": (0.05,), "ack_wait_s": 5.0, "fetch_timeout_s": 1.0}
    defaults.update(options)
    return bus.consume(
        stream=names.stream,
        durable=names.durable,
        subject=names.subject,
        message_type=Job,
        handler=handler,
        dead_letter_subject=names.dead_letters,
        **defaults,  # type: ignore[arg-type]
    )


async def nothing_outstanding(bus: Bus, names: Names) -> bool:
    info = await bus.jetstream.consumer_info(names.stream, names.durable)
    stream = await bus.jetstream.stream_info(names.stream)
    return info.num_ack_pending == 0 and info.num_pending == 0 and stream.state.messages == 0


async def test_ensure_stream_is_idempotent_with_work_queue_file_storage(
    bus: Bus, unique_name: str
) -> None:
    stream = unique_name.upper()
    try:
        first = await bus.ensure_stream(stream, [f"{unique_name}.a"])
        again = await bus.ensure_stream(stream, [f"{unique_name}.a"])
        widened = await bus.ensure_stream(stream, [f"{unique_name}.a", f"{unique_name}.b"])
    finally:
        await bus.jetstream.delete_stream(stream)

    assert first.config.retention == RetentionPolicy.WORK_QUEUE
    assert first.config.storage == StorageType.FILE
    assert again.config.subjects == [f"{unique_name}.a"]
    assert widened.config.subjects == [f"{unique_name}.a", f"{unique_name}.b"]


async def test_message_is_acked_only_after_handler_succeeds(
    bus: Bus, names: Names, eventually: Eventually
) -> None:
    release = asyncio.Event()
    handled: list[str] = []

    async def handle(job: Job) -> None:
        await release.wait()
        handled.append(job.id)

    async def in_handler() -> bool:
        info = await bus.jetstream.consumer_info(names.stream, names.durable)
        return info.num_ack_pending == 1

    async with consume(bus, names, handle):
        for i in range(3):
            await bus.publish(names.subject, Job(id=f"j{i}"))
        await eventually(in_handler)
        release.set()
        await eventually(lambda: nothing_outstanding(bus, names))

    assert handled == ["j0", "j1", "j2"]
    info = await bus.jetstream.consumer_info(names.stream, names.durable)
    assert info.num_redelivered == 0


async def test_unacked_message_goes_to_another_consumer_after_ack_wait(
    settings: NatsSettings, bus: Bus, names: Names, eventually: Eventually
) -> None:
    first_got_it = asyncio.Event()
    never = asyncio.Event()
    handled: list[tuple[str, int, float]] = []

    async def hang(job: Job) -> None:
        first_got_it.set()
        await never.wait()

    async def finish(job: Job) -> None:
        handled.append((job.id, job.steps, time.monotonic()))

    dying = await connect(settings)
    try:
        await consume(dying, names, hang, ack_wait_s=1.0)
        await bus.publish(names.subject, Job(id="j1", steps=7))
        await asyncio.wait_for(first_got_it.wait(), 5)

        await dying.nc.close()  # the worker dies: no ack, no more progress reports
        died_at = time.monotonic()

        async with consume(bus, names, finish, ack_wait_s=1.0):
            await eventually(lambda: nothing_outstanding(bus, names))
    finally:
        never.set()
        await dying.close()

    [(job_id, steps, handled_at)] = handled
    assert (job_id, steps) == ("j1", 7)
    # Not before ack_wait ran out since the last progress report (sent every ack_wait / 2).
    assert handled_at - died_at >= 0.4


async def test_long_handler_is_not_redelivered_while_it_runs(
    bus: Bus, names: Names, eventually: Eventually
) -> None:
    calls: list[str] = []

    async def slow(job: Job) -> None:
        calls.append(job.id)
        await asyncio.sleep(1.5)  # three times ack_wait; progress reports keep it ours

    async with consume(bus, names, slow, ack_wait_s=0.5, concurrency=2):
        await bus.publish(names.subject, Job(id="j1"))
        await eventually(lambda: nothing_outstanding(bus, names))

    assert calls == ["j1"]


async def test_transient_error_is_retried_with_backoff_then_succeeds(
    bus: Bus, names: Names, dead_letters: asyncio.Queue[Msg], eventually: Eventually
) -> None:
    attempts: list[float] = []

    async def flaky(job: Job) -> None:
        attempts.append(asyncio.get_running_loop().time())
        if len(attempts) < 3:
            raise TransientError("device busy")

    async with consume(bus, names, flaky, backoff_s=(0.2, 0.4), max_deliver=5):
        await bus.publish(names.subject, Job(id="j1"))
        await eventually(lambda: nothing_outstanding(bus, names))

    assert len(attempts) == 3
    assert attempts[1] - attempts[0] >= 0.18
    assert attempts[2] - attempts[1] >= 0.38
    assert dead_letters.empty()


async def test_invalid_message_is_dead_lettered_with_reason_and_not_redelivered(
    bus: Bus,
    names: Names,
    dead_letters: asyncio.Queue[Msg],
    eventually: Eventually,
    caplog: pytest.LogCaptureFixture,
) -> None:
    handled: list[Job] = []

    async def handle(job: Job) -> None:
        handled.append(job)

    with caplog.at_level(logging.ERROR, logger="phonebuddy.bus"):
        async with consume(bus, names, handle):
            ack = await bus.jetstream.publish(
                names.subject, b"{not json", headers={"Nats-Msg-Id": "poison-1", "Trace": "t1"}
            )
            dead = await asyncio.wait_for(dead_letters.get(), 5)
            await eventually(lambda: nothing_outstanding(bus, names))
            await bus.publish(names.subject, Job(id="after"))
            await eventually(lambda: nothing_outstanding(bus, names))

    assert dead.data == b"{not json"
    assert dead.headers is not None
    assert dead.headers[DEAD_LETTER_REASON_HEADER] == DeadLetterReason.INVALID_MESSAGE
    assert "Invalid JSON" in dead.headers[DEAD_LETTER_ERROR_HEADER]
    assert dead.headers[DEAD_LETTER_STREAM_HEADER] == names.stream
    assert dead.headers[DEAD_LETTER_SUBJECT_HEADER] == names.subject
    assert dead.headers[DEAD_LETTER_SEQUENCE_HEADER] == str(ack.seq)
    assert dead.headers[DEAD_LETTER_DELIVERIES_HEADER] == "1"
    assert dead.headers[DEAD_LETTER_MSG_ID_HEADER] == "poison-1"
    assert dead.headers["Trace"] == "t1"
    assert "Nats-Msg-Id" not in dead.headers
    assert [job.id for job in handled] == ["after"]
    info = await bus.jetstream.consumer_info(names.stream, names.durable)
    assert info.num_redelivered == 0
    assert dead_letters.empty()
    assert any("is not a valid Job" in record.getMessage() for record in caplog.records)


async def test_message_failing_every_delivery_is_dead_lettered_after_max_deliver(
    bus: Bus, names: Names, dead_letters: asyncio.Queue[Msg], eventually: Eventually
) -> None:
    attempts = 0

    async def broken(job: Job) -> None:
        nonlocal attempts
        attempts += 1
        raise RuntimeError(f"attempt {attempts} failed")

    async with consume(bus, names, broken, max_deliver=3):
        await bus.publish(names.subject, Job(id="j1"))
        dead = await asyncio.wait_for(dead_letters.get(), 5)
        await eventually(lambda: nothing_outstanding(bus, names))

    assert attempts == 3
    assert Job.model_validate_json(dead.data) == Job(id="j1")
    assert dead.headers is not None
    assert dead.headers[DEAD_LETTER_REASON_HEADER] == DeadLetterReason.MAX_DELIVER_EXCEEDED
    assert dead.headers[DEAD_LETTER_DELIVERIES_HEADER] == "3"
    assert dead.headers[DEAD_LETTER_ERROR_HEADER] == "RuntimeError: attempt 3 failed"


async def test_dead_letters_are_stored_when_a_stream_holds_their_subject(
    bus: Bus, names: Names, eventually: Eventually
) -> None:
    dlq_stream = f"{names.stream}_DLQ"
    await bus.ensure_stream(dlq_stream, [names.dead_letters], retention=Retention.LIMITS)

    async def never_called(job: Job) -> None:
        raise AssertionError("an invalid message reached the handler")

    try:
        async with consume(bus, names, never_called):
            await bus.jetstream.publish(names.subject, b'{"id": 5}')
            await eventually(lambda: nothing_outstanding(bus, names))
        stored = await bus.jetstream.get_last_msg(dlq_stream, names.dead_letters)
    finally:
        await bus.jetstream.delete_stream(dlq_stream)

    assert stored.data == b'{"id": 5}'
    assert stored.headers is not None
    assert stored.headers[DEAD_LETTER_REASON_HEADER] == "invalid_message"
    assert stored.headers[DEAD_LETTER_ERROR_HEADER] == "field 'id': Input should be a valid string"


async def test_publish_with_same_msg_id_is_stored_once(bus: Bus, names: Names) -> None:
    first = await bus.publish(names.subject, Job(id="j1"), msg_id="job-j1")
    second = await bus.publish(names.subject, Job(id="j1"), msg_id="job-j1")
    other = await bus.publish(names.subject, Job(id="j2"), msg_id="job-j2")

    assert (first.stream, first.duplicate) == (names.stream, False)
    assert second.duplicate is True
    assert second.sequence == first.sequence
    assert other.sequence == first.sequence + 1
    stream = await bus.jetstream.stream_info(names.stream)
    assert stream.state.messages == 2


async def test_publish_to_subject_without_stream_raises_publish_error(
    bus: Bus, unique_name: str
) -> None:
    with pytest.raises(PublishError, match="no stream stores this subject"):
        await bus.publish(f"{unique_name}.nowhere", Job(id="j1"))


async def test_consumer_runs_up_to_concurrency_handlers_at_once(
    bus: Bus, names: Names, eventually: Eventually
) -> None:
    running = 0
    most = 0

    async def handle(job: Job) -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        await asyncio.sleep(0.1)
        running -= 1

    for i in range(12):
        await bus.publish(names.subject, Job(id=f"j{i}"))
    async with consume(bus, names, handle, concurrency=4):
        await eventually(lambda: nothing_outstanding(bus, names))

    assert most == 4


async def test_stopped_consumer_finishes_its_handler_and_fetches_no_more(
    bus: Bus, names: Names, eventually: Eventually
) -> None:
    started = asyncio.Event()
    handled: list[str] = []

    async def handle(job: Job) -> None:
        started.set()
        await asyncio.sleep(0.2)
        handled.append(job.id)

    consumer = await consume(bus, names, handle)
    await bus.publish(names.subject, Job(id="j1"))
    await asyncio.wait_for(started.wait(), 5)

    await consumer.stop()
    await bus.publish(names.subject, Job(id="j2"))
    await asyncio.sleep(0.3)

    assert handled == ["j1"]
    assert not consumer.running
    info = await bus.jetstream.consumer_info(names.stream, names.durable)
    assert info.num_ack_pending == 0
    assert info.num_pending == 1


async def test_stop_ends_a_fetch_loop_whose_fetch_swallowed_the_cancellation(
    bus: Bus, names: Names
) -> None:
    """Python 3.11's asyncio.wait_for, inside nats-py's fetch, can return a message that
    arrived as the cancellation did and drop the cancellation; stop() must still end."""
    consumer = await consume(bus, names, lambda job: asyncio.sleep(0), fetch_timeout_s=30.0)
    psub = consumer._psub
    assert psub is not None
    real_fetch = psub.fetch
    swallowed: list[bool] = []

    async def fetch_that_swallows_one_cancellation(*args: object, **kwargs: object) -> list[Msg]:
        try:
            return await real_fetch(*args, **kwargs)  # type: ignore[arg-type]
        except asyncio.CancelledError:
            if swallowed:
                raise
            swallowed.append(True)
            return []

    psub.fetch = fetch_that_swallows_one_cancellation  # type: ignore[method-assign]
    await asyncio.sleep(0.2)  # the loop is waiting in a fetch
    await asyncio.wait_for(consumer.stop(), 5)

    assert swallowed == [True]
    assert not consumer.running


async def test_a_fetch_deadline_spent_between_pull_requests_is_a_quiet_timeout(
    bus: Bus, names: Names, eventually: Eventually, caplog: pytest.LogCaptureFixture
) -> None:
    """On a busy machine nats-py's fetch raises asyncio's TimeoutError (not its own) when the
    deadline ran out between its two pull requests: nothing failed, no error to log."""
    handled: list[str] = []

    async def handle(job: Job) -> None:
        handled.append(job.id)

    consumer = await consume(bus, names, handle)
    psub = consumer._psub
    assert psub is not None
    real_fetch = psub.fetch
    timeouts: list[bool] = []

    async def fetch_whose_deadline_ran_out_once(*args: object, **kwargs: object) -> list[Msg]:
        if not timeouts:
            timeouts.append(True)
            raise TimeoutError
        return await real_fetch(*args, **kwargs)  # type: ignore[arg-type]

    psub.fetch = fetch_whose_deadline_ran_out_once  # type: ignore[method-assign]
    async with consumer:
        await bus.publish(names.subject, Job(id="j1"))
        await eventually(lambda: nothing_outstanding(bus, names))

    assert timeouts == [True]
    assert handled == ["j1"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_handler_cancelled_on_stop_hands_its_message_back_at_once(
    bus: Bus, names: Names, eventually: Eventually
) -> None:
    started = asyncio.Event()
    handled: list[str] = []

    async def stuck(job: Job) -> None:
        started.set()
        await asyncio.Event().wait()

    async def finish(job: Job) -> None:
        handled.append(job.id)

    consumer = await consume(bus, names, stuck, stop_timeout_s=0.1, ack_wait_s=30.0)
    await bus.publish(names.subject, Job(id="j1"))
    await asyncio.wait_for(started.wait(), 5)
    await consumer.stop()

    async with consume(bus, names, finish, ack_wait_s=30.0):
        await eventually(lambda: nothing_outstanding(bus, names), timeout_s=3.0)

    assert handled == ["j1"]


async def test_message_whose_worker_dies_on_the_last_delivery_is_dead_lettered_once(
    settings: NatsSettings,
    bus: Bus,
    other_bus: Bus,
    names: Names,
    dead_letters: asyncio.Queue[Msg],
    eventually: Eventually,
) -> None:
    deliveries: list[int] = []
    last_delivery = asyncio.Event()
    never = asyncio.Event()

    async def fail_then_hang(job: Job) -> None:
        deliveries.append(len(deliveries) + 1)
        if len(deliveries) == 1:
            raise TransientError("device busy")
        last_delivery.set()
        await never.wait()

    async def never_called(job: Job) -> None:
        raise AssertionError("a message past max_deliver reached a handler")

    dying = await connect(settings)
    try:
        await consume(dying, names, fail_then_hang, max_deliver=2, ack_wait_s=1.0)
        ack = await bus.jetstream.publish(
            names.subject, Job(id="j1").model_dump_json().encode(),
            headers={"Nats-Msg-Id": "job-j1", "Trace": "t1"},
        )  # fmt: skip
        await asyncio.wait_for(last_delivery.wait(), 5)
        await dying.nc.close()  # the worker dies on its last delivery: no ack, nak or term

        # Two surviving workers (two processes) share the durable: one dead letter, not two.
        async with (
            consume(bus, names, never_called, max_deliver=2, ack_wait_s=1.0),
            consume(other_bus, names, never_called, max_deliver=2, ack_wait_s=1.0),
        ):
            dead = await asyncio.wait_for(dead_letters.get(), 10)
            await eventually(lambda: nothing_outstanding(bus, names))
            await asyncio.sleep(1.0)
    finally:
        never.set()
        await dying.close()

    assert deliveries == [1, 2]
    assert Job.model_validate_json(dead.data) == Job(id="j1")
    assert dead.headers is not None
    assert dead.headers[DEAD_LETTER_REASON_HEADER] == DeadLetterReason.MAX_DELIVER_EXCEEDED
    assert dead.headers[DEAD_LETTER_DELIVERIES_HEADER] == "2"
    assert dead.headers[DEAD_LETTER_SEQUENCE_HEADER] == str(ack.seq)
    assert dead.headers[DEAD_LETTER_STREAM_HEADER] == names.stream
    assert dead.headers[DEAD_LETTER_SUBJECT_HEADER] == names.subject
    assert dead.headers[DEAD_LETTER_MSG_ID_HEADER] == "job-j1"
    assert dead.headers["Trace"] == "t1"
    assert "worker died or hung" in dead.headers[DEAD_LETTER_ERROR_HEADER]
    assert dead_letters.empty()
