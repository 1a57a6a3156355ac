"""`phonebuddy demo --quick`: the one-minute demo. On the running local stack it rolls out the
scripted teacher and the tiny random Qwen3.5-VL on PhoneWorld's smoke suite and prints both
summaries; the caller then serves the trajectory viewer."""

from __future__ import annotations

import time
from typing import Any

import typer

from phonebuddy.bus import NatsSettings
from phonebuddy.protocol import RolloutRequest, TaskSelection
from phonebuddy.rollouts import RolloutClient
from phonebuddy.rollouts.report import ProgressBar, print_summary, read_summary
from phonebuddy.storage import StoreSettings

# (label, URL variable of the stack, model, step budget, max tokens): the tiny model writes no
# valid action, so a short budget keeps its episodes quick on a CPU.
POLICIES = (
    ("teacher", "PHONEBUDDY_TEACHER_URL", "phoneworld-teacher", 30, 256),
    ("tiny", "PHONEBUDDY_POLICY_URL", "phonebuddy-policy", 5, 24),
)


async def quick_demo(stack: Any, *, suite: str, group_size: int) -> list[str]:
    """Both rollouts on the running `stack`; the run ids."""
    env = stack.env
    stamp = time.strftime("%Y%m%d-%H%M%S")
    runs = []
    async with RolloutClient.connect(NatsSettings.from_variables(env)) as client:
        for label, variable, model, budget, max_tokens in POLICIES:
            request = RolloutRequest(
                run_id=f"demo-{label}-{stamp}", tasks=TaskSelection(suite=suite),
                policy={"base_url": env[variable], "model": model},  # type: ignore[arg-type]
                group_size=group_size, step_budget=budget, concurrency=8,
                sampling={"max_tokens": max_tokens, "seed": 0},  # type: ignore[arg-type]
            )  # fmt: skip
            typer.echo(f"\nrollout of the {label} policy on suite {suite!r} ({budget} steps max)")
            with ProgressBar(request.run_id) as bar:
                outcome = await client.run(request, on_progress=bar.update)
            store = StoreSettings.from_variables(env, url=outcome.store_url)
            print_summary(await read_summary(store, outcome.run_id))
            runs.append(request.run_id)
    typer.echo(f"\ntrajectories are in {env['PHONEBUDDY_STORE_URL']}: runs {', '.join(runs)}")
    typer.echo("with the stack running elsewhere, view them with `phonebuddy trajectories view`")
    return runs
