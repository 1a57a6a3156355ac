# ruff: noqa: E501 (a panel's PromQL reads best on one line)
"""PhoneBuddy's Grafana dashboards, kept as code: each is a list of panels (title, PromQL, unit),
rendered to Grafana's dashboard JSON by `make chart` (the chart's dashboard ConfigMaps). The
queries use the services' metric names, the recording rules of `rules.yaml` and, for the policy
server, vLLM's own names (`vllm:*`), which both backends export."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

DATASOURCE = {"type": "prometheus", "uid": "${datasource}"}


@dataclass(frozen=True)
class Panel:
    title: str
    exprs: tuple[str, ...]
    unit: str = "short"
    legend: str = ""
    description: str = ""
    kind: str = "timeseries"  # or "stat"


@dataclass(frozen=True)
class Dashboard:
    uid: str
    title: str
    description: str
    panels: tuple[Panel, ...] = field(default_factory=tuple)


DASHBOARDS: tuple[Dashboard, ...] = (
    Dashboard(
        "phonebuddy-rollouts", "PhoneBuddy / Rollouts",
        "Episodes and env steps per second, success by source, category and app, latency, "
        "retries and the device backlog.",
        (
            Panel("Episodes per second", ("phonebuddy:episodes:rate5m",), "ops", "{{source}}"),
            Panel("Env steps per second", ("phonebuddy:env_steps:rate5m",), "ops", "{{source}}"),
            Panel("Success by source (1 h)", ("phonebuddy:success:ratio_rate1h",), "percentunit",
                  "{{source}}", "Judge errors are left out."),
            Panel("Success by category (1 h)", ("phonebuddy:success_by_category:ratio_rate1h",),
                  "percentunit", "{{source}} {{category}}"),
            Panel("Success by app (1 h)", ("phonebuddy:success_by_app:ratio_rate1h",),
                  "percentunit", "{{source}} {{app}}"),
            Panel("Step latency p95 by component", ("phonebuddy:step_latency_seconds:p95_5m",),
                  "s", "{{component}}"),
            Panel("Episodes running", ("sum(phonebuddy_broker_running_episodes)",), "short",
                  "running", kind="stat"),
            Panel("Episodes waiting for a device", ("sum by (source) (phonebuddy_broker_lease_waiting)",),
                  "short", "{{source}}", "The backlog PhoneWorld's autoscaler reads."),
            Panel("Env retries", ("phonebuddy:env_retries:rate15m",), "ops", "{{reason}}"),
            Panel("Invalid policy answers", ("sum by (source) (rate(phonebuddy_broker_invalid_actions_total[5m]))",),
                  "ops", "{{source}}"),
        ),
    ),
    Dashboard(
        "phonebuddy-phoneworld", "PhoneBuddy / PhoneWorld fleet",
        "Simulated phones: how many, how many leased, resets, verdicts and verb latency.",
        (
            Panel("Phones", ("sum(phonebuddy_phoneworld_devices)",), "short", "phones", kind="stat"),
            Panel("Leased phones", ("sum(phonebuddy_phoneworld_active_leases)",), "short", "leased"),
            Panel("Resets per second by app", ("sum by (app) (rate(phonebuddy_phoneworld_resets_total[5m]))",),
                  "ops", "{{app}}"),
            Panel("Verdicts per second", ("sum by (outcome) (rate(phonebuddy_phoneworld_verdicts_total[5m]))",),
                  "ops", "{{outcome}}"),
            Panel("Verb latency p95", ("histogram_quantile(0.95, sum by (verb, le) (rate(phonebuddy_phoneworld_step_latency_seconds_bucket[5m])))",),
                  "s", "{{verb}}"),
            Panel("Leases expired", ("sum(rate(phonebuddy_phoneworld_expired_leases_total[15m]))",), "ops",
                  "expired"),
        ),
    ),
    Dashboard(
        "phonebuddy-real-devices", "PhoneBuddy / Real devices",
        "Phones behind the device gateway: health, failures, reconnects, verb latency.",
        (
            Panel("Phones by status", ("sum by (status) (phonebuddy_gateway_devices)",), "short",
                  "{{status}}"),
            Panel("Device failures", ("phonebuddy:device_failures:rate15m",), "ops", "{{reason}}"),
            Panel("Reconnects", ("sum(rate(phonebuddy_gateway_reconnects_total[15m]))",), "ops",
                  "reconnects"),
            Panel("Leased phones", ("sum(phonebuddy_gateway_active_leases)",), "short", "leased"),
            Panel("Verb latency p95", ("histogram_quantile(0.95, sum by (verb, le) (rate(phonebuddy_gateway_step_latency_seconds_bucket[5m])))",),
                  "s", "{{verb}}"),
        ),
    ),
    Dashboard(
        "phonebuddy-policy", "PhoneBuddy / Policy",
        "The policy server under vLLM's metric names (either backend): requests, tokens, "
        "latency, the version served and weight updates.",
        (
            Panel("Requests running / waiting", ("sum(vllm:num_requests_running)", "sum(vllm:num_requests_waiting)"),
                  "short", ""),
            Panel("Generation tokens per second", ("sum by (model_name) (rate(vllm:generation_tokens_total[1m]))",),
                  "ops", "{{model_name}}"),
            Panel("Prompt tokens per second", ("sum by (model_name) (rate(vllm:prompt_tokens_total[1m]))",),
                  "ops", "{{model_name}}"),
            Panel("Request latency p95", ("histogram_quantile(0.95, sum by (le) (rate(vllm:e2e_request_latency_seconds_bucket[5m])))",),
                  "s", "p95"),
            Panel("Finished requests", ("sum by (finished_reason) (rate(vllm:request_success_total[5m]))",),
                  "ops", "{{finished_reason}}"),
            Panel("Version served", ("max by (version) (phonebuddy_policy_model_info)",), "short",
                  "{{version}}", kind="stat"),
            Panel("Weight updates", ("sum by (outcome) (increase(phonebuddy_policy_weight_updates_total[1h]))",),
                  "short", "{{outcome}}"),
        ),
    ),
    Dashboard(
        "phonebuddy-judge", "PhoneBuddy / Judge",
        "The rubric judge: verdicts, model calls and their latency, judge errors.",
        (
            Panel("Verdicts per second", ("sum by (outcome) (rate(phonebuddy_judge_verdicts_total[5m]))",),
                  "ops", "{{outcome}}"),
            Panel("Judge error ratio (15 m)", ("phonebuddy:judge_errors:ratio_rate15m",),
                  "percentunit", "judge errors", "Real episodes masked out of RL."),
            Panel("Model calls", ("sum by (component, outcome) (rate(phonebuddy_judge_llm_calls_total[5m]))",),
                  "ops", "{{component}} {{outcome}}"),
            Panel("Grading latency p95", ("histogram_quantile(0.95, sum by (le) (rate(phonebuddy_judge_grade_latency_seconds_bucket[5m])))",),
                  "s", "p95"),
            Panel("Episodes being graded", ("sum(phonebuddy_judge_in_flight)",), "short", "in flight"),
        ),
    ),
    Dashboard(
        "phonebuddy-training", "PhoneBuddy / Training",
        "SFT and RL jobs: loss, throughput, reward by source, groups kept, clipping, entropy "
        "and weight-sync time.",
        (
            Panel("SFT loss", ("phonebuddy_train_loss",), "short", "{{kind}}"),
            Panel("SFT tokens per second", ("phonebuddy_train_tokens_per_second",), "ops", "{{kind}}"),
            Panel("RL reward by source", ("phonebuddy:rl_reward:by_source",), "percentunit",
                  "{{kind}} {{source}}"),
            Panel("RL groups kept / dropped", ("phonebuddy_rl_batch_kept_groups", "phonebuddy_rl_batch_dropped_uniform_groups"),
                  "short", "{{kind}}"),
            Panel("RL clip fraction", ("phonebuddy_rl_actor_pg_clipfrac",), "percentunit", "{{kind}}"),
            Panel("RL entropy", ("phonebuddy_rl_actor_entropy",), "short", "{{kind}}"),
            Panel("RL weight sync seconds", ("phonebuddy:rl_weight_sync_seconds:last",), "s", "{{kind}}"),
            Panel("Step", ("phonebuddy_train_step", "phonebuddy_rl_step"), "short", "{{kind}}", kind="stat"),
        ),
    ),
)  # fmt: skip


def _panel(panel: Panel, index: int) -> dict[str, Any]:
    width = 12
    return {
        "id": index + 1,
        "type": panel.kind,
        "title": panel.title,
        "description": panel.description,
        "datasource": DATASOURCE,
        "gridPos": {"h": 8, "w": width, "x": (index % 2) * width, "y": (index // 2) * 8},
        "fieldConfig": {"defaults": {"unit": panel.unit}, "overrides": []},
        "options": {},
        "targets": [
            {
                "refId": chr(ord("A") + number),
                "datasource": DATASOURCE,
                "expr": expr,
                "legendFormat": panel.legend or "__auto",
            }
            for number, expr in enumerate(panel.exprs)
        ],
    }


def render(dashboard: Dashboard) -> dict[str, Any]:
    """Grafana's dashboard JSON (schema version 39) with a Prometheus data source variable."""
    return {
        "uid": dashboard.uid,
        "title": dashboard.title,
        "description": dashboard.description,
        "tags": ["phonebuddy"],
        "editable": True,
        "graphTooltip": 1,
        "schemaVersion": 39,
        "version": 1,
        "refresh": "30s",
        "time": {"from": "now-6h", "to": "now"},
        "timezone": "browser",
        "templating": {
            "list": [
                {
                    "name": "datasource",
                    "label": "Data source",
                    "type": "datasource",
                    "query": "prometheus",
                    "hide": 0,
                }
            ]
        },
        "annotations": {"list": []},
        "links": [],
        "panels": [_panel(panel, index) for index, panel in enumerate(dashboard.panels)],
    }


def rendered_files() -> dict[str, str]:
    """File name -> JSON text of every dashboard."""
    return {f"{d.uid}.json": json.dumps(render(d), indent=2) + "\n" for d in DASHBOARDS}
