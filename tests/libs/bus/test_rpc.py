import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest
from pydantic import BaseModel

from phonebuddy.bus import (
    STATUS_ERROR,
    STATUS_HEADER,
    Bus,
    InvalidMessageError,
    NoRespondersError,
    PayloadTooLargeError,
    RemoteError,
    RequestTimeoutError,
    ServiceError,
)
from phonebuddy.protocol.errors import ErrorCode, ErrorReply


class Add(BaseModel):
    a: int
    b: int


class Sum(BaseModel):
    total: int


class Blob(BaseModel):
    data: str


async def add(request: Add) -> Sum:
    return Sum(total=request.a + request.b)


async def test_request_reply_round_trip_with_models(bus: Bus, unique_name: str) -> None:
    async with bus.serve(f"{unique_name}.add", Add, add):
        reply = await bus.request(f"{unique_name}.add", Add(a=2, b=3), Sum)

    assert reply == Sum(total=5)


async def test_requests_are_handled_concurrently(
    bus: Bus, other_bus: Bus, unique_name: str
) -> None:
    in_flight = 0
    most_in_flight = 0

    async def slow_add(request: Add) -> Sum:
        nonlocal in_flight, most_in_flight
        in_flight += 1
        most_in_flight = max(most_in_flight, in_flight)
        await asyncio.sleep(0.2)
        in_flight -= 1
        return Sum(total=request.a + request.b)

    async with bus.serve(f"{unique_name}.add", Add, slow_add):
        replies = await asyncio.gather(
            *(other_bus.request(f"{unique_name}.add", Add(a=i, b=i), Sum) for i in range(20))
        )

    assert [reply.total for reply in replies] == [2 * i for i in range(20)]
    assert most_in_flight == 20


async def test_service_answers_other_connections_as_soon_as_serve_returns(
    bus: Bus, other_bus: Bus, unique_name: str
) -> None:
    # nats-py's flush() writes its PING ahead of the SUB still in the client's pending buffer, so
    # after a plain subscribe + flush the server could still be without the subscription and a
    # request from another connection got "no responders" (about 1 in 200-800 tries).
    for i in range(1000):
        subject = f"{unique_name}.add{i}"
        async with bus.serve(subject, Add, add):
            reply = await other_bus.request(subject, Add(a=i, b=1), Sum)
        assert reply.total == i + 1


async def test_queue_group_shares_requests_between_services(
    bus: Bus, other_bus: Bus, unique_name: str
) -> None:
    handled: list[str] = []

    def handler_for(name: str) -> Callable[[Add], Awaitable[Sum]]:
        async def handle(request: Add) -> Sum:
            handled.append(name)
            return Sum(total=request.a + request.b)

        return handle

    subject = f"{unique_name}.add"
    async with (
        bus.serve(subject, Add, handler_for("first"), queue=unique_name),
        other_bus.serve(subject, Add, handler_for("second"), queue=unique_name),
    ):
        for i in range(40):
            await bus.request(subject, Add(a=i, b=1), Sum)

    assert len(handled) == 40
    assert set(handled) == {"first", "second"}


async def test_slow_service_raises_request_timeout(bus: Bus, unique_name: str) -> None:
    release = asyncio.Event()

    async def stuck(request: Add) -> Sum:
        await release.wait()
        return Sum(total=0)

    async with bus.serve(f"{unique_name}.stuck", Add, stuck):
        with pytest.raises(RequestTimeoutError) as caught:
            await bus.request(f"{unique_name}.stuck", Add(a=1, b=1), Sum, timeout_s=0.2)
        release.set()

    assert caught.value.subject == f"{unique_name}.stuck"
    assert caught.value.timeout_s == 0.2
    assert str(caught.value) == f"no reply on '{unique_name}.stuck' within 0.2 s"


async def test_request_without_service_raises_no_responders_at_once(
    bus: Bus, unique_name: str
) -> None:
    with pytest.raises(NoRespondersError) as caught:
        await bus.request(f"{unique_name}.nobody", Add(a=1, b=1), Sum, timeout_s=5)

    assert caught.value.subject == f"{unique_name}.nobody"


async def test_stopped_service_no_longer_answers(bus: Bus, unique_name: str) -> None:
    service = await bus.serve(f"{unique_name}.add", Add, add)
    assert (await bus.request(f"{unique_name}.add", Add(a=1, b=1), Sum)).total == 2

    await service.stop()

    with pytest.raises(NoRespondersError):
        await bus.request(f"{unique_name}.add", Add(a=1, b=1), Sum)


async def test_service_error_reaches_caller_as_remote_error(bus: Bus, unique_name: str) -> None:
    async def lease(request: Add) -> Sum:
        raise ServiceError(
            ErrorCode.NO_DEVICE_AVAILABLE,
            "all 4 devices are leased",
            retryable=True,
            details={"devices": 4},
        )

    async with bus.serve(f"{unique_name}.lease", Add, lease):
        with pytest.raises(RemoteError) as caught:
            await bus.request(f"{unique_name}.lease", Add(a=1, b=1), Sum)

    error = caught.value
    assert error.code is ErrorCode.NO_DEVICE_AVAILABLE
    assert error.message == "all 4 devices are leased"
    assert error.retryable is True
    assert error.details == {"devices": 4}
    assert error.subject == f"{unique_name}.lease"


async def test_error_reply_travels_with_status_header(bus: Bus, unique_name: str) -> None:
    async def refuse(request: Add) -> Sum:
        raise ServiceError(ErrorCode.UNSUPPORTED, "no")

    async with bus.serve(f"{unique_name}.refuse", Add, refuse):
        raw = await bus.nc.request(f"{unique_name}.refuse", b'{"a": 1, "b": 2}', timeout=2)

    assert raw.headers == {STATUS_HEADER: STATUS_ERROR}
    assert ErrorReply.model_validate_json(raw.data) == ErrorReply(
        code=ErrorCode.UNSUPPORTED, message="no"
    )


async def test_invalid_request_gets_invalid_request_reply_and_service_keeps_serving(
    bus: Bus, unique_name: str
) -> None:
    subject = f"{unique_name}.add"
    async with bus.serve(subject, Add, add):
        with pytest.raises(RemoteError) as caught:
            await bus.request(subject, Blob(data="x"), Sum)
        raw = await bus.nc.request(subject, b"not json", timeout=2)
        reply = await bus.request(subject, Add(a=40, b=2), Sum)

    assert caught.value.code is ErrorCode.INVALID_REQUEST
    assert "field 'a': Field required" in caught.value.message
    assert "field 'b': Field required" in caught.value.message
    assert caught.value.details["errors"] == [
        "field 'a': Field required",
        "field 'b': Field required",
    ]
    assert ErrorReply.model_validate_json(raw.data).code is ErrorCode.INVALID_REQUEST
    assert reply.total == 42


async def test_crashing_handler_answers_internal_logs_traceback_and_keeps_serving(
    bus: Bus, unique_name: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def flaky(request: Add) -> Sum:
        if request.a < 0:
            raise ZeroDivisionError("boom")
        return Sum(total=request.a + request.b)

    subject = f"{unique_name}.flaky"
    with caplog.at_level(logging.ERROR, logger="phonebuddy.bus"):
        async with bus.serve(subject, Add, flaky):
            with pytest.raises(RemoteError) as caught:
                await bus.request(subject, Add(a=-1, b=0), Sum)
            reply = await bus.request(subject, Add(a=1, b=1), Sum)

    assert caught.value.code is ErrorCode.INTERNAL
    assert "ZeroDivisionError" in caught.value.message
    assert "boom" not in caught.value.message
    assert reply.total == 2
    [record] = [r for r in caplog.records if r.name == "phonebuddy.bus.rpc"]
    assert record.exc_info is not None
    assert record.exc_info[0] is ZeroDivisionError
    assert subject in record.getMessage()


async def test_oversized_reply_becomes_payload_too_large_error(bus: Bus, unique_name: str) -> None:
    too_big = bus.nc.max_payload + 1

    async def huge(request: Add) -> Blob:
        return Blob(data="x" * too_big)

    async with bus.serve(f"{unique_name}.huge", Add, huge):
        with pytest.raises(RemoteError) as caught:
            await bus.request(f"{unique_name}.huge", Add(a=1, b=1), Blob, timeout_s=2)
        # The connection survived and the service still answers.
        with pytest.raises(RemoteError):
            await bus.request(f"{unique_name}.huge", Add(a=1, b=1), Blob, timeout_s=2)

    assert caught.value.code is ErrorCode.PAYLOAD_TOO_LARGE
    assert caught.value.details["max_payload"] == bus.nc.max_payload
    assert caught.value.details["size"] > bus.nc.max_payload
    assert bus.is_connected


async def test_oversized_request_is_refused_before_sending(bus: Bus, unique_name: str) -> None:
    with pytest.raises(PayloadTooLargeError) as caught:
        await bus.request(f"{unique_name}.any", Blob(data="x" * bus.nc.max_payload), Sum)

    assert caught.value.max_payload == bus.nc.max_payload
    assert bus.is_connected


async def test_reply_that_does_not_validate_raises_invalid_message(
    bus: Bus, unique_name: str
) -> None:
    async with bus.serve(f"{unique_name}.add", Add, add):
        with pytest.raises(InvalidMessageError) as caught:
            await bus.request(f"{unique_name}.add", Add(a=1, b=1), Blob)

    assert caught.value.subject == f"{unique_name}.add"
    assert caught.value.errors == ["field 'data': Field required"]


async def test_handler_returning_a_non_model_answers_internal(bus: Bus, unique_name: str) -> None:
    async def wrong(request: Add) -> Sum:
        return {"total": 2}  # type: ignore[return-value]

    async with bus.serve(f"{unique_name}.wrong", Add, wrong):
        with pytest.raises(RemoteError) as caught:
            await bus.request(f"{unique_name}.wrong", Add(a=1, b=1), Sum)

    assert caught.value.code is ErrorCode.INTERNAL


async def test_stop_lets_requests_in_flight_finish(bus: Bus, unique_name: str) -> None:
    started = asyncio.Event()

    async def slow(request: Add) -> Sum:
        started.set()
        await asyncio.sleep(0.2)
        return Sum(total=request.a + request.b)

    service = await bus.serve(f"{unique_name}.slow", Add, slow)
    pending = asyncio.create_task(bus.request(f"{unique_name}.slow", Add(a=1, b=2), Sum))
    await started.wait()

    await service.stop()

    assert (await pending).total == 3
    assert service.in_flight == 0


async def test_a_cancelled_request_is_cancelled_and_a_later_one_still_answers(
    bus: Bus, other_bus: Bus, unique_name: str
) -> None:
    started = asyncio.Event()

    async def slow_add(request: Add) -> Sum:
        started.set()
        await asyncio.sleep(0.3)
        return Sum(total=request.a + request.b)

    async with other_bus.serve(f"{unique_name}.add", Add, slow_add):
        waiting = asyncio.create_task(bus.request(f"{unique_name}.add", Add(a=1, b=1), Sum))
        await asyncio.wait_for(started.wait(), 5)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        reply = await bus.request(f"{unique_name}.add", Add(a=2, b=2), Sum)

    assert reply == Sum(total=4)
