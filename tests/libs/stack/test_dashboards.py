"""`phonebuddy dashboards check` against a real Prometheus: a panel target has data only when its
query returns a series in the range; a query Prometheus refuses is reported with its error."""

from __future__ import annotations

import time

import pytest
from typer.testing import CliRunner

from phonebuddy.cli.main import full_app
from phonebuddy.stack.dashboards import panel_data
from phonebuddy.telemetry.observability.dashboards import DASHBOARDS, Dashboard, Panel
from phonebuddy.testing import PrometheusServer

OWN = Dashboard(
    "own", "Prometheus itself", "",
    (
        Panel("Targets up", ("sum by (job) (up)",)),
        Panel("Two queries, one empty", ("prometheus_build_info", "phonebuddy_never_exported")),
        Panel("Broken", ("sum(rate(up[1m]",)),
    ),
)  # fmt: skip


@pytest.fixture
def scraped(prometheus_server: PrometheusServer) -> PrometheusServer:
    prometheus_server.wait_for("up", timeout_s=30)
    return prometheus_server


def test_each_panel_target_is_checked_over_the_range(scraped: PrometheusServer) -> None:
    end = time.time()
    results = panel_data(scraped.url, start=end - 60, end=end, step_s=0.5, dashboards=[OWN])
    by_expr = {r.expr: r for r in results}
    assert [r.panel for r in results] == ["Targets up", *["Two queries, one empty"] * 2, "Broken"]
    assert by_expr["sum by (job) (up)"].has_data
    assert by_expr["prometheus_build_info"].series == 1
    assert not by_expr["phonebuddy_never_exported"].has_data
    broken = by_expr["sum(rate(up[1m]"]
    assert not broken.has_data
    assert "parse error" in broken.error
    # Before anything was scraped there is nothing, even for a query that has data now.
    early = panel_data(scraped.url, start=end - 7200, end=end - 3600, dashboards=[OWN])
    assert not any(r.has_data for r in early)


def test_the_command_lists_empty_panels_and_fails(scraped: PrometheusServer) -> None:
    result = CliRunner().invoke(
        full_app(), ["dashboards", "check", "--prometheus", scraped.url, "--since", "10m"]
    )
    assert result.exit_code == 1  # PhoneBuddy's own panels: nothing exports their series here
    lines = result.stdout.splitlines()
    targets = sum(len(panel.exprs) for d in DASHBOARDS for panel in d.panels)
    assert len(lines) == targets
    assert all(line.startswith(("ok", "EMPTY")) for line in lines)
    assert f"of {targets} panel targets have data" in result.stderr


def test_a_malformed_duration_is_a_usage_error() -> None:
    result = CliRunner().invoke(
        full_app(), ["dashboards", "check", "--prometheus", "http://127.0.0.1:9", "--since", "1x"]
    )
    assert result.exit_code == 2
    assert "not a duration" in result.stderr
