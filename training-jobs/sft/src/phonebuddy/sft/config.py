"""The SFT job's configuration: one pydantic model, read from YAML with CLI overrides.

Defaults are the paper's recipe for Qwen3.5-4B: full-parameter fine-tuning, rows packed to 8,192
tokens, AdamW with a short warm-up then cosine decay 1e-5 -> 1e-6, a global batch of 512 rows
reached by gradient accumulation, gradient clipping at 1.0, bf16 on GPU and fp32 on CPU.
`configs/` beside this package holds that config for Qwen3.5-4B and a tiny CPU config.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from phonebuddy.protocol import Category, Source


class ConfigError(ValueError):
    """A config file or override that cannot be used; the message says which and why."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Precision(StrEnum):
    AUTO = "auto"  # bf16 on GPU, fp32 on CPU
    FLOAT32 = "float32"
    BFLOAT16 = "bfloat16"


class ModelConfig(_Section):
    base: str = Field(
        default="",
        description="the Qwen3.5-VL checkpoint to start from: a folder, or a store URL "
        "(s3://bucket/prefix/..., local:/path) of a Hugging Face folder",
    )
    precision: Precision = Precision.AUTO
    gradient_checkpointing: bool = False
    freeze_vision: bool = Field(
        default=False, description="keep the vision tower fixed (full-parameter otherwise)"
    )


class RunSource(_Section):
    run: str = Field(min_length=1, description="a run id in the trajectory store")
    store: str | None = Field(
        default=None,
        description="store URL (local:/path, s3://bucket/prefix); None = PHONEBUDDY_STORE_*",
    )


class DataConfig(_Section):
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


class PackingConfig(_Section):
    max_tokens: int = Field(default=8192, ge=64, description="tokens per packed row")


class OptimConfig(_Section):
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


class TrainConfig(_Section):
    epochs: float = Field(default=3.0, gt=0, description="passes over the training rows")
    max_steps: int | None = Field(
        default=None, ge=1, description="optimizer steps; None = from epochs"
    )
    seed: int = 0


class CheckpointConfig(_Section):
    output: str = Field(
        default="local:.phonebuddy/sft",
        description="where checkpoints go: a store URL (s3://bucket/prefix or local:/path)",
    )
    every_steps: int = Field(default=100, ge=1)
    keep_last: int = Field(default=3, ge=1, description="older step checkpoints are deleted")


class MetricsConfig(_Section):
    port: int | None = Field(
        default=None, ge=0, le=65535, description="/metrics on rank 0; None = off"
    )
    host: str = "127.0.0.1"
    eval_every_steps: int = Field(default=50, ge=1)


class SFTConfig(_Section):
    name: str = Field(default="sft", pattern=r"^[a-z0-9][a-z0-9_.\-]*$", max_length=64)
    model: ModelConfig = ModelConfig()
    data: DataConfig = DataConfig()
    packing: PackingConfig = PackingConfig()
    optim: OptimConfig = OptimConfig()
    train: TrainConfig = TrainConfig()
    checkpoint: CheckpointConfig = CheckpointConfig()
    metrics: MetricsConfig = MetricsConfig()

    def to_yaml(self) -> str:
        return yaml.safe_dump(self.model_dump(mode="json"), sort_keys=False, allow_unicode=True)


def _set_path(tree: dict[str, Any], dotted: str, value: Any) -> None:
    keys = dotted.split(".")
    node = tree
    for key in keys[:-1]:
        child = node.setdefault(key, {})
        if not isinstance(child, dict):
            raise ConfigError(f"override {dotted!r}: {key!r} is not a section")
        node = child
    node[keys[-1]] = value


def parse_override(text: str) -> tuple[str, Any]:
    """`section.key=value` (the value read as YAML: numbers, lists, null...)."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise ConfigError(f"override {text!r} is not section.key=value")
    try:
        value = yaml.safe_load(raw) if raw.strip() else ""
    except yaml.YAMLError as exc:
        raise ConfigError(f"override {text!r}: the value is not valid YAML ({exc})") from exc
    return key.strip(), value


def load_config(
    path: str | Path | None = None,
    overrides: Sequence[str] = (),
    *,
    values: Mapping[str, Any] | None = None,
) -> SFTConfig:
    """Defaults, then the YAML file at `path`, then `values` (dotted keys), then `overrides`."""
    tree: dict[str, Any] = {}
    if path is not None:
        try:
            loaded = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
        except OSError as exc:
            raise ConfigError(f"cannot read the config file {path}: {exc.strerror}") from exc
        except yaml.YAMLError as exc:
            raise ConfigError(f"{path} is not valid YAML: {exc}") from exc
        if loaded is not None and not isinstance(loaded, dict):
            raise ConfigError(f"{path} must hold a mapping at the top level")
        tree = loaded or {}
    for key, value in (values or {}).items():
        _set_path(tree, key, value)
    for text in overrides:
        _set_path(tree, *parse_override(text))
    try:
        return SFTConfig.model_validate(tree)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors()
        )
        where = f" in {path}" if path is not None else ""
        raise ConfigError(f"invalid SFT config{where}: {problems}") from None


ConfigName = Literal["qwen3_5-4b", "tiny-cpu"]
CONFIGS_DIR = Path(__file__).resolve().parent / "configs"


def bundled_config(name: str) -> Path:
    path = CONFIGS_DIR / f"{name}.yaml"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in CONFIGS_DIR.glob("*.yaml")))
        raise ConfigError(f"no bundled config {name!r}; known: {known}")
    return path
