import io
import json

import httpx
import pytest

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


def test_a_resumed_job_keeps_the_history_of_the_run_it_continues(tmp_path) -> None:
    from phonebuddy.training.checkpoint import CheckpointStore
    from phonebuddy.training.job import METRICS_FILE, MetricsFile

    def run(steps: range, resume_at: int | None) -> None:
        checkpoints = CheckpointStore(f"local:{tmp_path}", "job")
        sink = MetricsFile(checkpoints)
        metrics = TrainMetrics("sft", stream=io.StringIO(), sink=sink)
        if resume_at is not None:
            sink.resume_at(resume_at)
            metrics.record("resumed", {"step": resume_at})
        for step in steps:
            metrics.record("step", {"step": step, "loss": 1.0 / step})
        metrics.flush()
        checkpoints.close()

    run(range(1, 4), None)  # steps 1-3 recorded; suppose the checkpoint is at step 2
    path = tmp_path / "job" / METRICS_FILE
    path.write_text(path.read_text() + '{"event": "step", "st')  # a torn write at the end
    run(range(3, 6), 2)
    records = [json.loads(line) for line in path.read_text().splitlines()]
    assert [(r["event"], r["step"]) for r in records] == [
        ("step", 1), ("step", 2), ("resumed", 2), ("step", 3), ("step", 4), ("step", 5)
    ]  # fmt: skip


def test_the_last_values_stay_scrapable_for_the_linger_time_then_the_port_closes() -> None:
    import threading

    metrics = TrainMetrics("sft", stream=io.StringIO())
    port = metrics.serve("127.0.0.1", 0)
    metrics.record("step", {"step": 7, "loss": 0.5})
    closing = threading.Thread(target=metrics.close, kwargs={"linger_s": 1.0})
    closing.start()
    text = httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=2).text
    assert 'phonebuddy_train_step{kind="sft"} 7.0' in text  # the job has ended; still served
    closing.join(timeout=5)
    assert not closing.is_alive()
    with pytest.raises(httpx.TransportError):
        httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=2)
