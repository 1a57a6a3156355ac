"""The broker's Prometheus metrics (`phonebuddy_broker_*`). Episodes/s and env steps/s are the
rates of `episodes_total` and `env_steps_total`; success rate by source, category or app is
`successes_total / episodes_total` on those labels."""

from __future__ import annotations

from phonebuddy.protocol import Source
from phonebuddy.telemetry import ServiceMetrics

STEP_BUCKETS = (1, 2, 5, 10, 20, 30, 50, 100, 200)
# Label values known in advance start at 0, so a dashboard shows "none" rather than no data.
RETRY_REASONS = ("env", "policy", "stale_policy", "timeout", "policy_call")


class BrokerMetrics:
    def __init__(self) -> None:
        self.registry = ServiceMetrics("broker")
        m = self.registry
        self.episodes = m.counter(
            "episodes", "Episodes stored", ["source", "category", "app", "outcome"]
        )
        self.successes = m.counter(
            "successes", "Episodes stored with a successful verdict", ["source", "category", "app"]
        )
        self.env_steps = m.counter("env_steps", "Policy steps taken", ["source"])
        self.invalid_actions = m.counter(
            "invalid_actions", "Policy answers that held no usable action", ["source"]
        )
        self.step_latency = m.histogram(
            "step_latency", "Time spent per step or grading, by component", ["component"]
        )
        self.overhead = m.histogram(
            "overhead", "Broker time per step not spent in env, policy or judge"
        )
        self.episode_steps = m.histogram(
            "episode_steps", "Steps per episode", ["source"], unit="steps", buckets=STEP_BUCKETS
        )
        self.retries = m.counter("retries", "Episode attempts retried", ["reason"])
        self.failed_episodes = m.counter("failed_episodes", "Episodes given up", ["reason"])
        self.groups = m.counter("groups", "Groups finished", ["outcome"])
        self.running = m.gauge("running_episodes", "Episodes in progress")
        self.lease_waiting = m.gauge(
            "lease_waiting", "Episodes asking for a device now (the device backlog)", ["source"]
        )
        self.runs = m.counter("runs", "Rollout requests accepted")
        for reason in RETRY_REASONS:
            self.retries.labels(reason=reason)
        for source in Source:
            self.invalid_actions.labels(source=source.value)
            self.env_steps.labels(source=source.value)
