import io
import json

import httpx

from phonebuddy.training.metrics import TrainMetrics


def test_steps_are_json_lines_prometheus_gauges_and_a_sink() -> None:
    out = io.StringIO()
    saved: list[list[str]] = []
    metrics = TrainMetrics("sft", stream=out, sink=lambda lines: saved.append(list(lines)))
    port = metrics.serve("127.0.0.1", 0)
    try:
        metrics.record("step", {"step": 3, "loss": 1.25, "grad_norm": 0.5, "note": "text"})
        metrics.flush()
        body = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text
    finally:
        metrics.close()
    assert json.loads(out.getvalue()) == {
        "event": "step", "kind": "sft", "step": 3, "loss": 1.25, "grad_norm": 0.5, "note": "text"
    }  # fmt: skip
    assert 'phonebuddy_train_loss{kind="sft"} 1.25' in body
    assert 'phonebuddy_train_step{kind="sft"} 3.0' in body
    assert saved == [[out.getvalue().strip()]]
