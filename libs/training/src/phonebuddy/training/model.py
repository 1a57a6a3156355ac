"""Loading a Qwen3.5-VL checkpoint for training and saving it back in Hugging Face form."""

from __future__ import annotations

import json
from pathlib import Path

import torch
from torch import nn
from transformers import AutoModelForImageTextToText, PreTrainedModel
from transformers.utils import logging as hf_logging

from phonebuddy.agent import write_record
from phonebuddy.policy_model.inputs import Processing, load_processing
from phonebuddy.protocol import PromptConfig
from phonebuddy.training.isolation import isolate_linear_attention

SUPPORTED_MODEL_TYPES = ("qwen3_5",)


class ModelError(Exception):
    """A base checkpoint that cannot be trained; the message says why."""


def training_dtype(precision: str, device: torch.device) -> torch.dtype:
    if precision == "auto":
        return torch.bfloat16 if device.type == "cuda" else torch.float32
    return {"float32": torch.float32, "bfloat16": torch.bfloat16}[precision]


def check_base(folder: Path) -> None:
    config_path = folder / "config.json"
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ModelError(f"{folder} is not a checkpoint: no readable config.json") from exc
    except ValueError as exc:
        raise ModelError(f"{config_path} is not valid JSON") from exc
    model_type = config.get("model_type")
    if model_type not in SUPPORTED_MODEL_TYPES:
        raise ModelError(
            f"{folder} holds a {model_type!r} model; the SFT job trains Qwen3.5-VL "
            f"({', '.join(SUPPORTED_MODEL_TYPES)}) checkpoints"
        )
    if not any(folder.glob("*.safetensors")):
        raise ModelError(f"{folder} is not a checkpoint: no *.safetensors weights")


def load_for_training(
    folder: Path, *, dtype: torch.dtype, device: torch.device
) -> tuple[PreTrainedModel, Processing]:
    check_base(folder)
    hf_logging.disable_progress_bar()
    model = AutoModelForImageTextToText.from_pretrained(folder, dtype=dtype).to(device)
    model.config.use_cache = False
    model.config.get_text_config().use_cache = False
    isolate_linear_attention(model)
    model.train()
    return model, load_processing(folder)


def save_hf_folder(
    model: PreTrainedModel,
    state_dict: dict[str, torch.Tensor],
    processing: Processing,
    folder: Path,
    *,
    prompt: PromptConfig | None = None,
) -> Path:
    """A folder that `from_pretrained`, `phonebuddy policy serve --model` and vLLM load, with
    the prompt setting it was trained on (`phonebuddy.json`) when given."""
    folder.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(folder, state_dict=state_dict, safe_serialization=True)
    processing.tokenizer.save_pretrained(folder)
    processing.image_processor.save_pretrained(folder)
    if prompt is not None:
        write_record(folder, prompt)
    return folder


def trainable_parameters(model: nn.Module) -> int:
    return sum(p.numel() for p in model.parameters() if p.requires_grad)
