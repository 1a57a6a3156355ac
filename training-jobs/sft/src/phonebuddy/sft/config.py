"""The SFT job's configuration: one pydantic model, read from YAML with CLI overrides.

Defaults are the paper's recipe for Qwen3.5-4B: full-parameter fine-tuning, rows packed to 8,192
tokens, AdamW with a short warm-up then cosine decay 1e-5 -> 1e-6, a global batch of 512 rows
reached by gradient accumulation, gradient clipping at 1.0, bf16 on GPU and fp32 on CPU.
`configs/` beside this package holds that config for Qwen3.5-4B and a tiny CPU config.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from phonebuddy.protocol import Category, PromptConfig, Source
from phonebuddy.training.config import (
    CheckpointConfig,
    JobConfigFiles,
    MetricsPortConfig,
    ModelConfig,
    Section,
    to_yaml,
)


class RunSource(Section):
    run: str = Field(min_length=1, description="a run id in the trajectory store")
    store: str | None = Field(
        default=None,
        description="store URL (local:/path, s3://bucket/prefix); None = PHONEBUDDY_STORE_*",
    )


class DataConfig(Section):
    runs: tuple[RunSource, ...] = ()
    parquet: tuple[str, ...] = Field(
        default=(), description="folders written by `phonebuddy trajectories export`"
    )
    successful_only: bool = True
    sources: tuple[Source, ...] = Field(default=(), description="keep only these; () = all")
    categories: tuple[Category, ...] = ()
    apps: tuple[str, ...] = ()
    policy_versions: tuple[str, ...] = ()
    validation_fraction: float = Field(
        default=0.05, ge=0.0, lt=1.0, description="share of tasks held out for validation"
    )
    split_seed: int = 0
    prompt: PromptConfig | None = Field(
        default=None,
        description="render runs' steps with this prompt setting (observation mode, element "
        "actions...); None = each run's own, which must agree",
    )
    allow_test_split: bool = Field(
        default=False,
        description="train on PhoneWorld's held-out tasks too (their evaluation is then void)",
    )


class PackingConfig(Section):
    max_tokens: int = Field(default=8192, ge=64, description="tokens per packed row")
    order: Literal["shuffled", "tight"] = Field(
        default="shuffled",
        description="shuffled: rows mix examples at random (seeded by train.seed), as random "
        "minibatches do; tight: fewest rows, examples grouped by length (rows then tend to hold "
        "one task's examples, which hurts when a step trains on few rows)",
    )


class OptimConfig(Section):
    lr: float = Field(default=1e-5, gt=0)
    min_lr: float = Field(default=1e-6, ge=0)
    warmup_steps: int = Field(default=10, ge=0)
    weight_decay: float = Field(default=0.0, ge=0)
    betas: tuple[float, float] = (0.9, 0.95)
    grad_clip: float = Field(default=1.0, gt=0)
    global_batch_rows: int = Field(default=512, ge=1, description="packed rows per optimizer step")

    @model_validator(mode="after")
    def _check(self) -> OptimConfig:
        if self.min_lr > self.lr:
            raise ValueError(f"min_lr {self.min_lr} is above lr {self.lr}")
        return self


class TrainConfig(Section):
    epochs: float = Field(default=3.0, gt=0, description="passes over the training rows")
    max_steps: int | None = Field(
        default=None, ge=1, description="optimizer steps; None = from epochs"
    )
    seed: int = 0


class SFTCheckpointConfig(CheckpointConfig):
    output: str = Field(
        default="local:.phonebuddy/sft",
        description="where checkpoints go: a store URL (s3://bucket/prefix or local:/path)",
    )


class MetricsConfig(MetricsPortConfig):
    eval_every_steps: int = Field(default=50, ge=1)


class SFTConfig(Section):
    name: str = Field(default="sft", pattern=r"^[a-z0-9][a-z0-9_.\-]*$", max_length=64)
    model: ModelConfig = ModelConfig()
    data: DataConfig = DataConfig()
    packing: PackingConfig = PackingConfig()
    optim: OptimConfig = OptimConfig()
    train: TrainConfig = TrainConfig()
    checkpoint: SFTCheckpointConfig = SFTCheckpointConfig()
    metrics: MetricsConfig = MetricsConfig()

    def to_yaml(self) -> str:
        return to_yaml(self)


ConfigName = Literal["qwen3_5-4b", "tiny-cpu"]
CONFIGS_DIR = Path(__file__).resolve().parent / "configs"


_FILES = JobConfigFiles(SFTConfig, "SFT", CONFIGS_DIR)
load_config = _FILES.load
bundled_config = _FILES.bundled
