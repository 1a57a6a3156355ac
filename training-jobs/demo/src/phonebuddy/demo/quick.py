"""`phonebuddy demo`: the main job on embedded defaults, on one machine, no GPU.

It starts the local stack (NATS, S3, Prometheus, PhoneWorld, adb + device gateway, the tiny
policy, the teacher, the judge and the broker), runs a rollout of the scripted teacher and one of
the tiny random Qwen3.5-VL on PhoneWorld's smoke suite, prints both summaries, and serves the
trajectory viewer until Ctrl-C (`--no-wait` stops right after the summaries).

It needs the local stack (`phonebuddy-broker[demo]`), not the `phonebuddy` command: in an image
without `phonebuddy-cli`, `python -m phonebuddy.broker demo` runs it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path
from typing import Annotated, Any

import typer

app = typer.Typer(help="Run the main job on embedded defaults.", invoke_without_command=True)

# (label, URL variable of the stack, model, step budget, max tokens): the tiny model writes no
# valid action, so a short budget keeps its episodes quick on a CPU.
POLICIES = (
    ("teacher", "PHONEBUDDY_TEACHER_URL", "phoneworld-teacher", 30, 256),
    ("tiny", "PHONEBUDDY_POLICY_URL", "phonebuddy-policy", 5, 24),
)


@app.callback()
def demo(
    ctx: typer.Context,
    suite: Annotated[str, typer.Option(help="PhoneWorld task suite")] = "smoke",
    group_size: Annotated[int, typer.Option(min=1, help="episodes per task")] = 2,
    state_dir: Annotated[
        Path | None, typer.Option(help="stack data \\[default: ~/.phonebuddy/demo]")
    ] = None,
    viewer_port: Annotated[int, typer.Option(help="trajectory viewer port")] = 8095,
    wait: Annotated[bool, typer.Option(help="serve the viewer until Ctrl-C")] = True,
) -> None:
    """Start the local stack, roll out the teacher and the tiny model, print the results."""
    if ctx.invoked_subcommand is not None:
        return
    try:
        from phonebuddy.stack.local import LocalStack
        from phonebuddy.stack.stack_file import default_stack_file, phonebuddy_home
    except ImportError as exc:
        typer.echo(
            f"error: the demo needs the local stack ({exc}); "
            "install it with: pip install 'phonebuddy-broker[demo]'",
            err=True,
        )
        raise typer.Exit(1) from None
    from phonebuddy.telemetry import configure_logging

    configure_logging(level=os.environ.get("PHONEBUDDY_LOG_LEVEL", "WARNING"))
    stack = LocalStack(
        state_dir=state_dir or phonebuddy_home() / "demo", stack_file=default_stack_file()
    )
    asyncio.run(_demo(stack, suite=suite, group_size=group_size, port=viewer_port, wait=wait))


async def _demo(stack: Any, *, suite: str, group_size: int, port: int, wait: bool) -> None:
    from phonebuddy.bus import NatsSettings
    from phonebuddy.protocol import RolloutRequest, TaskSelection
    from phonebuddy.rollouts import RolloutClient
    from phonebuddy.rollouts.report import ProgressBar, print_summary, read_summary
    from phonebuddy.storage import StoreSettings

    typer.echo("starting the local stack (first run: builds the tiny model, ~1 min)...")
    async with stack:
        env = stack.env
        typer.echo(f"local stack up; settings in {stack.stack_file}")
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
                typer.echo(
                    f"\nrollout of the {label} policy on suite {suite!r} ({budget} steps max)"
                )
                with ProgressBar(request.run_id) as bar:
                    outcome = await client.run(request, on_progress=bar.update)
                store = StoreSettings.from_variables(env, url=outcome.store_url)
                print_summary(await read_summary(store, outcome.run_id))
                runs.append(request.run_id)
        store_url = env["PHONEBUDDY_STORE_URL"]
        typer.echo(f"\ntrajectories are in {store_url}: runs {', '.join(runs)}")
        typer.echo(
            "with the stack running elsewhere, view them with `phonebuddy trajectories view`"
        )
        if wait:
            await _serve_viewer(env, port)


async def _serve_viewer(env: dict[str, str], port: int) -> None:
    import uvicorn

    from phonebuddy.storage import StoreSettings, open_store
    from phonebuddy.trajectories import TrajectoryStore
    from phonebuddy.trajectories.viewer import create_viewer

    settings = StoreSettings.from_variables(env)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    async with open_store(settings) as raw:
        config = uvicorn.Config(
            create_viewer(TrajectoryStore(raw)), host="127.0.0.1", port=port, log_level="warning"
        )
        server = uvicorn.Server(config)
        server.install_signal_handlers = lambda: None  # type: ignore[method-assign]
        task = asyncio.create_task(server.serve())
        typer.echo(f"trajectory viewer: http://127.0.0.1:{port}/  (Ctrl-C stops the demo)")
        await stop.wait()
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await task
    typer.echo("stopping the local stack...", err=True)
