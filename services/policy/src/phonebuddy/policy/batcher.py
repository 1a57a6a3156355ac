"""Dynamic batching: requests that arrive together are generated together.

The first queued job opens a short window (`wait_s`); whatever else arrives in it joins, up to
`max_rows` sequences (a job with `n` samples counts `n`). The batch runs on one dedicated thread,
so the event loop keeps accepting requests while the model works; the next batch forms meanwhile.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from phonebuddy.policy.errors import OverloadedError

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(slots=True)
class Job(Generic[T]):
    item: T
    rows: int
    future: asyncio.Future[Any] = field(repr=False)


class Batcher(Generic[T]):
    def __init__(
        self,
        run_batch: Callable[[Sequence[T]], Sequence[Any]],
        *,
        max_rows: int,
        wait_s: float,
        max_queue: int,
        on_batch: Callable[[int, float], None] | None = None,
    ) -> None:
        self._run_batch = run_batch
        self.max_rows = max_rows
        self.wait_s = wait_s
        self.max_queue = max_queue
        self.on_batch = on_batch
        self._pending: collections.deque[Job[T]] = collections.deque()
        self._wake = asyncio.Event()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="generate")
        self._task: asyncio.Task[None] | None = None

    @property
    def depth(self) -> int:
        return len(self._pending)

    def start(self) -> None:
        self._task = asyncio.create_task(self._loop(), name="batcher")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        for job in self._pending:
            if not job.future.done():
                job.future.cancel()
        self._pending.clear()
        self._executor.shutdown(wait=True, cancel_futures=True)

    async def submit(self, item: T, rows: int) -> Any:
        if len(self._pending) >= self.max_queue:
            raise OverloadedError(f"{len(self._pending)} requests are queued; try again shortly")
        job = Job(item, rows, asyncio.get_running_loop().create_future())
        self._pending.append(job)
        self._wake.set()
        return await job.future

    def _take(self) -> list[Job[T]]:
        batch: list[Job[T]] = []
        rows = 0
        while self._pending:
            job = self._pending[0]
            if job.future.done():  # the caller gave up (timeout, disconnect)
                self._pending.popleft()
                continue
            if batch and rows + job.rows > self.max_rows:
                break
            batch.append(self._pending.popleft())
            rows += job.rows
        return batch

    async def _loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                if self.wait_s and sum(job.rows for job in self._pending) < self.max_rows:
                    await asyncio.sleep(self.wait_s)
                batch = self._take()
                if not batch:
                    continue
                started = loop.time()
                try:
                    results = await loop.run_in_executor(
                        self._executor, self._run_batch, [job.item for job in batch]
                    )
                except Exception as exc:
                    log.exception("a batch of %d requests failed", len(batch))
                    for job in batch:
                        if not job.future.done():
                            job.future.set_exception(exc)
                    continue
                if self.on_batch is not None:
                    self.on_batch(sum(job.rows for job in batch), loop.time() - started)
                for job, result in zip(batch, results, strict=True):
                    if not job.future.done():
                        job.future.set_result(result)
