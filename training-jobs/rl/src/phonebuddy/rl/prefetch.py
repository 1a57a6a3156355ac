"""Rollout rounds in a background thread, so that the trainer can stop (SIGTERM) while it waits
for one, and, in asynchronous mode, so that the next step's rollouts run while this step trains.

With `rollout.max_staleness` S >= 1, rank 0 starts collecting step k+1's groups as soon as it has
step k's batch; those episodes are sampled by version k (or k+1 once it is pushed), which the
broker accepts because it refuses only versions older than k+1-S. A job that stops (SIGTERM)
cancels a round it will not train on rather than wait for it; the round's request is the same
when the job resumes, so the broker picks up what it had stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine
from typing import Any, Generic, TypeVar

T = TypeVar("T")
STOP_POLL_S = 0.5  # how often a waiting trainer looks at its stop flag


class Prefetch(Generic[T]):
    """At most one background collection, for one named step."""

    def __init__(self) -> None:
        self._thread: threading.Thread | None = None
        self._step: int | None = None
        self._result: T | None = None
        self._error: BaseException | None = None
        self._cancelled = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[Any] | None = None

    @property
    def pending_step(self) -> int | None:
        return self._step

    def start(self, step: int, collect: Callable[[], Coroutine[Any, Any, T]]) -> None:
        if self._thread is not None:
            raise RuntimeError(f"rollouts for step {self._step} are still being collected")

        async def tracked() -> T:
            self._loop, self._task = asyncio.get_running_loop(), asyncio.current_task()
            if self._cancelled:
                raise asyncio.CancelledError
            return await collect()

        def work() -> None:
            try:
                self._result = asyncio.run(tracked())
            except BaseException as exc:  # re-raised in the trainer's thread by take()
                self._error = exc

        self._step, self._result, self._error, self._cancelled = step, None, None, False
        self._loop = self._task = None
        self._thread = threading.Thread(target=work, name=f"rollouts-step-{step}", daemon=True)
        self._thread.start()

    def wait(self, step: int, *, stopping: Callable[[], bool] = lambda: False) -> T | None:
        """The batch collected for `step`, waiting for it; None when `stopping()` turned true
        first (the collection is then cancelled: a preempted job must not wait for a round)."""
        if self._thread is None or self._step != step:
            raise RuntimeError(f"no rollouts are being collected for step {step}")
        while self._thread.is_alive():
            self._thread.join(timeout=STOP_POLL_S)
            if stopping() and self._thread.is_alive():
                self.cancel()
                return None
        self._thread, self._step = None, None
        if self._error is not None:
            raise self._error
        return self._result

    def cancel(self, wait_s: float = 30.0) -> None:
        """Stop a collection still running (the job is stopping); no-op when there is none."""
        if self._thread is None:
            return
        self._cancelled = True
        loop, task = self._loop, self._task
        if loop is not None and task is not None:
            with contextlib.suppress(RuntimeError):  # the loop closed: the round just finished
                loop.call_soon_threadsafe(task.cancel)
        self._thread.join(timeout=wait_s)
        self._thread, self._step = None, None
