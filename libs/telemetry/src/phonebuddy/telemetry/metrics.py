"""Prometheus metrics with PhoneBuddy's naming rules, one registry per service instance.

Names are `phonebuddy_<service>_<what>_<unit>`; labels come from a fixed set of bounded
dimensions (never episode or lease ids, which would explode the series count).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

_NAME_PART = re.compile(r"^[a-z][a-z0-9_]*$")
BOUNDED_LABELS = frozenset(
    {
        "app", "backend", "category", "code", "component", "device", "kind", "method",
        "model", "outcome", "reason", "route", "source", "status", "stream", "template", "verb",
        "version",
    }
)  # fmt: skip
LATENCY_BUCKETS_S = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10)


class ServiceMetrics:
    """Creates a service's metrics in its own registry and renders the exposition format."""

    def __init__(self, service: str, *, registry: CollectorRegistry | None = None) -> None:
        self.service = _check_part(service, "service")
        self.registry = registry or CollectorRegistry()

    def name(self, what: str, unit: str = "") -> str:
        parts = ["phonebuddy", self.service, _check_part(what, "what")]
        if unit:
            parts.append(_check_part(unit, "unit"))
        return "_".join(parts)

    def counter(self, what: str, documentation: str, labels: Sequence[str] = ()) -> Counter:
        # prometheus_client appends `_total` to counters itself.
        return Counter(
            self.name(what), documentation, _check_labels(labels), registry=self.registry
        )

    def gauge(
        self, what: str, documentation: str, labels: Sequence[str] = (), *, unit: str = ""
    ) -> Gauge:
        return Gauge(
            self.name(what, unit), documentation, _check_labels(labels), registry=self.registry
        )

    def histogram(
        self,
        what: str,
        documentation: str,
        labels: Sequence[str] = (),
        *,
        unit: str = "seconds",
        buckets: Sequence[float] = LATENCY_BUCKETS_S,
    ) -> Histogram:
        return Histogram(
            self.name(what, unit),
            documentation,
            _check_labels(labels),
            registry=self.registry,
            buckets=buckets,
        )

    def render(self) -> bytes:
        return generate_latest(self.registry)


def _check_part(part: str, role: str) -> str:
    if not _NAME_PART.fullmatch(part):
        raise ValueError(f"metric {role} {part!r} must be lower_snake_case")
    return part


def _check_labels(labels: Sequence[str]) -> list[str]:
    unbounded = [label for label in labels if label not in BOUNDED_LABELS]
    if unbounded:
        raise ValueError(
            f"labels {unbounded} are not bounded dimensions; use some of {sorted(BOUNDED_LABELS)}"
        )
    return list(labels)
