"""Encoded examples and the packed rows built from them.

An `EncodedExample` is one training sample in model inputs: token ids, labels (-100 where no loss
is taken), and its images' pixel patches and grids. `pack_row` concatenates examples into one row
with everything that keeps them apart: the 4-row position ids (a per-sample text position that
restarts at 0, then M-RoPE's t/h/w rows computed per sample), the sample lengths for the
linear-attention layers, images in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import torch
from torch import nn

IGNORE_INDEX = -100


@dataclass(frozen=True, slots=True)
class EncodedExample:
    input_ids: torch.Tensor  # (length,) long
    labels: torch.Tensor  # (length,) long, IGNORE_INDEX where no loss is taken
    pixel_values: torch.Tensor | None = None  # (patches, patch_dim)
    image_grid_thw: torch.Tensor | None = None  # (images, 3) long
    meta: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.input_ids.ndim != 1 or self.input_ids.shape != self.labels.shape:
            raise ValueError("input_ids and labels must be 1-D tensors of one length")
        if (self.pixel_values is None) != (self.image_grid_thw is None):
            raise ValueError("pixel_values and image_grid_thw come together")

    @property
    def length(self) -> int:
        return int(self.input_ids.shape[0])

    @property
    def target_tokens(self) -> int:
        return int((self.labels != IGNORE_INDEX).sum())


@dataclass(frozen=True, slots=True)
class PackedRow:
    input_ids: torch.Tensor  # (1, L)
    labels: torch.Tensor  # (1, L)
    position_ids: torch.Tensor  # (4, 1, L)
    mm_token_type_ids: torch.Tensor  # (1, L)
    lengths: tuple[int, ...]
    pixel_values: torch.Tensor | None
    image_grid_thw: torch.Tensor | None

    @property
    def tokens(self) -> int:
        return sum(self.lengths)

    @property
    def target_tokens(self) -> int:
        return int((self.labels != IGNORE_INDEX).sum())

    def to(self, device: torch.device, *, pixel_dtype: torch.dtype | None = None) -> PackedRow:
        def move(t: torch.Tensor | None) -> torch.Tensor | None:
            return None if t is None else t.to(device)

        pixels = move(self.pixel_values)
        if pixels is not None and pixel_dtype is not None:
            pixels = pixels.to(pixel_dtype)
        return PackedRow(
            input_ids=self.input_ids.to(device),
            labels=self.labels.to(device),
            position_ids=self.position_ids.to(device),
            mm_token_type_ids=self.mm_token_type_ids.to(device),
            lengths=self.lengths,
            pixel_values=pixels,
            image_grid_thw=move(self.image_grid_thw),
        )


def token_types(input_ids: torch.Tensor, config: object) -> torch.Tensor:
    """0 for text, 1 for image tokens, 2 for video tokens (what Qwen's processor returns)."""
    types = torch.zeros_like(input_ids)
    image_id = getattr(config, "image_token_id", None)
    video_id = getattr(config, "video_token_id", None)
    if image_id is not None:
        types[input_ids == image_id] = 1
    if video_id is not None:
        types[input_ids == video_id] = 2
    return types


def sample_positions(model: nn.Module, example: EncodedExample) -> torch.Tensor:
    """(4, length): the sample's own text positions, then its M-RoPE t/h/w rows."""
    ids = example.input_ids.unsqueeze(0)
    base = getattr(model, "model", model)
    rope, _ = base.get_rope_index(
        ids,
        mm_token_type_ids=token_types(ids, model.config),
        image_grid_thw=example.image_grid_thw,
    )
    text = torch.arange(example.length, dtype=rope.dtype).view(1, -1)
    return torch.cat([text, rope[:, 0, :]], dim=0)


def pack_row(model: nn.Module, examples: Sequence[EncodedExample]) -> PackedRow:
    """Concatenate `examples` into one row that the model treats as separate samples."""
    if not examples:
        raise ValueError("a packed row needs at least one example")
    ids = torch.cat([example.input_ids for example in examples]).unsqueeze(0)
    labels = torch.cat([example.labels for example in examples]).unsqueeze(0)
    positions = torch.cat([sample_positions(model, example) for example in examples], dim=1)
    with_images = [example for example in examples if example.pixel_values is not None]
    pixels = grids = None
    if with_images:
        pixels = torch.cat([example.pixel_values for example in with_images])  # type: ignore[misc]
        grids = torch.cat([example.image_grid_thw for example in with_images])  # type: ignore[misc]
    return PackedRow(
        input_ids=ids,
        labels=labels,
        position_ids=positions.unsqueeze(1),
        mm_token_type_ids=token_types(ids, model.config),
        lengths=tuple(example.length for example in examples),
        pixel_values=pixels,
        image_grid_thw=grids,
    )
