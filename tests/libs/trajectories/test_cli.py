"""`phonebuddy trajectories ...` against a real local store (and the viewer as a real process)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from importlib.metadata import entry_points

import httpx
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from phonebuddy.storage import LocalStore
from phonebuddy.testing import free_port
from phonebuddy.trajectories import summarize

runner = CliRunner()


@pytest.fixture(scope="module")
def cli():
    """The command group as `phonebuddy` finds it: through the `phonebuddy.cli` entry point."""
    [entry] = [e for e in entry_points(group="phonebuddy.cli") if e.name == "trajectories"]
    return entry.load()


def invoke(cli, *args: str):
    return runner.invoke(cli, [str(arg) for arg in args])


def test_the_command_group_has_list_summary_export_and_view(cli):
    result = invoke(cli, "--help")
    assert result.exit_code == 0
    for command in ("list", "summary", "export", "view"):
        assert command in result.output


def test_list_shows_the_runs(cli, stored_demo):
    root, _ = stored_demo
    result = invoke(cli, "list", "--store", f"local:{root}", "--json")
    assert result.exit_code == 0, result.output
    [run] = json.loads(result.output)
    assert (run["run_id"], run["status"], run["episodes"], run["groups_failed"]) == (
        "demo", "done", 7, 1,
    )  # fmt: skip
    text = invoke(cli, "list", "--store", f"local:{root}")
    assert text.exit_code == 0
    assert "demo" in text.output
    assert "5/1/0" in text.output
    assert "57.1%" in text.output


def test_list_of_an_empty_store_says_so(cli, tmp_path):
    result = invoke(cli, "list", "--store", f"local:{tmp_path}")
    assert result.exit_code == 0
    assert "no run in this store" in result.output


def test_summary_prints_the_run_summary(cli, stored_demo):
    root, run = stored_demo
    result = invoke(cli, "summary", "demo", "--store", f"local:{root}", "--json")
    assert result.exit_code == 0, result.output
    expected = summarize(run.manifest, run.episodes.values())
    assert json.loads(result.output) == expected.model_dump(mode="json")
    text = invoke(cli, "summary", "demo", "--store", f"local:{root}")
    assert text.exit_code == 0
    assert "4/7" in text.output
    assert "judge errors  1" in text.output
    assert "com.pw.gallery" in text.output


def test_the_store_can_come_from_the_environment(cli, stored_demo, monkeypatch):
    root, _ = stored_demo
    monkeypatch.setenv("PHONEBUDDY_STORE_URL", f"local:{root}")
    result = invoke(cli, "summary", "demo", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["episodes"] == 7


def test_export_writes_shards_and_reports_them(cli, stored_demo, tmp_path):
    root, _ = stored_demo
    out = tmp_path / "sft"
    result = invoke(cli, "export", "demo", "--out", out, "--store", f"local:{root}", "--json",
                    "--rows-per-shard", 10)  # fmt: skip
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["only_successful"] is True
    assert report["episodes"] == 4
    files = sorted(out.glob("part-*.parquet"))
    assert [f.name for f in files] == [s["name"] for s in report["shards"]]
    assert sum(pq.read_metadata(f).num_rows for f in files) == report["rows"]
    every = invoke(cli, "export", "demo", "--out", tmp_path / "all", "--all",
                   "--store", f"local:{root}")  # fmt: skip
    assert every.exit_code == 0, every.output
    assert "from 7 episodes" in every.output
    assert "1 group_failed" in every.output
    assert "invalid steps 1" in every.output


def test_export_to_the_store(cli, stored_demo):
    root, _ = stored_demo
    result = invoke(cli, "export", "demo", "--to-store", "--store", f"local:{root}", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["store_prefix"] == "exports/demo/"
    keys = asyncio.run(LocalStore(root).list("exports/demo/"))
    assert "exports/demo/export.json" in keys
    assert "exports/demo/part-00000.parquet" in keys


def test_errors_end_with_a_clear_message_and_exit_code(cli, stored_demo, monkeypatch):
    root, _ = stored_demo
    for name in ("ENDPOINT", "ACCESS_KEY", "SECRET_KEY"):
        monkeypatch.delenv(f"PHONEBUDDY_STORE_{name}", raising=False)
    no_place = invoke(cli, "export", "demo", "--store", f"local:{root}")
    assert no_place.exit_code == 2
    assert "--out DIR, --to-store" in no_place.output
    unknown = invoke(cli, "summary", "nope", "--store", f"local:{root}")
    assert unknown.exit_code == 1
    assert "error: run nope has no manifest" in unknown.output
    bad_url = invoke(cli, "list", "--store", "ftp://x")
    assert bad_url.exit_code == 2
    assert "unsupported scheme" in bad_url.output
    no_s3_keys = invoke(cli, "list", "--store", "s3://bucket")
    assert no_s3_keys.exit_code == 2
    assert "PHONEBUDDY_STORE_ENDPOINT" in no_s3_keys.output
    view_unknown = invoke(cli, "view", "nope", "--store", f"local:{root}")
    assert view_unknown.exit_code == 1
    assert "run nope has no manifest" in view_unknown.output


def test_view_serves_the_viewer_and_prints_its_url(stored_demo, tmp_path):
    root, _ = stored_demo
    port = free_port()
    command = [sys.executable, "-c", "from phonebuddy.trajectories.cli import app; app()",
               "view", "demo", "--port", str(port), "--store", f"local:{root}"]  # fmt: skip
    log = tmp_path / "view.log"
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        try:
            url = f"http://127.0.0.1:{port}/runs/demo"
            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, log.read_text()
                try:
                    response = httpx.get(url, timeout=5)
                    break
                except httpx.TransportError:
                    assert time.monotonic() < deadline, "the viewer did not start in 60 s"
                    time.sleep(0.1)
            assert response.status_code == 200
            assert "Run demo" in response.text
        finally:
            process.terminate()
            process.wait(timeout=30)
    assert f"trajectory viewer: {url}" in log.read_text()
