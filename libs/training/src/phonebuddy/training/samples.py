"""RL samples: the prompt a rollout fed the policy and the tokens it sampled, scored by the model
being trained.

A `TokenSample` is one action step: the prompt's token ids and images, and the generated ids
exactly as the policy server sampled them (`Step.sample.token_ids`, never a re-tokenization of
the step's text). The prompt is rebuilt from the stored step with the encoding the server uses
(`phonebuddy.policy_model.inputs`) and must match the digest the rollout stored, so a drifted
template, tokenizer or image size is refused instead of trained on.

`sample_rows` packs samples into rows with the SFT packing code: concatenated, each one isolated
(per-sample positions, the linear-attention wrapper), never padded. Left padding, the usual way to
batch prompts of different lengths, is not an option for the trainer's forward: without a 2-D
attention mask (which packing cannot pass) the pad tokens run through the Gated-DeltaNet layers'
convolution and recurrence and change the state every real token after them sees.
`row_log_probs` runs the trainer's forward over one row and returns each sample's per-token
log-probabilities of its generated ids (with gradients, when enabled) — what the RL loss uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import torch
from PIL import Image
from torch import nn

from phonebuddy.policy_model.inputs import EncodedPrompt, Processing, encode_prompt
from phonebuddy.protocol.episodes import SampledTokens
from phonebuddy.training.batch import IGNORE_INDEX, EncodedExample, PackedRow, pack_row
from phonebuddy.training.loss import token_log_probs, token_log_probs_and_entropy
from phonebuddy.training.packing import pack_examples


class PromptMismatchError(ValueError):
    """The rebuilt prompt is not the one the tokens were sampled after."""

    def __init__(self, where: str, tokens: int, expected: int) -> None:
        self.where = where
        super().__init__(
            f"{where}: the rebuilt prompt ({tokens} tokens) is not the one the policy was fed "
            f"({expected} tokens, another digest); the template, tokenizer, image processing or "
            "prompt settings differ from the rollout's"
        )


class SampleTooLongError(ValueError):
    """A sample longer than a packed row: it cannot be scored without cutting it."""

    def __init__(self, lengths: Sequence[int], capacity: int) -> None:
        self.lengths = tuple(lengths)
        super().__init__(
            f"{len(lengths)} samples are longer than a row of {capacity} tokens "
            f"(the longest: {max(lengths)}); raise the row capacity to the server's max_model_len"
        )


@dataclass(frozen=True, slots=True)
class TokenSample:
    prompt_ids: tuple[int, ...]
    token_ids: tuple[int, ...]  # as sampled, the end-of-turn token included when it was
    pixel_values: torch.Tensor | None = None
    image_grid_thw: torch.Tensor | None = None
    meta: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.prompt_ids or not self.token_ids:
            raise ValueError("a sample needs a prompt and at least one generated token")

    @property
    def length(self) -> int:
        return len(self.prompt_ids) + len(self.token_ids)

    def example(self) -> EncodedExample:
        """The sample as a training example: labels on the generated ids only."""
        ids = torch.tensor(self.prompt_ids + self.token_ids, dtype=torch.long)
        labels = ids.clone()
        labels[: len(self.prompt_ids)] = IGNORE_INDEX
        return EncodedExample(ids, labels, self.pixel_values, self.image_grid_thw, self.meta)


def token_sample(
    prompt: EncodedPrompt, sampled: SampledTokens, *, where: str = "a step"
) -> TokenSample:
    """`sampled`'s tokens after `prompt`, once `prompt` is shown to be the one they followed."""
    if not sampled.matches_prompt(prompt.input_ids):
        raise PromptMismatchError(where, len(prompt.input_ids), sampled.prompt_tokens)
    return TokenSample(
        prompt_ids=tuple(prompt.input_ids),
        token_ids=sampled.token_ids,
        pixel_values=prompt.pixel_values,
        image_grid_thw=prompt.image_grid_thw,
        meta={"where": where},
    )


def encode_sample(
    processing: Processing,
    prompt_text: str,
    images: Sequence[Image.Image],
    sampled: SampledTokens,
    *,
    where: str = "a step",
) -> TokenSample:
    """Encode a stored step's prompt as the policy server did and attach its sampled tokens."""
    return token_sample(encode_prompt(processing, prompt_text, images), sampled, where=where)


@dataclass(frozen=True, slots=True)
class SampleRow:
    """Samples packed into one row: `members` index the sample list, in row order."""

    row: PackedRow
    members: tuple[int, ...]
    generated: tuple[int, ...]  # each member's number of generated tokens

    def to(self, device: torch.device, *, pixel_dtype: torch.dtype | None = None) -> SampleRow:
        return SampleRow(self.row.to(device, pixel_dtype=pixel_dtype), self.members, self.generated)


def sample_rows(
    model: nn.Module, samples: Sequence[TokenSample], *, capacity: int
) -> list[SampleRow]:
    """Every sample in rows of at most `capacity` tokens (`pack_examples`), none left out."""
    lengths = [sample.length for sample in samples]
    plan = pack_examples(lengths, capacity)
    if plan.dropped:
        raise SampleTooLongError([lengths[index] for index in plan.dropped], capacity)
    return [
        SampleRow(
            row=pack_row(model, [samples[index].example() for index in members]),
            members=members,
            generated=tuple(len(samples[index].token_ids) for index in members),
        )
        for members in plan.rows
    ]


def row_log_probs(model: nn.Module, row: SampleRow) -> list[torch.Tensor]:
    """Per member of `row`, in its order: the log-probability of each generated token under
    `model`, from one packed forward (gradients flow when they are enabled)."""
    flat = token_log_probs(model, row.row)
    return list(torch.split(flat, list(row.generated)))


def row_log_probs_and_entropy(
    model: nn.Module, row: SampleRow
) -> tuple[list[torch.Tensor], list[torch.Tensor]]:
    """`row_log_probs` and, per member, the entropy at each generated token (no gradients)."""
    log_probs, entropy = token_log_probs_and_entropy(model, row.row)
    sizes = list(row.generated)
    return list(torch.split(log_probs, sizes)), list(torch.split(entropy, sizes))


def sampled_log_probs(
    model: nn.Module, samples: Sequence[TokenSample], *, capacity: int
) -> list[torch.Tensor]:
    """Per sample, in the order given: its generated tokens' log-probabilities, without
    gradients (the recomputation RL compares with the server's, or keeps as old log-probs)."""
    results: list[torch.Tensor | None] = [None] * len(samples)
    parameter = next(model.parameters())
    with torch.no_grad():
        for row in sample_rows(model, samples, capacity=capacity):
            moved = row.to(parameter.device, pixel_dtype=parameter.dtype)
            for index, values in zip(row.members, row_log_probs(model, moved), strict=True):
                results[index] = values.cpu()
    return [values for values in results if values is not None]
