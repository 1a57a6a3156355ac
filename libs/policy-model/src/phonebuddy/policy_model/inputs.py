"""Model inputs for a chat prompt: the one encoding that inference and training share.

The policy server encodes each request with `encode_prompt`, and the training jobs encode each
example's prompt with it too, so a training prompt is token for token and pixel for pixel what the
server feeds the model for the same messages. `load_processing` loads a checkpoint's tokenizer
(PhoneBuddy's chat template when it ships none) and Qwen2-VL image processor the same way for both.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import torch
from PIL import Image
from transformers import AutoTokenizer, PreTrainedTokenizerBase, Qwen2VLImageProcessorPil

from phonebuddy.agent import CHAT_TEMPLATE
from phonebuddy.agent.chat_format import IMAGE_PAD

_PLACEHOLDER = "<|placeholder|>"


class PromptEncodingError(ValueError):
    """The messages cannot be encoded (the template rejects them, or images and slots differ);
    `param` names the request field at fault, when one is."""

    def __init__(self, message: str, *, param: str | None = None) -> None:
        super().__init__(message)
        self.param = param


@dataclass(frozen=True, slots=True)
class Processing:
    """A checkpoint's tokenizer and image processor."""

    tokenizer: PreTrainedTokenizerBase
    image_processor: Qwen2VLImageProcessorPil


@dataclass(frozen=True, slots=True)
class EncodedPrompt:
    input_ids: list[int]
    pixel_values: torch.Tensor | None
    image_grid_thw: torch.Tensor | None


def load_processing(folder: str | os.PathLike[str]) -> Processing:
    tokenizer = AutoTokenizer.from_pretrained(str(folder))
    if not tokenizer.chat_template:
        tokenizer.chat_template = CHAT_TEMPLATE
    return Processing(tokenizer, Qwen2VLImageProcessorPil.from_pretrained(str(folder)))


def render_prompt(
    tokenizer: PreTrainedTokenizerBase,
    messages: Sequence[Mapping[str, Any]],
    tools: Sequence[Mapping[str, Any]] | None,
    **template_kwargs: Any,
) -> str:
    """The prompt text with the generation prompt, rendered by the tokenizer's chat template."""
    try:
        return tokenizer.apply_chat_template(
            [dict(message) for message in messages],
            tools=[dict(tool) for tool in tools] if tools else None,
            add_generation_prompt=True,
            tokenize=False,
            **template_kwargs,
        )
    except Exception as exc:  # the template raises whatever Jinja raises
        raise PromptEncodingError(f"the chat template rejected the messages: {exc}") from exc


def encode_prompt(
    processing: Processing, text: str, images: Sequence[Image.Image]
) -> EncodedPrompt:
    """Token ids of `text` with each `<|image_pad|>` expanded for its image, and the pixels."""
    if text.count(IMAGE_PAD) != len(images):
        raise PromptEncodingError(
            f"the prompt holds {text.count(IMAGE_PAD)} image slots for {len(images)} images",
            param="messages",
        )
    pixel_values = grid = None
    if images:
        processed = processing.image_processor(images=list(images), return_tensors="pt")
        pixel_values, grid = processed["pixel_values"], processed["image_grid_thw"]
        merge = processing.image_processor.merge_size**2
        for t, h, w in grid.tolist():
            text = text.replace(IMAGE_PAD, _PLACEHOLDER * (t * h * w // merge), 1)
        text = text.replace(_PLACEHOLDER, IMAGE_PAD)
    input_ids = processing.tokenizer(text, add_special_tokens=False)["input_ids"]
    return EncodedPrompt(input_ids=list(input_ids), pixel_values=pixel_values, image_grid_thw=grid)


def encode_completion(processing: Processing, text: str) -> list[int]:
    """Token ids of an assistant turn's text (what the model generates after the prompt)."""
    return list(processing.tokenizer(text, add_special_tokens=False)["input_ids"])
