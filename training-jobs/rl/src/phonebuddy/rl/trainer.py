"""The GRPO loop. Each step: roll out B tasks x G episodes at the current policy version through
the broker, drop uniform groups and refill (a bounded number of extra rounds), mask episodes with
no trustworthy reward, build one sample per action step from the stored tokens, score them with
the model as it is (old log-probs) and under the gradient, take one optimizer step (or
`mini_batches`), push the weights to the policy server and wait until it serves them. With
`rollout.max_staleness` >= 1 the next step's rollouts run while this step trains (prefetch.py).

Rank 0 talks to the broker and the store; the samples go to every rank, each trains on its share
of the packed rows. Versions are `<name>-step-<k>`: the broker refuses answers from versions
older than `k - max_staleness`.
"""

from __future__ import annotations

import importlib.util
import math
import os
import random
import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist

from phonebuddy.agent import read_record
from phonebuddy.bus import BusError, NatsSettings, connect
from phonebuddy.protocol import (
    PolicyTarget,
    PromptConfig,
    PromptMismatchError,
    RolloutRequest,
    SamplingSpec,
    TaskList,
    TaskQuery,
    TaskSelection,
    resolve_prompt,
)
from phonebuddy.protocol.subjects import WORLD_TASKS
from phonebuddy.rl.config import RLConfig
from phonebuddy.rl.episodes import RoundGroup, StepSample, episode_samples, round_groups
from phonebuddy.rl.prefetch import Prefetch
from phonebuddy.rollouts import RolloutClient
from phonebuddy.storage import StoreSettings, open_store
from phonebuddy.training.checkpoint import CheckpointStore
from phonebuddy.training.distributed import World, all_sum, any_true, shard_model
from phonebuddy.training.grpo import (
    LOSS_METRICS,
    FillStatus,
    PolicyLossConfig,
    Selection,
    episode_balanced,
    merge_metrics,
    per_token,
    policy_loss,
    select_groups,
)
from phonebuddy.training.job import (
    JobError,
    MetricsFile,
    StopFlag,
    clip_gradients,
    full_state_dict,
    load_model,
    restore_checkpoint,
    save_checkpoint,
    start_point,
    trainable,
)
from phonebuddy.training.metrics import TrainMetrics
from phonebuddy.training.samples import (
    row_log_probs_and_entropy,
    sample_rows,
    sampled_log_probs,
)
from phonebuddy.training.splits import TestSplitError, check_train_tasks
from phonebuddy.training.weight_sync import (
    TransformersServerSync,
    VllmNcclSync,
    WeightSyncClient,
)
from phonebuddy.trajectories import TrajectoryStore
from phonebuddy.trajectories.export import run_prompt_config

RL_GAUGES: dict[str, str] = {
    "step": "the last finished RL step",
    "critic/score/mean": "mean reward of the step's kept episodes",
    "critic/score/sim": "mean reward of the step's sim episodes",
    "critic/score/real": "mean reward of the step's real episodes",
    "batch/kept_groups": "informative groups trained on",
    "batch/dropped_uniform_groups": "groups dropped: every reward equal",
    "batch/masked_episodes": "episodes masked: env/policy failure or judge error",
    "actor/pg_loss": "policy-gradient loss",
    "actor/pg_clipfrac": "fraction of tokens whose ratio was clipped",
    "actor/ppo_kl": "mean old - new log-prob",
    "actor/kl_loss": "k3 KL to the initial model",
    "actor/entropy": "mean entropy of the policy at the sampled tokens",
    "actor/grad_norm": "gradient norm before clipping",
    "actor/lr": "learning rate",
    "rollout/staleness": "policy versions the oldest trained step lagged behind",
    "rollout/logprob_diff": "mean |server - trainer| log-prob of the sampled tokens",
    "timing_s/rollout": "seconds the trainer waited for rollouts (less when they overlap)",
    "timing_s/train": "seconds in the optimizer step",
    "timing_s/sync": "seconds pushing weights to the policy server",
}


Batch = tuple[list[StepSample], list[float], dict[str, Any]]  # samples, advantages, metrics


@dataclass(frozen=True, slots=True)
class RLResult:
    step: int
    total_steps: int
    stopped: str
    checkpoint_url: str | None


def server_root(url: str) -> str:
    """The policy server's root URL, whether it is given with its API's `/v1` or without."""
    return url.rstrip("/").removesuffix("/v1")


def version_name(name: str, step: int) -> str:
    return f"{name}-step-{step}"


class RLTrainer:
    def __init__(
        self,
        config: RLConfig,
        world: World,
        *,
        metrics: TrainMetrics,
        nats: NatsSettings,
        sync: WeightSyncClient | None = None,
    ) -> None:
        self.config = config
        self.world = world
        self.metrics = metrics
        self.nats = nats
        self.scratch = Path()  # a fresh folder for each run, removed when it ends
        self.prompt = PromptConfig()  # the rollouts' setting, fixed when the model loads
        self.checkpoints = CheckpointStore(config.checkpoint.output, config.name)
        self.stop = StopFlag()
        self._sync = sync
        self._pool: tuple[str, ...] = ()
        self._prefetch: Prefetch[Batch] = Prefetch()
        self.metrics_file = MetricsFile(self.checkpoints)
        if world.is_main:
            metrics.sink = self.metrics_file

    def _resume_key(self) -> dict[str, Any]:
        dumped = self.config.model_dump(mode="json")
        return {key: dumped[key] for key in ("rollout", "algorithm", "optim", "train")}

    def _weight_sync(self) -> WeightSyncClient:
        """The client that pushes weights (rank 0 only); every config problem is found here,
        before the model is loaded."""
        if self._sync is None:
            vllm = self.config.policy.sync == "vllm"
            self._sync = self._vllm_sync() if vllm else self._transformers_sync()
        return self._sync

    def _transformers_sync(self) -> WeightSyncClient:
        """`phonebuddy policy serve`'s weight routes, weights staged in `policy.staging`."""
        policy = self.config.policy
        token = os.environ.get(policy.admin_token_env, "")
        if not token:
            raise JobError(f"{policy.admin_token_env} is not set: the policy admin token")
        if not policy.staging:
            raise JobError("policy.staging is not set: where pushed weights are staged")
        return TransformersServerSync(
            server_root(policy.url), admin_token=token, staging=policy.staging
        )

    def _vllm_sync(self) -> WeightSyncClient:
        """vLLM's NCCL weight transfer: the trainer joins vLLM's group as rank 0 at an address
        the vLLM pods reach (`policy.nccl_address`, else the pod's POD_IP)."""
        policy = self.config.policy
        if importlib.util.find_spec("vllm") is None:
            raise JobError(
                "policy.sync=vllm needs vllm in the trainer's environment (the GPU trainer "
                "image); use policy.sync=transformers with phonebuddy policy serve"
            )
        address = policy.nccl_address or os.environ.get("POD_IP", "")
        if not address:
            raise JobError("policy.nccl_address is not set (nor POD_IP): where vLLM reaches us")
        sync = VllmNcclSync(
            server_root(policy.url), api_key=os.environ.get(policy.admin_token_env) or None
        )
        sync.connect(master_address=address, master_port=policy.nccl_port)
        return sync

    # ---- the loop ----

    def run(self, *, stop_after: int | None = None) -> RLResult:
        self.stop.install()
        self.scratch = Path(tempfile.mkdtemp(prefix="phonebuddy-rl-"))
        try:
            return self._run(stop_after)
        finally:
            self._prefetch.cancel()
            self.stop.restore()
            self.checkpoints.close()
            shutil.rmtree(self.scratch, ignore_errors=True)
            if self._sync is not None:
                self._sync.close()

    def _run(self, stop_after: int | None) -> RLResult:
        config, world = self.config, self.world
        if not config.policy.url:
            raise JobError("policy.url is not set: the policy server the broker rolls out with")
        if world.is_main:
            self._weight_sync()  # a sync that cannot work stops the job before the model loads
        start, folder = start_point(
            self.checkpoints, config.model.base, self._resume_key(), self.scratch
        )
        model, processing = load_model(config.model, folder, world)
        self.prompt = self._prompt(read_record(folder), folder)
        reference = None
        if config.algorithm.kl_coef > 0:
            reference, _ = load_model(config.model, folder, world)
            reference.requires_grad_(False)
        torch.manual_seed(config.train.seed)
        model = shard_model(model, world)
        optimizer = torch.optim.AdamW(
            trainable(model),
            lr=config.optim.lr,
            betas=config.optim.betas,
            weight_decay=config.optim.weight_decay,
        )
        if start > 0:
            restore_checkpoint(self.checkpoints, model, optimizer, step=start, world=world)
            if world.is_main:
                self.metrics_file.resume_at(start)
                self.metrics.record("resumed", {"step": start})
        self._push(model, start)  # rollouts of step `start` must use exactly these weights
        step, stopped, last_url = start, "finished", None
        total = config.train.steps
        while step < total:
            values = self._step(model, reference, optimizer, processing, step)
            if values is None:  # SIGTERM while rolling out: save what was trained, if anything
                stopped = self.stop.reason or "sigterm"
                latest = self.checkpoints.latest()
                if step > (latest.step if latest is not None else 0):
                    last_url = self._checkpoint(model, optimizer, processing, step)
                elif latest is not None:
                    last_url = latest.model_url
                break
            step += 1
            if world.is_main:
                self.metrics.record("step", {"step": step, "total_steps": total, **values})
            halt = any_true(self.stop.reason is not None, world)
            if halt or (stop_after is not None and step - start >= stop_after):
                stopped = (self.stop.reason or "sigterm") if halt else "stop_after"
                last_url = self._checkpoint(model, optimizer, processing, step)
                break
            if step % config.checkpoint.every_steps == 0 or step == total:
                last_url = self._checkpoint(model, optimizer, processing, step)
        self.metrics.flush()
        return RLResult(step, total, stopped, last_url)

    def _step(
        self,
        model: torch.nn.Module,
        reference: torch.nn.Module | None,
        optimizer: torch.optim.Optimizer,
        processing: Any,
        step: int,
    ) -> dict[str, Any] | None:
        started = time.perf_counter()
        batch: Batch | None = None
        if self.world.is_main:
            if self._prefetch.pending_step != step:
                self._prefetch.start(step, lambda: self._collect(processing, step))
            batch = self._prefetch.wait(step, stopping=lambda: self.stop.reason is not None)
            ahead = self.config.rollout.max_staleness > 0 and step + 1 < self.config.train.steps
            if batch is not None and ahead:
                self._prefetch.start(step + 1, lambda: self._collect(processing, step + 1))
        shared = self._share(batch)
        if shared is None:
            return None  # stopped while rolling out: nothing was trained
        samples, advantages, values = shared
        values["timing_s/rollout"] = time.perf_counter() - started  # waited for, not overlapped
        if samples:
            trained = time.perf_counter()
            values |= self._optimize(model, reference, optimizer, samples, advantages, step)
            values["timing_s/train"] = time.perf_counter() - trained
        else:
            values["skipped"] = "no informative group"
        synced = time.perf_counter()
        self._push(model, step + 1)
        values["timing_s/sync"] = time.perf_counter() - synced
        return values

    def _share(self, batch: Batch | None) -> Batch | None:
        """Rank 0's batch on every rank; None on every rank when rank 0 stopped instead."""
        if self.world.distributed:
            box = [batch]
            dist.broadcast_object_list(box, src=0)
            batch = box[0]
        return batch

    # ---- rollouts ----

    async def _collect(self, processing: Any, step: int) -> Batch:
        """Rounds of rollouts until B informative groups (or the extra rounds are spent); the
        samples of their unmasked episodes, each sample's advantage, the round's metrics."""
        config = self.config.rollout
        templates = await self._task_pool()
        selection = Selection()
        kept: list[RoundGroup] = []
        status = self._fill(selection, 0)
        all_groups: list[RoundGroup] = []
        store_url = None
        rounds = 0
        while rounds == 0 or not status.done:
            wanted = status.groups_needed if rounds else config.tasks_per_step
            request = self._request(templates, step, rounds, wanted)
            async with RolloutClient.connect(self.nats) as client:
                outcome = await client.run(request, timeout_s=config.timeout_s)
            store_url = outcome.store_url
            groups = await self._read_round(store_url, request.run_id)
            round_selection = select_groups(g.group for g in groups)
            kept_ids = {g.task_id for g in round_selection.kept}
            kept += [g for g in groups if g.group.task_id in kept_ids]
            all_groups += groups
            selection = selection + round_selection
            rounds += 1
            status = self._fill(selection, rounds - 1)
        kept = kept[: config.tasks_per_step]
        samples, advantages = await self._samples(store_url, kept, processing)
        values = {f"batch/{key}": value for key, value in status.metrics().items()}
        values |= _reward_metrics(all_groups, kept)
        values |= _version_metrics(samples, step, self.config.name)
        return samples, advantages, values

    def _fill(self, selection: Selection, extra_rounds: int) -> FillStatus:
        config = self.config.rollout
        return FillStatus(
            selection,
            target_groups=config.tasks_per_step,
            extra_rounds=extra_rounds,
            max_extra_rounds=config.max_extra_rounds,
        )

    async def _task_pool(self) -> tuple[str, ...]:
        """The templates to train on, as PhoneWorld lists them; test-split ones refused."""
        if self._pool:
            return self._pool
        rollout = self.config.rollout
        if not rollout.templates and rollout.suite is None:
            raise JobError("name the tasks: rollout.templates or rollout.suite")
        query = (
            TaskQuery(template_ids=rollout.templates, seeds=(rollout.seeds[0],))
            if rollout.templates
            else TaskQuery(suite=rollout.suite, seeds=(rollout.seeds[0],))
        )
        async with connect(self.nats) as bus:
            try:
                listing = await bus.request(WORLD_TASKS, query, TaskList, timeout_s=60)
            except BusError as exc:
                raise JobError(f"PhoneWorld did not list the tasks to train on: {exc}") from None
        templates = tuple(dict.fromkeys(task.template_id for task in listing.tasks))
        if not templates:
            raise JobError(f"PhoneWorld's suite {rollout.suite!r} has no tasks")
        if not rollout.allow_test_split:
            try:
                check_train_tasks(listing.tasks, setting="rollout.allow_test_split")
            except TestSplitError as exc:
                raise JobError(f"of {len(listing.tasks)} tasks listed, {exc}") from None
        self._pool = templates
        return templates

    def _request(
        self, templates: Sequence[str], step: int, round_number: int, groups: int
    ) -> RolloutRequest:
        config, train = self.config.rollout, self.config.train
        rng = random.Random(f"{train.seed}/{step}/{round_number}")
        # The broker plans every template at every seed: distinct templates at one seed, or
        # the whole pool at as many seeds as it takes to reach `groups`.
        if groups <= len(templates):
            picked, seed_count = tuple(rng.sample(list(templates), groups)), 1
        else:
            picked, seed_count = tuple(templates), math.ceil(groups / len(templates))
        seeds = tuple(
            rng.sample(range(*config.seeds), min(seed_count, config.seeds[1] - config.seeds[0]))
        )
        policy = self.config.policy
        return RolloutRequest(
            run_id=f"{self.config.name}-step{step:05d}-r{round_number}",
            tasks=TaskSelection(template_ids=picked, seeds=seeds, language=config.language),
            policy=PolicyTarget(
                endpoint=policy.endpoint,
                base_url=None if policy.endpoint else f"{server_root(policy.url)}/v1",
                model=policy.model,
            ),
            group_size=config.group_size,
            mix=config.source_mix(),
            step_budget=config.step_budget,
            concurrency=config.concurrency,
            sampling=SamplingSpec(
                temperature=config.temperature,
                max_tokens=config.max_tokens,
                seed=_round_seed(config.sampling_seed, step, round_number),
            ),
            prompt=self.prompt,
            min_policy_step=max(0, step - config.max_staleness),
            store_url=config.store,
        )

    async def _read_round(self, store_url: str, run_id: str) -> list[RoundGroup]:
        async with open_store(StoreSettings(url=store_url)) as raw:
            store = TrajectoryStore(raw)
            manifest = await store.read_manifest(run_id)
            episodes = [episode async for episode in store.episodes(run_id)]
        return round_groups(manifest, episodes)

    async def _samples(
        self, store_url: str | None, kept: Sequence[RoundGroup], processing: Any
    ) -> tuple[list[StepSample], list[float]]:
        samples: list[StepSample] = []
        advantages: list[float] = []
        if store_url is None or not kept:
            return samples, advantages
        scale = self.config.algorithm.scale_by_std
        async with open_store(StoreSettings(url=store_url)) as raw:
            store = TrajectoryStore(raw)
            configs: dict[str, Any] = {}
            for group in kept:
                advantage = group.group.advantages(scale_by_std=scale)
                for episode in group.episodes:
                    if episode.episode_id not in advantage:
                        continue
                    if episode.run_id not in configs:
                        manifest = await store.read_manifest(episode.run_id)
                        configs[episode.run_id] = run_prompt_config(manifest)
                    steps = await episode_samples(
                        store, processing, episode, configs[episode.run_id]
                    )
                    samples += steps
                    advantages += [advantage[episode.episode_id]] * len(steps)
        if self.config.algorithm.loss_agg == "episode_mean":
            advantages = episode_balanced(
                advantages,
                [sample.episode_id for sample in samples],
                [len(sample.sample.token_ids) for sample in samples],
            )
        return samples, advantages

    # ---- the update ----

    def _optimize(
        self,
        model: torch.nn.Module,
        reference: torch.nn.Module | None,
        optimizer: torch.optim.Optimizer,
        samples: Sequence[StepSample],
        advantages: Sequence[float],
        step: int,
    ) -> dict[str, Any]:
        config, world = self.config, self.world
        lr = config.optim.lr_at(step)
        for group in optimizer.param_groups:
            group["lr"] = lr
        capacity = config.optim.max_tokens
        tokens = [sample.sample for sample in samples]
        old = sampled_log_probs(model, tokens, capacity=capacity)
        refs = sampled_log_probs(reference, tokens, capacity=capacity) if reference else None
        loss_config = PolicyLossConfig(
            clip_ratio_low=config.algorithm.clip_low,
            clip_ratio_high=config.algorithm.clip_high,
            kl_coef=config.algorithm.kl_coef,
        )
        values: dict[str, Any] = {"batch/samples": len(samples)}
        values["rollout/logprob_diff"] = _server_gap(samples, old)
        order = list(range(len(samples)))
        chunks = [order[i :: config.optim.mini_batches] for i in range(config.optim.mini_batches)]
        parts = []
        grad_norm = 0.0
        for chunk in (c for c in chunks if c):
            optimizer.zero_grad(set_to_none=True)
            chunk_tokens = sum(len(tokens[i].token_ids) for i in chunk)
            rows = sample_rows(model, [tokens[i] for i in chunk], capacity=capacity)
            mine = rows[world.rank :: world.size]
            per_rank = math.ceil(len(rows) / world.size)
            weights = [1.0] * len(mine) + [0.0] * (per_rank - len(mine))
            padded = mine + [rows[0]] * (per_rank - len(mine))
            parameter = next(model.parameters())
            for row, weight in zip(padded, weights, strict=True):
                members = [chunk[m] for m in row.members]
                moved = row.to(parameter.device, pixel_dtype=parameter.dtype)
                log_probs, entropies = row_log_probs_and_entropy(model, moved)
                new = torch.cat(log_probs)
                result = policy_loss(
                    new,
                    torch.cat([old[i] for i in members]).to(new.device),
                    per_token([advantages[i] for i in members], row.generated).to(new.device),
                    torch.ones_like(new, dtype=torch.bool),
                    config=loss_config,
                    ref_log_probs=(
                        torch.cat([refs[i] for i in members]).to(new.device) if refs else None
                    ),
                    entropies=torch.cat(entropies),
                    loss_tokens=chunk_tokens,
                )
                (result.loss * weight * world.size).backward()
                if weight:
                    parts.append(result)
            grad_norm = clip_gradients(model, config.optim.grad_clip)
            optimizer.step()
        # Token-weighted over every rank's parts; every rank reduces the same keys, in order,
        # even one that had only padding rows (a collective with a missing key would hang).
        merged = merge_metrics(parts) if parts else {}
        rank_tokens = float(sum(part.tokens for part in parts))
        total = all_sum(rank_tokens, world)
        for key in LOSS_METRICS + (("kl_loss",) if refs else ()):
            weighted = all_sum(merged.get(key, 0.0) * rank_tokens, world)
            values[f"actor/{key}"] = weighted / max(total, 1)
        values["actor/grad_norm"] = grad_norm
        values["actor/lr"] = lr
        values["batch/tokens"] = sum(len(t.token_ids) for t in tokens)
        return values

    def _push(self, model: torch.nn.Module, step: int) -> None:
        weights = full_state_dict(model)  # every rank takes part in the gather
        if self.world.is_main:
            result = self._weight_sync().push(weights, version_name(self.config.name, step))
            self.metrics.record(
                "weights", {"step": step, "version": result.version, "checksum": result.checksum,
                            "attempts": result.attempts, "seconds": round(result.seconds, 3),
                            "served_at": datetime.now(UTC).isoformat()},
            )  # fmt: skip

    def _checkpoint(
        self, model: torch.nn.Module, optimizer: torch.optim.Optimizer, processing: Any, step: int
    ) -> str:
        return save_checkpoint(
            self.checkpoints, model, optimizer, processing,
            step=step, world=self.world, scratch=self.scratch, resume_key=self._resume_key(),
            state={}, keep_last=self.config.checkpoint.keep_last, metrics=self.metrics,
            prompt=self.prompt,
        )  # fmt: skip

    def _prompt(self, recorded: PromptConfig | None, folder: Path) -> PromptConfig:
        """The rollouts' prompt setting: the config's, which must be the one the model was
        trained on (its record), else the record, else the default."""
        try:
            return resolve_prompt(self.config.rollout.prompt, recorded, what=str(folder))
        except PromptMismatchError as exc:
            raise JobError(str(exc)) from None


def _reward_metrics(groups: Sequence[RoundGroup], kept: Sequence[RoundGroup]) -> dict[str, Any]:
    values: dict[str, Any] = {}

    def mean_reward(chosen: Sequence[RoundGroup]) -> float | None:
        rewards = [r for g in chosen for r in g.group.rewards.values() if r is not None]
        return sum(rewards) / len(rewards) if rewards else None

    values["critic/score/mean"] = mean_reward(kept)
    values["critic/score/all"] = mean_reward(groups)
    for source in {g.source for g in groups}:
        values[f"critic/score/{source.value}"] = mean_reward(
            [g for g in groups if g.source == source]
        )
    for category in {g.category for g in groups}:
        chosen = [g for g in groups if g.category == category]
        values[f"critic/score/category/{category}"] = mean_reward(chosen)
    return values


def _round_seed(seed: int | None, step: int, round_number: int) -> int | None:
    """A seeded run's sampling seed for one round (episode k of a group adds k): distinct for
    every step and round, the same when the run is repeated or resumed."""
    if seed is None:
        return None
    return seed + 1_000_000 * step + 10_000 * round_number


def step_of(version: str | None, name: str) -> int | None:
    """The step `version_name(name, step)` names, None for any other version."""
    prefix = f"{name}-step-"
    if version is None or not version.startswith(prefix) or not version[len(prefix) :].isdigit():
        return None
    return int(version[len(prefix) :])


def _version_metrics(samples: Sequence[StepSample], step: int, name: str) -> dict[str, Any]:
    steps = [step_of(sample.policy_version, name) for sample in samples]
    return {
        "rollout/staleness": max((step - s for s in steps if s is not None), default=0),
        "rollout/unversioned_steps": sum(s is None for s in steps),
    }


def _server_gap(samples: Sequence[StepSample], trainer: Sequence[torch.Tensor]) -> float | None:
    gaps = [
        (torch.tensor(s.server_logprobs) - t).abs().mean().item()
        for s, t in zip(samples, trainer, strict=True)
        if s.server_logprobs is not None
    ]
    return sum(gaps) / len(gaps) if gaps else None


def train_rl(
    config: RLConfig,
    world: World,
    *,
    metrics: TrainMetrics,
    nats: NatsSettings,
    stop_after: int | None = None,
    sync: WeightSyncClient | None = None,
) -> RLResult:
    return RLTrainer(config, world, metrics=metrics, nats=nats, sync=sync).run(
        stop_after=stop_after
    )
