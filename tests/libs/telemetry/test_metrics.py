import pytest
from prometheus_client.parser import text_string_to_metric_families

from phonebuddy.telemetry import ServiceMetrics


def test_metric_names_follow_the_phonebuddy_service_what_unit_rule() -> None:
    metrics = ServiceMetrics("phoneworld")
    metrics.histogram("step_latency", "Step latency", ["verb"]).labels(verb="act").observe(0.002)
    metrics.gauge("active_leases", "Leases held").set(4)
    metrics.counter("resets", "Resets", ["app"]).labels(app="com.pw.shop").inc()
    families = {f.name: f for f in text_string_to_metric_families(metrics.render().decode())}
    assert {name for name in families if not name.endswith("_created")} == {
        "phonebuddy_phoneworld_step_latency_seconds",
        "phonebuddy_phoneworld_active_leases",
        "phonebuddy_phoneworld_resets",
    }
    [leases] = families["phonebuddy_phoneworld_active_leases"].samples
    assert leases.value == 4


def test_two_instances_do_not_share_a_registry() -> None:
    ServiceMetrics("a").counter("x", "x")
    ServiceMetrics("a").counter("x", "x")  # would raise "Duplicated timeseries" if shared


@pytest.mark.parametrize("label", ["episode_id", "lease_id", "user"])
def test_unbounded_labels_are_refused(label: str) -> None:
    with pytest.raises(ValueError, match="not bounded dimensions"):
        ServiceMetrics("broker").counter("episodes", "Episodes", [label])


@pytest.mark.parametrize("bad", ["Steps", "step-latency", "1x", ""])
def test_names_must_be_lower_snake_case(bad: str) -> None:
    with pytest.raises(ValueError, match="lower_snake_case"):
        ServiceMetrics("broker").counter(bad, "x")
