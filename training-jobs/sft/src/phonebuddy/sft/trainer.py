"""The SFT loop: packed rows, loss at the answer tokens, AdamW + warm-up/cosine, accumulation up
to the global batch, FSDP2 across ranks, checkpoints to the store, exact resume, SIGTERM-safe.

Loss normalisation: each optimizer step averages the token loss over every labelled token of its
global batch (all ranks, all micro-batches), so the result does not depend on how the batch is
split; FSDP2 averages gradients over ranks, hence the factor `world.size`. A rank with fewer rows
in a step repeats one of its rows with weight 0, keeping the collectives in step.
"""

from __future__ import annotations

import math
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

from phonebuddy.agent import read_record
from phonebuddy.protocol import PromptConfig, PromptMismatchError, check_prompt_match
from phonebuddy.sft.config import SFTConfig
from phonebuddy.sft.data import DataError
from phonebuddy.sft.dataset import Dataset, Split, build_dataset
from phonebuddy.training.batch import pack_row
from phonebuddy.training.checkpoint import CheckpointStore
from phonebuddy.training.distributed import World, all_sum, any_true, shard_model
from phonebuddy.training.job import (
    MetricsFile,
    StopFlag,
    clip_gradients,
    load_model,
    restore_checkpoint,
    save_checkpoint,
    start_point,
    trainable,
)
from phonebuddy.training.loss import row_loss
from phonebuddy.training.metrics import TrainMetrics
from phonebuddy.training.schedule import RowOrder, lr_at, steps_for

KIND = "sft"


@dataclass(frozen=True, slots=True)
class TrainResult:
    step: int
    total_steps: int
    stopped: str  # "finished", "stop_after", "sigterm"
    checkpoint_url: str | None
    statistics: dict[str, Any]


class SFTTrainer:
    def __init__(self, config: SFTConfig, world: World, *, metrics: TrainMetrics) -> None:
        self.config = config
        self.world = world
        self.metrics = metrics
        self.scratch = Path()  # a fresh folder for each run, removed when it ends
        self.checkpoints = CheckpointStore(config.checkpoint.output, config.name)
        self.stop = StopFlag()
        self.prompt: PromptConfig | None = None  # what the data was rendered with
        self.metrics_file = MetricsFile(self.checkpoints)
        if world.is_main:
            metrics.sink = self.metrics_file

    # ---- set-up ----

    def _load(self) -> tuple[int, Path]:
        """(start step, folder to load weights from): the latest checkpoint, else the base."""
        return start_point(
            self.checkpoints, self.config.model.base, self._resume_key(), self.scratch
        )

    def _resume_key(self) -> dict[str, Any]:
        dumped = self.config.model_dump(mode="json")
        return {key: dumped[key] for key in ("data", "packing", "optim", "train")}

    # ---- the loop ----

    def run(self, *, stop_after: int | None = None) -> TrainResult:
        self.stop.install()
        self.scratch = Path(tempfile.mkdtemp(prefix="phonebuddy-sft-"))
        try:
            return self._run(stop_after)
        finally:
            self.stop.restore()
            self.checkpoints.close()
            shutil.rmtree(self.scratch, ignore_errors=True)

    def _run(self, stop_after: int | None) -> TrainResult:
        config, world = self.config, self.world
        start, folder = self._load()
        model, processing = load_model(config.model, folder, world)
        torch.manual_seed(config.train.seed)
        dataset = build_dataset(config, processing)
        try:
            check_prompt_match(read_record(folder), dataset.prompt, what=f"the model at {folder}")
        except PromptMismatchError as exc:
            raise DataError(str(exc)) from None
        self.prompt = dataset.prompt
        if world.is_main:
            self.metrics.record("dataset", dataset.statistics)
        model = shard_model(model, world)
        optimizer = torch.optim.AdamW(
            trainable(model),
            lr=config.optim.lr,
            betas=config.optim.betas,
            weight_decay=config.optim.weight_decay,
        )
        train = dataset.train
        rows_per_step = min(config.optim.global_batch_rows, len(train.plan.rows))
        total = config.train.max_steps or steps_for(
            len(train.plan.rows), global_batch=rows_per_step, epochs=config.train.epochs
        )
        order = RowOrder(len(train.plan.rows), seed=config.train.seed)
        seen = {"examples": 0, "tokens": 0}
        if start > 0:
            self._restore(model, optimizer, start, seen)
        step = start
        stopped = "finished"
        last_url: str | None = None
        while step < total:
            lr = lr_at(
                step, lr=config.optim.lr, min_lr=config.optim.min_lr,
                warmup=config.optim.warmup_steps, total=total,
            )  # fmt: skip
            for group in optimizer.param_groups:
                group["lr"] = lr
            batch = order.take(step * rows_per_step, rows_per_step)
            values = self._step(model, optimizer, train, batch)
            step += 1
            seen["examples"] += values.pop("examples")
            seen["tokens"] += values["tokens"]
            if world.is_main:
                self.metrics.record(
                    "step",
                    {"step": step, "total_steps": total, "lr": lr,
                     "examples_seen": seen["examples"], "tokens_seen": seen["tokens"], **values},
                )  # fmt: skip
            if dataset.validation.plan.rows and (
                step % config.metrics.eval_every_steps == 0 or step == total
            ):
                self._evaluate(model, dataset, step)
            halt = any_true(self.stop.reason is not None, world)
            if halt or (stop_after is not None and step - start >= stop_after):
                stopped = (self.stop.reason or "sigterm") if halt else "stop_after"
                last_url = self._checkpoint(model, optimizer, processing, step, seen)
                break
            if step % config.checkpoint.every_steps == 0 or step == total:
                last_url = self._checkpoint(model, optimizer, processing, step, seen)
        self.metrics.flush()
        return TrainResult(step, total, stopped, last_url, dataset.statistics)

    def _step(
        self,
        model: torch.nn.Module,
        optimizer: torch.optim.Optimizer,
        train: Split,
        batch: list[int],
    ) -> dict[str, Any]:
        world = self.world
        started = time.perf_counter()
        global_targets = sum(train.row_targets(row) for row in batch)
        mine = batch[world.rank :: world.size]
        micro = math.ceil(len(batch) / world.size)
        weights = [1.0] * len(mine) + [0.0] * (micro - len(mine))
        rows = mine + [batch[0]] * (micro - len(mine))
        optimizer.zero_grad(set_to_none=True)
        loss_sum = correct = 0.0
        pixel_dtype = next(model.parameters()).dtype
        for row, weight in zip(rows, weights, strict=True):
            packed = train.packed(model, row).to(self.world.device, pixel_dtype=pixel_dtype)
            result = row_loss(model, packed)
            scaled = result.loss_sum * (weight * world.size / max(1, global_targets))
            scaled.backward()
            loss_sum += float(result.loss_sum.detach()) * weight
            correct += result.correct * weight
        grad_norm = clip_gradients(model, self.config.optim.grad_clip)
        optimizer.step()
        loss_sum = all_sum(loss_sum, world)
        correct = all_sum(correct, world)
        seconds = time.perf_counter() - started
        tokens = sum(train.row_tokens(row) for row in batch)
        return {
            "loss": loss_sum / max(1, global_targets),
            "token_accuracy": correct / max(1, global_targets),
            "grad_norm": grad_norm,
            "tokens": tokens,
            "target_tokens": global_targets,
            "tokens_per_second": tokens / seconds if seconds > 0 else 0.0,
            "utilization": tokens / (len(batch) * train.plan.capacity),
            "rows": len(batch),
            "examples": sum(train.row_examples(row) for row in batch),
            "seconds": seconds,
        }

    @torch.no_grad()
    def _evaluate(self, model: torch.nn.Module, dataset: Dataset, step: int) -> None:
        """Validation loss, token accuracy and exact match of whole targets (teacher-forced)."""
        validation, world = dataset.validation, self.world
        model.eval()
        loss_sum = correct = targets = exact = examples = 0.0
        pixel_dtype = next(model.parameters()).dtype
        rows = list(range(len(validation.plan.rows)))
        mine = rows[world.rank :: world.size]
        micro = math.ceil(len(rows) / world.size)
        padded = mine + [rows[0]] * (micro - len(mine))
        for position, row in enumerate(padded):
            weight = 1.0 if position < len(mine) else 0.0
            for index in validation.plan.rows[row]:
                example = validation.example(index)
                packed = pack_row(model, [example]).to(world.device, pixel_dtype=pixel_dtype)
                result = row_loss(model, packed)
                loss_sum += float(result.loss_sum) * weight
                correct += result.correct * weight
                targets += result.tokens * weight
                exact += float(result.correct == result.tokens) * weight
                examples += weight
        model.train()
        totals = [all_sum(v, world) for v in (loss_sum, correct, targets, exact, examples)]
        loss_sum, correct, targets, exact, examples = totals
        if world.is_main:
            self.metrics.record(
                "validation",
                {"step": step, "val_loss": loss_sum / max(1, targets),
                 "val_token_accuracy": correct / max(1, targets),
                 "val_exact_match": exact / max(1, examples), "val_examples": int(examples)},
            )  # fmt: skip

    # ---- checkpoints ----

    def _checkpoint(
        self,
        model: torch.nn.Module,
        optimizer: torch.optim.Optimizer,
        processing: Any,
        step: int,
        seen: dict[str, int],
    ) -> str:
        return save_checkpoint(
            self.checkpoints, model, optimizer, processing,
            step=step, world=self.world, scratch=self.scratch, resume_key=self._resume_key(),
            state={"seen": seen}, keep_last=self.config.checkpoint.keep_last,
            metrics=self.metrics, prompt=self.prompt,
        )  # fmt: skip

    def _restore(
        self,
        model: torch.nn.Module,
        optimizer: torch.optim.Optimizer,
        step: int,
        seen: dict[str, int],
    ) -> None:
        state = restore_checkpoint(self.checkpoints, model, optimizer, step=step, world=self.world)
        seen.update(state["seen"])
        if self.world.is_main:
            self.metrics_file.resume_at(step)
            self.metrics.record("resumed", {"step": step, **seen})


def train_sft(
    config: SFTConfig, world: World, *, metrics: TrainMetrics, stop_after: int | None = None
) -> TrainResult:
    return SFTTrainer(config, world, metrics=metrics).run(stop_after=stop_after)
