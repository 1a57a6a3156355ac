"""Policy server throughput with the tiny Qwen3.5-VL on this machine's CPU: requests/s and
latency p50/p95 for 1 client (sequential) and 8 concurrent clients (batched), each request a
real rollout prompt (system + mobile_use tool schema + instruction + one 1080x2400 PhoneWorld
screenshot) asking for 32 tokens. Prints one JSON document.

    .venv/bin/python benchmarks/policy_throughput.py [--requests 24] [--max-tokens 32]
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

from phonebuddy.agent import PolicyClient, PolicyEndpoint, Sampling, build_prompt
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.tasks.registry import get_template
from phonebuddy.phoneworld.tasks.runner import instantiate, start
from phonebuddy.phoneworld.world import default_world
from phonebuddy.policy.app import backend_for, create_app
from phonebuddy.policy.settings import PolicySettings
from phonebuddy.policy_model import make_tiny
from phonebuddy.testing import serve_asgi_in_thread


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run_clients(url: str, prompt: Any, frames: dict[str, bytes], *, clients: int,
                      requests: int, max_tokens: int) -> dict[str, Any]:  # fmt: skip
    latencies: list[float] = []
    tokens = 0
    endpoint = PolicyEndpoint(base_url=f"{url}/v1", timeout_s=600)
    sampling = Sampling(max_tokens=max_tokens, temperature=1.0)
    per_client = requests // clients

    async def client(policy: PolicyClient) -> None:
        nonlocal tokens
        for _ in range(per_client):
            reply = await policy.act(prompt, frames, sampling)
            latencies.append(reply.latency_s)
            tokens += reply.completion_tokens or 0

    async with PolicyClient(endpoint) as policy:
        await policy.act(prompt, frames, sampling)  # warm-up
        started = time.perf_counter()
        await asyncio.gather(*(client(policy) for _ in range(clients)))
        elapsed = time.perf_counter() - started
    done = per_client * clients
    return {
        "clients": clients,
        "requests": done,
        "requests_per_s": round(done / elapsed, 3),
        "completion_tokens_per_s": round(tokens / elapsed, 1),
        "latency_p50_s": round(statistics.median(latencies), 3),
        "latency_p95_s": round(percentile(latencies, 0.95), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=24)
    parser.add_argument("--max-tokens", type=int, default=32)
    args = parser.parse_args()
    world = default_world()
    device = Device(world)
    instance = instantiate(get_template("notes.create"), world, seed=0, language="en")
    start(device, instance)
    observation, frame = device.observe(image_format="jpeg")
    prompt = build_prompt(instance.spec, [], observation)
    frames = {frame.ref.sha256: frame.data}
    with tempfile.TemporaryDirectory() as folder:
        checkpoint = make_tiny(Path(folder) / "tiny", seed=0)
        settings = PolicySettings(model=str(checkpoint), max_batch_rows=8, batch_wait_ms=10)
        with serve_asgi_in_thread(create_app(settings, backend_for(settings))) as url:
            sequential = asyncio.run(run_clients(url, prompt, frames, clients=1,
                                                 requests=args.requests // 2,
                                                 max_tokens=args.max_tokens))  # fmt: skip
            concurrent = asyncio.run(run_clients(url, prompt, frames, clients=8,
                                                 requests=args.requests,
                                                 max_tokens=args.max_tokens))  # fmt: skip
    print(
        json.dumps(
            {
                "benchmark": "policy_throughput",
                "model": "tiny Qwen3.5-VL (64M, random), transformers backend, float32 CPU",
                "prompt": "system + mobile_use tools + instruction + one 1080x2400 JPEG screenshot",
                "max_tokens": args.max_tokens,
                "sequential": sequential,
                "concurrent_8": concurrent,
                "batching_speedup": round(
                    concurrent["requests_per_s"] / sequential["requests_per_s"], 2
                ),
                "machine": {
                    "cpus": os.cpu_count(),
                    "python": sys.version.split()[0],
                    "platform": platform.platform(),
                },
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
