"""What every training job does around its loop: where to start (the latest complete checkpoint,
else the base model), the model and optimizer set-up, stopping on SIGTERM, and checkpoints that
hold everything an exact resume needs (the model as a Hugging Face folder; optimizer state, RNG
states per rank, the job's own state and the config that must match to resume).
"""

from __future__ import annotations

import json
import signal
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import torch
from torch.distributed.checkpoint.state_dict import (
    StateDictOptions,
    get_model_state_dict,
    get_optimizer_state_dict,
    set_optimizer_state_dict,
)

from phonebuddy.protocol import PromptConfig
from phonebuddy.training.checkpoint import (
    CheckpointStore,
    fetch_model_folder,
    rng_state,
    set_rng_state,
    tensor_bytes,
    tensor_load,
    write_json_bytes,
)
from phonebuddy.training.config import ModelConfig
from phonebuddy.training.distributed import World, barrier
from phonebuddy.training.metrics import TrainMetrics
from phonebuddy.training.model import load_for_training, save_hf_folder, training_dtype

_FULL_STATE = StateDictOptions(full_state_dict=True, cpu_offload=True)
METRICS_FILE = "metrics.jsonl"


class JobError(Exception):
    """The job cannot go on; the message says why. Nothing half-written is published."""


class StopFlag:
    """Set by SIGTERM (a preempted pod) or SIGINT; the loop checkpoints and returns."""

    def __init__(self) -> None:
        self.reason: str | None = None
        self._previous: dict[int, Any] = {}

    def install(self) -> None:
        if threading.current_thread() is not threading.main_thread():
            return
        for sig in (signal.SIGTERM, signal.SIGINT):
            self._previous[sig] = signal.signal(sig, self._handle)

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        self.reason = "sigterm" if signum == signal.SIGTERM else "sigint"

    def restore(self) -> None:
        for sig, handler in self._previous.items():
            signal.signal(sig, handler)


class MetricsFile:
    """The job's `metrics.jsonl` in its store folder, rewritten with every line so far. A resumed
    job keeps the history of the run it continues: its lines up to the resumed step (any step
    after it is trained again and recorded anew) come first."""

    def __init__(self, checkpoints: CheckpointStore) -> None:
        self.checkpoints = checkpoints
        self.history: list[str] = []

    def resume_at(self, step: int) -> None:
        text = self.checkpoints.get_text(METRICS_FILE) or ""
        self.history = []
        for line in text.splitlines():
            try:
                record = json.loads(line)
            except json.JSONDecodeError:
                break  # a torn last write: what came before it is the history
            if record.get("event") == "step" and int(record.get("step", 0)) > step:
                break
            self.history.append(line)

    def __call__(self, lines: list[str]) -> None:
        text = "".join(f"{line}\n" for line in self.history + lines)
        self.checkpoints.put_text(METRICS_FILE, text)


def start_point(
    checkpoints: CheckpointStore, base: str, resume_key: dict[str, Any], scratch: Path
) -> tuple[int, Path]:
    """(start step, folder to load weights from): the latest checkpoint, else the base. A
    checkpoint written under another `resume_key` (data, optimizer...) is refused."""
    latest = checkpoints.latest()
    if latest is None:
        if not base:
            raise JobError("model.base is not set: name the Qwen3.5-VL checkpoint to train")
        return 0, fetch_model_folder(base, scratch)
    saved = json.loads(checkpoints.read_trainer_file(latest.step, "config.json"))
    if saved != resume_key:
        raise JobError(
            f"{checkpoints.url} holds a run with another config; "
            "use another name or checkpoint.output"
        )
    return latest.step, checkpoints.download_model(latest.step, scratch / "resume")


def load_model(config: ModelConfig, folder: Path, world: World) -> tuple[torch.nn.Module, Any]:
    """The model to train (frozen vision tower and gradient checkpointing as configured) and
    its processing (tokenizer, chat template, image processor)."""
    dtype = training_dtype(config.precision.value, world.device)
    model, processing = load_for_training(folder, dtype=dtype, device=world.device)
    if config.freeze_vision:
        for parameter in model.model.visual.parameters():
            parameter.requires_grad_(False)
    if config.gradient_checkpointing:
        model.gradient_checkpointing_enable()
    return model, processing


def trainable(model: torch.nn.Module) -> list[torch.nn.Parameter]:
    return [p for p in model.parameters() if p.requires_grad]


def clip_gradients(model: torch.nn.Module, max_norm: float) -> float:
    """Clip the gradients' global norm (across FSDP shards); the norm before clipping."""
    norm = torch.nn.utils.clip_grad_norm_(trainable(model), max_norm)
    if hasattr(norm, "full_tensor"):
        norm = norm.full_tensor()
    return float(norm)


def full_state_dict(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    """The whole model's weights on the CPU, gathered from every rank's shards."""
    return get_model_state_dict(model, options=_FULL_STATE)


def save_checkpoint(
    checkpoints: CheckpointStore,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    processing: Any,
    *,
    step: int,
    world: World,
    scratch: Path,
    resume_key: dict[str, Any],
    state: dict[str, Any],
    keep_last: int,
    metrics: TrainMetrics | None = None,
    prompt: PromptConfig | None = None,
) -> str:
    """Write step `step` (every rank takes part) and move `latest` once it is complete; the
    model's store URL, recorded in `metrics` on rank 0. `state` is the job's own (its position,
    counters) for `restore`; `prompt` is the prompt setting the model was trained on."""
    weights = full_state_dict(model)
    optim_state = get_optimizer_state_dict(model, optimizer, options=_FULL_STATE)
    checkpoints.write_trainer_file(step, f"rng-rank{world.rank:05d}.pt", tensor_bytes(rng_state()))
    if world.is_main:
        folder = save_hf_folder(model, weights, processing, scratch / f"save-{step}", prompt=prompt)
        checkpoints.write_model(step, folder)
        checkpoints.write_trainer_file(step, "optimizer.pt", tensor_bytes(optim_state))
        checkpoints.write_trainer_file(step, "config.json", write_json_bytes(resume_key))
        checkpoints.write_trainer_file(
            step,
            "trainer.json",
            write_json_bytes({"step": step, "world_size": world.size, **state}),
        )
    barrier(world)
    url = checkpoints.model_url(step)
    if world.is_main:
        checkpoints.complete(step, keep_last=keep_last)
        if metrics is not None:  # the checkpoint event, and the metrics file up to it
            metrics.record("checkpoint", {"step": step, "url": url})
            metrics.flush()
    barrier(world)
    return url


def restore_checkpoint(
    checkpoints: CheckpointStore,
    model: torch.nn.Module,
    optimizer: torch.optim.Optimizer,
    *,
    step: int,
    world: World,
) -> dict[str, Any]:
    """Load the optimizer and this rank's RNG states of step `step`; the job's saved state."""
    state = json.loads(checkpoints.read_trainer_file(step, "trainer.json"))
    optim_state = tensor_load(checkpoints.read_trainer_file(step, "optimizer.pt"))
    set_optimizer_state_dict(model, optimizer, optim_state, options=_FULL_STATE)
    rng_name = f"rng-rank{world.rank:05d}.pt"
    if checkpoints.has_trainer_file(step, rng_name):
        set_rng_state(tensor_load(checkpoints.read_trainer_file(step, rng_name)))
    return state
