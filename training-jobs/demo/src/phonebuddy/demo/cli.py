"""`phonebuddy demo`: the main job on embedded defaults, on one machine, no GPU, no cluster.

It starts the local stack (NATS, S3, Prometheus, PhoneWorld, adb + device gateway, the tiny
policy, the teacher, the judge and the broker), runs the whole recipe at the tiny CPU scale
(`phonebuddy.demo.recipe`: teacher rollouts -> SFT -> evaluation -> mixed sim/real RL ->
evaluation), prints the report as a table with every stage's time, and serves the trajectory
viewer and the report until Ctrl-C (`--no-wait` stops right after). `--quick` is the one-minute
demo instead: teacher and tiny-model rollouts on the smoke suite.

`python -m phonebuddy.demo` runs the same without the `phonebuddy` command.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.table import Table

from phonebuddy.demo.recipe import Recipe, RecipeResult, RecipeSettings, client_env
from phonebuddy.demo.serving import REPORT_PATH, serve_until_stopped
from phonebuddy.eval.novelty import NEW_SITUATION
from phonebuddy.protocol import SourceMix

if TYPE_CHECKING:
    from phonebuddy.stack.local import LocalStack
    from phonebuddy.trajectories import Rate

app = typer.Typer(
    help="Run the main job on embedded defaults.", invoke_without_command=True,
    add_completion=False,
)  # fmt: skip
DEFAULTS = RecipeSettings()


def _source_mix(text: str) -> str:
    """`text` if it parses as a source mix, else a usage error naming what is wrong."""
    try:
        SourceMix.parse(text)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from exc
    return text


@app.callback()
def demo(
    quick: Annotated[
        bool, typer.Option(help="only the one-minute rollout demo (teacher and tiny model)")
    ] = False,
    state_dir: Annotated[
        Path | None, typer.Option(help="stack and recipe data \\[default: ~/.phonebuddy/demo]")
    ] = None,
    viewer_port: Annotated[int, typer.Option(help="trajectory viewer port")] = 8095,
    wait: Annotated[bool, typer.Option(help="serve the viewer until Ctrl-C")] = True,
    observation: Annotated[
        str,
        typer.Option(
            help="ui_tree (the tiny model reads the screen's elements and names them) or "
            "screenshot (the paper's prompt)"
        ),
    ] = DEFAULTS.observation,
    template: Annotated[
        list[str] | None,
        typer.Option(help="train on these templates (repeatable) \\[the demo's 12]"),
    ] = None,
    held_out_template: Annotated[
        list[str] | None,
        typer.Option(help="also evaluate on these untrained templates (repeatable) \\[3]"),
    ] = None,
    repeats: Annotated[
        int, typer.Option(min=1, help="SFT runs from N training seeds (the spread)")
    ] = DEFAULTS.repeats,
    train_seeds: Annotated[
        int, typer.Option(min=1, help="teacher episodes at train seeds 0..N-1")
    ] = DEFAULTS.train_seeds,
    teacher_mix: Annotated[
        str, typer.Option(help="the teacher's sources, e.g. sim=0.5,real=0.5", parser=_source_mix)
    ] = DEFAULTS.teacher_mix,
    sft_steps: Annotated[int, typer.Option(min=1, help="SFT optimizer steps")] = (
        DEFAULTS.sft_steps
    ),
    eval_seeds: Annotated[int, typer.Option(min=1, help="held-out test seeds evaluated")] = (
        DEFAULTS.eval_seeds
    ),
    rl_steps: Annotated[int, typer.Option(min=1, help="RL steps")] = DEFAULTS.rl_steps,
    rl_group_size: Annotated[int, typer.Option(min=2, help="RL episodes per task (G)")] = (
        DEFAULTS.rl_group_size
    ),
    eval_real: Annotated[
        bool, typer.Option(help="evaluate on the real phones too (judged; twice the episodes)")
    ] = False,
    suite: Annotated[str, typer.Option(help="--quick: PhoneWorld task suite")] = "smoke",
    group_size: Annotated[int, typer.Option(min=1, help="--quick: episodes per task")] = 2,
) -> None:
    """Start the local stack and run the recipe (or `--quick`), then show the results."""
    from phonebuddy.stack.local import LocalStack
    from phonebuddy.stack.stack_file import default_stack_file, phonebuddy_home
    from phonebuddy.telemetry import configure_logging

    configure_logging(level=os.environ.get("PHONEBUDDY_LOG_LEVEL", "WARNING"))
    stack = LocalStack(
        state_dir=state_dir or phonebuddy_home() / "demo", stack_file=default_stack_file()
    )
    if observation not in ("ui_tree", "screenshot"):
        raise typer.BadParameter("must be ui_tree or screenshot", param_hint="--observation")
    settings = RecipeSettings(
        observation=observation, repeats=repeats,  # type: ignore[arg-type]
        templates=tuple(template or DEFAULTS.templates),
        held_out_templates=tuple(
            DEFAULTS.held_out_templates if held_out_template is None else held_out_template
        ),
        train_seeds=train_seeds, teacher_mix=teacher_mix,
        sft_steps=sft_steps, eval_seeds=eval_seeds,
        rl_steps=rl_steps, rl_group_size=rl_group_size,
        eval_sources=("sim", "real") if eval_real else ("sim",), viewer_url=f"http://127.0.0.1:{viewer_port}",
    )  # fmt: skip
    main = (
        _quick(stack, suite=suite, group_size=group_size, port=viewer_port, wait=wait)
        if quick
        else _recipe(stack, settings, port=viewer_port, wait=wait)
    )
    asyncio.run(main)


async def _quick(stack: LocalStack, *, suite: str, group_size: int, port: int, wait: bool) -> None:
    from phonebuddy.demo.quick import quick_demo

    typer.echo("starting the local stack (first run: builds the tiny model, ~1 min)...")
    async with stack:
        typer.echo(f"local stack up; settings in {stack.stack_file}")
        await quick_demo(stack, suite=suite, group_size=group_size)
        if wait:
            await serve_until_stopped(stack.env, port, echo=typer.echo)
        typer.echo("stopping the local stack...", err=True)


async def _recipe(stack: LocalStack, settings: RecipeSettings, *, port: int, wait: bool) -> None:
    console = Console(stderr=True)
    started = time.perf_counter()
    console.print("starting the local stack (first run: builds the tiny model, ~1 min)...")
    async with stack:
        stack_s = round(time.perf_counter() - started, 1)
        env = stack.env
        console.print(f"local stack up in {stack_s:.0f} s; settings in {stack.stack_file}")
        state_dir = stack.state_dir
        os.environ.update(client_env(env))  # the evaluation reads runs from the stack's store
        job_env = {**os.environ, **client_env(env)}
        recipe = Recipe(
            env, state_dir, settings, console=console, job_env=job_env,
            scraping=stack.scraping,
        )  # fmt: skip
        result = await recipe.run()
        result.stages_s = {"stack": stack_s, **result.stages_s}
        total = round(time.perf_counter() - started, 1)
        _print_result(result, console, total)
        typer.echo(json.dumps(_summary(result, total)))
        if wait:
            await serve_until_stopped(env, port, report_html=result.html, echo=console.print)
        console.print("stopping the local stack...")


def _print_result(result: RecipeResult, console: Console, total_s: float) -> None:
    from phonebuddy.eval.cli import print_report

    print_report(result.report, console)
    stages = Table(title="stages")
    stages.add_column("stage")
    stages.add_column("seconds", justify="right")
    for name, seconds in result.stages_s.items():
        stages.add_row(name, f"{seconds:.0f}")
    stages.add_row("[bold]total[/]", f"[bold]{total_s:.0f}[/]")
    console.print(stages)
    console.print(_learning_line(result))
    console.print(f"RL reward by step (all groups): {result.rl['reward_by_step']}")
    if result.dashboards:
        empty = [d for d in result.dashboards if not d.has_data]
        console.print(
            f"dashboards: {len(result.dashboards) - len(empty)} of {len(result.dashboards)} "
            "panel queries have data on the stack's Prometheus"
            + "".join(f"\n  empty: {d.dashboard} / {d.panel}: {d.expr} {d.error}" for d in empty)
        )
    console.print(f"report: {result.published.html_url} (and {REPORT_PATH} on the viewer)")


def _rate(rate: Rate | None) -> str:
    if rate is None:
        return "-"
    low, high = rate.ci95
    return f"{rate.successes}/{rate.episodes} [{100 * low:.1f}, {100 * high:.1f}]"


def _learning_line(result: RecipeResult) -> str:
    """Does the SFT model read? Its success on held-out new situations against the untrained
    model's and the blind baseline's (95 % Wilson intervals)."""
    key = NEW_SITUATION
    rates = {p.name: p.by_novelty.get(key) or p.overall for p in result.report.policies}
    sft = rates["sft"]
    others = [rates[name] for name in ("untrained", "blind") if name in rates]
    above = all(sft.ci95[0] > other.ci95[1] for other in others)
    return (
        f"held-out new situations: SFT {_rate(sft)} vs untrained {_rate(rates.get('untrained'))}"
        f" vs blind {_rate(rates.get('blind'))}: "
        + ("the SFT interval lies above both" if above else "the intervals overlap")
    )


def _summary(result: RecipeResult, total_s: float) -> dict[str, object]:
    return {
        "event": "done",
        "report": result.published.json_url,
        "html": result.published.html_url,
        "stages_s": result.stages_s,
        "total_s": total_s,
        "policies": {p.name: p.overall.model_dump() for p in result.report.policies},
        "by_novelty": {
            p.name: {k: [r.successes, r.episodes] for k, r in p.by_novelty.items()}
            for p in result.report.policies
        },
        "sft": result.sft,
        "rl": result.rl,
        "dashboards": {
            "targets": len(result.dashboards),
            "empty": [
                f"{d.dashboard} / {d.panel}: {d.expr} {d.error}".strip()
                for d in result.dashboards
                if not d.has_data
            ],
        },
    }


def main() -> None:
    app()
