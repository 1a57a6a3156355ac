"""The whole recipe on a running local stack, at the tiny CPU scale:

1. teacher rollouts of the demo's template at PhoneWorld train seeds, on `sim` phones (and, with
   a teacher mix, on `real` ones: PhoneWorld phones behind the device gateway, judged);
2. SFT of the tiny random Qwen3.5-VL on them (`python -m phonebuddy.sft`);
3. evaluation of the untrained and the SFT model at held-out test seeds;
4. a few steps of mixed sim/real RL from the SFT checkpoint (`python -m phonebuddy.rl`, weights
   pushed to a policy server every step);
5. evaluation of the RL model on the same tasks, and one report of all three.

Why one template: the tiny model (2 layers, width 128) learns the format and the order of a
template's actions in minutes on a CPU but does not learn to read instructions (see NOTES.md);
`messages.delete_thread` has one oracle path for every seed, so SFT can carry it to unseen
seeds. The numbers it shows are real and measured each run: held-out success with Wilson
intervals, and whatever RL did, paired against the SFT model. Every held-out seed of this
template asks for the same taps, so a model tends to pass all of them or none: the intervals
count seeds, and one run is one draw of the training.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich.console import Console

from phonebuddy.bus import NatsSettings
from phonebuddy.demo.jobs import run_job, settings_args
from phonebuddy.eval.config import EvalConfig, bundled_config, load_config
from phonebuddy.eval.report import EvalReport, render_html
from phonebuddy.eval.runner import Published, build_report, evaluate, publish
from phonebuddy.eval.scoring import Scored
from phonebuddy.policy_model import make_tiny
from phonebuddy.protocol import (
    TEST_SEEDS,
    PolicyTarget,
    RolloutRequest,
    RunProgress,
    SourceMix,
    TaskSelection,
)
from phonebuddy.rollouts import RolloutClient
from phonebuddy.rollouts.report import ProgressBar
from phonebuddy.stack.dashboards import TargetData, panel_data
from phonebuddy.stack.local import Scraping, ServiceProcess
from phonebuddy.storage import StoreSettings, open_store
from phonebuddy.trajectories import TrajectoryStore

SERVED_NAME = "phonebuddy-policy"
# SFT that fits the template's five steps on 2 cores in 360 steps (~7 min): one packed row (two
# examples of ~1,550 tokens) per optimizer step, lr 4e-3 decaying to 1e-4 so the last steps settle
# (at 2 rows x 150 steps the loss was ~0.05 and the model still confused the steps).
SFT_SETTINGS = (
    "data.validation_fraction=0", "optim.global_batch_rows=1", "optim.lr=4e-3",
    "optim.min_lr=1e-4", "optim.warmup_steps=5", "train.epochs=1000",
    "checkpoint.every_steps=100000", "metrics.eval_every_steps=100000",
)  # fmt: skip
# A job's /metrics stays up this long after its last step, so the stack's Prometheus (scraping
# every second) has its final values.
METRICS_LINGER_S = 2.5
# Variables a process needs to reach the stack as a client: the bus and the store.
CLIENT_PREFIXES = ("PHONEBUDDY_NATS_", "PHONEBUDDY_STORE_")


class RecipeError(RuntimeError):
    """A stage cannot go on; the message says why."""


@dataclass(frozen=True)
class RecipeSettings:
    template: str = "messages.delete_thread"
    train_seeds: int = 32
    teacher_mix: str = "sim=1"  # the evaluation's source (a real phone's prompt differs)
    sft_steps: int = 360
    eval_seeds: int = 20
    eval_sources: tuple[str, ...] = ("sim",)
    rl_steps: int = 3
    rl_mix: str = "real=0.5,sim=0.5"
    rl_tasks_per_step: int = 2
    rl_group_size: int = 4
    step_budget: int = 8
    viewer_url: str = "http://127.0.0.1:8095"


@dataclass
class RecipeResult:
    report: EvalReport
    published: Published
    html: str
    stages_s: dict[str, float] = field(default_factory=dict)
    sft: dict[str, Any] = field(default_factory=dict)
    rl: dict[str, Any] = field(default_factory=dict)
    teacher: dict[str, Any] = field(default_factory=dict)
    dashboards: list[TargetData] = field(default_factory=list)


def client_env(env: dict[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith(CLIENT_PREFIXES)}


class Recipe:
    def __init__(
        self,
        env: dict[str, str],
        state_dir: Path,
        settings: RecipeSettings,
        *,
        console: Console,
        job_env: dict[str, str],
        scraping: Scraping | None = None,
    ) -> None:
        self.env = env
        self.state_dir = state_dir
        self.settings = settings
        self.console = console
        self.job_env = job_env  # the environment of the job processes
        self.scraping = scraping  # the stack's Prometheus: the jobs and the RL policy server
        self.nats = NatsSettings.from_variables(env)
        self.stamp = time.strftime("%Y%m%d-%H%M%S")
        self.stages_s: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str, what: str) -> Iterator[None]:
        self.console.rule(f"[bold]{name}[/]: {what}")
        started = time.perf_counter()
        yield
        self.stages_s[name] = round(time.perf_counter() - started, 1)
        self.console.print(f"{name}: {self.stages_s[name]:.0f} s")

    async def run(self) -> RecipeResult:
        s = self.settings
        folder = self.state_dir / f"recipe-{self.stamp}"
        started = time.time()
        with self.stage("teacher", f"{s.template} at train seeds 0-{s.train_seeds - 1}"):
            teacher = await self.teacher_rollouts()
        with self.stage("sft", f"the tiny Qwen3.5-VL, {s.sft_steps} steps"):
            os.environ.setdefault("TQDM_DISABLE", "1")  # the jobs': no bars amid the stage's own
            base = make_tiny(folder / "untrained", seed=0)
            sft = await self.sft(base, teacher["run_id"], folder)
        with self.stage("eval-sft", f"untrained and SFT at {s.eval_seeds} held-out seeds"):
            policies = [("untrained", str(base)), ("sft", sft["checkpoint"])]
            results, targets, timings = await self.evaluate(policies, folder)
        with self.stage("rl", f"{s.rl_steps} steps of GRPO, {s.rl_mix}"):
            rl = await self.rl(sft["checkpoint"], folder)
        with self.stage("eval-rl", "the RL model on the same tasks"):
            more, more_targets, more_timings = await self.evaluate(
                [("rl", rl["checkpoint"])], folder
            )
        config = self.eval_config([*policies, ("rl", rl["checkpoint"])])
        report = build_report(
            config, [*results, *more], targets | more_targets, timings | more_timings
        )
        published = await publish(report, config.report.output)
        dashboards = []
        if self.scraping is not None:
            await asyncio.sleep(2 * self.scraping.interval_s)  # the last scrape + rules
            dashboards = await asyncio.to_thread(
                panel_data, self.scraping.url, start=started, end=time.time(), step_s=1.0
            )
        return RecipeResult(
            report=report, published=published, html=render_html(report),
            stages_s=self.stages_s, sft=sft, rl=rl, teacher=teacher, dashboards=dashboards,
        )  # fmt: skip

    def metrics_settings(self, job: str) -> list[str]:
        """`--set`s that serve the job's /metrics on a free port the stack's Prometheus scrapes."""
        if self.scraping is None:
            return []
        port = self.scraping.new_target(job)
        return [
            f"metrics.port={port}", f"metrics.host={self.scraping.host}",
            f"metrics.linger_s={METRICS_LINGER_S}",
        ]  # fmt: skip

    # -- stages ----------------------------------------------------------------------------
    async def teacher_rollouts(self) -> dict[str, Any]:
        s = self.settings
        request = RolloutRequest(
            run_id=f"demo-{self.stamp}-teacher",
            tasks=TaskSelection(template_ids=(s.template,), seeds=tuple(range(s.train_seeds))),
            policy=PolicyTarget(
                base_url=self.env["PHONEBUDDY_TEACHER_URL"], model="phoneworld-teacher"
            ),
            group_size=1, mix=SourceMix.parse(s.teacher_mix), step_budget=30, concurrency=8,
            sampling={"temperature": 0.0, "max_tokens": 256},  # type: ignore[arg-type]
        )  # fmt: skip
        async with RolloutClient.connect(self.nats) as client:
            with ProgressBar(request.run_id, console=self.console) as bar:
                outcome = await client.run(request, on_progress=bar.update)
        progress = outcome.progress
        if progress.groups_failed:
            async with open_store(StoreSettings.from_variables(self.env)) as raw:
                failures = await TrajectoryStore(raw).failures(outcome.run_id)
            reasons = sorted({str(f.get("reason", "failed")) for f in failures.values()})
            raise RecipeError(
                f"{progress.groups_failed} of {progress.groups} teacher groups failed: "
                + "; ".join(reasons[:3])
            )
        return {
            "run_id": outcome.run_id, "groups": progress.groups,
            "episodes": progress.episodes_stored,
        }  # fmt: skip

    async def sft(self, base: Path, run_id: str, folder: Path) -> dict[str, Any]:
        s = self.settings
        store_url = self.env["PHONEBUDDY_STORE_URL"]
        args = [
            "--preset", "tiny-cpu", "--base", str(base), "--store", store_url, "--run", run_id,
            "--output", f"local:{folder / 'sft'}",
            *settings_args(
                [*SFT_SETTINGS, f"train.max_steps={s.sft_steps}", *self.metrics_settings("sft")]
            ),
        ]  # fmt: skip
        job = await run_job(
            "phonebuddy.sft", args, env=self.job_env, log_file=folder / "logs" / "sft.log",
            label="SFT", total_steps=s.sft_steps, console=self.console,
        )  # fmt: skip
        dataset = next((e for e in job.events if e.get("event") == "dataset"), {})
        steps = job.steps
        return {
            "checkpoint": job.done["checkpoint"], "steps": job.done["step"],
            "train_examples": dataset.get("train", {}).get("steps"),
            "train_episodes": dataset.get("train", {}).get("episodes"),
            "first_loss": round(steps[0]["loss"], 4) if steps else None,
            "last_loss": round(steps[-1]["loss"], 4) if steps else None,
        }  # fmt: skip

    async def rl(self, start: str, folder: Path) -> dict[str, Any]:
        s = self.settings
        staging = folder / "staging"
        staging.mkdir(parents=True, exist_ok=True)
        token = secrets.token_urlsafe(24)
        server = ServiceProcess(
            name="policy", args=["policy", "serve", "--model", start],
            env={"PHONEBUDDY_POLICY_ADMIN_TOKEN": token,
                 "PHONEBUDDY_POLICY_WEIGHT_ROOTS": str(staging)},
            work_dir=folder / "rl-policy",
        )  # fmt: skip
        settings = [
            f"rollout.templates=[{s.template}]", f"rollout.seeds=[0,{s.train_seeds}]",
            f"rollout.tasks_per_step={s.rl_tasks_per_step}",
            f"rollout.group_size={s.rl_group_size}", f"rollout.step_budget={s.step_budget}",
            "rollout.max_extra_rounds=0",  # a few steps: train on what one round gave
            f"train.steps={s.rl_steps}", f"checkpoint.every_steps={s.rl_steps}",
            f"policy.staging={staging}", *self.metrics_settings("rl"),
        ]  # fmt: skip
        async with server:
            if self.scraping is not None:
                self.scraping.add_target("rl-policy", server.host, server.port)
            args = [
                "--preset", "tiny-cpu", "--base", start, "--policy-url", server.url,
                "--mix", s.rl_mix, "--output", f"local:{folder / 'rl'}", *settings_args(settings),
            ]  # fmt: skip
            job = await run_job(
                "phonebuddy.rl", args,
                env=self.job_env | {"PHONEBUDDY_POLICY_ADMIN_TOKEN": token},
                log_file=folder / "logs" / "rl.log", label="RL", total_steps=s.rl_steps,
                console=self.console,
            )  # fmt: skip
        steps = job.steps
        return {
            "checkpoint": job.done["checkpoint"],
            "steps": len(steps),
            "reward_by_step": [e.get("critic/score/all") for e in steps],
            "sim_reward_by_step": [e.get("critic/score/sim") for e in steps],
            "real_reward_by_step": [e.get("critic/score/real") for e in steps],
            "updates": sum(1 for e in steps if e.get("batch/kept_groups")),
        }

    def eval_config(self, policies: Sequence[tuple[str, str]]) -> EvalConfig:
        s = self.settings
        folder = self.state_dir / f"recipe-{self.stamp}"
        return load_config(
            bundled_config("tiny-cpu"),
            values={
                "name": f"demo-{self.stamp}",
                "policies": [{"name": n, "checkpoint": c} for n, c in policies],
                "tasks.templates": [s.template], "tasks.seeds": s.eval_seeds,
                "tasks.first_seed": TEST_SEEDS[0], "tasks.sources": list(s.eval_sources),
                "rollout.step_budget": s.step_budget,
                "report.output": f"local:{folder / 'report'}", "report.viewer_url": s.viewer_url,
            },
        )  # fmt: skip

    async def evaluate(
        self, policies: Sequence[tuple[str, str]], folder: Path
    ) -> tuple[list[Scored], dict[str, str], dict[str, float]]:
        config = self.eval_config(policies)
        bars: list[ProgressBar] = []

        def progress(run_id: str) -> Callable[[RunProgress], None]:
            if bars:
                bars.pop().__exit__(None, None, None)
            bar = ProgressBar(run_id, console=self.console)
            bar.__enter__()
            bars.append(bar)
            return bar.update

        try:
            return await evaluate(config, self.nats, work_dir=folder / "eval", on_progress=progress)
        finally:
            for bar in bars:
                bar.__exit__(None, None, None)
