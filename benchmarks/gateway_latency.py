"""Device-gateway latency: the same PhoneWorld phone driven through the gateway (NATS -> gateway
-> adbutils -> adb server -> ADB -> PhoneWorld) and directly over NATS (PhoneWorld's own env
verbs), and screenshots per second across 20 phones through the gateway. Prints one JSON
document.

Every server is real and runs as its own process: nats-server, the adb server (adbutils' adb),
`phonebuddy world serve --adb-ports`, `phonebuddy gateway serve`. Frames are PNG on both paths
(a screencap is PNG), with the UI tree. "act" is one action without an observation; "step" is
an action that returns the observation after it; each action changes the screen (it alternates
between opening Notes and pressing Home), so every frame is rendered anew.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from phonebuddy.bus import Bus, NatsSettings, connect
from phonebuddy.protocol import Open, Source, SystemButton, SystemButtonName
from phonebuddy.protocol import env as m
from phonebuddy.protocol.subjects import EnvVerb, env_lease_subject, env_verb_subject
from phonebuddy.stack.local import ServiceProcess
from phonebuddy.testing import AdbServer, NatsServer
from phonebuddy.testing.ports import port_is_free

DEVICES = 20
SAMPLES = 60
THROUGHPUT_S = 5.0
ACTIONS = (Open(text="com.pw.notes"), SystemButton(button=SystemButtonName.HOME))


def port_block(count: int) -> int:
    rng = random.SystemRandom()
    for _ in range(200):
        base = rng.randrange(20000, 32000 - count)
        if all(port_is_free(base + i) for i in range(count)):
            return base
    raise RuntimeError("no free port block")


class Env:
    """One env endpoint (a source and an instance) seen through the bus."""

    def __init__(self, bus: Bus, source: Source, instance_id: str) -> None:
        self.bus = bus
        self.source = source
        self.instance_id = instance_id

    async def lease(self) -> m.Lease:
        request = m.LeaseRequest(client_id="bench", ttl_s=600)
        return await self.bus.request(env_lease_subject(self.source), request, m.Lease)

    async def call(self, verb: EnvVerb, request: Any, reply: type[Any]) -> Any:
        subject = env_verb_subject(self.source, self.instance_id, verb)
        return await self.bus.request(subject, request, reply, timeout_s=30)


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 2),
        "p90_ms": round(ordered[int(len(ordered) * 0.9) - 1] * 1000, 2),
        "mean_ms": round(statistics.fmean(ordered) * 1000, 2),
    }


async def timed(work: Callable[[int], Awaitable[Any]], samples: int) -> list[float]:
    await work(0)  # warm up
    times = []
    for index in range(1, samples + 1):
        started = time.perf_counter()
        await work(index)
        times.append(time.perf_counter() - started)
    return times


async def measure_path(env: Env) -> dict[str, dict[str, float]]:
    lease = await env.lease()

    async def act(index: int) -> None:
        action = ACTIONS[index % 2]
        await env.call(
            EnvVerb.ACT, m.ActRequest(lease_id=lease.lease_id, action=action), m.ActReply
        )

    async def observe(index: int) -> None:
        await act(index)  # a changed screen, so the frame is rendered, not cached
        request = m.ObserveRequest(lease_id=lease.lease_id, image_format="png")
        await env.call(EnvVerb.OBSERVE, request, m.ObserveReply)

    async def step(index: int) -> None:
        request = m.ActRequest(
            lease_id=lease.lease_id, action=ACTIONS[index % 2], observe=True, image_format="png"
        )
        await env.call(EnvVerb.ACT, request, m.ActReply)

    acts = await timed(act, SAMPLES)
    act_then_observe = await timed(observe, SAMPLES)
    steps = await timed(step, SAMPLES)
    observes = [both - one for both, one in zip(act_then_observe, acts, strict=True)]
    await env.call(EnvVerb.RELEASE, m.ReleaseRequest(lease_id=lease.lease_id), m.ReleaseReply)
    return {"act": summary(acts), "observe": summary(observes), "step": summary(steps)}


async def screenshots_per_second(env: Env, *, changing: bool) -> float:
    leases = [await env.lease() for _ in range(DEVICES)]
    deadline = time.perf_counter() + THROUGHPUT_S
    counts = [0] * DEVICES

    async def run(slot: int, lease: m.Lease) -> None:
        index = 0
        while time.perf_counter() < deadline:
            if changing:
                request: Any = m.ActRequest(
                    lease_id=lease.lease_id, action=ACTIONS[index % 2], observe=True,
                    image_format="png",
                )  # fmt: skip
                await env.call(EnvVerb.ACT, request, m.ActReply)
            else:
                request = m.ObserveRequest(
                    lease_id=lease.lease_id, image_format="png", include_ui_tree=False
                )
                await env.call(EnvVerb.OBSERVE, request, m.ObserveReply)
            counts[slot] += 1
            index += 1

    started = time.perf_counter()
    await asyncio.gather(*(run(i, lease) for i, lease in enumerate(leases)))
    elapsed = time.perf_counter() - started
    for lease in leases:
        await env.call(EnvVerb.RELEASE, m.ReleaseRequest(lease_id=lease.lease_id), m.ReleaseReply)
    return round(sum(counts) / elapsed, 1)


async def bench(nats: NatsServer, world_id: str, gateway_id: str) -> dict[str, Any]:
    settings = NatsSettings(url=nats.url, user=nats.user, password=nats.password)
    async with connect(settings) as bus:
        direct = Env(bus, Source.SIM, world_id)
        gateway = Env(bus, Source.REAL, gateway_id)
        # Both lease their first free phone: PhoneWorld's device 0 is the gateway's lowest
        # serial (the lowest ADB port), so both paths drive the same phone.
        direct_lease = await direct.lease()
        gateway_lease = await gateway.lease()
        same = direct_lease.device_id.endswith("-0")
        await direct.call(
            EnvVerb.RELEASE, m.ReleaseRequest(lease_id=direct_lease.lease_id), m.ReleaseReply
        )
        await gateway.call(
            EnvVerb.RELEASE, m.ReleaseRequest(lease_id=gateway_lease.lease_id), m.ReleaseReply
        )
        through_gateway = await measure_path(gateway)
        over_nats = await measure_path(direct)
        ratio = {
            verb: round(through_gateway[verb]["median_ms"] / over_nats[verb]["median_ms"], 2)
            for verb in through_gateway
        }
        return {
            "same_phone": same and gateway_lease.device_id.startswith("127.0.0.1:"),
            "gateway": through_gateway,
            "direct_nats": over_nats,
            "ratio_gateway_over_direct_median": ratio,
            f"screenshots_per_s_{DEVICES}_devices_unchanged_screen": await screenshots_per_second(
                gateway, changing=False
            ),
            f"steps_with_screenshot_per_s_{DEVICES}_devices": await screenshots_per_second(
                gateway, changing=True
            ),
        }


def main() -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="pb-gateway-bench-") as scratch:
        work = Path(scratch)
        with NatsServer() as nats, AdbServer() as adb:
            env = {
                "PHONEBUDDY_NATS_URL": nats.url,
                "PHONEBUDDY_NATS_USER": nats.user,
                "PHONEBUDDY_NATS_PASSWORD": nats.password,
                "PHONEBUDDY_LOG_LEVEL": "WARNING",
            }
            base = port_block(DEVICES)
            world_args = ["world", "serve", "--devices", str(DEVICES), "--instance-id", "bench",
                          "--adb-ports", str(base)]  # fmt: skip
            addresses = ",".join(f"127.0.0.1:{base + i}" for i in range(DEVICES))
            gateway_env = env | {
                "PHONEBUDDY_GATEWAY_ADB_SERVER": f"127.0.0.1:{adb.port}",
                "PHONEBUDDY_GATEWAY_CONNECT": addresses,
                "PHONEBUDDY_GATEWAY_SERIALS": addresses,
                "PHONEBUDDY_GATEWAY_SETTLE_S": "0",
            }
            gateway_args = ["gateway", "serve", "--instance-id", "benchgw"]
            with (
                ServiceProcess(name="phoneworld", args=world_args, env=env, work_dir=work / "w"),
                ServiceProcess(
                    name="gateway", args=gateway_args, env=gateway_env, work_dir=work / "g"
                ),
            ):
                result = asyncio.run(bench(nats, "bench", "benchgw"))
    result["machine"] = {"python": sys.version.split()[0], "samples": SAMPLES}
    return result


if __name__ == "__main__":
    print(json.dumps(main(), indent=2))
