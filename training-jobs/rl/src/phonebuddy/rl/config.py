"""The RL job's configuration: one pydantic model, read from YAML with CLI overrides.

Defaults are the paper's recipe: GRPO from the SFT checkpoint, B tasks x G=8 episodes per step
mixed 50/50 real/sim by groups, step budget 30, temperature 1.0, clip 0.2 / 0.28, token-mean,
no KL, LR 1e-6 constant, grad clip 1.0, one optimizer step per RL step, 50 steps.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, model_validator

from phonebuddy.protocol import PromptConfig, SourceMix
from phonebuddy.protocol.tasks import TRAIN_SEEDS, TRAIN_STEP_BUDGET
from phonebuddy.training.config import (
    CheckpointConfig,
    JobConfigFiles,
    MetricsPortConfig,
    ModelConfig,
    Section,
    to_yaml,
)
from phonebuddy.training.splits import check_train_seeds

CONFIGS_DIR = Path(__file__).resolve().parent / "configs"


class RolloutConfig(Section):
    templates: tuple[str, ...] = Field(
        default=(), description="PhoneWorld template ids to train on; given, they replace suite"
    )
    suite: str | None = Field(default="train", description="a PhoneWorld suite to train on")
    seeds: tuple[int, int] = Field(
        default=TRAIN_SEEDS, description="the train split: seeds in [first, last)"
    )
    allow_test_split: bool = Field(
        default=False,
        description="train on PhoneWorld's held-out tasks too (their evaluation is then void)",
    )
    tasks_per_step: int = Field(default=16, ge=1, description="B: informative groups per step")
    group_size: int = Field(default=8, ge=2, description="G: episodes per task")
    mix: str = Field(default="real=0.5,sim=0.5", description="share of groups per source")
    step_budget: int = Field(default=TRAIN_STEP_BUDGET, ge=1)
    temperature: float = Field(default=1.0, ge=0, le=2)
    max_tokens: int = Field(default=256, ge=1)
    sampling_seed: int | None = Field(
        default=None,
        ge=0,
        description="seed the policy's sampling (reproducible runs); None: unseeded",
    )
    language: Literal["zh", "en"] = Field(
        default="en", description="the instructions' language (as the SFT data's)"
    )
    prompt: PromptConfig | None = Field(
        default=None,
        description="how prompts show the phone; None = what the base checkpoint records "
        "(its phonebuddy.json), else the default (one screenshot)",
    )
    concurrency: int = Field(default=64, ge=1)
    max_extra_rounds: int = Field(
        default=2, ge=0, description="refill rounds when too few groups are informative"
    )
    max_staleness: int = Field(
        default=0, ge=0, description="policy versions an episode may lag behind (0: on-policy)"
    )
    timeout_s: float = Field(default=3600.0, gt=0, description="one rollout round")
    store: str | None = Field(default=None, description="trajectory store; None: the broker's")

    @model_validator(mode="after")
    def _check(self) -> RolloutConfig:
        if not self.templates and self.suite is None:
            raise ValueError("name the tasks: rollout.templates or rollout.suite")
        if self.seeds[0] < 0 or self.seeds[1] <= self.seeds[0]:
            raise ValueError(f"rollout.seeds {self.seeds} is not a range [first, last)")
        if not self.allow_test_split:
            check_train_seeds(self.seeds, setting="rollout.allow_test_split")
        SourceMix.parse(self.mix)
        return self

    def source_mix(self) -> SourceMix:
        return SourceMix.parse(self.mix)


class PolicyServerConfig(Section):
    url: str = Field(default="", description="the policy server the broker rolls out with")
    model: str = "phonebuddy-policy"
    endpoint: str | None = Field(
        default=None, description="its name in the broker's endpoints (else by url)"
    )
    sync: Literal["transformers", "vllm"] = Field(
        default="transformers",
        description="transformers: phonebuddy policy serve's routes; vllm: vLLM's NCCL transfer",
    )
    nccl_address: str = Field(
        default="", description="vllm sync: this trainer's address for vLLM (empty: $POD_IP)"
    )
    nccl_port: int = Field(default=29600, ge=1, le=65535, description="vllm sync: NCCL port")
    staging: str = Field(
        default="", description="where pushed weights are staged (a folder or store URL)"
    )
    admin_token_env: str = Field(
        default="PHONEBUDDY_POLICY_ADMIN_TOKEN", description="variable holding its admin token"
    )


class AlgorithmConfig(Section):
    clip_low: float = Field(default=0.2, ge=0, lt=1)
    clip_high: float = Field(default=0.28, ge=0)
    kl_coef: float = Field(default=0.0, ge=0, description="k3 KL to the initial model; 0 = off")
    scale_by_std: bool = False
    loss_agg: Literal["token_mean", "episode_mean"] = Field(
        default="token_mean",
        description="token_mean: every sampled token weighs the same (the paper's); "
        "episode_mean: every episode weighs the same whatever its number of steps",
    )


class OptimConfig(Section):
    lr: float = Field(default=1e-6, gt=0)
    warmup_steps: int = Field(
        default=0, ge=0,
        description="RL steps over which the learning rate rises linearly to `lr` (0: constant "
        "from the start). Adam's first updates move every weight by about the learning rate "
        "whatever its gradient, so a large `lr` needs a few steps of warm-up",
    )  # fmt: skip
    weight_decay: float = Field(default=0.0, ge=0)
    betas: tuple[float, float] = (0.9, 0.999)
    grad_clip: float = Field(default=1.0, gt=0)
    mini_batches: int = Field(default=1, ge=1, description="optimizer steps per RL step")
    max_tokens: int = Field(default=8192, ge=64, description="tokens per packed row")

    def lr_at(self, step: int) -> float:
        """The learning rate of RL step `step` (0-based)."""
        if self.warmup_steps == 0:
            return self.lr
        return self.lr * min(1.0, (step + 1) / self.warmup_steps)


class TrainConfig(Section):
    steps: int = Field(default=50, ge=1)
    seed: int = 0


class RLCheckpointConfig(CheckpointConfig):
    output: str = Field(
        default="local:.phonebuddy/rl",
        description="where checkpoints go: a store URL (s3://bucket/prefix or local:/path)",
    )
    every_steps: int = Field(default=10, ge=1)


class RLConfig(Section):
    name: str = Field(default="rl", pattern=r"^[a-z0-9][a-z0-9_.\-]*$", max_length=64)
    model: ModelConfig = ModelConfig()
    rollout: RolloutConfig = RolloutConfig()
    policy: PolicyServerConfig = PolicyServerConfig()
    algorithm: AlgorithmConfig = AlgorithmConfig()
    optim: OptimConfig = OptimConfig()
    train: TrainConfig = TrainConfig()
    checkpoint: RLCheckpointConfig = RLCheckpointConfig()
    metrics: MetricsPortConfig = MetricsPortConfig()

    def to_yaml(self) -> str:
        return to_yaml(self)


_FILES = JobConfigFiles(RLConfig, "RL", CONFIGS_DIR)
load_config = _FILES.load
bundled_config = _FILES.bundled
