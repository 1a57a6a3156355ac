"""Bus latency and throughput on a real nats-server (JetStream, file storage) started here:
request/reply latency (sequential, small pydantic messages) and requests/s with concurrent
callers; JetStream publish messages/s (each publish waits for its ack); work-queue consumption
messages/s (each message acked with ack_sync) at concurrency 1 and 16. Prints one JSON document.

    .venv/bin/python benchmarks/bus_latency.py
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import statistics
import sys
import time
from typing import Any

from pydantic import BaseModel

from phonebuddy.bus import Bus, NatsSettings, connect
from phonebuddy.testing import NatsServer

REQUESTS = 2000
CONCURRENT_REQUESTS = 4000
CONCURRENT_CALLERS = 32
PUBLISHES = 5000
CONSUME_MESSAGES = 5000
CONSUME_CONCURRENCY = (1, 16)


class Ping(BaseModel):
    seq: int
    note: str = "hello"


class Pong(BaseModel):
    seq: int
    note: str


class Job(BaseModel):
    id: int
    task: str = "settings.wifi.toggle"


async def _pong(ping: Ping) -> Pong:
    return Pong(seq=ping.seq, note=ping.note)


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


async def _request_latency(bus: Bus, client: Bus) -> dict[str, Any]:
    async with bus.serve("bench.ping", Ping, _pong):
        for seq in range(100):  # warm up
            await client.request("bench.ping", Ping(seq=seq), Pong)
        samples = []
        for seq in range(REQUESTS):
            start = time.perf_counter()
            await client.request("bench.ping", Ping(seq=seq), Pong)
            samples.append(time.perf_counter() - start)

        queue = iter(range(CONCURRENT_REQUESTS))

        async def caller() -> None:
            for seq in queue:
                await client.request("bench.ping", Ping(seq=seq), Pong)

        start = time.perf_counter()
        await asyncio.gather(*(caller() for _ in range(CONCURRENT_CALLERS)))
        concurrent_s = time.perf_counter() - start

    samples.sort()
    return {
        "sequential": {
            "requests": REQUESTS,
            "p50_ms": _ms(samples[len(samples) // 2]),
            "p90_ms": _ms(samples[int(len(samples) * 0.90)]),
            "p99_ms": _ms(samples[int(len(samples) * 0.99)]),
            "max_ms": _ms(samples[-1]),
            "mean_ms": _ms(statistics.fmean(samples)),
        },
        "concurrent": {
            "requests": CONCURRENT_REQUESTS,
            "callers": CONCURRENT_CALLERS,
            "requests_per_s": round(CONCURRENT_REQUESTS / concurrent_s, 1),
        },
    }


async def _publish(bus: Bus) -> dict[str, Any]:
    await bus.ensure_stream("BENCH_PUB", ["bench.pub"])
    start = time.perf_counter()
    for index in range(PUBLISHES):
        await bus.publish("bench.pub", Job(id=index), msg_id=f"job-{index}")
    seconds = time.perf_counter() - start
    await bus.jetstream.delete_stream("BENCH_PUB")
    return {
        "messages": PUBLISHES,
        "with_msg_id": True,
        "seconds": round(seconds, 3),
        "messages_per_s": round(PUBLISHES / seconds, 1),
    }


async def _consume(bus: Bus, concurrency: int) -> dict[str, Any]:
    stream, subject = f"BENCH_WQ_{concurrency}", f"bench.wq.{concurrency}"
    await bus.ensure_stream(stream, [subject])
    for index in range(CONSUME_MESSAGES):
        await bus.publish(subject, Job(id=index))

    done = asyncio.Event()
    handled = 0

    async def handle(job: Job) -> None:
        nonlocal handled
        handled += 1
        if handled == CONSUME_MESSAGES:
            done.set()

    start = time.perf_counter()
    async with bus.consume(
        stream=stream,
        durable="bench",
        subject=subject,
        message_type=Job,
        handler=handle,
        dead_letter_subject="bench.dlq",
        concurrency=concurrency,
    ):
        await asyncio.wait_for(done.wait(), timeout=30)
    # Leaving the block waited for the last handlers and their ack_sync: all is settled.
    seconds = time.perf_counter() - start
    left = (await bus.jetstream.stream_info(stream)).state.messages
    if left:
        raise RuntimeError(f"{left} messages still in {stream} after consuming them all")
    await bus.jetstream.delete_stream(stream)
    return {
        "messages": CONSUME_MESSAGES,
        "concurrency": concurrency,
        "ack": "ack_sync",
        "seconds": round(seconds, 3),
        "messages_per_s": round(CONSUME_MESSAGES / seconds, 1),
    }


async def main() -> dict[str, Any]:
    started = time.perf_counter()
    async with NatsServer() as server:
        settings = NatsSettings(
            url=server.url, user=server.user, password=server.password, name="bench"
        )
        async with connect(settings) as bus, connect(settings) as client:
            request_reply = await _request_latency(bus, client)
            publish = await _publish(client)
            consume = [await _consume(bus, c) for c in CONSUME_CONCURRENCY]
    return {
        "benchmark": "bus_latency",
        "server": "nats-server with JetStream (file storage) on loopback, user/password auth",
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": sys.platform,
        },
        "request_reply": request_reply,
        "jetstream_publish": publish,
        "work_queue_consume": consume,
        "total_seconds": round(time.perf_counter() - started, 1),
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main()), indent=2))
