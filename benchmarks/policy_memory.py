"""Policy server memory under bursts of large images: the real server (`python -m
phonebuddy.policy serve`, tiny Qwen3.5-VL on CPU) in a subprocess; its resident memory (RSS) at
rest after a warm-up request (the same prompt with 16 small screenshots), its peak while rounds
of requests arrive, each with 16 images of 4000x9000 pixels (a 14 MiB PNG each: within the
documented limits of 16 MiB and 40 M pixels), and its RSS once each round has settled. Prints
one JSON document.

    .venv/bin/python benchmarks/policy_memory.py [--rounds 3] [--concurrency 1] [--images 16]

The server's environment is this process's (try MALLOC_ARENA_MAX=2, PHONEBUDDY_POLICY_*).
"""

from __future__ import annotations

import argparse
import base64
import io
import json
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
from PIL import Image

from phonebuddy.policy_model import make_tiny
from phonebuddy.testing.ports import free_port

MB = 2**20
WIDTH, HEIGHT = 4000, 9000


def large_png() -> bytes:
    """4000x9000 pixels of 2x2-pixel grey noise: 14 MiB as PNG, 108 MB once decoded to RGB."""
    noise = Image.effect_noise((WIDTH // 2, HEIGHT // 2), 40).convert("RGB")
    buffer = io.BytesIO()
    noise.resize((WIDTH, HEIGHT), Image.Resampling.NEAREST).save(buffer, "PNG")
    return buffer.getvalue()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def settled_rss_mb(pid: int, *, quiet_s: float = 3.0, timeout_s: float = 60.0) -> float:
    """RSS once it has stopped moving (less than 2 MB over `quiet_s`)."""
    deadline = time.monotonic() + timeout_s
    last = rss_mb(pid)
    while time.monotonic() < deadline:
        time.sleep(quiet_s)
        now = rss_mb(pid)
        if abs(now - last) < 2:
            return now
        last = now
    return last


class PeakSampler:
    """Samples a process's RSS every 20 ms on a thread; `peak` is the largest seen."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, rss_mb(self.pid))

    def __enter__(self) -> PeakSampler:
        self.peak = rss_mb(self.pid)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def request_body(image_urls: list[str]) -> bytes:
    parts: list[dict[str, Any]] = [{"type": "text", "text": "What is on these screens?"}]
    parts += [{"type": "image_url", "image_url": {"url": url}} for url in image_urls]
    body = {
        "model": "phonebuddy-policy",
        "messages": [{"role": "user", "content": parts}],
        "max_tokens": 1,
        "temperature": 0,
    }
    return json.dumps(body).encode()


def post(url: str, body: bytes) -> tuple[int, float]:
    started = time.perf_counter()
    response = httpx.post(
        f"{url}/v1/chat/completions",
        content=body,
        headers={"Content-Type": "application/json"},
        timeout=900,
    )
    return response.status_code, time.perf_counter() - started


def wait_ready(url: str, server: subprocess.Popen[bytes], timeout_s: float = 180) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the policy server exited with {server.returncode}")
        try:
            if httpx.get(f"{url}/readyz", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise RuntimeError(f"the policy server was not ready within {timeout_s} s")


def burst(url: str, pid: int, body: bytes, concurrency: int) -> dict[str, Any]:
    """`concurrency` requests at once; the server's peak RSS meanwhile and its RSS after."""
    with PeakSampler(pid) as sampler, ThreadPoolExecutor(concurrency) as pool:
        results = list(pool.map(lambda _: post(url, body), range(concurrency)))
    return {
        "status": sorted({code for code, _ in results}),
        "latency_s": round(max(seconds for _, seconds in results), 1),
        "peak_mb": round(sampler.peak),
        "after_mb": round(settled_rss_mb(pid)),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=1, help="requests per round")
    parser.add_argument("--images", type=int, default=16, help="images per request")
    args = parser.parse_args()
    png = large_png()
    large = f"data:image/png;base64,{base64.b64encode(png).decode()}"
    burst_body = request_body([large] * args.images)
    buffer = io.BytesIO()
    Image.new("RGB", (1080, 2400), (20, 90, 160)).save(buffer, "PNG")
    screenshot = f"data:image/png;base64,{base64.b64encode(buffer.getvalue()).decode()}"
    warm_body = request_body([screenshot] * args.images)  # the same prompt, small images
    with tempfile.TemporaryDirectory() as folder:
        checkpoint = make_tiny(Path(folder) / "tiny", seed=0)
        port = free_port("127.0.0.1")
        url = f"http://127.0.0.1:{port}"
        env = {**os.environ, "PHONEBUDDY_CACHE_DIR": str(Path(folder) / "cache")}
        log = (Path(folder) / "server.log").open("wb")
        server = subprocess.Popen(
            [sys.executable, "-m", "phonebuddy.policy", "serve", "--model", str(checkpoint),
             "--port", str(port)],
            env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            wait_ready(url, server)
            warm_code, _ = post(url, warm_body)
            baseline = settled_rss_mb(server.pid)
            rounds = [
                burst(url, server.pid, burst_body, args.concurrency) for _ in range(args.rounds)
            ]
        except BaseException:
            sys.stderr.write((Path(folder) / "server.log").read_text()[-4000:])
            raise
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()
    after = rounds[-1]["after_mb"] if rounds else baseline
    peak = max([baseline, *(one["peak_mb"] for one in rounds)])
    print(
        json.dumps(
            {
                "benchmark": "policy_memory",
                "model": "tiny Qwen3.5-VL (64M, random), transformers backend, float32 CPU",
                "burst": f"{args.rounds} rounds of {args.concurrency} request(s), each with "
                f"{args.images} images of {WIDTH}x{HEIGHT} ({len(png) / MB:.1f} MiB PNG each)",
                "warm_up_status": warm_code,
                "baseline_mb": round(baseline),
                "peak_mb": round(peak),
                "after_mb": after,
                "after_minus_baseline_mb": round(after - baseline),
                "rounds": rounds,
                "malloc_arena_max": os.environ.get("MALLOC_ARENA_MAX"),
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
