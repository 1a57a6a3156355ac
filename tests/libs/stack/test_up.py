"""`phonebuddy up` as a user runs it: a real process, real servers, Ctrl-C, nothing left behind."""

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from phonebuddy.bus import NatsSettings, PermissionDeniedError, connect
from phonebuddy.bus.permissions import CLIENT
from phonebuddy.protocol import Source
from phonebuddy.protocol.env import Lease, LeaseRequest
from phonebuddy.protocol.subjects import ROLLOUT_STREAM, env_lease_subject
from phonebuddy.stack.stack_file import StackInfo
from phonebuddy.storage import StoreSettings, open_store

PHONEBUDDY = str(Path(sys.executable).parent / "phonebuddy")


def processes_mentioning(text: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if text in cmdline and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


def read_first_line(process: subprocess.Popen[str], timeout_s: float) -> dict[str, Any]:
    assert process.stdout is not None
    deadline = time.monotonic() + timeout_s
    line = process.stdout.readline()
    if not line:
        raise AssertionError(f"phonebuddy up exited early (code {process.poll()})")
    assert time.monotonic() < deadline, "phonebuddy up took too long to start"
    return json.loads(line)


async def check_endpoints_answer(info: StackInfo) -> None:
    # Commands beside the stack are NATS's `client` user: they submit rollouts and nothing more.
    client = NatsSettings.from_variables(info.env)
    assert client.user == CLIENT
    async with connect(client) as bus:
        assert bus.is_connected
        for subject in (env_lease_subject(Source.SIM), f"$JS.API.STREAM.DELETE.{ROLLOUT_STREAM}"):
            with pytest.raises(PermissionDeniedError):
                await bus.request(subject, LeaseRequest(client_id="test-up"), Lease)
    # Each service has its own user (the same env variables services read): the broker's leases.
    async with connect(NatsSettings.from_variables(info.env_for("broker"))) as bus:
        # PhoneWorld joined the stack: a device can be leased over NATS.
        lease = await bus.request(
            env_lease_subject(Source.SIM), LeaseRequest(client_id="test-up"), Lease
        )
        assert lease.instance_id == "local"
        # The device gateway drives PhoneWorld's phones over the stack's adb server.
        phone = await bus.request(
            env_lease_subject(Source.REAL), LeaseRequest(client_id="test-up"), Lease
        )
        assert phone.source == Source.REAL
        assert phone.device_id.startswith("emulator-")

    # The object store answers and keeps what is written.
    store_settings = StoreSettings.from_variables(info.env)
    async with open_store(store_settings) as object_store:
        await object_store.put_bytes("smoke/hello.txt", b"hello")
        assert await object_store.get_bytes("smoke/hello.txt") == b"hello"

    # Prometheus is ready and scrapes.
    prometheus = info.endpoint("prometheus").url
    async with httpx.AsyncClient(base_url=prometheus) as client:
        assert (await client.get("/-/ready")).status_code == 200
        query = {"query": 'up{job="phoneworld"} == 1'}
        for _ in range(150):
            body = (await client.get("/api/v1/query", params=query)).json()
            if body["data"]["result"]:
                break
            await asyncio.sleep(0.2)
        assert body["data"]["result"], "Prometheus never scraped PhoneWorld"
    # The policy server answers with the stack's API key, from the tiny model.
    async with httpx.AsyncClient(base_url=info.env["PHONEBUDDY_POLICY_URL"], timeout=60) as client:
        assert (await client.get("/models")).status_code == 401
        headers = {"Authorization": f"Bearer {info.env['PHONEBUDDY_POLICY_API_KEY']}"}
        response = await client.post(
            "/chat/completions",
            headers=headers,
            json={"model": "phonebuddy-policy", "messages": [{"role": "user", "content": "hi"}],
                  "max_tokens": 2},
        )  # fmt: skip
        assert response.status_code == 200, response.text
        assert response.json()["model_version"].startswith("tiny-policy-seed0@")
    # The gateway knows PhoneWorld's app names, so `open("Notes")` works on its phones.
    assert "Notes=com.pw.notes" in info.env["PHONEBUDDY_GATEWAY_APPS"]
    # Its phones get their task's start state, and the judge's model is PhoneWorld's
    # ground-truth grader (no judge model runs here), which answers on PhoneWorld's port.
    setup_action = info.env["PHONEBUDDY_GATEWAY_TASK_SETUP_ACTION"]
    assert setup_action == "com.phonebuddy.phoneworld.SETUP_TASK"
    assert info.env["PHONEBUDDY_JUDGE_TASK_METADATA"] == "true"
    grader_url = info.env["PHONEBUDDY_JUDGE_GRADER_BASE_URL"]
    assert grader_url.startswith(info.endpoint("phoneworld").url)
    async with httpx.AsyncClient(base_url=grader_url) as client:
        models = (await client.get("/models")).json()
    assert [m["id"] for m in models["data"]] == [info.env["PHONEBUDDY_JUDGE_GRADER_MODEL"]]
    for service in ("phoneworld", "device-gateway", "policy", "teacher", "judge", "broker"):
        async with httpx.AsyncClient(base_url=info.endpoint(service).url) as client:
            assert (await client.get("/readyz")).status_code == 200


@pytest.mark.parametrize(
    ("store", "stop"),
    [("s3", signal.SIGINT), ("local", signal.SIGHUP)],  # Ctrl-C; a closed terminal
)
def test_up_starts_every_endpoint_and_ctrl_c_or_hangup_leaves_no_process(
    tmp_path: Path, store: str, stop: signal.Signals
) -> None:
    home = tmp_path / "home"
    state_dir = tmp_path / "state"
    store_arg = "s3" if store == "s3" else f"local:{tmp_path / 'objects'}"
    process = subprocess.Popen(
        [PHONEBUDDY, "up", "--json", "--store", store_arg, "--state-dir", str(state_dir)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PHONEBUDDY_HOME": str(home)},
    )
    try:
        printed = read_first_line(process, timeout_s=90)
        stack_file = home / "stack.json"
        assert printed["stack_file"] == str(stack_file)
        assert stack_file.stat().st_mode & 0o077 == 0, "the stack file holds credentials"
        info = StackInfo.model_validate_json(stack_file.read_text())
        pids = [e.pid for e in info.endpoints if e.pid is not None]
        assert pids
        assert {e.name: e.url for e in info.endpoints} == printed["endpoints"]

        asyncio.run(check_endpoints_answer(info))
        if store == "s3":
            assert "s3" in printed["endpoints"]
        # A rollout through every service, each as its own NATS user, submitted as the client.
        rollout = subprocess.run(
            [PHONEBUDDY, "rollout", "--policy", "teacher", "--tasks", "notes.create", "--json"],
            env={**os.environ, "PHONEBUDDY_HOME": str(home)},
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert rollout.returncode == 0, rollout.stderr[-3000:]
        overall = json.loads(rollout.stdout)["overall"]
        assert (overall["episodes"], overall["successes"]) == (1, 1), rollout.stdout
    finally:
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=60)

    assert process.returncode == 0, stderr
    assert "no process left behind" in stderr
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists(), f"process {pid} survived {stop.name}"
    assert processes_mentioning(str(state_dir)) == []
    assert not (home / "stack.json").exists()


def descendants(root: int) -> list[int]:
    """Every process below `root` (children, their children...), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def running(pid: int) -> bool:
    """Whether `pid` is a live process (a zombie waiting for its reaper counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_killing_up_without_ctrl_c_leaves_no_process(tmp_path: Path) -> None:
    """SIGKILL (or a closed terminal) runs no cleanup in `phonebuddy up`: its children and
    theirs must notice on their own, and `phonebuddy env` that the stack file it left is
    stale."""
    state_dir = tmp_path / "state"
    env = {**os.environ, "PHONEBUDDY_HOME": str(tmp_path / "home")}
    process = subprocess.Popen(
        [PHONEBUDDY, "up", "--json", "--store", f"local:{tmp_path / 'objects'}",
         "--state-dir", str(state_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env,
    )  # fmt: skip
    try:
        stack_file = Path(read_first_line(process, timeout_s=90)["stack_file"])
        below = descendants(process.pid)
        assert len(below) >= 9, below  # NATS, Prometheus, adb and the six services
        alive = subprocess.run(
            [PHONEBUDDY, "env"], env=env, capture_output=True, text=True, timeout=60, check=False
        )
        assert alive.returncode == 0, alive.stderr
        assert "export PHONEBUDDY_NATS_URL=" in alive.stdout
    finally:
        process.kill()
        process.wait(10)
        process.stdout.close()  # type: ignore[union-attr]

    assert stack_file.exists()  # nothing ran to remove it
    stale = subprocess.run(
        [PHONEBUDDY, "env"], env=env, capture_output=True, text=True, timeout=60, check=False
    )
    assert stale.returncode == 1
    assert stale.stdout == ""
    assert f"the local stack is not running: {stack_file} names pid {process.pid}" in stale.stderr

    killed_at = time.monotonic()
    while any(running(pid) for pid in below) and time.monotonic() < killed_at + 15:
        time.sleep(0.1)
    left = [pid for pid in below if running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert left == [], f"{len(left)} processes outlived their killed parent"
    assert [pid for pid in processes_mentioning(str(state_dir)) if running(pid)] == []
