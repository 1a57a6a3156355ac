"""The asynchronous mode's background round: its result or its error reaches the trainer, and a
stopping job cancels it instead of waiting for it."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from phonebuddy.rl.prefetch import Prefetch


def _endless(cancelled: list[bool]) -> Callable[[], Coroutine[Any, Any, str]]:
    """A round that never ends by itself; notes in `cancelled` that it was cancelled."""

    async def endless() -> str:
        try:
            await asyncio.sleep(3600)
        except asyncio.CancelledError:
            cancelled.append(True)
            raise
        return "never"

    return endless


def test_the_round_collected_in_the_background_is_taken_for_its_step() -> None:
    prefetch: Prefetch[str] = Prefetch()
    calls: list[int] = []

    async def collect() -> str:
        calls.append(1)
        await asyncio.sleep(0.2)
        return "batch-3"

    prefetch.start(3, collect)
    with pytest.raises(RuntimeError, match="step 2"):
        prefetch.wait(2)  # not the step it was started for
    assert prefetch.pending_step == 3
    assert prefetch.wait(3) == "batch-3"
    with pytest.raises(RuntimeError, match="step 3"):
        prefetch.wait(3)  # taken once
    assert calls == [1]


def test_only_one_round_runs_at_a_time_and_its_error_reaches_the_trainer() -> None:
    prefetch: Prefetch[str] = Prefetch()

    async def failing() -> str:
        await asyncio.sleep(0.1)
        raise ValueError("the broker refused the round")

    prefetch.start(1, failing)
    with pytest.raises(RuntimeError, match="still being collected"):
        prefetch.start(2, failing)
    with pytest.raises(ValueError, match="refused"):
        prefetch.wait(1)


def test_a_stopping_job_cancels_the_round_rather_than_wait_for_it() -> None:
    prefetch: Prefetch[str] = Prefetch()
    cancelled: list[bool] = []
    endless = _endless(cancelled)

    prefetch.start(5, endless)
    time.sleep(0.2)
    began = time.monotonic()
    prefetch.cancel(wait_s=10)
    assert time.monotonic() - began < 10
    assert cancelled == [True]
    assert prefetch.pending_step is None
    prefetch.cancel()  # nothing running: a no-op


def test_a_trainer_told_to_stop_while_it_waits_gets_no_batch_and_the_round_is_cancelled() -> None:
    prefetch: Prefetch[str] = Prefetch()
    cancelled: list[bool] = []
    endless = _endless(cancelled)

    prefetch.start(0, endless)
    began = time.monotonic()
    deadline = began + 0.3
    assert prefetch.wait(0, stopping=lambda: time.monotonic() > deadline) is None
    assert time.monotonic() - began < 30
    assert cancelled == [True]
    assert prefetch.pending_step is None
