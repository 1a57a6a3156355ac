"""phonebuddy.telemetry."""
