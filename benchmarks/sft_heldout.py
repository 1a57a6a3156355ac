"""SFT learning on held-out seeds: the tiny Qwen3.5-VL fine-tuned on teacher rollouts of some
PhoneWorld templates (train seeds) against the untrained model, both rolled out on PhoneWorld's
held-out test seeds of the same templates, with Wilson 95 % intervals.

Everything runs for real on one machine: nats-server, PhoneWorld, the scripted teacher and the
broker in this process; `phonebuddy policy serve` for the untrained and the fine-tuned model, and
`python -m phonebuddy.sft` for the training, as their own processes. The teacher's episodes go
through the broker into a local trajectory store, the SFT job reads that run, the checkpoint it
publishes is served straight from the store.

The template, and why: the tiny model (2 layers, width 128) learns the format and the order of
actions from a few dozen examples but does not learn to read an instruction in minutes on a CPU
(see NOTES.md). So the default is one template whose oracle path is the same for every seed
(`messages.delete_thread`: the screen's contents differ, the taps do not), which it can learn
from the format and the history alone. Success here shows that SFT learnt the template's action
sequence from demonstrations and carries it to unseen screens; it does not show instruction
following. A mixed set needs the first action to pick the right app from the instruction: with
the four seed-invariant templates plus `settings.toggle` (4 train seeds each, 200 steps) the
fine-tuned model wrote only valid actions but solved 0/20 held-out episodes (untrained 0/20).
The JSON reports, per template, how many distinct oracle paths its seeds have.

Prints one JSON object; progress goes to stderr. About 10 minutes on 2 quiet cores.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from local_rig import machine, teacher_rig  # the benchmarks folder is on sys.path

from phonebuddy.bus import NatsSettings, connect
from phonebuddy.phoneworld.demonstrations import oracle_actions
from phonebuddy.phoneworld.tasks.registry import get_template
from phonebuddy.phoneworld.tasks.runner import instantiate
from phonebuddy.phoneworld.world import default_world
from phonebuddy.policy_model import make_tiny
from phonebuddy.protocol import (
    TEST_SEEDS,
    Episode,
    RolloutAccepted,
    RolloutRequest,
    SourceMix,
    TaskSelection,
)
from phonebuddy.protocol.subjects import ROLLOUT_SUBMIT
from phonebuddy.stack.local import ServiceProcess
from phonebuddy.trajectories import RunStatus, TrajectoryStore, wilson

DEFAULT_TEMPLATES = ("messages.delete_thread",)  # one oracle path for every seed
SERVED_NAME = "tiny"
RUN_TIMEOUT_S = 3600.0
# The recipe that memorizes an episode in ~70 steps (tests/training_jobs/sft), run longer.
TRAIN_SETTINGS = (
    "data.validation_fraction=0", "optim.global_batch_rows=2", "optim.lr=4e-3",
    "optim.min_lr=1e-3", "optim.warmup_steps=5", "train.epochs=1000",
    "checkpoint.every_steps=100000", "metrics.eval_every_steps=100000",
)  # fmt: skip


def log(message: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def rate(successes: int, trials: int) -> dict[str, Any]:
    return {
        "successes": successes,
        "episodes": trials,
        "rate": round(successes / trials, 4) if trials else None,
        "ci95": list(wilson(successes, trials)),  # Wilson score interval
    }


def distinct_oracle_paths(template_id: str, seeds: Sequence[int]) -> int:
    world = default_world()
    template = get_template(template_id)
    paths = {
        tuple(a.model_dump_json() for a in oracle_actions(world, instantiate(template, world, s)))
        for s in seeds
    }
    return len(paths)


async def roll_out(
    nats: NatsSettings,
    store: TrajectoryStore,
    run_id: str,
    policy: dict[str, str],
    templates: Sequence[str],
    seeds: Sequence[int],
    *,
    step_budget: int,
    max_tokens: int,
) -> list[Episode]:
    """Submit one rollout (one episode per template and seed), wait for it, its episodes."""
    request = RolloutRequest(
        run_id=run_id,
        tasks=TaskSelection(template_ids=tuple(templates), seeds=tuple(seeds)),
        policy=policy,  # type: ignore[arg-type]
        group_size=1,
        mix=SourceMix(sim=1.0),
        sampling={"temperature": 0.0, "max_tokens": max_tokens},  # type: ignore[arg-type]
        step_budget=step_budget,
    )
    async with connect(nats) as bus:
        await bus.request(ROLLOUT_SUBMIT, request, RolloutAccepted, timeout_s=120)
    deadline = time.monotonic() + RUN_TIMEOUT_S
    while (await store.read_manifest(run_id)).status != RunStatus.DONE:
        if time.monotonic() > deadline:
            raise TimeoutError(f"rollout {run_id} not done after {RUN_TIMEOUT_S:.0f} s")
        await asyncio.sleep(0.5)
    episodes = [episode async for episode in store.episodes(run_id)]
    failures = await store.failures(run_id)
    if failures:
        raise RuntimeError(f"rollout {run_id}: {len(failures)} episodes could not be run")
    return episodes


def score(episodes: Sequence[Episode], templates: Sequence[str]) -> dict[str, Any]:
    by_template: dict[str, list[Episode]] = {template: [] for template in templates}
    for episode in episodes:
        by_template[episode.task.template_id].append(episode)

    def successes(group: Sequence[Episode]) -> int:
        return sum(1 for e in group if e.verdict is not None and e.verdict.success)

    steps = [step for episode in episodes for step in episode.steps]
    return {
        "overall": rate(successes(episodes), len(episodes)),
        "by_template": {t: rate(successes(g), len(g)) for t, g in by_template.items()},
        "steps_per_episode": round(len(steps) / max(1, len(episodes)), 2),
        "invalid_step_fraction": round(
            sum(1 for step in steps if step.action is None) / max(1, len(steps)), 4
        ),
    }


def train(
    base: Path, store_url: str, run_id: str, output: Path, max_steps: int,
    extra_settings: Sequence[str] = (),
) -> dict[str, Any]:  # fmt: skip
    """Run the SFT job as its own process; its final JSON event and its last step's numbers.
    `extra_settings` (`key=value`) come after this benchmark's own, so they override them."""
    settings = [*TRAIN_SETTINGS, f"train.max_steps={max_steps}", *extra_settings]
    command = [
        sys.executable, "-m", "phonebuddy.sft", "--preset", "tiny-cpu", "--base", str(base),
        "--store", store_url, "--run", run_id, "--output", f"local:{output}",
        *(part for setting in settings for part in ("--set", setting)),
    ]  # fmt: skip
    started = time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise RuntimeError(f"the SFT job failed ({result.returncode}): {result.stderr[-3000:]}")
    events = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    steps = [event for event in events if event.get("event") == "step"]
    dataset = next(event for event in events if event.get("event") == "dataset")
    done = events[-1]
    return {
        "checkpoint": done["checkpoint"],
        "steps": done["step"],
        "train_examples": dataset["train"].get("steps"),
        "train_episodes": dataset["train"].get("episodes"),
        "first_loss": round(steps[0]["loss"], 4),
        "last_loss": round(steps[-1]["loss"], 4),
        "wall_s": round(time.perf_counter() - started, 1),
    }


def policy_server(model: str, work_dir: Path) -> ServiceProcess:
    return ServiceProcess(
        name="policy",
        args=["policy", "serve", "--model", model],
        env={"PHONEBUDDY_POLICY_SERVED_MODEL_NAME": SERVED_NAME},
        work_dir=work_dir,
    )


def evaluate(
    label: str, model: str, folder: Path, nats: NatsSettings, store: TrajectoryStore,
    templates: Sequence[str], seeds: Sequence[int], args: argparse.Namespace,
) -> tuple[dict[str, Any], float]:  # fmt: skip
    started = time.perf_counter()
    with policy_server(model, folder / f"policy-{label}") as server:
        endpoint = {"base_url": f"{server.url}/v1", "model": SERVED_NAME}
        episodes = asyncio.run(
            roll_out(
                nats,
                store,
                f"eval-{label}",
                endpoint,
                templates,
                seeds,
                step_budget=args.step_budget,
                max_tokens=args.max_tokens,
            )
        )
    return score(episodes, templates), round(time.perf_counter() - started, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--templates", nargs="+", default=list(DEFAULT_TEMPLATES))
    parser.add_argument("--train-seeds", type=int, default=8, help="seeds 0..N-1")
    parser.add_argument(
        "--eval-seeds", type=int, default=10, help="the first N of PhoneWorld's test seeds"
    )
    parser.add_argument("--max-steps", type=int, default=150, help="optimizer steps")
    parser.add_argument("--step-budget", type=int, default=8)
    parser.add_argument("--max-tokens", type=int, default=64)
    parser.add_argument("--devices", type=int, default=2, help="PhoneWorld devices = workers")
    args = parser.parse_args()
    templates = list(args.templates)
    train_seeds = list(range(args.train_seeds))
    eval_seeds = list(range(TEST_SEEDS[0], TEST_SEEDS[0] + args.eval_seeds))
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base = make_tiny(folder / "base", seed=0)
        with teacher_rig(folder, devices=args.devices, instance_id="heldout") as rig:
            nats, store_url, store = rig.nats, rig.store_url, rig.store
            log(f"teacher rollouts: {len(templates)} templates x seeds {train_seeds}")
            teacher_episodes = asyncio.run(
                roll_out(
                    nats,
                    store,
                    "teacher",
                    {"endpoint": "teacher", "model": "phonebuddy-policy"},
                    templates,
                    train_seeds,
                    step_budget=30,
                    max_tokens=256,
                )
            )
            log("untrained model on the held-out seeds")
            untrained, untrained_s = evaluate(
                "untrained", str(base), folder, nats, store, templates, eval_seeds, args
            )
            log(f"untrained: {untrained['overall']}; training")
            trained_run = train(base, store_url, "teacher", folder / "sft", args.max_steps)
            log(f"trained {trained_run}; fine-tuned model on the held-out seeds")
            trained, trained_s = evaluate(
                "trained", trained_run["checkpoint"], folder, nats, store, templates,
                eval_seeds, args,
            )  # fmt: skip
            log(f"trained: {trained['overall']}")
    print(
        json.dumps(
            {
                "benchmark": "sft_heldout",
                "model": "tiny random Qwen3.5-VL (make_tiny, seed 0): 2 layers, width 128",
                "templates": {
                    t: {
                        "distinct_oracle_paths": distinct_oracle_paths(
                            t, [*train_seeds, *eval_seeds]
                        )
                    }
                    for t in templates
                },
                "train_seeds": train_seeds,
                "eval_seeds": eval_seeds,
                "teacher": score(teacher_episodes, templates),
                "training": trained_run,
                "step_budget": args.step_budget,
                "sampling": {"temperature": 0.0, "max_tokens": args.max_tokens},
                "untrained": {**untrained, "wall_s": untrained_s},
                "trained": {**trained, "wall_s": trained_s},
                "trained_beats_untrained": trained["overall"]["ci95"][0]
                > untrained["overall"]["rate"],
                "machine": machine(),
                "total_seconds": round(time.perf_counter() - started, 1),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
