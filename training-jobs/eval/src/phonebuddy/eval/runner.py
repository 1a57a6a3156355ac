"""One evaluation: for each policy (served here first when it is a checkpoint), one rollout run
per split and source through the broker, greedy by default, one episode per task and seed;
then the numbers, the comparisons and the report in the report store.

Every policy runs the same tasks at the same seeds (PhoneWorld instantiates a (template, seed)
identically every time), which is what makes the comparisons paired."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.util
import time
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import httpx

from phonebuddy.agent.record import RECORD_FILE, RecordError, parse_record, read_record
from phonebuddy.bus import NatsSettings
from phonebuddy.eval.config import EvalConfig, PolicyEntry
from phonebuddy.eval.novelty import Situations
from phonebuddy.eval.report import EvalReport, render_html
from phonebuddy.eval.scoring import Scored, compare_all, score_policy
from phonebuddy.protocol import (
    Episode,
    PolicyTarget,
    PromptConfig,
    PromptMismatchError,
    RolloutRequest,
    SamplingSpec,
    Source,
    SourceMix,
    Split,
    TaskSelection,
    resolve_prompt,
)
from phonebuddy.rollouts import RolloutClient
from phonebuddy.stack.local import ServerStartError, ServiceProcess
from phonebuddy.storage import StoreError, StoreSettings, open_store
from phonebuddy.trajectories import TrajectoryError, TrajectoryStore

REPORT_JSON, REPORT_HTML = "report.json", "report.html"


class EvalError(Exception):
    """The evaluation cannot go on; the message says why."""


@dataclass(frozen=True)
class Published:
    report: EvalReport
    json_url: str
    html_url: str


@contextlib.asynccontextmanager
async def serving(
    policy: PolicyEntry, config: EvalConfig, work_dir: Path
) -> AsyncIterator[PolicyTarget]:
    """The policy as the broker reaches it; a checkpoint is served here while the block runs."""
    if policy.endpoint is not None:
        yield PolicyTarget(endpoint=policy.endpoint, model=policy.model or "phonebuddy-policy")
        return
    if policy.url:
        model = policy.model or await _first_model(policy.url)
        yield PolicyTarget(base_url=policy.url.rstrip("/"), model=model)
        return
    if importlib.util.find_spec("phonebuddy.policy") is None:
        raise EvalError(
            f"serving the checkpoint of policy {policy.name!r} needs the policy server: "
            "pip install 'phonebuddy-eval[serve]'"
        )
    model = policy.model or "phonebuddy-policy"
    served, backend = (
        (policy.replay, "replay") if policy.replay else (policy.checkpoint, config.serve.backend)
    )
    server = ServiceProcess(
        name="policy",
        args=[
            "policy", "serve", "--model", served, "--backend", backend,
            "--served-model-name", model, "--model-version", f"{config.name}-{policy.name}",
        ],
        env={}, work_dir=work_dir / f"policy-{policy.name}", host=config.serve.host,
    )  # fmt: skip
    server.ready_timeout_s = config.serve.ready_timeout_s
    try:
        async with server:
            yield PolicyTarget(base_url=f"{server.url}/v1", model=model)
    except ServerStartError as exc:
        raise EvalError(f"could not serve policy {policy.name!r} from {served}: {exc}") from None


async def _first_model(url: str) -> str:
    """The first model an OpenAI-compatible server lists (`GET {url}/models`)."""
    try:
        async with httpx.AsyncClient(timeout=30) as client:
            answer = await client.get(f"{url.rstrip('/')}/models")
            answer.raise_for_status()
            return str(answer.json()["data"][0]["id"])
    except (httpx.HTTPError, KeyError, IndexError, TypeError, ValueError) as exc:
        raise EvalError(
            f"cannot list the models at {url} ({exc}); give the policy's model name"
        ) from None


async def checkpoint_prompt(checkpoint: str) -> PromptConfig | None:
    """The prompt setting a checkpoint records (a local folder, or a store URL)."""
    if "://" not in checkpoint and not checkpoint.startswith("local:"):
        try:
            return await asyncio.to_thread(read_record, checkpoint)
        except RecordError as exc:
            raise EvalError(str(exc)) from None
    try:
        async with open_store(StoreSettings(url=checkpoint)) as store:
            if not await store.exists(RECORD_FILE):
                return None
            data = await store.get_bytes(RECORD_FILE)
    except StoreError as exc:
        raise EvalError(f"cannot read the record of checkpoint {checkpoint}: {exc}") from None
    try:
        return parse_record(data, f"{checkpoint}/{RECORD_FILE}")
    except RecordError as exc:
        raise EvalError(str(exc)) from None


async def policy_prompt(policy: PolicyEntry, config: EvalConfig) -> PromptConfig:
    """The setting `policy` is evaluated under: the config's, which must match what a
    checkpoint records; else the record; else the default."""
    recorded = await checkpoint_prompt(policy.checkpoint) if policy.checkpoint else None
    what = f"policy {policy.name!r} ({policy.checkpoint})"
    try:
        return resolve_prompt(config.rollout.prompt, recorded, what=what)
    except PromptMismatchError as exc:
        raise EvalError(str(exc)) from None


def _request(
    config: EvalConfig, target: PolicyTarget, split: str, source: Source, run_id: str,
    prompt: PromptConfig,
) -> RolloutRequest:  # fmt: skip
    tasks, rollout = config.tasks, config.rollout
    selection = (
        TaskSelection(template_ids=tasks.templates, seeds=tasks.seed_list, language=tasks.language)
        if tasks.templates
        else TaskSelection(suite=split, seeds=tasks.seed_list, language=tasks.language)
    )
    return RolloutRequest(
        run_id=run_id, tasks=selection, policy=target, group_size=1,
        mix=SourceMix(**{source.value: 1.0}), step_budget=rollout.step_budget,
        concurrency=rollout.concurrency,
        sampling=SamplingSpec(
            temperature=rollout.temperature, max_tokens=rollout.max_tokens,
            seed=rollout.sampling_seed,
        ),
        prompt=prompt, store_url=rollout.store,
    )  # fmt: skip


async def _episodes(store_url: str, run_id: str) -> list[Episode]:
    async with open_store(StoreSettings(url=store_url)) as raw:
        return [episode async for episode in TrajectoryStore(raw).episodes(run_id)]


def _held_out_check(episodes: Sequence[Episode], run_id: str) -> None:
    """Evaluation never scores a train task: PhoneWorld stamps each task's split."""
    leaked = sorted({e.task.template_id for e in episodes if e.task.split is Split.TRAIN})
    if leaked:
        raise EvalError(f"run {run_id} holds train-split tasks ({', '.join(leaked[:5])})")


async def evaluate(
    config: EvalConfig,
    nats: NatsSettings,
    *,
    work_dir: Path,
    on_progress: Callable[[str], Callable[..., None] | None] | None = None,
) -> tuple[list[Scored], dict[str, str], dict[str, float]]:
    """Every policy on every split and source: the scored episodes, what each policy was
    (URL, endpoint or checkpoint), and seconds per policy."""
    if not config.policies:
        raise EvalError("no policy to evaluate: give --policy NAME=URL or --checkpoint NAME=PATH")
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    results: list[Scored] = []
    targets: dict[str, str] = {}
    timings: dict[str, float] = {}
    async with RolloutClient.connect(nats) as client:
        for policy in config.policies:
            started = time.perf_counter()
            targets[policy.name] = (
                policy.checkpoint or policy.url or policy.replay or f"endpoint {policy.endpoint}"
            )
            prompt = await policy_prompt(policy, config)
            async with serving(policy, config, work_dir) as target:
                for split in config.tasks.splits():
                    for source in config.tasks.sources:
                        run_id = f"{config.name}-{stamp}-{policy.name}-{split}-{source.value}"
                        request = _request(config, target, split, source, run_id, prompt)
                        hook = on_progress(run_id) if on_progress else None
                        outcome = await client.run(
                            request, timeout_s=config.rollout.timeout_s, on_progress=hook
                        )
                        episodes = await _episodes(outcome.store_url, run_id)
                        _held_out_check(episodes, run_id)
                        results += [Scored(policy.name, split, e) for e in episodes]
            timings[policy.name] = round(time.perf_counter() - started, 1)
    return results, targets, timings


async def training_situations(config: EvalConfig) -> Situations | None:
    """The situations of the training runs `novelty.train_runs` names (their planned tasks),
    None when it names none."""
    runs = config.novelty.train_runs
    if not runs:
        return None
    settings = StoreSettings(url=config.novelty.store) if config.novelty.store else StoreSettings()
    tasks = []
    try:
        async with open_store(settings) as raw:
            store = TrajectoryStore(raw)
            for run_id in runs:
                tasks += await store.get_tasks(run_id)
    except (StoreError, TrajectoryError) as exc:
        raise EvalError(
            f"cannot read the training runs' tasks ({', '.join(runs)}): {exc}"
        ) from None
    return Situations(tasks)


def build_report(
    config: EvalConfig,
    results: Sequence[Scored],
    targets: dict[str, str],
    timings: dict[str, float],
    situations: Situations | None = None,
) -> EvalReport:
    names = [policy.name for policy in config.policies]
    report_config = config.report
    scores = [
        score_policy(
            name, targets[name], [r for r in results if r.policy == name],
            viewer_url=report_config.viewer_url, failures_listed=report_config.failures_listed,
            situations=situations,
        )
        for name in names
    ]  # fmt: skip
    return EvalReport(
        name=config.name,
        created_at=datetime.now(UTC).isoformat(timespec="seconds"),
        step_budget=config.rollout.step_budget,
        temperature=config.rollout.temperature,
        seeds=list(config.tasks.seed_list),
        splits=list(config.tasks.splits()),
        sources=[source.value for source in config.tasks.sources],
        policies=scores,
        comparisons=compare_all(names, results, bootstrap_samples=report_config.bootstrap_samples),
        timings_s=timings,
        config=config.model_dump(mode="json"),
    )


async def publish(report: EvalReport, output: str) -> Published:
    """report.json and report.html under `<output>/<name>/` in the report store."""
    prefix = f"{report.name}/"
    async with open_store(StoreSettings(url=output)) as store:
        await store.put_bytes(
            prefix + REPORT_JSON,
            report.model_dump_json(indent=2).encode(),
            content_type="application/json",
        )
        await store.put_bytes(
            prefix + REPORT_HTML,
            render_html(report).encode(),
            content_type="text/html; charset=utf-8",
        )
    root = output.rstrip("/")
    return Published(report, f"{root}/{prefix}{REPORT_JSON}", f"{root}/{prefix}{REPORT_HTML}")


def run_eval(
    config: EvalConfig,
    nats: NatsSettings,
    *,
    work_dir: Path,
    on_progress: Callable[[str], Callable[..., None] | None] | None = None,
) -> Published:
    async def main() -> Published:
        results, targets, timings = await evaluate(
            config, nats, work_dir=work_dir, on_progress=on_progress
        )
        situations = await training_situations(config)
        report = build_report(config, results, targets, timings, situations)
        return await publish(report, config.report.output)

    return asyncio.run(main())
