"""RL learning check on CPU: from a tiny Qwen3.5-VL briefly SFT-ed on teacher rollouts (so that
it sometimes succeeds at temperature 1.0), GRPO with the binary PhoneWorld reward on the same
tasks; the reward curve over RL steps, and the success rate at temperature 1.0 before and after
RL on fresh samples of those tasks, with Wilson 95 % intervals and Newcombe's interval for the
difference.

Everything runs for real on one machine: nats-server, PhoneWorld, the scripted teacher and the
broker in this process; `python -m phonebuddy.sft`, `python -m phonebuddy.rl` and `phonebuddy
policy serve` (taking the RL job's weight pushes) as their own processes.

What it can show: the tiny model cannot read instructions (see NOTES.md), so the task set is one
template at one seed, where a briefly SFT-ed model is right only some of the time; RL should
sharpen it towards the rewarded actions. "Does not collapse" is the same comparison read the
other way: the rate after RL is not below the rate before it.

Measured (2 cores), token-mean loss: with --sft-steps 70 the start is near the ceiling (22/24 at
T=1 before, 23/24 after 12 steps at lr 1e-4); with 35 it is 0/24 (every group uniform, nothing
to learn); with 50 (17/40, or 18/48, before at T=1):
- lr 1e-4, 30 steps: 18/48 -> 15/48 (difference CI [-0.24, 0.12]); curve flat (first third
  27/80, last 26/80): the policy barely moves;
- lr 3e-4, 20 steps: 17/40 -> 0/40 (CI [-0.58, -0.26]); curve 3,2,4,2,1,1,1,0,... (first third
  13/48, last 1/48): a steady collapse over 9 updates;
- lr 1e-3, 20 steps: 17/40 -> 0/40; one update (2/8 successes) and every later group fails.
Failing episodes run to the step budget, so with one sample per step they hold most of a
group's tokens: under the token-mean the actions a failure shares with a success are pushed
down on balance. `--loss-agg episode_mean` weighs every episode the same; with it, lr 3e-4,
20 steps: 17/40 -> 14/40 (CI [-0.28, 0.13]), curve 4,3,5,3,4,4,2,1,1,1,2,3,5,3,5,3,1,1,5,4 of 8
(first third 23/48, last 19/48): no collapse, no rise (76 minutes on 2 cores, partly shared).
With --step-budget 4 (only the teacher's path succeeds; at 8 steps an odd number of toggles
also does), --rl-warmup 3, episode_mean, lr 3e-4, 12 steps: 15/32 -> 18/32 at T=1, curve
4,4,3,3,5,4,3,2,4,3,4,6 of 8, difference CI [-0.14, 0.32]: a rise of the estimate inside the
noise (31 minutes on 2 shared cores). The same run at 36 steps (`--rl-steps 36`): curve
2,1,6,4,5,2,2,2,3,5,3,2,3,5,4,3,6,4,7,3,8,4,3,6,7,5,4,4,6,4,4,6,6,5,4,7 of 8, first third
37/96 [0.29, 0.49] -> last third 62/96 [0.55, 0.73], difference CI [0.12, 0.39]: the reward
on the train task rises outside the noise; at T=1 15/32 -> 22/32 (CI [-0.02, 0.43]); no
clipping in any step (84 minutes on 2 shared cores).

Prints one JSON object; progress goes to stderr. About 15 minutes on 2 quiet cores for 12 steps
of 8 episodes; 20 steps took 64 minutes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import secrets
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from local_rig import machine, teacher_rig  # the benchmarks folder is on sys.path
from sft_heldout import log, rate, train

from phonebuddy.bus import NatsSettings
from phonebuddy.policy_model import make_tiny
from phonebuddy.protocol import Episode, PolicyTarget, RolloutRequest, SourceMix, TaskSelection
from phonebuddy.rollouts import RolloutClient
from phonebuddy.stack.local import ServiceProcess
from phonebuddy.trajectories import TrajectoryStore, wilson

ADMIN_TOKEN = secrets.token_urlsafe(16)  # this run's policy admin token
SERVED_NAME = "phonebuddy-policy"
RUN_TIMEOUT_S = 3600.0


def newcombe(before: tuple[int, int], after: tuple[int, int]) -> list[float]:
    """95 % interval of after-rate minus before-rate (Newcombe's hybrid score method)."""
    (s1, n1), (s2, n2) = before, after
    p1, p2 = s1 / n1, s2 / n2
    l1, u1 = wilson(s1, n1)
    l2, u2 = wilson(s2, n2)
    d = p2 - p1
    low = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    high = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    return [round(low, 4), round(high, 4)]


def successes(episodes: Sequence[Episode]) -> int:
    return sum(1 for e in episodes if e.verdict is not None and e.verdict.success)


async def sample_episodes(
    nats: NatsSettings,
    store: TrajectoryStore,
    run_id: str,
    policy: PolicyTarget,
    template: str,
    seeds: Sequence[int],
    *,
    episodes: int,
    temperature: float,
    step_budget: int,
    max_tokens: int,
) -> list[Episode]:
    request = RolloutRequest(
        run_id=run_id,
        tasks=TaskSelection(template_ids=(template,), seeds=tuple(seeds)),
        policy=policy,
        group_size=episodes,
        mix=SourceMix(sim=1.0),
        sampling={"temperature": temperature, "max_tokens": max_tokens, "seed": 0},  # type: ignore[arg-type]
        step_budget=step_budget,
    )
    async with RolloutClient.connect(nats) as client:
        await client.run(request, timeout_s=RUN_TIMEOUT_S)
    found = [episode async for episode in store.episodes(run_id)]
    failures = await store.failures(run_id)
    if failures:
        raise RuntimeError(f"rollout {run_id}: {len(failures)} episodes could not be run")
    return found


def pushable_policy(model: str, staging: Path, work_dir: Path) -> ServiceProcess:
    return ServiceProcess(
        name="policy",
        args=["policy", "serve", "--model", model],
        env={
            "PHONEBUDDY_POLICY_ADMIN_TOKEN": ADMIN_TOKEN,
            "PHONEBUDDY_POLICY_WEIGHT_ROOTS": str(staging),
        },
        work_dir=work_dir,
    )


def run_rl(
    base: str, policy_url: str, nats: NatsSettings, folder: Path, args: argparse.Namespace
) -> tuple[list[dict[str, Any]], float]:
    """`python -m phonebuddy.rl` on the template at its train seeds; its events, its seconds."""
    settings = [
        f"rollout.templates=[{args.template}]", f"rollout.seeds=[0,{args.train_seeds}]",
        f"rollout.tasks_per_step={args.tasks_per_step}", f"rollout.group_size={args.group_size}",
        f"rollout.step_budget={args.step_budget}", "rollout.max_extra_rounds=0",
        f"rollout.max_tokens={args.max_tokens}", f"train.steps={args.rl_steps}",
        f"optim.lr={args.rl_lr}", f"optim.warmup_steps={args.rl_warmup}",
        f"algorithm.loss_agg={args.loss_agg}",
        f"policy.staging={folder / 'staging'}",
        f"checkpoint.every_steps={args.rl_steps}",
    ]  # fmt: skip
    command = [
        sys.executable, "-m", "phonebuddy.rl", "--preset", "tiny-cpu", "--base", base,
        "--policy-url", policy_url, "--output", f"local:{folder / 'rl'}",
        *(part for setting in settings for part in ("--set", setting)),
    ]  # fmt: skip
    env = {
        **os.environ,
        "PHONEBUDDY_NATS_URL": nats.url,
        "PHONEBUDDY_NATS_USER": str(nats.user),
        "PHONEBUDDY_NATS_PASSWORD": nats.password.get_secret_value() if nats.password else "",
        "PHONEBUDDY_POLICY_ADMIN_TOKEN": ADMIN_TOKEN,
    }
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    if result.returncode != 0:
        raise RuntimeError(f"the RL job failed ({result.returncode}): {result.stderr[-3000:]}")
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return events, round(time.perf_counter() - started, 1)


def curve(store: TrajectoryStore, name: str, steps: int) -> list[dict[str, Any]]:
    """Per RL step: the successes among every episode its rounds rolled out."""

    async def read() -> list[dict[str, Any]]:
        runs = set(await store.run_ids())
        points = []
        for step in range(steps):
            prefix = f"{name}-step{step:05d}-r"
            found: list[Episode] = []
            for run_id in sorted(r for r in runs if r.startswith(prefix)):
                found += [episode async for episode in store.episodes(run_id)]
            points.append({"step": step, "rounds": sum(r.startswith(prefix) for r in runs),
                           **rate(successes(found), len(found))})  # fmt: skip
        return points

    return asyncio.run(read())


def summary(points: Sequence[dict[str, Any]]) -> dict[str, Any]:
    third = max(1, len(points) // 3)
    first, last = points[:third], points[-third:]

    def pooled(chosen: Sequence[dict[str, Any]]) -> tuple[int, int]:
        return sum(p["successes"] for p in chosen), sum(p["episodes"] for p in chosen)

    before, after = pooled(first), pooled(last)
    rates = [p["rate"] for p in points if p["rate"] is not None]
    mean = sum(rates) / len(rates)
    steps = [p["step"] for p in points if p["rate"] is not None]
    step_mean = sum(steps) / len(steps)
    slope = sum((s - step_mean) * (r - mean) for s, r in zip(steps, rates, strict=True)) / max(
        1e-9, sum((s - step_mean) ** 2 for s in steps)
    )
    return {
        "first_third": rate(*before),
        "last_third": rate(*after),
        "last_minus_first_ci95": newcombe(before, after),
        "least_squares_slope_per_step": round(slope, 4),
        "per_step_rate_std": round(
            math.sqrt(sum((r - mean) ** 2 for r in rates) / max(1, len(rates) - 1)), 4
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--template", default="settings.toggle")
    parser.add_argument("--train-seeds", type=int, default=1, help="seeds 0..N-1")
    parser.add_argument("--sft-steps", type=int, default=70, help="brief SFT: optimizer steps")
    parser.add_argument(
        "--sft-set", action="append", default=[], metavar="KEY=VALUE",
        help="an SFT setting over sft_heldout's (repeatable), e.g. optim.global_batch_rows=1",
    )  # fmt: skip
    parser.add_argument("--rl-steps", type=int, default=12)
    parser.add_argument("--rl-lr", type=float, default=1e-4)
    parser.add_argument("--rl-warmup", type=int, default=0, help="RL steps of lr warm-up")
    parser.add_argument("--loss-agg", choices=["token_mean", "episode_mean"], default="token_mean")
    parser.add_argument("--tasks-per-step", type=int, default=1)
    parser.add_argument("--group-size", type=int, default=8)
    parser.add_argument("--probe-episodes", type=int, default=24, help="per seed, before/after")
    parser.add_argument("--step-budget", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, default=64)
    parser.add_argument("--devices", type=int, default=4, help="PhoneWorld devices = workers")
    args = parser.parse_args()
    seeds = list(range(args.train_seeds))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "staging").mkdir()
        base = make_tiny(folder / "base", seed=0)
        with teacher_rig(folder, devices=args.devices, instance_id="rl-bench") as rig:
            nats, store_url, store = rig.nats, rig.store_url, rig.store
            sampling = {
                "episodes": args.probe_episodes, "temperature": 1.0,
                "step_budget": args.step_budget, "max_tokens": args.max_tokens,
            }  # fmt: skip
            log(f"teacher rollouts: {args.template} seeds {seeds}")
            teacher_target = PolicyTarget(endpoint="teacher", model="phonebuddy-policy")
            asyncio.run(
                sample_episodes(
                    nats, store, "teacher", teacher_target, args.template, seeds,
                    episodes=1, temperature=0.0, step_budget=30, max_tokens=256,
                )
            )  # fmt: skip
            log(f"brief SFT: {args.sft_steps} steps")
            sft = train(base, store_url, "teacher", folder / "sft", args.sft_steps, args.sft_set)
            log(f"SFT {sft}; RL from it")
            with pushable_policy(sft["checkpoint"], folder / "staging", folder / "p") as p:
                target = PolicyTarget(base_url=f"{p.url}/v1", model=SERVED_NAME)
                before = asyncio.run(
                    sample_episodes(nats, store, "probe-before", target, args.template,
                                    seeds, **sampling)  # type: ignore[arg-type]
                )  # fmt: skip
                log(f"before RL: {successes(before)}/{len(before)}")
                events, rl_s = run_rl(sft["checkpoint"], p.url, nats, folder, args)
                # The server now serves the RL job's last pushed weights.
                after = asyncio.run(
                    sample_episodes(nats, store, "probe-after", target, args.template,
                                    seeds, **sampling)  # type: ignore[arg-type]
                )  # fmt: skip
                log(f"after RL: {successes(after)}/{len(after)}")
            served = [e["version"] for e in events if e["event"] == "weights"]
            points = curve(store, "tiny-rl", args.rl_steps)
    steps = [e for e in events if e["event"] == "step"]
    before_count = (successes(before), len(before))
    after_count = (successes(after), len(after))
    print(
        json.dumps(
            {
                "benchmark": "rl_learning",
                "model": "tiny random Qwen3.5-VL (make_tiny, seed 0): 2 layers, width 128",
                "template": args.template,
                "train_seeds": seeds,
                "sft": {**sft, "extra_settings": args.sft_set},
                "rl": {
                    "steps": len(steps),
                    "tasks_per_step": args.tasks_per_step,
                    "group_size": args.group_size,
                    "lr": args.rl_lr,
                    "warmup_steps": args.rl_warmup,
                    "loss_agg": args.loss_agg,
                    "last_version_served": served[-1] if served else None,
                    "trained_steps": sum(1 for e in steps if e.get("batch/kept_groups")),
                    "wall_s": rl_s,
                },
                "reward_curve": points,
                "curve_summary": summary(points),
                "pg_clipfrac": [round(e.get("actor/pg_clipfrac", 0.0), 4) for e in steps],
                "probe": {
                    "temperature": 1.0,
                    "before_rl": rate(*before_count),
                    "after_rl": rate(*after_count),
                    "after_minus_before_ci95": newcombe(before_count, after_count),
                },
                "machine": machine(),
                "total_seconds": round(time.perf_counter() - started, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
