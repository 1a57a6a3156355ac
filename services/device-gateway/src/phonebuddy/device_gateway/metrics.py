"""The gateway's Prometheus metrics (`phonebuddy_gateway_*`).

`device` labels are bounded by the fleet the gateway drives (tens of phones), never by
episodes or leases. Step latency (per device), steps, active and expired leases are the env
kit's (`EnvMetrics`, in the same registry).
"""

from __future__ import annotations

from phonebuddy.telemetry import ServiceMetrics


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
