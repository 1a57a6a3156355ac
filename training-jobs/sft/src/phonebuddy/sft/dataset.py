"""The job's dataset: rows filtered and split, each encoded once to learn its length, packed.

Encoded examples are kept in memory up to a byte budget (pixels dominate: ~6 MB per 1080x2400
screenshot at the 4B model's budget); beyond it an example is encoded again when its row is
trained, so memory stays bounded whatever the dataset's size.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from torch import nn

from phonebuddy.policy_model.inputs import Processing
from phonebuddy.protocol import PromptConfig
from phonebuddy.sft.config import PackingConfig, SFTConfig
from phonebuddy.sft.data import (
    DataError,
    StepRow,
    filter_rows,
    load_data,
    refuse_test_split,
    split_by_task,
    statistics,
)
from phonebuddy.sft.encode import encode_row
from phonebuddy.training.batch import EncodedExample, PackedRow, pack_row
from phonebuddy.training.packing import PackPlan, best_fit_shuffled, pack_examples

DEFAULT_CACHE_BYTES = 2 << 30


def _size(example: EncodedExample) -> int:
    pixels = example.pixel_values
    return example.input_ids.numel() * 16 + (
        pixels.numel() * pixels.element_size() if pixels is not None else 0
    )


class Split:
    """One side of the split: rows, their lengths and target counts, the packing plan."""

    def __init__(
        self,
        rows: Sequence[StepRow],
        processing: Processing,
        packing: PackingConfig,
        cache_bytes: int,
        *,
        seed: int,
    ) -> None:
        self.rows = list(rows)
        self.processing = processing
        self._cache: dict[int, EncodedExample] = {}
        self._cache_left = cache_bytes
        lengths, targets = [], []
        for index, row in enumerate(self.rows):
            example = encode_row(processing, row)
            lengths.append(example.length)
            targets.append(example.target_tokens)
            self._keep(index, example)
        self.lengths = lengths
        self.targets = targets
        self.plan: PackPlan = (
            pack_examples(lengths, packing.max_tokens)
            if packing.order == "tight"
            else best_fit_shuffled(lengths, packing.max_tokens, seed=seed)
        )

    def _keep(self, index: int, example: EncodedExample) -> None:
        size = _size(example)
        if size <= self._cache_left:
            self._cache[index] = example
            self._cache_left -= size

    def example(self, index: int) -> EncodedExample:
        cached = self._cache.get(index)
        return cached if cached is not None else encode_row(self.processing, self.rows[index])

    def packed(self, model: nn.Module, row: int) -> PackedRow:
        return pack_row(model, [self.example(index) for index in self.plan.rows[row]])

    def row_targets(self, row: int) -> int:
        return sum(self.targets[index] for index in self.plan.rows[row])

    def row_tokens(self, row: int) -> int:
        return self.plan.row_length(row)

    def row_examples(self, row: int) -> int:
        return len(self.plan.rows[row])


@dataclass
class Dataset:
    train: Split
    validation: Split
    statistics: dict[str, Any]
    prompt: PromptConfig  # the setting the rows were rendered with: the checkpoint records it


def build_dataset(config: SFTConfig, processing: Processing) -> Dataset:
    loaded, prompt = load_data(config.data)
    rows = filter_rows(loaded, config.data)
    refuse_test_split(rows, config.data)
    if not rows:
        raise DataError(
            f"no training data left after the filters ({len(loaded)} steps before filtering)"
        )
    train_rows, val_rows = split_by_task(
        rows, config.data.validation_fraction, config.data.split_seed
    )
    cache = DEFAULT_CACHE_BYTES
    seed = config.train.seed
    train = Split(train_rows, processing, config.packing, cache, seed=seed)
    validation = Split(val_rows, processing, config.packing, cache // 8, seed=seed)
    if not train.plan.rows:
        raise DataError(
            f"every training example is longer than packing.max_tokens="
            f"{config.packing.max_tokens} ({len(train.plan.dropped)} dropped)"
        )
    stats = {
        "train": statistics(train.rows, train.lengths),
        "validation": statistics(validation.rows, validation.lengths),
        "packing": {
            "max_tokens": config.packing.max_tokens,
            "rows": len(train.plan.rows),
            "dropped_too_long": len(train.plan.dropped) + len(validation.plan.dropped),
            "utilization": round(train.plan.utilization, 4),
            "order": config.packing.order,
        },
    }
    stats["prompt"] = prompt.model_dump(mode="json")
    return Dataset(train=train, validation=validation, statistics=stats, prompt=prompt)
