"""PhoneWorld's Prometheus metrics."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

from phonebuddy.telemetry import ServiceMetrics


class WorldMetrics:
    def __init__(self) -> None:
        self.registry = ServiceMetrics("phoneworld")
        m = self.registry
        self.steps = m.counter("steps", "Actions applied to devices", ["outcome"])
        self.resets = m.counter("resets", "Devices reset to a task", ["app"])
        self.verdicts = m.counter("verdicts", "Verifier verdicts", ["outcome"])
        self.step_latency = m.histogram("step_latency", "Time to serve an env verb", ["verb"])
        self.active_leases = m.gauge("active_leases", "Devices currently leased")
        self.devices = m.gauge("devices", "Devices hosted by this instance")
        self.expired_leases = m.counter("expired_leases", "Leases reclaimed after their TTL")

    @contextlib.contextmanager
    def timed(self, verb: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.step_latency.labels(verb=verb).observe(time.perf_counter() - started)
