"""Rules, alerts and dashboards, checked by the real tools: `promtool check rules` and `promtool
test rules` (every alert fires where it should and stays quiet beside it), the dashboards
type-checked by TypeScript against Grafana's published schema (`@grafana/schema`), and both
rendered by the chart as a PrometheusRule and dashboard ConfigMaps."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from phonebuddy.telemetry.observability import rules_path
from phonebuddy.telemetry.observability.dashboards import DASHBOARDS, rendered_files
from phonebuddy.testing.process import find_binary

HERE = Path(__file__).resolve().parent
CHART = HERE.parents[1] / "charts" / "phonebuddy"
GRAFANA_TOOLS = Path(sys.executable).parent.parent / "grafana"


def promtool(*args: str, cwd: Path = HERE) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [find_binary("promtool"), *args], capture_output=True, text=True, check=False, cwd=cwd
    )


def test_the_rules_are_valid_and_every_alert_is_unit_tested() -> None:
    checked = promtool("check", "rules", str(rules_path()))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    tested = promtool("test", "rules", "rules_test.yaml")
    assert tested.returncode == 0, tested.stdout + tested.stderr
    alerts = {
        rule["alert"]
        for group in yaml.safe_load(rules_path().read_text())["groups"]
        for rule in group["rules"]
        if "alert" in rule
    }
    tests = yaml.safe_load((HERE / "rules_test.yaml").read_text())["tests"]
    fired = {
        case["alertname"]
        for test in tests
        for case in test.get("alert_rule_test", [])
        if case.get("exp_alerts")
    }
    assert fired == alerts  # every alert is shown to fire at least once
    assert len(alerts) == 5


def test_a_broken_alert_fails_its_unit_test(tmp_path: Path) -> None:
    """The unit tests can fail: a threshold moved makes promtool report the missing alert."""
    rules = (
        rules_path()
        .read_text()
        .replace(
            "phonebuddy:judge_errors:ratio_rate15m > 0.1",
            "phonebuddy:judge_errors:ratio_rate15m > 0.5",
        )
    )
    (tmp_path / "rules.yaml").write_text(rules)
    test = (HERE / "rules_test.yaml").read_text()
    test = test.replace("../../libs/telemetry/src/phonebuddy/telemetry/observability/", "")
    (tmp_path / "rules_test.yaml").write_text(test)
    result = promtool("test", "rules", "rules_test.yaml", cwd=tmp_path)
    assert result.returncode != 0
    assert "PhoneBuddyJudgeErrorsHigh" in result.stdout + result.stderr


@pytest.fixture(scope="module")
def tsc() -> Path:
    binary = GRAFANA_TOOLS / "node_modules" / ".bin" / "tsc"
    if not binary.exists():
        pytest.fail(f"{binary} is missing: run `make setup` (it installs @grafana/schema)")
    return binary


def _type_check(tsc: Path, dashboards: dict[str, dict]) -> subprocess.CompletedProcess[str]:
    folder = GRAFANA_TOOLS / "check"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    files = []
    for name, body in dashboards.items():
        path = folder / f"{name}.ts"
        path.write_text(
            "import type { Dashboard } from '@grafana/schema';\n"
            f"export const dashboard: Dashboard = {json.dumps(body, indent=2)};\n"
        )
        files.append(path.name)
    config = {
        "compilerOptions": {
            "strict": True, "noEmit": True, "module": "nodenext",
            "moduleResolution": "nodenext", "target": "es2022", "skipLibCheck": True,
        },
        "files": files,
    }  # fmt: skip
    (folder / "tsconfig.json").write_text(json.dumps(config))
    try:
        return subprocess.run(
            [str(tsc), "-p", str(folder / "tsconfig.json")],
            capture_output=True, text=True, check=False, timeout=300,
        )  # fmt: skip
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_every_dashboard_type_checks_against_grafanas_schema(tsc: Path) -> None:
    dashboards = {name.removesuffix(".json"): json.loads(text)
                  for name, text in rendered_files().items()}  # fmt: skip
    assert len(dashboards) == 6
    result = _type_check(tsc, dashboards)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_type_check_catches_a_wrong_dashboard(tsc: Path) -> None:
    body = json.loads(next(iter(rendered_files().values())))
    body["panels"][0]["gridPos"] = {"h": 8, "w": 12}  # x and y missing
    body["refresh"] = 30  # a number where Grafana wants a string
    result = _type_check(tsc, {"wrong": body})
    assert result.returncode != 0
    assert "missing the following properties from type 'GridPos': x, y" in result.stdout
    assert "Type 'number' is not assignable to type 'string'" in result.stdout


def test_every_panel_query_parses_and_panels_do_not_overlap(tmp_path: Path) -> None:
    for dashboard in DASHBOARDS:
        body = json.loads(rendered_files()[f"{dashboard.uid}.json"])
        places = {(p["gridPos"]["x"], p["gridPos"]["y"]) for p in body["panels"]}
        assert len(places) == len(body["panels"]), dashboard.uid
        for panel in body["panels"]:
            for target in panel["targets"]:
                # promtool parses an expression through a throwaway recording rule.
                check = {
                    "groups": [{"name": "q", "rules": [{"record": "q:q", "expr": target["expr"]}]}]
                }
                path = tmp_path / "q.yaml"
                path.write_text(yaml.safe_dump(check))
                result = promtool("check", "rules", str(path))
                assert result.returncode == 0, (dashboard.uid, panel["title"], result.stdout)


def test_the_chart_renders_the_rules_and_the_dashboards() -> None:
    result = subprocess.run(
        [find_binary("helm"), "template", "rel", str(CHART), "--set", "policy.model=s3://b/m",
         "--set", "monitoring.prometheusRules.enabled=true",
         "--set", "monitoring.dashboards.enabled=true", "--show-only", "templates/monitoring.yaml"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    objects = [doc for doc in yaml.safe_load_all(result.stdout) if doc]
    (rule,) = [o for o in objects if o["kind"] == "PrometheusRule"]
    assert rule["spec"] == yaml.safe_load(rules_path().read_text())
    maps = [o for o in objects if o["kind"] == "ConfigMap"]
    assert {next(iter(m["data"])) for m in maps} == set(rendered_files())
    for config_map in maps:
        assert config_map["metadata"]["labels"]["grafana_dashboard"] == "1"
        (name, text) = next(iter(config_map["data"].items()))
        assert json.loads(text) == json.loads(rendered_files()[name])
