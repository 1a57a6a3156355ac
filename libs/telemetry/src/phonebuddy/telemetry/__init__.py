"""Logging, metrics and health endpoints shared by every PhoneBuddy service."""

from phonebuddy.telemetry.health import ReadinessCheck, health_router
from phonebuddy.telemetry.logging import configure_logging, logging_config
from phonebuddy.telemetry.metrics import BOUNDED_LABELS, LATENCY_BUCKETS_S, ServiceMetrics

__all__ = [
    "BOUNDED_LABELS",
    "LATENCY_BUCKETS_S",
    "ReadinessCheck",
    "ServiceMetrics",
    "configure_logging",
    "health_router",
    "logging_config",
]
