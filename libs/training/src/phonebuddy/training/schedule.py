"""Learning rate and row order: both functions of the step alone, so a resumed run continues
exactly where the interrupted one was."""

from __future__ import annotations

import math
import random


def lr_at(step: int, *, lr: float, min_lr: float, warmup: int, total: int) -> float:
    """Linear warm-up to `lr` over `warmup` steps, then cosine decay to `min_lr` at `total`."""
    if warmup > 0 and step < warmup:
        return lr * (step + 1) / warmup
    span = max(1, total - warmup)
    progress = min(1.0, (step - warmup) / span)
    return min_lr + 0.5 * (lr - min_lr) * (1 + math.cos(math.pi * progress))


class RowOrder:
    """An endless stream of row indices: one seeded permutation of all rows per epoch."""

    def __init__(self, rows: int, *, seed: int) -> None:
        if rows < 1:
            raise ValueError("there are no rows to train on")
        self.rows = rows
        self.seed = seed
        self._epochs: dict[int, list[int]] = {}

    def _epoch(self, epoch: int) -> list[int]:
        if epoch not in self._epochs:
            order = list(range(self.rows))
            random.Random(f"{self.seed}:{epoch}").shuffle(order)
            self._epochs = {epoch: order}  # only the current epoch is kept
        return self._epochs[epoch]

    def take(self, start: int, count: int) -> list[int]:
        """Positions start .. start+count-1 of the stream."""
        return [self._epoch(p // self.rows)[p % self.rows] for p in range(start, start + count)]


def steps_for(rows: int, *, global_batch: int, epochs: float) -> int:
    return max(1, math.ceil(rows * epochs / global_batch))
