"""The whole recipe on a running local stack, at the tiny CPU scale:

1. teacher rollouts of the demo's templates (`phonebuddy.demo.plan`) at PhoneWorld train seeds,
   on `sim` phones (with a teacher mix, on `real` ones too), with the demo's prompt setting;
2. the tiny random Qwen3.5 with its vocabulary pruned to the teacher data's tokens, and SFT of
   it on that data (`python -m phonebuddy.sft`);
3. evaluation at held-out test seeds of the same templates and on held-out templates: the
   untrained model, the SFT model and the blind baseline (each template's most common teacher
   path, replayed without reading), every result split by novelty against the teacher run;
4. a few steps of mixed sim/real RL from the SFT checkpoint on the templates where the SFT
   model succeeds sometimes (so groups have mixed rewards), weights pushed every step;
5. evaluation of the RL model on the same tasks, and one report of all of them.

The numbers are measured each run: success with Wilson intervals, by novelty class (a held-out
seed can repeat a training situation; only new situations show reading), the paired RL-vs-SFT
comparison. One run is one draw of the training: `--repeats N` trains N seeds.
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
from typing import Any, Literal

from rich.console import Console

from phonebuddy.bus import NatsSettings
from phonebuddy.demo.jobs import run_job, settings_args
from phonebuddy.demo.plan import DEMO_TEMPLATES, HELD_OUT_TEMPLATES, demo_prompt, tiny_for
from phonebuddy.eval.config import EvalConfig, bundled_config, load_config
from phonebuddy.eval.report import EvalReport, render_html
from phonebuddy.eval.runner import (
    Published,
    build_report,
    evaluate,
    publish,
    training_situations,
)
from phonebuddy.eval.scoring import Scored
from phonebuddy.protocol import (
    TEST_SEEDS,
    ObservationMode,
    PolicyTarget,
    PromptConfig,
    RolloutRequest,
    RunProgress,
    SourceMix,
    TaskSelection,
)
from phonebuddy.protocol.replay import build_replay_table
from phonebuddy.rollouts import RolloutClient
from phonebuddy.rollouts.report import ProgressBar
from phonebuddy.stack.dashboards import TargetData, panel_data
from phonebuddy.stack.local import Scraping, ServiceProcess
from phonebuddy.storage import StoreSettings, open_store
from phonebuddy.trajectories import TrajectoryStore
from phonebuddy.trajectories.export import run_rows

SERVED_NAME = "phonebuddy-policy"
# SFT of the pruned tiny model on UI-tree prompts (NOTES.md, "SFT of the tiny model on UI-tree
# text"): one packed row of ~14 examples per step, AdamW lr 2e-3 (betas 0.9/0.98, wd 0.01),
# 50 warm-up steps, then decay to 2e-4.
SFT_SETTINGS = (
    "data.validation_fraction=0", "packing.max_tokens=4096", "optim.global_batch_rows=1",
    "optim.lr=2e-3", "optim.min_lr=2e-4", "optim.warmup_steps=50", "optim.weight_decay=0.01",
    "optim.betas=[0.9,0.98]", "train.epochs=1000", "checkpoint.every_steps=100000",
    "metrics.eval_every_steps=100000",
)  # fmt: skip
# The screenshot path (`--observation screenshot`): the settings of the one-template demo.
SCREENSHOT_SFT_SETTINGS = (
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
    templates: tuple[str, ...] = DEMO_TEMPLATES
    held_out_templates: tuple[str, ...] = HELD_OUT_TEMPLATES
    observation: ObservationMode = "ui_tree"
    train_seeds: int = 80
    teacher_mix: str = "sim=1"  # the evaluation's source (a real phone's prompt differs)
    sft_steps: int = 800
    training_seed: int = 0  # the tiny model's initialisation and the data order
    repeats: int = 1  # SFT runs from training seeds training_seed, +1, ... (the spread)
    eval_seeds: int = 10  # per template
    eval_sources: tuple[str, ...] = ("sim",)
    rl_steps: int = 3
    rl_mix: str = "real=0.5,sim=0.5"
    rl_tasks_per_step: int = 4
    rl_group_size: int = 4
    step_budget: int = 10
    max_tokens: int = 48
    language: Literal["zh", "en"] = "en"  # of the instructions: teacher, evaluation and RL alike
    viewer_url: str = "http://127.0.0.1:8095"

    @property
    def prompt(self) -> PromptConfig:
        return demo_prompt(self.observation)


def learnable_templates(results: Sequence[Scored], templates: Sequence[str]) -> list[str]:
    """The templates whose held-out episodes the SFT model solved sometimes but not always:
    where RL's groups can have mixed rewards. All of them when none is."""
    tally: dict[str, list[int]] = {}
    for result in results:
        if result.policy == "sft" and result.episode.task.template_id in templates:
            won = tally.setdefault(result.episode.task.template_id, [0, 0])
            won[0] += int(result.success)
            won[1] += 1
    mixed = [t for t in templates if t in tally and 0 < tally[t][0] < tally[t][1]]
    return mixed or list(templates)


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
        every = len(s.templates)
        with self.stage("teacher", f"{every} templates at train seeds 0-{s.train_seeds - 1}"):
            teacher = await self.teacher_rollouts()
        with self.stage("model", "the tiny Qwen3.5, its vocabulary pruned to the teacher data"):
            os.environ.setdefault("TQDM_DISABLE", "1")  # the jobs': no bars amid the stage's own
            texts, replay, teacher["replay_paths"] = await self.prepare(teacher["run_id"], folder)
            seeds = [s.training_seed + k for k in range(s.repeats)]
            bases = {
                seed: await asyncio.to_thread(tiny_for, texts, folder / "models", seed=seed)
                for seed in seeds
            }
        sft_runs: dict[int, dict[str, Any]] = {}
        for seed in seeds:
            label = f" (training seed {seed})" if s.repeats > 1 else ""
            with self.stage(
                f"sft{'' if seed == seeds[0] else f'-{seed}'}",
                f"the tiny Qwen3.5 ({s.prompt.describe()}), {s.sft_steps} steps{label}",
            ):
                sft_runs[seed] = await self.sft(bases[seed], teacher["run_id"], folder, seed)
        sft = sft_runs[seeds[0]]
        sft["repeats"] = {str(seed): run["checkpoint"] for seed, run in sft_runs.items()}
        with self.stage("eval-sft", f"untrained, SFT and blind at {s.eval_seeds} held-out seeds"):
            policies = [("untrained", str(bases[seeds[0]])), ("sft", sft["checkpoint"])]
            policies += [(f"sft-seed{seed}", sft_runs[seed]["checkpoint"]) for seed in seeds[1:]]
            results, targets, timings = await self.evaluate(
                policies, folder, teacher["run_id"], replay=("blind", str(replay))
            )
        rl_templates = learnable_templates(results, s.templates)
        with self.stage("rl", f"{s.rl_steps} steps of GRPO, {s.rl_mix}, {len(rl_templates)} "
                        "templates"):  # fmt: skip
            rl = await self.rl(sft["checkpoint"], folder, rl_templates)
        with self.stage("eval-rl", "the RL model on the same tasks"):
            more, more_targets, more_timings = await self.evaluate(
                [("rl", rl["checkpoint"])], folder, teacher["run_id"]
            )
        names = [*policies, ("blind", str(replay)), ("rl", rl["checkpoint"])]  # report order
        config = self.eval_config(names, teacher["run_id"], replay="blind")
        situations = await training_situations(config)
        report = build_report(
            config, [*results, *more], targets | more_targets, timings | more_timings, situations
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

    async def prepare(self, run_id: str, folder: Path) -> tuple[list[str], Path, dict[str, int]]:
        """The teacher data's texts (what the tiny model's vocabulary is pruned to) and the blind
        baseline's table: its file, and the path length per template."""
        s = self.settings
        async with open_store(StoreSettings.from_variables(self.env)) as raw:
            store = TrajectoryStore(raw)
            texts = [
                row["prompt_text"] + row["completion_text"]
                async for row in run_rows(store, run_id, prompt_config=s.prompt)
            ]
            episodes = [episode async for episode in store.episodes(run_id)]
        table = build_replay_table(episodes)
        replay = folder / "blind-replay.json"
        replay.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(replay.write_text, table.model_dump_json(indent=2))
        return texts, replay, {t: len(p.actions) for t, p in table.templates.items()}

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
            tasks=TaskSelection(
                template_ids=s.templates, seeds=tuple(range(s.train_seeds)), language=s.language
            ),
            policy=PolicyTarget(
                base_url=self.env["PHONEBUDDY_TEACHER_URL"], model="phoneworld-teacher"
            ),
            group_size=1, mix=SourceMix.parse(s.teacher_mix), step_budget=30, concurrency=8,
            sampling={"temperature": 0.0, "max_tokens": 256},  # type: ignore[arg-type]
            prompt=s.prompt,
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

    async def sft(self, base: Path, run_id: str, folder: Path, seed: int) -> dict[str, Any]:
        s = self.settings
        store_url = self.env["PHONEBUDDY_STORE_URL"]
        tuned = SFT_SETTINGS if s.prompt.shows_ui_tree else SCREENSHOT_SFT_SETTINGS
        settings = [
            *tuned, f"train.max_steps={s.sft_steps}", f"train.seed={seed}",
            *self.metrics_settings("sft"),
        ]  # fmt: skip
        args = [
            "--preset", "tiny-cpu", "--base", str(base), "--store", store_url, "--run", run_id,
            "--output", f"local:{folder / f'sft-{seed}'}", *settings_args(settings),
        ]  # fmt: skip
        job = await run_job(
            "phonebuddy.sft", args, env=self.job_env, log_file=folder / "logs" / f"sft-{seed}.log",
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

    async def rl(self, start: str, folder: Path, templates: Sequence[str]) -> dict[str, Any]:
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
            f"rollout.templates=[{','.join(templates)}]", f"rollout.seeds=[0,{s.train_seeds}]",
            f"rollout.tasks_per_step={s.rl_tasks_per_step}", f"rollout.language={s.language}",
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
            "templates": list(templates),
        }

    def eval_config(
        self, policies: Sequence[tuple[str, str]], train_run: str, *, replay: str | None = None
    ) -> EvalConfig:
        s = self.settings
        folder = self.state_dir / f"recipe-{self.stamp}"
        entries: list[dict[str, str]] = [
            {"name": n, "replay": c} if n == replay else {"name": n, "checkpoint": c}
            for n, c in policies
        ]
        return load_config(
            bundled_config("tiny-cpu"),
            values={
                "name": f"demo-{self.stamp}", "policies": entries,
                "tasks.templates": [*s.templates, *s.held_out_templates],
                "tasks.seeds": s.eval_seeds, "tasks.first_seed": TEST_SEEDS[0],
                "tasks.sources": list(s.eval_sources), "tasks.language": s.language,
                "rollout.step_budget": s.step_budget, "rollout.max_tokens": s.max_tokens,
                # the untrained model records no prompt setting: it is given the demo's
                "rollout.prompt": s.prompt.model_dump(mode="json"),
                "novelty.train_runs": [train_run],
                "report.output": f"local:{folder / 'report'}", "report.viewer_url": s.viewer_url,
            },
        )  # fmt: skip

    async def evaluate(
        self, policies: Sequence[tuple[str, str]], folder: Path, train_run: str,
        *, replay: tuple[str, str] | None = None,
    ) -> tuple[list[Scored], dict[str, str], dict[str, float]]:  # fmt: skip
        every = [*policies, *([replay] if replay else [])]
        config = self.eval_config(every, train_run, replay=replay[0] if replay else None)
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
