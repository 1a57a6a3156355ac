"""PhoneWorld's Prometheus metrics. Step latency, steps, active and expired leases are the env
kit's (`EnvMetrics`, in the same registry); these are PhoneWorld's own."""

from __future__ import annotations

from phonebuddy.telemetry import ServiceMetrics


class WorldMetrics:
    def __init__(self) -> None:
        self.registry = ServiceMetrics("phoneworld")
        m = self.registry
        self.resets = m.counter("resets", "Devices reset to a task", ["app"])
        self.verdicts = m.counter("verdicts", "Verifier verdicts", ["outcome"])
        self.devices = m.gauge("devices", "Devices hosted by this instance")
