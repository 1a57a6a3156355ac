"""The gateway's Prometheus metrics (`phonebuddy_gateway_*`).

`device` labels are bounded by the fleet the gateway drives (tens of phones), never by
episodes or leases.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

from phonebuddy.telemetry import ServiceMetrics


class GatewayMetrics:
    def __init__(self) -> None:
        self.registry = ServiceMetrics("gateway")
        m = self.registry
        self.step_latency = m.histogram(
            "step_latency", "Time to serve an env verb on a device", ["device", "verb"]
        )
        self.steps = m.counter("steps", "Actions applied to devices", ["outcome"])
        self.failures = m.counter(
            "failures", "Device failures (lost, timed out, no UI dump)", ["device", "reason"]
        )
        self.reconnects = m.counter(
            "reconnects", "Devices that came back after being lost", ["device"]
        )
        self.active_leases = m.gauge("active_leases", "Devices currently leased")
        self.expired_leases = m.counter("expired_leases", "Leases reclaimed after their TTL")
        self.devices = m.gauge("devices", "Devices known to the gateway", ["status"])

    @contextlib.contextmanager
    def timed(self, device: str, verb: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self.step_latency.labels(device=device, verb=verb).observe(
                time.perf_counter() - started
            )
