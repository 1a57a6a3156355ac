"""Best-fit-decreasing packing of variable-length examples into rows of a fixed token capacity.

An example longer than a row is dropped and counted, never truncated: cutting a prompt or an
answer would teach the model a sequence it never sees at inference. The plan holds indices only,
so the same plan can be applied to token ids, labels, images and positions alike.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PackPlan:
    """Which examples go into which row (each row's examples in placement order)."""

    rows: tuple[tuple[int, ...], ...]
    dropped: tuple[int, ...]
    capacity: int
    lengths: tuple[int, ...]

    @property
    def packed_tokens(self) -> int:
        return sum(self.lengths[index] for row in self.rows for index in row)

    @property
    def utilization(self) -> float:
        """Real tokens / (rows x capacity); 0.0 for an empty plan."""
        if not self.rows:
            return 0.0
        return self.packed_tokens / (len(self.rows) * self.capacity)

    def row_length(self, row: int) -> int:
        return sum(self.lengths[index] for index in self.rows[row])


def best_fit_decreasing(lengths: Sequence[int], capacity: int) -> PackPlan:
    """Place the longest examples first, each into the open row it fills most tightly.

    Ties keep the original order (a stable sort), so a plan depends only on the lengths."""
    if capacity <= 0:
        raise ValueError(f"row capacity must be positive, got {capacity}")
    if any(length <= 0 for length in lengths):
        raise ValueError("every example needs at least one token")
    order = sorted(range(len(lengths)), key=lambda index: -lengths[index])
    rows: list[list[int]] = []
    # (free tokens, row number), kept sorted: the best fit is the first row with enough room.
    free: list[tuple[int, int]] = []
    dropped: list[int] = []
    for index in order:
        length = lengths[index]
        if length > capacity:
            dropped.append(index)
            continue
        slot = bisect.bisect_left(free, (length, -1))
        if slot == len(free):
            rows.append([index])
            bisect.insort(free, (capacity - length, len(rows) - 1))
            continue
        room, row = free.pop(slot)
        rows[row].append(index)
        bisect.insort(free, (room - length, row))
    return PackPlan(
        rows=tuple(tuple(row) for row in rows),
        dropped=tuple(sorted(dropped)),
        capacity=capacity,
        lengths=tuple(lengths),
    )
