"""Packed-then-sliced outputs and gradients equal the per-sample ones (the isolation proof).

The tiny Qwen3.5-VL has one Gated-DeltaNet and one full-attention layer. Its linear-attention
decay is set slow (a random init forgets within a few tokens and would hide a leak), lengths are
not multiples of the 64-token chunk, and examples mix text-only and image samples. Two control
tests show the comparison is sensitive: without the linear-attention wrapper, or with 3-row
positions, the packed outputs differ from the per-sample ones.
"""

from __future__ import annotations

import math

import pytest
import torch
from PIL import Image
from transformers import Qwen3_5ForConditionalGeneration

from phonebuddy.policy_model.tiny import make_image_processor, tiny_config
from phonebuddy.training.batch import IGNORE_INDEX, EncodedExample, pack_row, token_types
from phonebuddy.training.isolation import (
    isolate_linear_attention,
    linear_attention_layers,
    packed_segments,
)
from phonebuddy.training.loss import hidden_states, row_loss

ATOL_HIDDEN = 1e-5
RTOL_GRAD = 1e-4


def _slow_decay_model(*, isolated: bool) -> Qwen3_5ForConditionalGeneration:
    torch.manual_seed(0)
    model = Qwen3_5ForConditionalGeneration(tiny_config()).float()
    for layer in linear_attention_layers(model):
        with torch.no_grad():
            layer.A_log.fill_(math.log(1e-3))  # decay per token exp(-1e-3 * softplus) ~ 0.9995
            layer.dt_bias.fill_(-2.0)
    if isolated:
        isolate_linear_attention(model)
    return model


@pytest.fixture(scope="module")
def model() -> Qwen3_5ForConditionalGeneration:
    return _slow_decay_model(isolated=True)


def _example(
    text_tokens: int, seed: int, image_size: tuple[int, int] | None = None
) -> EncodedExample:
    config = tiny_config()
    generator = torch.Generator().manual_seed(seed)
    ids = torch.randint(10, 20_000, (text_tokens,), generator=generator)
    pixels = grid = None
    if image_size is not None:
        shade = (seed * 53 % 256, seed * 97 % 256, 120)
        image = Image.new("RGB", image_size, shade)
        for x in range(0, image_size[0], 17):
            image.putpixel((x, x % image_size[1]), (255, 255, 255))
        processed = make_image_processor()(images=[image], return_tensors="pt")
        pixels, grid = processed["pixel_values"], processed["image_grid_thw"]
        pads = int(grid.prod()) // 4
        ids = torch.cat([
            ids[:7],
            torch.tensor([config.vision_start_token_id]),
            torch.full((pads,), config.image_token_id),
            torch.tensor([config.vision_end_token_id]),
            ids[7:],
        ])  # fmt: skip
    labels = ids.clone()
    labels[: len(ids) - 9] = IGNORE_INDEX  # the last 9 tokens are the "answer"
    return EncodedExample(ids, labels, pixels, grid)


CASES = {
    "text": [_example(37, 1), _example(101, 2), _example(13, 3), _example(70, 4)],
    "images": [
        _example(45, 5, (200, 300)),
        _example(29, 6),
        _example(83, 7, (150, 170)),
        _example(50, 8, (96, 250)),
    ],
}


def _alone(model: Qwen3_5ForConditionalGeneration, example: EncodedExample) -> torch.Tensor:
    """The sample's hidden states from an ordinary unpacked forward (the model's own positions)."""
    ids = example.input_ids.unsqueeze(0)
    return model.model(
        input_ids=ids,
        pixel_values=example.pixel_values,
        image_grid_thw=example.image_grid_thw,
        mm_token_type_ids=token_types(ids, model.config),
        use_cache=False,
    ).last_hidden_state[0]


def _grads(model: torch.nn.Module) -> dict[str, torch.Tensor]:
    return {n: p.grad.detach().clone() for n, p in model.named_parameters() if p.grad is not None}


@pytest.mark.parametrize("case", sorted(CASES))
def test_packed_outputs_equal_per_sample_outputs(model, case) -> None:
    examples = CASES[case]
    assert any(example.length % 64 for example in examples)
    packed = hidden_states(model, pack_row(model, examples))[0]
    with torch.no_grad():
        alone = torch.cat([_alone(model, example) for example in examples])
    assert packed.shape == alone.shape
    assert (packed - alone).abs().max().item() < ATOL_HIDDEN


@pytest.mark.parametrize("case", sorted(CASES))
def test_packed_gradients_equal_per_sample_gradients(model, case) -> None:
    examples = CASES[case]
    model.zero_grad(set_to_none=True)
    packed = row_loss(model, pack_row(model, examples))
    packed.loss_sum.backward()
    packed_grads = _grads(model)
    model.zero_grad(set_to_none=True)
    total = 0.0
    for example in examples:
        alone = row_loss(model, pack_row(model, [example]))
        alone.loss_sum.backward()
        total += float(alone.loss_sum.detach())
    alone_grads = _grads(model)
    model.zero_grad(set_to_none=True)
    assert float(packed.loss_sum.detach()) == pytest.approx(total, rel=1e-5)
    assert packed_grads.keys() == alone_grads.keys()
    for name, grad in alone_grads.items():
        scale = grad.abs().max().item() + 1e-12
        assert (packed_grads[name] - grad).abs().max().item() / scale < RTOL_GRAD, name


def test_without_the_linear_attention_wrapper_packing_leaks() -> None:
    """Control: the comparison above detects a leaking layer."""
    leaky = _slow_decay_model(isolated=False)
    examples = CASES["text"]
    row = pack_row(leaky, examples)
    with torch.no_grad():
        packed = leaky.model(
            input_ids=row.input_ids, position_ids=row.position_ids,
            mm_token_type_ids=row.mm_token_type_ids, use_cache=False,
        ).last_hidden_state[0]  # fmt: skip
        alone = torch.cat([_alone(leaky, example) for example in examples])
    first = examples[0].length
    assert (packed[:first] - alone[:first]).abs().max().item() < ATOL_HIDDEN  # nothing before it
    assert (packed[first:] - alone[first:]).abs().max().item() > 100 * ATOL_HIDDEN


def test_three_row_positions_let_full_attention_leak(model) -> None:
    """Control: without the per-sample text row, the full-attention layer sees across samples."""
    examples = CASES["images"]
    row = pack_row(model, examples)
    with torch.no_grad():
        with packed_segments(model, row.lengths):
            packed = model.model(
                input_ids=row.input_ids, position_ids=row.position_ids[1:],
                pixel_values=row.pixel_values, image_grid_thw=row.image_grid_thw,
                mm_token_type_ids=row.mm_token_type_ids, use_cache=False,
            ).last_hidden_state[0]  # fmt: skip
        alone = torch.cat([_alone(model, example) for example in examples])
    assert (packed - alone).abs().max().item() > 100 * ATOL_HIDDEN


def test_packing_without_the_wrapper_installed_is_refused() -> None:
    leaky = _slow_decay_model(isolated=False)
    with pytest.raises(RuntimeError, match="isolate_linear_attention"):
        hidden_states(leaky, pack_row(leaky, CASES["text"][:2]))
