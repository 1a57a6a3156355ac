"""A tiny random Qwen3.5-VL checkpoint, built from a config on CPU: nothing is downloaded.

`make_tiny(directory, seed=...)` writes a directory that loads with
`Qwen3_5ForConditionalGeneration.from_pretrained(directory)` and
`AutoTokenizer.from_pretrained(directory)` exactly like a real checkpoint: `config.json`,
`generation_config.json`, `model.safetensors`, the real Qwen3.5 tokenizer with PhoneBuddy's chat
template (`save_tokenizer`) and a `preprocessor_config.json` for `Qwen2VLImageProcessorPil`.

Sizes: text hidden 128, two decoder layers (one linear-attention, one full-attention), head_dim
64, the real 248,320-row vocabulary (so the real tokenizer's ids fit), a two-block vision tower.
About 64M parameters, almost all of them the embedding and the (untied) lm_head. The weights are
random, initialised under `torch.manual_seed(seed)`: the same seed gives the same state dict.

AutoProcessor needs torchvision, which is not usable here; build model inputs by hand with
`image_processor(directory)` and `expand_image_pads` / `mm_token_type_ids`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import torch
from transformers import (
    GenerationConfig,
    PreTrainedModel,
    Qwen2VLImageProcessorPil,
    Qwen3_5Config,
    Qwen3_5ForConditionalGeneration,
)
from transformers.utils import logging as hf_logging

from phonebuddy.agent.chat_format import SPECIAL_TOKEN_IDS
from phonebuddy.policy_model.tokenizer import save_tokenizer, special_tokens

# Qwen3.5's vocabulary rows (248,044 ranks + 33 specials, padded to a multiple of 64).
VOCAB_SIZE = 248320
PATCH_SIZE = 16
MERGE_SIZE = 2
TEMPORAL_PATCH_SIZE = 2
# Pixel budget per image: a 1080x2400 screenshot becomes ~1,000 patches (256 tokens), which keeps
# the tiny model quick on CPU. Real checkpoints carry their own budget in their processor config.
MIN_PIXELS = 65_536
MAX_PIXELS = 262_144
# Ids the model type hard-codes (`Qwen3_5Config` defaults), checked against the tokenizer below.
IMAGE_TOKEN = "<|image_pad|>"  # noqa: S105 (a token, not a password)
VIDEO_TOKEN = "<|video_pad|>"  # noqa: S105
VISION_START = "<|vision_start|>"
VISION_END = "<|vision_end|>"
IM_END = "<|im_end|>"
ENDOFTEXT = "<|endoftext|>"


def tiny_config() -> Qwen3_5Config:
    """The tiny Qwen3.5-VL config: real token ids and vocabulary, toy widths and depths."""
    ids = special_tokens()
    text_config = {
        "vocab_size": VOCAB_SIZE,
        "hidden_size": 128,
        "intermediate_size": 256,
        "num_hidden_layers": 2,
        "layer_types": ["linear_attention", "full_attention"],
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "head_dim": 64,
        "linear_conv_kernel_dim": 4,
        "linear_key_head_dim": 64,
        "linear_value_head_dim": 64,
        "linear_num_key_heads": 2,
        "linear_num_value_heads": 2,
        "max_position_embeddings": 32768,
        # Rotary on a quarter of head_dim (16 dims, 8 frequencies) split 3/3/2 over t/h/w.
        "rope_parameters": {
            "rope_type": "default",
            "rope_theta": 10_000_000.0,
            "partial_rotary_factor": 0.25,
            "mrope_section": [3, 3, 2],
            "mrope_interleaved": True,
        },
        "eos_token_id": ids[IM_END],
        "pad_token_id": ids[ENDOFTEXT],
    }
    vision_config = {
        "depth": 2,
        "hidden_size": 64,
        "intermediate_size": 128,
        "num_heads": 2,
        "patch_size": PATCH_SIZE,
        "spatial_merge_size": MERGE_SIZE,
        "temporal_patch_size": TEMPORAL_PATCH_SIZE,
        "out_hidden_size": 128,  # the text hidden size
        "num_position_embeddings": 2304,
    }
    config = Qwen3_5Config(
        text_config=text_config,
        vision_config=vision_config,
        image_token_id=ids[IMAGE_TOKEN],
        video_token_id=ids[VIDEO_TOKEN],
        vision_start_token_id=ids[VISION_START],
        vision_end_token_id=ids[VISION_END],
        tie_word_embeddings=False,
    )
    for name, token in (
        ("image_token_id", IMAGE_TOKEN),
        ("vision_start_token_id", VISION_START),
        ("vision_end_token_id", VISION_END),
    ):
        if SPECIAL_TOKEN_IDS.get(token, getattr(config, name)) != getattr(config, name):
            raise ValueError(f"{token}: tokenizer id differs from config.{name}")
    return config


def make_image_processor() -> Qwen2VLImageProcessorPil:
    """Qwen3.5's image preprocessing (16-px patches, 2x2 merge, mean/std 0.5), no torchvision."""
    return Qwen2VLImageProcessorPil(
        patch_size=PATCH_SIZE,
        merge_size=MERGE_SIZE,
        temporal_patch_size=TEMPORAL_PATCH_SIZE,
        image_mean=[0.5, 0.5, 0.5],
        image_std=[0.5, 0.5, 0.5],
        size={"shortest_edge": MIN_PIXELS, "longest_edge": MAX_PIXELS},
    )


def image_processor(directory: str | os.PathLike[str]) -> Qwen2VLImageProcessorPil:
    """The image processor saved in `directory` by `make_tiny`."""
    return Qwen2VLImageProcessorPil.from_pretrained(str(directory))


def save_quietly(model: PreTrainedModel, target: Path) -> None:
    """`save_pretrained` without a progress bar (one shard: a bar is only noise in output)."""
    bars_were_on = hf_logging.is_progress_bar_enabled()
    hf_logging.disable_progress_bar()
    try:
        model.save_pretrained(target)
    finally:
        if bars_were_on:
            hf_logging.enable_progress_bar()


def make_tiny(directory: str | os.PathLike[str], *, seed: int = 0) -> Path:
    """Build a tiny random Qwen3.5-VL checkpoint in `directory` (created) and return its path.

    Deterministic: the weights are initialised under `torch.manual_seed(seed)` (the global RNG is
    restored afterwards), so the same seed always gives the same state dict."""
    target = Path(directory)
    target.mkdir(parents=True, exist_ok=True)
    config = tiny_config()
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        model = Qwen3_5ForConditionalGeneration(config)
    model.generation_config = GenerationConfig(
        eos_token_id=config.text_config.eos_token_id,
        pad_token_id=config.text_config.pad_token_id,
    )
    save_quietly(model, target)
    save_tokenizer(target)
    make_image_processor().save_pretrained(target)
    return target


def expand_image_pads(text: str, image_grid_thw: Sequence[Sequence[int]] | torch.Tensor) -> str:
    """Expand each `<|image_pad|>` in `text` to its image's `prod(grid_thw) // merge_size**2`
    tokens, as Qwen's processor does (the images in order)."""
    grids = [[int(v) for v in grid] for grid in image_grid_thw]
    if text.count(IMAGE_TOKEN) != len(grids):
        raise ValueError(f"{text.count(IMAGE_TOKEN)} {IMAGE_TOKEN} for {len(grids)} images")
    placeholder = "<|placeholder|>"
    for t, h, w in grids:
        text = text.replace(IMAGE_TOKEN, placeholder * (t * h * w // MERGE_SIZE**2), 1)
    return text.replace(placeholder, IMAGE_TOKEN)


def mm_token_type_ids(input_ids: torch.Tensor, config: Qwen3_5Config) -> torch.Tensor:
    """0 for text, 1 for image tokens, 2 for video tokens (what the processor returns)."""
    types = torch.zeros_like(input_ids)
    types[input_ids == config.image_token_id] = 1
    types[input_ids == config.video_token_id] = 2
    return types
