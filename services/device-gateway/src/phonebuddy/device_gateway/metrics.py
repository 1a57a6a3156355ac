"""The gateway's Prometheus metrics (`phonebuddy_gateway_*`).

`device` labels are bounded by the fleet the gateway drives (tens of phones), never by
episodes or leases. Step latency (per device), steps, active and expired leases are the env
kit's (`EnvMetrics`, in the same registry).
"""

from __future__ import annotations

from phonebuddy.telemetry import ServiceMetrics

FAILURE_REASONS = ("adb_server", "offline", "gone", "ping", "ui_dump")


class GatewayMetrics:
    def __init__(self) -> None:
        self.registry = ServiceMetrics("gateway")
        m = self.registry
        self.failures = m.counter(
            "failures", "Device failures (lost, timed out, no UI dump)", ["device", "reason"]
        )
        self.reconnects = m.counter(
            "reconnects", "Devices that came back after being lost", ["device"]
        )
        self.devices = m.gauge("devices", "Devices known to the gateway", ["status"])

    def add_device(self, serial: str) -> None:
        """Start a new phone's failure and reconnect counters at 0 (a dashboard then shows
        "no failures" rather than no data)."""
        for reason in FAILURE_REASONS:
            self.failures.labels(device=serial, reason=reason)
        self.reconnects.labels(device=serial)
