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

from phonebuddy.bus import NatsSettings, connect
from phonebuddy.protocol import Source
from phonebuddy.protocol.env import Lease, LeaseRequest
from phonebuddy.protocol.subjects import env_lease_subject
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
    # NATS answers with the stack's credentials (the same env variables services read).
    nats_settings = NatsSettings(
        url=info.env["PHONEBUDDY_NATS_URL"],
        user=info.env["PHONEBUDDY_NATS_USER"],
        password=info.env["PHONEBUDDY_NATS_PASSWORD"],
    )
    async with connect(nats_settings) as bus:
        assert bus.is_connected
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
    for service in ("phoneworld", "device-gateway", "policy", "teacher", "judge", "broker"):
        async with httpx.AsyncClient(base_url=info.endpoint(service).url) as client:
            assert (await client.get("/readyz")).status_code == 200


@pytest.mark.parametrize("store", ["s3", "local"])
def test_up_starts_every_endpoint_and_ctrl_c_leaves_no_process(tmp_path: Path, store: str) -> None:
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
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=60)

    assert process.returncode == 0, stderr
    assert "no process left behind" in stderr
    for pid in pids:
        assert not Path(f"/proc/{pid}").exists(), f"process {pid} survived Ctrl-C"
    assert processes_mentioning(str(state_dir)) == []
    assert not (home / "stack.json").exists()
