"""The judge's Prometheus metrics (`phonebuddy_judge_*`). Labels are bounded: `component` is the
model's role (rubric, grader), `outcome` a short fixed word."""

from __future__ import annotations

from phonebuddy.telemetry import ServiceMetrics

# LLM calls and gradings take seconds to minutes, not milliseconds.
SLOW_BUCKETS_S = (0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 600)
VERDICT_OUTCOMES = ("pass", "fail", "judge_error")
ROLES = ("rubric", "grader")


class JudgeMetrics:
    def __init__(self) -> None:
        self.registry = ServiceMetrics("judge")
        m = self.registry
        self.requests = m.counter(
            "requests",
            "Judge requests served over NATS, by outcome (ok, store_error, store_refused)",
            ["outcome"],
        )
        self.llm_calls = m.counter(
            "llm_calls",
            "Calls to the rubric and grader models, by role and outcome (ok, timeout, "
            "rate_limited, server_error, client_error, connect_error, not_a_completion, "
            "no_content, invalid_answer)",
            ["component", "outcome"],
        )
        self.llm_latency = m.histogram(
            "llm_latency", "Time of one model call", ["component"], buckets=SLOW_BUCKETS_S
        )
        self.grade_latency = m.histogram(
            "grade_latency", "Time to grade one episode, rubric included", buckets=SLOW_BUCKETS_S
        )
        self.verdicts = m.counter(
            "verdicts", "Verdicts given: pass, fail or judge_error", ["outcome"]
        )
        self.rubric_cache = m.counter(
            "rubric_cache", "Rubric lookups in the store: hit or miss", ["outcome"]
        )
        self.in_flight = m.gauge("in_flight", "Episodes being graded now")
        for outcome in VERDICT_OUTCOMES:
            self.verdicts.labels(outcome=outcome)
        for outcome in ("hit", "miss"):
            self.rubric_cache.labels(outcome=outcome)
        for role in ROLES:
            self.llm_calls.labels(component=role, outcome="ok")

    def observe_call(self, role: str, outcome: str, seconds: float) -> None:
        self.llm_calls.labels(component=role, outcome=outcome).inc()
        self.llm_latency.labels(component=role).observe(seconds)

    def observe_rubric_lookup(self, hit: bool) -> None:
        self.rubric_cache.labels(outcome="hit" if hit else "miss").inc()
