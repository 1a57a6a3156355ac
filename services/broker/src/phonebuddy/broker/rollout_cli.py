"""`phonebuddy rollout`: submit a rollout to the broker, follow it, print what it achieved.

With no endpoints given, it uses the local stack that `phonebuddy up` started (its NATS, object
store, policy and teacher); otherwise PHONEBUDDY_NATS_* / PHONEBUDDY_STORE_* / --policy say where.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
import uuid
from pathlib import Path
from typing import Annotated, Any

import typer

app = typer.Typer(
    help="Run a rollout through the broker and print its summary.", invoke_without_command=True
)

SHORTCUTS = {
    "tiny": ("PHONEBUDDY_POLICY_URL", "phonebuddy-policy"),
    "teacher": ("PHONEBUDDY_TEACHER_URL", "phoneworld-teacher"),
}


def settings_environment() -> dict[str, str]:
    """PHONEBUDDY_* settings: a running local stack's, under this environment's own."""
    try:
        from phonebuddy.stack.stack_file import stack_environment
    except ImportError:  # no `phonebuddy-stack` here (a service image): the environment only
        return {k: v for k, v in os.environ.items() if k.startswith("PHONEBUDDY_")}
    return stack_environment()


def parse_seeds(text: str) -> tuple[int, ...]:
    """`0`, `0,3,5` or `0-4`."""
    seeds: list[int] = []
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if dash:
            seeds.extend(range(int(low), int(high) + 1))
        else:
            seeds.append(int(low))
    if not seeds or any(seed < 0 for seed in seeds):
        raise typer.BadParameter(f"{text!r}: seeds are like 0, 0,3,5 or 0-4")
    return tuple(seeds)


def task_selection(tasks: str, seeds: tuple[int, ...], language: str) -> dict[str, Any]:
    from phonebuddy.protocol import TaskSpec

    path = Path(tasks)
    if path.is_file():
        lines = [line for line in path.read_text().splitlines() if line.strip()]
        specs = [TaskSpec.model_validate_json(line).model_dump(mode="json") for line in lines]
        return {"tasks": specs}
    if "." in tasks:
        ids = tuple(t.strip() for t in tasks.split(",") if t.strip())
        return {"template_ids": ids, "seeds": seeds, "language": language}
    return {"suite": tasks, "seeds": seeds, "language": language}


def store_url(out: str | None) -> str | None:
    if out is None or out.startswith(("s3://", "local:", "file:")):
        return out
    return f"local:{Path(out).expanduser().resolve()}"


def resolve_policy(
    policy: str | None, model: str | None, env: dict[str, str]
) -> tuple[dict[str, str], str]:
    """The request's policy target and model: `tiny` / `teacher` are the local stack's (by
    URL), an http(s) URL is any endpoint, another name is one the broker is configured with."""
    name = policy or "tiny"
    if name in SHORTCUTS:
        variable, default_model = SHORTCUTS[name]
        url = env.get(variable)
        if not url:
            raise typer.BadParameter(
                f"--policy {name} needs {variable} (start the local stack: `phonebuddy up`)"
            )
        return {"base_url": url}, model or default_model
    if "://" in name:
        return {"base_url": name}, model or "phonebuddy-policy"
    return {"endpoint": name}, model or "phonebuddy-policy"


@app.callback()
def rollout(
    ctx: typer.Context,
    tasks: Annotated[
        str, typer.Option(help="suite (smoke, single_app, ...), template ids a,b or a .jsonl file")
    ] = "smoke",
    seeds: Annotated[str, typer.Option(help="task seeds: 0, 0,3 or 0-4")] = "0",
    policy: Annotated[
        str | None,
        typer.Option(
            help="API root (.../v1), a policy endpoint the broker is configured with, or `tiny` "
            "/ `teacher` of the local stack"
        ),
    ] = None,
    model: Annotated[str | None, typer.Option(help="model name \\[by --policy]")] = None,
    group_size: Annotated[int, typer.Option(min=1, help="episodes per group (GRPO's G)")] = 1,
    mix: Annotated[str, typer.Option(help="groups per source, e.g. sim=0.5,real=0.5")] = "sim=1",
    out: Annotated[
        str | None, typer.Option(help="DIR or s3://bucket/prefix \\[the stack's store]")
    ] = None,
    step_budget: Annotated[int, typer.Option(min=1, help="steps per episode")] = 30,
    concurrency: Annotated[int, typer.Option(min=1, help="episodes at once")] = 8,
    temperature: Annotated[float, typer.Option(min=0, max=2)] = 1.0,
    max_tokens: Annotated[int, typer.Option(min=1, help="tokens per answer")] = 256,
    seed: Annotated[int | None, typer.Option(help="sampling seed (episode k: seed+k)")] = None,
    redundancy: Annotated[int, typer.Option(min=0, help="spare episodes per real group")] = 0,
    language: Annotated[str, typer.Option(help="instruction language: en | zh")] = "en",
    run_id: Annotated[str | None, typer.Option(help="run id \\[generated]")] = None,
    timeout: Annotated[float, typer.Option(help="give up waiting after this many seconds")] = 3600,
    as_json: Annotated[bool, typer.Option("--json", help="print the summary as JSON")] = False,
) -> None:
    """Submit a rollout, show its progress, and print success by source, category and app."""
    if ctx.invoked_subcommand is not None:
        return
    from pydantic import ValidationError

    from phonebuddy.protocol import RolloutRequest, SourceMix

    env = settings_environment()
    if "PHONEBUDDY_NATS_URL" not in env:
        typer.echo("error: no NATS: start `phonebuddy up` or set PHONEBUDDY_NATS_URL", err=True)
        raise typer.Exit(2)
    target, model_name = resolve_policy(policy, model, env)
    run_id = run_id or time.strftime("run-%Y%m%d-%H%M%S-") + uuid.uuid4().hex[:6]
    try:
        request = RolloutRequest(
            run_id=run_id,
            tasks=task_selection(tasks, parse_seeds(seeds), language),  # type: ignore[arg-type]
            policy={**target, "model": model_name},  # type: ignore[arg-type]
            group_size=group_size, mix=SourceMix.parse(mix), step_budget=step_budget,
            concurrency=concurrency, sampling={"temperature": temperature,  # type: ignore[arg-type]
                                               "max_tokens": max_tokens, "seed": seed},
            redundancy=redundancy, store_url=store_url(out),
        )  # fmt: skip
    except (ValidationError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
    summary, store = asyncio.run(_run(request, env, wait_s=timeout, quiet=as_json))
    if as_json:
        typer.echo(json.dumps({"store_url": store, **summary.model_dump(mode="json")}, indent=2))
    else:
        from phonebuddy.rollouts.report import print_summary

        print_summary(summary)
        typer.echo(f"trajectories: {store} (run {run_id})")
        typer.echo(f"view them:    phonebuddy trajectories view {run_id} --store {store}")


async def _run(request: Any, env: dict[str, str], *, wait_s: float, quiet: bool) -> tuple[Any, str]:
    """Submit and follow the run over NATS, then read its summary from the store."""
    from phonebuddy.bus import BusError, NatsSettings
    from phonebuddy.rollouts import BrokerUnavailableError, RolloutClient, RolloutError
    from phonebuddy.rollouts.report import ProgressBar, read_summary
    from phonebuddy.storage import StoreSettings

    try:
        async with RolloutClient.connect(NatsSettings.from_variables(env)) as client:
            with ProgressBar(request.run_id, disabled=quiet) as bar:
                outcome = await client.run(request, timeout_s=wait_s, on_progress=bar.update)
    except BrokerUnavailableError as exc:
        typer.echo(f"error: {exc}; is `phonebuddy up` running?", err=True)
        raise typer.Exit(1) from None
    except (RolloutError, BusError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(1) from None
    store = StoreSettings.from_variables(env, url=outcome.store_url)
    return await read_summary(store, outcome.run_id), outcome.store_url
