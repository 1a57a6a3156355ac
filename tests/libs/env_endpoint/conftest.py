"""Fixtures for the env-endpoint kit: a clock tests move by hand, a memory backend on it, and
the host over that backend."""

from __future__ import annotations

import pytest

from phonebuddy.env_endpoint import EnvHost, EnvMetrics
from phonebuddy.env_endpoint.testing import MemoryBackend
from phonebuddy.telemetry import ServiceMetrics


class FakeClock:
    """A monotonic clock that moves only when told to."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def backend(clock: FakeClock) -> MemoryBackend:
    return MemoryBackend(3, apps=("com.example.notes", "com.example.mail"), clock=clock)


def make_host(backend: MemoryBackend, **options: object) -> EnvHost:
    registry = ServiceMetrics("kit")
    metrics = EnvMetrics(registry, backend.leases, per_device=True)
    host = EnvHost(backend, metrics, **options)  # type: ignore[arg-type]
    host.registry = registry  # type: ignore[attr-defined]
    return host


@pytest.fixture
def host(backend: MemoryBackend) -> EnvHost:
    return make_host(backend, lock_timeout_s=0.2)
