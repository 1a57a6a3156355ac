"""The policy server's Prometheus metrics (`phonebuddy_policy_*`). Tokens per second is
`rate(phonebuddy_policy_completion_tokens_total[1m])`. The `version` label holds only the
version being served (the old series is removed on reload), so it stays bounded.

The request, token and latency series are also exported under vLLM's names (`vllm:*`, label
`model_name`), so that one dashboard charts either backend and vLLM users' own charts work."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

from phonebuddy.telemetry import ServiceMetrics
from phonebuddy.telemetry.metrics import LATENCY_BUCKETS_S

BATCH_ROW_BUCKETS = (1, 2, 4, 8, 16, 32, 64, 128)
TOKEN_BUCKETS = (16, 64, 256, 1024, 4096, 16384, 65536)


class VllmMetrics:
    """vLLM's request, token and latency series (the names vLLM's /metrics uses)."""

    def __init__(self, registry: ServiceMetrics, model_name: str) -> None:
        labels = ["model_name"]
        r = registry.registry
        self.model_name = model_name
        self.running = Gauge("vllm:num_requests_running", "Requests being generated", labels,
                             registry=r).labels(model_name)  # fmt: skip
        self.waiting = Gauge("vllm:num_requests_waiting", "Requests waiting to be generated",
                             labels, registry=r).labels(model_name)  # fmt: skip
        self.prompt_tokens = Counter("vllm:prompt_tokens", "Prefill tokens processed", labels,
                                     registry=r).labels(model_name)  # fmt: skip
        self.generation_tokens = Counter("vllm:generation_tokens", "Generation tokens processed",
                                         labels, registry=r).labels(model_name)  # fmt: skip
        self.e2e_latency = Histogram(
            "vllm:e2e_request_latency_seconds", "End-to-end request latency", labels,
            registry=r, buckets=LATENCY_BUCKETS_S,
        ).labels(model_name)  # fmt: skip
        self.success = Counter(
            "vllm:request_success", "Requests finished", [*labels, "finished_reason"], registry=r
        )


class PolicyMetrics:
    def __init__(self, model_name: str = "phonebuddy-policy") -> None:
        self.registry = ServiceMetrics("policy")
        m = self.registry
        self.vllm = VllmMetrics(m, model_name)
        self.requests = m.counter("requests", "Chat-completion requests answered", ["code"])
        self.request_latency = m.histogram(
            "request_latency", "Time from request to answer, queueing included", ["outcome"]
        )
        self.prompt_tokens = m.counter("prompt_tokens", "Prompt tokens processed")
        self.completion_tokens = m.counter("completion_tokens", "Tokens generated")
        self.queue_depth = m.gauge("queue_depth", "Requests waiting for a batch")
        self.batch_rows = m.histogram(
            "batch_rows", "Sequences generated together", unit="rows", buckets=BATCH_ROW_BUCKETS
        )
        self.batch_latency = m.histogram("batch_latency", "Time to generate one batch")
        self.prompt_length = m.histogram(
            "prompt_length", "Prompt length", unit="tokens", buckets=TOKEN_BUCKETS
        )
        self.model_info = m.gauge("model_info", "1 for the model version being served", ["version"])
        self.reloads = m.counter("reloads", "Weight reloads", ["outcome"])
        self.weight_updates = m.counter(
            "weight_updates", "Weight updates finished (/finish_weight_update)", ["outcome"]
        )
        self.weight_load = m.histogram(
            "weight_load", "Time from /finish_weight_update to serving the new weights",
            buckets=(0.5, 1, 2.5, 5, 10, 25, 60, 120, 300),
        )  # fmt: skip
        self.paused = m.gauge("paused", "1 while generation is paused (/pause)")
        for outcome in ("ok", "error"):  # 0 until the first, so dashboards show "none yet"
            self.reloads.labels(outcome=outcome)
            self.weight_updates.labels(outcome=outcome)
        self._version: str | None = None

    def serving(self, version: str) -> None:
        if self._version is not None:
            self.model_info.remove(self._version)
        self.model_info.labels(version=version).set(1)
        self._version = version

    def batch(self, rows: int, seconds: float) -> None:
        self.batch_rows.observe(rows)
        self.batch_latency.observe(seconds)
