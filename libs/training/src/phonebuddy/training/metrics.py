"""Per-step training metrics: JSON lines (stdout and the job's folder), a progress line on a
terminal's stderr, Prometheus on rank 0.

Gauges are `phonebuddy_<namespace>_<what>` with a `kind` label: by default the SFT set under
`phonebuddy_train_*` (loss, grad norm, learning rate, tokens per second, packing utilization,
examples and tokens seen, the step itself); a job may give its own set (the RL job's
`phonebuddy_rl_*`, whose record keys are verl-style `actor/pg_loss`: `/` becomes `_`).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from prometheus_client import start_http_server

from phonebuddy.telemetry import ServiceMetrics

GAUGES: dict[str, str] = {
    "step": "the last finished optimizer step",
    "loss": "mean token loss of the last step",
    "grad_norm": "gradient norm of the last step, before clipping",
    "lr": "learning rate of the last step",
    "tokens_per_second": "real (packed) tokens processed per second in the last step",
    "utilization": "real tokens / row capacity of the last step's rows",
    "examples_seen": "examples trained on so far",
    "tokens_seen": "real tokens trained on so far",
    "val_loss": "mean token loss on the validation split at the last evaluation",
}


class TrainMetrics:
    def __init__(
        self,
        kind: str,
        *,
        stream: TextIO | None = None,
        sink: Callable[[list[str]], None] | None = None,
        namespace: str = "train",
        gauges: dict[str, str] | None = None,
    ) -> None:
        self.kind = kind
        self.stream = stream if stream is not None else sys.stdout
        self.sink = sink  # receives every line so far (the job's metrics.jsonl)
        self.progress: TextIO | None = sys.stderr  # a one-line progress display when a terminal
        self.lines: list[str] = []
        self.registry = ServiceMetrics(namespace)
        self._gauges = {
            key: self.registry.gauge(key.replace("/", "_"), doc, ["kind"]).labels(kind=kind)
            for key, doc in (GAUGES if gauges is None else gauges).items()
        }
        self._server: Any = None
        self.progress_keys: tuple[str, ...] = ("loss", "tokens_per_second")

    def serve(self, host: str, port: int) -> int:
        """Expose /metrics; returns the port (0 picks a free one)."""
        server, _thread = start_http_server(port, addr=host, registry=self.registry.registry)
        self._server = server
        return int(server.server_port)

    def record(self, event: str, values: dict[str, Any]) -> None:
        line = json.dumps({"event": event, "kind": self.kind, **values}, sort_keys=True)
        self.lines.append(line)
        print(line, file=self.stream, flush=True)
        if event == "step" and self.progress is not None and self.progress.isatty():
            total = values.get("total_steps", "?")
            shown = " ".join(
                f"{key.split('/')[-1]} {values[key]:.4g}"
                for key in self.progress_keys
                if key in values
            )
            self.progress.write(f"\r{self.kind} step {values.get('step')}/{total} {shown}")
            self.progress.flush()
        for name, value in values.items():
            gauge = self._gauges.get(name)
            if gauge is not None and isinstance(value, int | float):
                gauge.set(value)

    def flush(self) -> None:
        if self.sink is not None:
            self.sink(self.lines)

    def close(self, *, linger_s: float = 0.0) -> None:
        """Stop serving /metrics, after `linger_s` seconds in which it can still be scraped."""
        if self._server is not None:
            if linger_s > 0:
                time.sleep(linger_s)
            self._server.shutdown()
            self._server.server_close()
            self._server = None
