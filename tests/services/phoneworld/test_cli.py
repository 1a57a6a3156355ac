"""`phonebuddy world ...` as a user runs it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
from PIL import Image
from typer.testing import CliRunner

from phonebuddy.cli.main import full_app
from phonebuddy.phoneworld.tasks.registry import all_templates
from phonebuddy.testing import free_port

app = full_app()
runner = CliRunner()


def world(*args: str) -> tuple[int, str]:
    result = runner.invoke(app, ["world", *args])
    return result.exit_code, result.output


def test_apps_lists_packages_domains_and_tools() -> None:
    code, output = world("apps", "--json")
    assert code == 0
    apps = {row["package"]: row for row in json.loads(output)}
    assert apps["com.pw.notes"]["tools"] == ["create_note"]
    assert "home" in apps["com.pw.notes"]["screens"]


def test_tasks_lists_templates_with_params() -> None:
    code, output = world("tasks", "--json", "--category", "single_app")
    assert code == 0
    rows = {row["id"]: row for row in json.loads(output)}
    assert rows["notes.create"]["params"]["title"]
    assert all(row["category"] == "single_app" for row in rows.values())
    assert rows["settings.night_mode"]["held_out"] == "template"
    assert rows["notes.create"]["held_out"] == "-"


def test_suites_lists_each_suite_with_its_split_and_seeds() -> None:
    code, output = world("suites", "--json")
    assert code == 0
    suites = {row["name"]: row for row in json.loads(output)}
    assert suites["train"]["split"] == "train"
    assert suites["train"]["seeds"] == "[0, 1000000)"
    assert suites["test_apps"]["split"] == "test"
    assert suites["test_apps"]["seeds"] == "[1000000, 2000000)"
    assert suites["all"]["templates"] == len(all_templates())
    code, table = world("suites")
    assert code == 0
    assert table.splitlines()[0].split() == ["name", "split", "seeds", "templates", "description"]


def test_solve_checks_oracle_and_near_misses() -> None:
    code, output = world("solve", "--template", "notes.delete", "--seeds", "2", "--json")
    assert code == 0
    report = json.loads(output)
    assert report["checked"] == 2
    assert report["failed"] == 0
    assert report["results"][0]["near_misses"]["one step short"] == "rejected"


def test_solve_rejects_unknown_templates_and_missing_arguments() -> None:
    code, output = world("solve", "--template", "nope.nothing")
    assert code == 2
    assert "unknown task template 'nope.nothing'" in output
    assert world("solve")[0] == 2


def test_render_saves_every_step(tmp_path: Path) -> None:
    code, output = world("render", "--template", "notes.create", "--out", str(tmp_path), "--json")
    assert code == 0
    assert json.loads(output)["screenshots"] == len(list(tmp_path.glob("step-*.png")))
    shots = sorted(tmp_path.glob("step-*.png"))
    steps = json.loads((tmp_path / "actions.json").read_text())["steps"]
    assert len(shots) == len(steps) + 1
    with Image.open(shots[-1]) as last:
        assert last.size == (1080, 2400)


def test_bench_prints_every_measurement() -> None:
    code, output = world("bench", "--devices", "5", "--repeat", "10")
    assert code == 0
    report = json.loads(output)
    for key in ("act_without_observation", "observe_changed_screen", "observe_unchanged_screen",
                "reset", "start_task", "fork", "restore", "fork_every_app_built"):  # fmt: skip
        assert report[key]["p50_ms"] >= 0
        assert report[key]["n"] > 0
    assert report["memory_per_idle_device_mb"] > 0
    assert 0 <= report["apps_built_at_task_start"] <= report["apps"]


def test_serve_without_nats_answers_health_and_stops_on_sigterm() -> None:
    port = free_port()
    launcher = str(Path(sys.executable).parent / "phonebuddy")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PHONEBUDDY_NATS")}
    process = subprocess.Popen(
        [launcher, "world", "serve", "--devices", "2", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                ready = httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=1)
                break
            except httpx.HTTPError:
                assert process.poll() is None, process.stdout.read() if process.stdout else ""
                assert time.monotonic() < deadline
                time.sleep(0.2)
        assert ready.status_code == 200
        assert httpx.get(f"http://127.0.0.1:{port}/devices").json()["devices"] == 2
    finally:
        process.send_signal(signal.SIGTERM)
        output, _ = process.communicate(timeout=30)
    assert "nats   disabled" in output


def test_overlap_lists_the_share_of_test_seeds_that_repeat_a_training_situation() -> None:
    code, output = world(
        "overlap", "--json", "--template", "settings.toggle", "--template",
        "messages.delete_thread", "--train-seeds", "60", "--test-seeds", "10",
    )  # fmt: skip
    assert code == 0, output
    rows = {row["id"]: row for row in json.loads(output)}
    # a handful of toggles: every held-out seed is a training situation; threads vary more
    assert rows["settings.toggle"]["share"] >= 0.8
    assert rows["messages.delete_thread"]["share"] < 0.5
    assert rows["settings.toggle"]["test_seeds"] == 10
    code, output = world("overlap", "--template", "no.such")
    assert code == 2
    assert "unknown task template 'no.such'" in output
