"""Configuration pieces every training job shares (model, optimizer basics, checkpoints, metrics)
and the loader: defaults, then a YAML file, then dotted values, then `--set key=value` overrides.

Each job defines its own top-level pydantic model from these sections (`SFTConfig`, `RLConfig`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from pathlib import Path
from typing import Any, Generic, TypeVar

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

ConfigT = TypeVar("ConfigT", bound=BaseModel)


class ConfigError(ValueError):
    """A config file or override that cannot be used; the message says which and why."""


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Precision(StrEnum):
    AUTO = "auto"  # bf16 on GPU, fp32 on CPU
    FLOAT32 = "float32"
    BFLOAT16 = "bfloat16"


class ModelConfig(Section):
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


class CheckpointConfig(Section):
    """Jobs subclass it to give `output` their own default folder."""

    output: str = Field(
        default="local:.phonebuddy/train",
        description="where checkpoints go: a store URL (s3://bucket/prefix or local:/path)",
    )
    every_steps: int = Field(default=100, ge=1)
    keep_last: int = Field(default=3, ge=1, description="older step checkpoints are deleted")


class MetricsPortConfig(Section):
    port: int | None = Field(
        default=None, ge=0, le=65535, description="/metrics on rank 0; None = off"
    )
    host: str = "127.0.0.1"
    linger_s: float = Field(
        default=0.0, ge=0, le=600,
        description="seconds /metrics stays up after the job ends, so the last step's values "
        "are scraped (about two scrape intervals)",
    )  # fmt: skip


def to_yaml(config: BaseModel) -> str:
    return yaml.safe_dump(config.model_dump(mode="json"), sort_keys=False, allow_unicode=True)


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
    model: type[ConfigT],
    label: str,
    path: str | Path | None = None,
    overrides: Sequence[str] = (),
    *,
    values: Mapping[str, Any] | None = None,
) -> ConfigT:
    """Defaults, then the YAML file at `path`, then `values` (dotted keys), then `overrides`;
    `label` names the job in errors ("invalid SFT config in x.yaml: ...")."""
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
        return model.model_validate(tree)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors()
        )
        where = f" in {path}" if path is not None else ""
        raise ConfigError(f"invalid {label} config{where}: {problems}") from None


def bundled_config(configs_dir: Path, name: str) -> Path:
    """A job's bundled YAML config by name (`configs/<name>.yaml`)."""
    path = configs_dir / f"{name}.yaml"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in configs_dir.glob("*.yaml")))
        raise ConfigError(f"no bundled config {name!r}; known: {known}")
    return path


class JobConfigFiles(Generic[ConfigT]):
    """A job's config files: its model, its name in errors and its bundled presets, giving the
    `load_config` and `bundled_config` its command uses."""

    def __init__(self, model: type[ConfigT], label: str, configs_dir: Path) -> None:
        self.model, self.label, self.configs_dir = model, label, configs_dir

    def load(
        self,
        path: str | Path | None = None,
        overrides: Sequence[str] = (),
        *,
        values: Mapping[str, Any] | None = None,
    ) -> ConfigT:
        """Defaults, then the YAML file at `path`, then `values` (dotted keys), then
        `overrides`."""
        return load_config(self.model, self.label, path, overrides, values=values)

    def bundled(self, name: str) -> Path:
        return bundled_config(self.configs_dir, name)
