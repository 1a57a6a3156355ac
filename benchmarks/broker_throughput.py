"""Rollout broker throughput with the teacher policy on PhoneWorld, all in this process on
loopback (no GPU): a real nats-server, PhoneWorld with 32 devices, the teacher policy server
(it plays each task's oracle solution) and the broker with 32 workers, each app served in its own
thread; trajectories go to a local object store in a temporary folder.

A small warm-up run goes first (connections, first imports and caches), then one rollout
(`--suite`, seeds 0..N-1, group size G, concurrency = devices, mix sim=1) is submitted over NATS
and its run manifest polled until it is done. From the stored episodes it reports episodes/s and
env steps/s (submission to done), success rate, the mean env and policy time per step (from each
step's timings) and the broker's own overhead per step:

    (sum over episodes of (finished_at - started_at) - sum of the steps' env_s + policy_s)
    / total steps

with its p50/p95 per episode. That overhead is everything inside an episode's run that is not a
step's env or policy call: reset and verify, storing screenshots, building prompts, scheduling.
Time outside the episodes (queueing, leasing and releasing devices, storing the episode, manifest
upkeep) shows as `mean_concurrency` (summed episode time / wall time) below the concurrency.
Every service shares this one Python process (one GIL): on a small machine the env and policy
times include waiting for the interpreter; `process_cpu_cores_used` shows how busy it was.
Prints one JSON document.

    .venv/bin/python benchmarks/broker_throughput.py [--devices 32] [--group-size 4] [--seeds 6]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from phonebuddy.broker.app import create_app as create_broker
from phonebuddy.broker.settings import BrokerSettings
from phonebuddy.bus import NatsSettings, connect
from phonebuddy.phoneworld.service.app import create_app as create_world
from phonebuddy.phoneworld.service.settings import WorldSettings
from phonebuddy.policy.app import create_app as create_policy
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy.teacher_backend import TeacherBackend
from phonebuddy.protocol import (
    Episode,
    PolicyTarget,
    RolloutAccepted,
    RolloutRequest,
    SourceMix,
    TaskSelection,
)
from phonebuddy.protocol.subjects import ROLLOUT_SUBMIT
from phonebuddy.storage import StoreSettings, open_store
from phonebuddy.testing import NatsServer, serve_asgi_in_thread
from phonebuddy.trajectories import GroupStatus, RunStatus, TrajectoryStore

API_KEY = "bench-policy-key"
RUN_TIMEOUT_S = 600.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


async def rollout(
    nats: NatsSettings, store_url: str, request: RolloutRequest
) -> tuple[RolloutAccepted, list[Episode], int, float, float]:
    """Submit `request`, poll its manifest until done; the accepted reply, the stored
    episodes, the number of given-up episodes, the wall time (submission to done) and this
    process's CPU time (all threads) meanwhile."""
    store = open_store(StoreSettings(url=store_url))
    await store.open()
    try:
        trajectories = TrajectoryStore(store)
        async with connect(nats) as bus:
            started, cpu_started = time.perf_counter(), time.process_time()
            accepted = await bus.request(ROLLOUT_SUBMIT, request, RolloutAccepted, timeout_s=120)
            deadline = started + RUN_TIMEOUT_S
            while True:
                manifest = await trajectories.read_manifest(request.run_id)
                if manifest.status == RunStatus.DONE:
                    break
                if time.perf_counter() > deadline:
                    pending = sum(g.status == GroupStatus.PENDING for g in manifest.groups)
                    raise TimeoutError(
                        f"run {request.run_id} not done after {RUN_TIMEOUT_S:.0f} s: "
                        f"{pending} of {len(manifest.groups)} groups still pending"
                    )
                await asyncio.sleep(0.05)
            wall_s = time.perf_counter() - started
            cpu_s = time.process_time() - cpu_started
        episodes = [episode async for episode in trajectories.episodes(request.run_id)]
        failed = len(await trajectories.failures(request.run_id))
    finally:
        await store.close()
    return accepted, episodes, failed, wall_s, cpu_s


def summarize(
    accepted: RolloutAccepted, episodes: list[Episode], failed: int, wall_s: float, cpu_s: float
) -> dict[str, Any]:
    steps = [step for episode in episodes for step in episode.steps]
    total_steps = len(steps)
    if not total_steps:
        raise RuntimeError(f"run {accepted.run_id} stored no steps ({failed} episodes failed)")
    durations: list[float] = []
    overhead_per_step: list[float] = []
    overhead_total = 0.0
    for episode in episodes:
        duration = (episode.finished_at - episode.started_at).total_seconds()
        spent = sum(step.timings.env_s + step.timings.policy_s for step in episode.steps)
        durations.append(duration)
        overhead_total += duration - spent
        if episode.steps:
            overhead_per_step.append((duration - spent) / len(episode.steps))
    successes = sum(1 for e in episodes if e.verdict is not None and e.verdict.success)
    acted = [step for step in steps if step.action is not None]
    return {
        "groups": accepted.groups,
        "episodes_planned": accepted.episodes,
        "episodes": len(episodes),
        "episodes_failed": failed,
        "env_steps": total_steps,
        "invalid_steps": total_steps - len(acted),
        "wall_s": round(wall_s, 3),
        "episodes_per_s": round(len(episodes) / wall_s, 2),
        "env_steps_per_s": round(total_steps / wall_s, 1),
        "success_rate": round(successes / len(episodes), 4),
        "steps_per_episode_mean": round(total_steps / len(episodes), 2),
        "episode_s_p50": round(statistics.median(durations), 3),
        "episode_s_p95": round(percentile(durations, 0.95), 3),
        "mean_concurrency": round(sum(durations) / wall_s, 1),
        "process_cpu_cores_used": round(cpu_s / wall_s, 2),
        "per_step_ms": {
            "env_mean": _ms(statistics.fmean(s.timings.env_s for s in acted)),
            "policy_mean": _ms(statistics.fmean(s.timings.policy_s for s in steps)),
            "broker_overhead_mean": _ms(overhead_total / total_steps),
            "broker_overhead_p50_per_episode": _ms(statistics.median(overhead_per_step)),
            "broker_overhead_p95_per_episode": _ms(percentile(overhead_per_step, 0.95)),
        },
    }


def request_for(
    run_id: str, policy_url: str, *, suite: str, seeds: range, group_size: int, concurrency: int
) -> RolloutRequest:
    return RolloutRequest(
        run_id=run_id,
        tasks=TaskSelection(suite=suite, seeds=tuple(seeds)),
        policy=PolicyTarget(base_url=f"{policy_url}/v1", model="phonebuddy-policy"),
        group_size=group_size,
        mix=SourceMix(sim=1.0),
        concurrency=concurrency,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--devices", type=int, default=32, help="PhoneWorld devices = workers")
    parser.add_argument("--group-size", type=int, default=4)
    parser.add_argument("--seeds", type=int, default=6, help="seeds 0..N-1 of every task")
    parser.add_argument("--suite", default="smoke", help="PhoneWorld task suite")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder, NatsServer(work_dir=Path(folder)) as server:
        store_url = f"local:{Path(folder) / 'store'}"
        os.environ["PHONEBUDDY_STORE_URL"] = store_url
        nats = NatsSettings(url=server.url, user=server.user, password=server.password)
        world = create_world(WorldSettings(devices=args.devices, instance_id="bench"), nats)
        policy_settings = PolicySettings(backend="teacher", api_key=API_KEY)
        policy = create_policy(policy_settings, TeacherBackend(policy_settings, nats))
        with serve_asgi_in_thread(world), serve_asgi_in_thread(policy) as policy_url:
            # The teacher is the broker's `teacher` endpoint: it gets the key and the task ids.
            broker_settings = BrokerSettings(
                instance_id="bench", workers=args.devices, default_store_url=store_url,
                teacher_url=f"{policy_url}/v1", policy_api_key=API_KEY,
            )  # fmt: skip
            key = broker_settings.policy_api_key
            if key is None or key.get_secret_value() != API_KEY:
                raise RuntimeError("the broker did not take the policy API key")
            broker = create_broker(broker_settings, nats)
            with serve_asgi_in_thread(broker):
                warm_up = request_for(
                    "bench-warmup", policy_url, suite="smoke", seeds=range(1000, 1001),
                    group_size=2, concurrency=args.devices,
                )  # fmt: skip
                warm = summarize(*asyncio.run(rollout(nats, store_url, warm_up)))
                measured = request_for(
                    "bench-run", policy_url, suite=args.suite, seeds=range(args.seeds),
                    group_size=args.group_size, concurrency=args.devices,
                )  # fmt: skip
                result = summarize(*asyncio.run(rollout(nats, store_url, measured)))
    print(
        json.dumps(
            {
                "benchmark": "broker_throughput",
                "setup": (
                    f"nats-server + PhoneWorld ({args.devices} devices) + teacher policy + "
                    f"broker ({args.devices} workers) in one process on loopback; local store"
                ),
                "tasks": f"suite {args.suite}, seeds 0..{args.seeds - 1}",
                "group_size": args.group_size,
                "concurrency": args.devices,
                "image_format": "jpeg",
                "warm_up": {"episodes": warm["episodes"], "wall_s": warm["wall_s"]},
                "run": result,
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


if __name__ == "__main__":
    main()
