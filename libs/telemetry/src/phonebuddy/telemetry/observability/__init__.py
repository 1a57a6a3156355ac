"""PhoneBuddy's Prometheus recording rules and alerts (`rules.yaml`) and Grafana dashboards
(`dashboards.py`), kept as code in one place: the local stack's Prometheus loads the rules, and
`make chart` writes both into the chart (a PrometheusRule and dashboard ConfigMaps)."""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent


def rules_path() -> Path:
    return HERE / "rules.yaml"
