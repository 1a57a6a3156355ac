"""Object store throughput: put/get of small (4 KiB) and larger (1 MiB) objects, one at a time
and from several concurrent tasks, on a temporary LocalStore and on a real S3 server (SeaweedFS,
started here). Prints one JSON document; MB is 10^6 bytes.

    .venv/bin/python benchmarks/storage_throughput.py
"""

from __future__ import annotations

import asyncio
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from minio import Minio

from phonebuddy.storage import LocalStore, ObjectStore, S3Store
from phonebuddy.testing import S3Server

CONCURRENCY = 8
SIZES = [4 * 1024, 1024 * 1024]
PHASE_S = 1.0  # each put or get phase runs this long...
MAX_PUT_BYTES = 256 * 1024 * 1024  # ...or until it has written this much (disk space)
MAX_GET_BYTES = 4 * MAX_PUT_BYTES  # ...or read this much


async def _timed(
    operation: Callable[[int], Awaitable[Any]], *, concurrency: int, max_count: int
) -> tuple[int, float]:
    """Run `operation(0)`, `operation(1)`, ... from `concurrency` tasks for PHASE_S seconds
    (at most `max_count` calls); return how many completed and the seconds they took."""
    next_index = 0
    start = time.perf_counter()
    deadline = start + PHASE_S

    async def worker() -> None:
        nonlocal next_index
        while next_index < max_count and time.perf_counter() < deadline:
            index, next_index = next_index, next_index + 1
            await operation(index)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    return next_index, time.perf_counter() - start


def _rates(count: int, size: int, seconds: float) -> dict[str, float]:
    return {
        "objects": count,
        "seconds": round(seconds, 3),
        "objects_per_s": round(count / seconds, 1),
        "mb_per_s": round(count * size / seconds / 1e6, 2),
    }


async def _case(
    store: ObjectStore, backend: str, *, size: int, mode: str, concurrency: int
) -> dict[str, Any]:
    payload = os.urandom(size)
    prefix = f"bench/{size}/{mode}"

    async def put(index: int) -> None:
        await store.put_bytes(f"{prefix}/{index:06d}", payload)

    stored, put_s = await _timed(put, concurrency=concurrency, max_count=MAX_PUT_BYTES // size)

    async def get(index: int) -> None:
        key = f"{prefix}/{index % stored:06d}"  # read the stored objects round and round
        if await store.get_bytes(key) != payload:
            raise RuntimeError(f"{backend}: {key} came back different")

    read, get_s = await _timed(get, concurrency=concurrency, max_count=MAX_GET_BYTES // size)
    for index in range(stored):
        await store.delete(f"{prefix}/{index:06d}")
    return {
        "backend": backend,
        "object_bytes": size,
        "mode": mode,
        "concurrency": concurrency,
        "put": _rates(stored, size, put_s),
        "get": _rates(read, size, get_s),
    }


async def _measure(store: ObjectStore, backend: str) -> list[dict[str, Any]]:
    return [
        await _case(store, backend, size=size, mode=mode, concurrency=concurrency)
        for size in SIZES
        for mode, concurrency in (("sequential", 1), ("concurrent", CONCURRENCY))
    ]


async def main() -> dict[str, Any]:
    started = time.perf_counter()
    results: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="phonebuddy-bench-") as folder:
        async with LocalStore(Path(folder)) as local:
            results += await _measure(local, "local")

    async with S3Server() as server:
        bucket = "bench"
        Minio(
            server.endpoint,
            access_key=server.access_key,
            secret_key=server.secret_key,
            secure=False,
        ).make_bucket(bucket)
        s3 = S3Store(server.endpoint, server.access_key, server.secret_key, bucket)
        async with s3:
            results += await _measure(s3, "s3")

    return {
        "benchmark": "storage_throughput",
        "units": {"mb_per_s": "10^6 bytes per second", "seconds": "wall clock"},
        "s3_server": "SeaweedFS weed mini on loopback (phonebuddy.testing.S3Server)",
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": sys.platform,
        },
        "results": results,
        "total_seconds": round(time.perf_counter() - started, 1),
    }


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main()), indent=2))
