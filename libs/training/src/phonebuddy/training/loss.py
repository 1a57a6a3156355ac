"""The forward pass for training: hidden states for a packed row, the LM head only where a label is.

Qwen3.5's 248k-row vocabulary makes full logits the largest cost of a step on CPU (and a large
share of activation memory on GPU); only the answer tokens carry a loss, so the head runs on those
positions alone. `token_log_probs` gives the same selection for RL (log-probabilities of the
labelled tokens).
"""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional

from phonebuddy.training.batch import IGNORE_INDEX, PackedRow
from phonebuddy.training.isolation import packed_segments


@dataclass(frozen=True, slots=True)
class RowLoss:
    loss_sum: torch.Tensor  # summed token cross-entropy (a scalar with grad)
    tokens: int  # labelled tokens it sums over
    correct: int  # of those, how many the argmax predicts


def hidden_states(model: nn.Module, row: PackedRow) -> torch.Tensor:
    """(1, L, hidden) final hidden states of `row`, samples isolated."""
    base = getattr(model, "model", model)
    with packed_segments(model, row.lengths):
        output = base(
            input_ids=row.input_ids,
            position_ids=row.position_ids,
            pixel_values=row.pixel_values,
            image_grid_thw=row.image_grid_thw,
            mm_token_type_ids=row.mm_token_type_ids,
            use_cache=False,
        )
    return output.last_hidden_state


def labelled_logits(model: nn.Module, row: PackedRow) -> tuple[torch.Tensor, torch.Tensor]:
    """(logits at the positions that predict a labelled token, those target tokens)."""
    hidden = hidden_states(model, row)[0, :-1]
    targets = row.labels[0, 1:]
    keep = targets != IGNORE_INDEX
    head = model.get_output_embeddings()
    return head(hidden[keep]).float(), targets[keep]


def row_loss(model: nn.Module, row: PackedRow) -> RowLoss:
    logits, targets = labelled_logits(model, row)
    loss_sum = functional.cross_entropy(logits, targets, reduction="sum")
    correct = int((logits.detach().argmax(-1) == targets).sum())
    return RowLoss(loss_sum=loss_sum, tokens=int(targets.numel()), correct=correct)


def token_log_probs(model: nn.Module, row: PackedRow) -> torch.Tensor:
    """Log-probability of each labelled token, in row order (for policy-gradient losses)."""
    logits, targets = labelled_logits(model, row)
    return torch.log_softmax(logits, dim=-1).gather(-1, targets.unsqueeze(-1)).squeeze(-1)


def token_log_probs_and_entropy(
    model: nn.Module, row: PackedRow
) -> tuple[torch.Tensor, torch.Tensor]:
    """Per labelled token, in row order: its log-probability (with gradients when enabled) and
    the entropy of the model's distribution there (without: it is reported, not optimized)."""
    logits, targets = labelled_logits(model, row)
    log_probs = torch.log_softmax(logits, dim=-1)
    with torch.no_grad():
        entropy = -(log_probs.exp() * log_probs).sum(-1)
    return log_probs.gather(-1, targets.unsqueeze(-1)).squeeze(-1), entropy
