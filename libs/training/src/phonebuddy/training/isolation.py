"""Per-sample isolation inside a packed row for Qwen3.5's Gated-DeltaNet (linear-attention) layers.

Full-attention layers are isolated by restarting the text row of the 4-row position ids per
sample (transformers then builds a block-diagonal mask). Linear-attention layers are not: the
decoder layer passes them no positions, so the recurrent state and the short convolution would
carry one sample into the next. `isolate_linear_attention(model)` wraps every such layer; inside
`packed_segments(model, lengths)` a wrapped layer runs once per sample (the row split at the
sample boundaries), which is exact on any device. Outside that context the layers behave exactly
as before (generation with a cache is untouched).
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Iterator, Sequence
from typing import Any

import torch
from torch import nn

_WRAPPED = "_phonebuddy_segments"


def linear_attention_layers(model: nn.Module) -> list[nn.Module]:
    """The Gated-DeltaNet modules of `model` (any Qwen3.5 / Qwen3-Next style checkpoint)."""
    return [
        module
        for module in model.modules()
        if type(module).__name__.endswith("GatedDeltaNet") and hasattr(module, "conv1d")
    ]


def _segmented_forward(
    self: nn.Module,
    hidden_states: torch.Tensor,
    cache: Any = None,
    attention_mask: torch.Tensor | None = None,
    **kwargs: Any,
) -> torch.Tensor:
    lengths: tuple[int, ...] | None = getattr(self, _WRAPPED)
    original = type(self).forward
    if lengths is None or cache is not None:
        return original(self, hidden_states, cache=cache, attention_mask=attention_mask, **kwargs)
    if hidden_states.shape[0] != 1 or sum(lengths) != hidden_states.shape[1]:
        raise ValueError(
            f"a packed row of shape {tuple(hidden_states.shape)} does not match sample lengths "
            f"summing to {sum(lengths)}"
        )
    pieces = torch.split(hidden_states, list(lengths), dim=1)
    return torch.cat(
        [original(self, piece, cache=None, attention_mask=None) for piece in pieces], 1
    )


def isolate_linear_attention(model: nn.Module) -> int:
    """Wrap every linear-attention layer of `model` (idempotent); returns how many there are."""
    layers = linear_attention_layers(model)
    for layer in layers:
        if not hasattr(layer, _WRAPPED):
            setattr(layer, _WRAPPED, None)
            layer.forward = types.MethodType(_segmented_forward, layer)
    return len(layers)


@contextlib.contextmanager
def packed_segments(model: nn.Module, lengths: Sequence[int]) -> Iterator[None]:
    """Within this block, the wrapped linear-attention layers see `lengths` as separate samples."""
    layers = [layer for layer in linear_attention_layers(model) if hasattr(layer, _WRAPPED)]
    if not layers and linear_attention_layers(model):
        raise RuntimeError("call isolate_linear_attention(model) before packing")
    for layer in layers:
        setattr(layer, _WRAPPED, tuple(int(n) for n in lengths))
    try:
        yield
    finally:
        for layer in layers:
            setattr(layer, _WRAPPED, None)
