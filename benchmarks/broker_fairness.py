"""Runs sharing a broker: how long a 1-episode run takes alone and behind a 64-episode run whose
episodes all fail, and how long a failed group's other episodes keep their devices.

Everything runs in this process on loopback: a real nats-server, PhoneWorld with 8 devices, the
teacher policy server and the broker with 8 workers (local store in a temporary folder). The
failing run's policy URL has nothing listening (every call fails after the broker's retries);
its episodes are retried on fresh devices as usual. The quick run is one teacher episode of
`notes.pin`, submitted right after the failing one; its latency is submission to `run_done`.

The release check runs a group of 8 episodes whose episode 0 gets a refusal the broker cannot
retry (the group fails at once) while the other 7 press Home slowly for 30 steps, and measures
from the run's `run_done` until all 8 devices can be leased again.

    .venv/bin/python benchmarks/broker_fairness.py
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings, RemoteError, connect
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.policy.app import create_app as create_policy
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.teacher_backend import TeacherBackend
from phonebuddy.protocol import (
    ErrorCode,
    RolloutAccepted,
    RolloutRequest,
    Source,
    SystemButton,
    TaskSelection,
    to_tool_call_json,
)
from phonebuddy.protocol import env as m
from phonebuddy.protocol.subjects import (
    ROLLOUT_SUBMIT,
    EnvVerb,
    env_lease_subject,
    env_verb_subject,
)
from phonebuddy.storage import StoreSettings, open_store
from phonebuddy.testing import (
    NatsServer,
    ScriptedLLM,
    ScriptedReply,
    free_port,
    serve_asgi_in_thread,
)
from phonebuddy.trajectories import RunStatus, TrajectoryError, TrajectoryStore

API_KEY = "bench-policy-key"
DEVICES = 8
FAILING = 64
HOME = f"<tool_call>\n{to_tool_call_json(SystemButton(button='Home'))}\n</tool_call>"


async def submit(nats: NatsSettings, request: RolloutRequest) -> None:
    async with connect(nats) as bus:
        await bus.request(ROLLOUT_SUBMIT, request, RolloutAccepted, timeout_s=120)


async def wait_done(store: TrajectoryStore, run_id: str, timeout_s: float = 600) -> float:
    """Seconds until the run's manifest says done (polled every 20 ms)."""
    started = time.perf_counter()
    while time.perf_counter() - started < timeout_s:
        with contextlib.suppress(TrajectoryError):  # not written yet
            if (await store.read_manifest(run_id)).status == RunStatus.DONE:
                return time.perf_counter() - started
        await asyncio.sleep(0.02)
    raise TimeoutError(f"run {run_id} not done in {timeout_s} s")


async def devices_free_after(nats: NatsSettings, count: int, timeout_s: float = 120) -> float:
    """Seconds until `count` sim devices can all be leased."""
    started = time.perf_counter()
    async with connect(nats) as bus:
        while time.perf_counter() - started < timeout_s:
            leases: list[m.Lease] = []
            try:
                for _ in range(count):
                    leases.append(
                        await bus.request(
                            env_lease_subject(Source.SIM), m.LeaseRequest(client_id="probe"),
                            m.Lease,
                        )
                    )  # fmt: skip
            except RemoteError as exc:
                if exc.code != ErrorCode.NO_DEVICE_AVAILABLE:
                    raise
            for lease in leases:
                await bus.request(
                    env_verb_subject(Source.SIM, lease.instance_id, EnvVerb.RELEASE),
                    m.ReleaseRequest(lease_id=lease.lease_id), m.ReleaseReply,
                )  # fmt: skip
            if len(leases) == count:
                return time.perf_counter() - started
            await asyncio.sleep(0.02)
    raise TimeoutError(f"{count} devices not free within {timeout_s} s")


def quick(run_id: str, teacher_url: str) -> RolloutRequest:
    return RolloutRequest(
        run_id=run_id, tasks=TaskSelection(template_ids=("notes.pin",)),
        policy={"base_url": teacher_url, "model": "teacher"},  # type: ignore[arg-type]
    )  # fmt: skip


async def measure(nats: NatsSettings, store: TrajectoryStore, teacher_url: str) -> dict[str, Any]:
    await submit(nats, quick("warm-up", teacher_url))
    await wait_done(store, "warm-up")
    await submit(nats, quick("quick-alone", teacher_url))
    alone = await wait_done(store, "quick-alone")

    failing = RolloutRequest(
        run_id="failing", policy={"base_url": f"http://127.0.0.1:{free_port()}/v1"},  # type: ignore
        tasks=TaskSelection(template_ids=("settings.toggle",), seeds=tuple(range(FAILING))),
        concurrency=FAILING,  # all queued at once (a window of 8 hid head-of-line blocking)
    )  # fmt: skip
    started = time.perf_counter()
    await submit(nats, failing)
    await submit(nats, quick("quick-behind", teacher_url))
    behind = await wait_done(store, "quick-behind")
    failed_by_then = len(await store.failures("failing"))
    await wait_done(store, "failing")
    failing_s = time.perf_counter() - started

    def script(body: dict[str, Any]) -> ScriptedReply:
        return ScriptedReply.error(400, "no") if body.get("seed") == 0 else (
            ScriptedReply.text(HOME, delay_s=0.5)
        )  # fmt: skip

    async with ScriptedLLM(script) as slow:
        settled = RolloutRequest(
            run_id="settled", policy={"base_url": slow.base_url},  # type: ignore[arg-type]
            tasks=TaskSelection(template_ids=("settings.toggle",)), group_size=DEVICES,
            concurrency=DEVICES, max_env_retries=0, sampling={"seed": 0},  # type: ignore[arg-type]
        )  # fmt: skip
        await submit(nats, settled)
        await wait_done(store, "settled")
        held = await devices_free_after(nats, DEVICES)
    return {
        "quick_run_alone_s": round(alone, 2),
        "quick_run_behind_failing_run_s": round(behind, 2),
        "failing_episodes_given_up_when_quick_run_done": failed_by_then,
        "failing_run_s": round(failing_s, 2),
        "devices_held_after_failed_group_done_s": round(held, 2),
    }


def main() -> None:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, NatsServer(work_dir=Path(folder)) as server:
        store_url = f"local:{Path(folder) / 'store'}"
        nats = NatsSettings(url=server.url, user=server.user, password=server.password)
        world = create_world(WorldSettings(devices=DEVICES, instance_id="bench", port=0), nats)
        teacher_settings = PolicySettings(backend="teacher", api_key=API_KEY, port=0)
        teacher = create_policy(teacher_settings, TeacherBackend(teacher_settings, nats))
        with serve_asgi_in_thread(world), serve_asgi_in_thread(teacher) as teacher_url:
            settings = BrokerSettings(
                instance_id="bench", workers=DEVICES, default_store_url=store_url,
                teacher_url=f"{teacher_url}/v1", policy_api_key=API_KEY, policy_retries=1,
                port=0,
            )  # fmt: skip
            with serve_asgi_in_thread(create_broker(settings, nats)):
                result = asyncio.run(_measure(nats, store_url, f"{teacher_url}/v1"))
    print(
        json.dumps(
            {
                "benchmark": "broker_fairness",
                "setup": (
                    f"nats-server + PhoneWorld ({DEVICES} devices) + teacher + broker "
                    f"({DEVICES} workers, 1 policy retry) in one process; a {FAILING}-episode "
                    "run whose policy is unreachable, queued all at once, then a 1-episode "
                    "teacher run"
                ),
                **result,
                "machine": {
                    "cpus": os.cpu_count(),
                    "python": sys.version.split()[0],
                    "platform": platform.platform(),
                },
                "total_seconds": round(time.perf_counter() - started, 1),
            },
            indent=2,
        )
    )


async def _measure(nats: NatsSettings, store_url: str, teacher_url: str) -> dict[str, Any]:
    async with open_store(StoreSettings(url=store_url)) as raw:
        return await measure(nats, TrajectoryStore(raw), teacher_url)


if __name__ == "__main__":
    main()
