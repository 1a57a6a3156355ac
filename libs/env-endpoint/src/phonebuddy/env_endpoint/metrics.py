"""The metrics every env endpoint keeps, in its service's own registry
(`phonebuddy_<service>_step_latency_seconds`, `_steps_total`, `_active_leases`,
`_expired_leases_total`). A service adds its own beside them."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

from phonebuddy.env_endpoint.leases import LeaseTable
from phonebuddy.telemetry import ServiceMetrics


class EnvMetrics:
    def __init__(
        self, registry: ServiceMetrics, leases: LeaseTable, *, per_device: bool = False
    ) -> None:
        """`per_device` labels step latency by device too: right for a fleet of tens of
        phones, wrong for hundreds of simulated devices."""
        self.per_device = per_device
        m = registry
        labels = ["device", "verb"] if per_device else ["verb"]
        self.step_latency = m.histogram(
            "step_latency", "Time to serve an env verb on a device", labels
        )
        self.steps = m.counter("steps", "Actions applied to devices", ["outcome"])
        self.active_leases = m.gauge("active_leases", "Devices currently leased")
        self.active_leases.set_function(lambda: len(leases))
        self.expired_leases = m.counter("expired_leases", "Leases reclaimed after their TTL")

    @contextlib.contextmanager
    def timed(self, device_id: str, verb: str) -> Iterator[None]:
        labels = {"device": device_id, "verb": verb} if self.per_device else {"verb": verb}
        started = time.perf_counter()
        try:
            yield
        finally:
            self.step_latency.labels(**labels).observe(time.perf_counter() - started)
