"""Packing variable-length examples into rows of a fixed token capacity.

An example longer than a row is dropped and counted, never truncated: cutting a prompt or an
answer would teach the model a sequence it never sees at inference. The plan holds indices only,
so the same plan can be applied to token ids, labels, images and positions alike.

`pack_examples` is the packer the jobs use: the plan the row bound describes where it can be
made to fit, else best-fit-decreasing and a local search that empties rows; never more rows than
`best_fit_decreasing`. `min_rows_lower_bound` says how far from optimal any plan can be.
`best_fit_shuffled` trades a few percent of rows for rows that mix examples at random (SFT's
default: see its docstring).
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Sequence
from dataclasses import dataclass

# More examples than this are packed by linear grouping (see pack_examples). A move of the local
# search scans every row, so a search over n examples costs about n^2; at 2,048 a search that
# runs to its end takes under a second, and the representative packs within a row of its bound.
DEFAULT_GROUP_SIZE = 2048
# An attempt to empty a row gives up after this many moves; most successful ones take under 100.
_MOVES_PER_ATTEMPT = 200
# Rows or pools with more members than this offer single members, not pairs, and rows shaped by
# the bound hold no more than this: such members are short against the capacity, where BFD is
# already close to the bound and pairs would cost the square of the row's size.
_PAIR_LIMIT = 12


@dataclass(frozen=True, slots=True)
class PackPlan:
    """Which examples go into which row (each row's examples in the order they are concatenated)."""

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


def _check(lengths: Sequence[int], capacity: int) -> None:
    if capacity <= 0:
        raise ValueError(f"row capacity must be positive, got {capacity}")
    if any(length <= 0 for length in lengths):
        raise ValueError("every example needs at least one token")


def best_fit_decreasing(lengths: Sequence[int], capacity: int) -> PackPlan:
    """Place the longest examples first, each into the open row it fills most tightly.

    Ties keep the original order (a stable sort), so a plan depends only on the lengths."""
    _check(lengths, capacity)
    longest_first = sorted(range(len(lengths)), key=lambda index: -lengths[index])
    return _best_fit(longest_first, lengths, capacity)


def best_fit_shuffled(lengths: Sequence[int], capacity: int, *, seed: int) -> PackPlan:
    """Place the examples in a seeded random order, each into the open row it fills most tightly.

    Rows then hold a random mix of examples, as a minibatch drawn at random would. Packing by
    length (`pack_examples`) puts examples of one length together, and examples of one task tend
    to have one length: with few rows per optimizer step, every step would then train on one or
    two tasks (measured on the demo's data: 64 % of a 4,096-token row came from one template), and
    training swings between tasks instead of learning them all. Costs a few percent more rows.
    Deterministic: the plan depends only on the lengths and the seed."""
    _check(lengths, capacity)
    order = list(range(len(lengths)))
    random.Random(f"pack:{seed}").shuffle(order)
    return _best_fit(order, lengths, capacity)


def _best_fit(order: Sequence[int], lengths: Sequence[int], capacity: int) -> PackPlan:
    kept = [index for index in order if lengths[index] <= capacity]
    shortest = min((lengths[index] for index in kept), default=0)
    rows: list[list[int]] = []
    # (free tokens, row number) of the open rows, kept sorted: the best fit is the first with room.
    free: list[tuple[int, int]] = []
    for index in kept:
        length = lengths[index]
        slot = bisect.bisect_left(free, (length, -1))
        if slot == len(free):
            rows.append([index])
            room, row = capacity - length, len(rows) - 1
        else:
            room, row = free.pop(slot)
            rows[row].append(index)
            room -= length
        if room >= shortest:  # a row with less room than the shortest example is closed
            bisect.insort(free, (room, row))
    return PackPlan(
        rows=tuple(tuple(row) for row in rows),
        dropped=tuple(index for index, length in enumerate(lengths) if length > capacity),
        capacity=capacity,
        lengths=tuple(lengths),
    )


def min_rows_lower_bound(lengths: Sequence[int], capacity: int) -> int:
    """Fewest rows any plan can use for the examples that fit a row (the longer ones are dropped).

    The larger of two valid bounds:
    - Martello and Toth's L2 (which includes total tokens / capacity): for each threshold k, the
      examples longer than capacity - k each need a row of their own that no example of k or more
      tokens can join, those longer than half a row each need their own row, and what is left of
      the k-or-longer examples fills the room those rows leave, then new rows.
    - a cardinality bound: a row holding j or more examples holds j of them whose total is at
      least that of the j x r shortest examples spread over r rows. So at most r_j rows can hold j
      or more, where r_j is the largest r with (sum of the j*r shortest) <= r * capacity; and since
      the number of examples is the sum over j of the rows holding j or more, m rows can hold at
      most sum_j min(m, r_j) examples. This is the bound that bites when rows hold a few long
      examples each (a 8,192-token row of 1,500-2,300-token examples holds 5 only if they are
      short ones).
    """
    _check(lengths, capacity)
    sizes = sorted(length for length in lengths if length <= capacity)
    if not sizes:
        return 0
    prefix = list(itertools.accumulate(sizes, initial=0))
    return max(_martello_toth_l2(sizes, prefix, capacity), _cardinality_bound(prefix, capacity))


def _martello_toth_l2(sizes: list[int], prefix: list[int], capacity: int) -> int:
    """L2 over sizes sorted ascending (prefix: their running totals, starting at 0)."""
    n, half = len(sizes), capacity / 2
    first_long = bisect.bisect_right(sizes, half)  # the first example longer than half a row
    best = 0
    for k in [0, *sorted({size for size in sizes if size <= half})]:
        small = bisect.bisect_left(sizes, k)  # examples shorter than k play no part
        own = bisect.bisect_right(sizes, capacity - k)  # longer than capacity - k: alone
        room_beside_long = (own - first_long) * capacity - (prefix[own] - prefix[first_long])
        rest = prefix[first_long] - prefix[small] - room_beside_long
        best = max(best, n - first_long + max(0, -(-rest // capacity)))
    return best


def _most_rows_holding(prefix: list[int], capacity: int) -> list[int]:
    """r_j for j = 1, 2, ... while j examples can share a row at all (see min_rows_lower_bound)."""
    n = len(prefix) - 1
    most_rows: list[int] = []
    j = 1
    while j <= n and prefix[j] <= capacity:
        low, high = 1, n // j  # prefix[j r] / r grows with r, so the feasible r are 1..r_j
        while low < high:
            middle = (low + high + 1) // 2
            if prefix[j * middle] <= middle * capacity:
                low = middle
            else:
                high = middle - 1
        most_rows.append(low)
        j += 1
    return most_rows


def _cardinality_bound(prefix: list[int], capacity: int) -> int:
    """The cardinality bound over sizes sorted ascending (prefix: their running totals)."""
    n, most_rows = len(prefix) - 1, _most_rows_holding(prefix, capacity)
    low, high = 1, n
    while low < high:
        middle = (low + high) // 2
        if sum(min(middle, rows) for rows in most_rows) >= n:
            high = middle
        else:
            low = middle + 1
    return low


def pack_examples(
    lengths: Sequence[int], capacity: int, *, group_size: int = DEFAULT_GROUP_SIZE
) -> PackPlan:
    """Pack into as few rows as is practical, never more than best_fit_decreasing uses.

    - A BFD plan that meets `min_rows_lower_bound` is optimal and is kept.
    - Otherwise the packer first builds the plan the cardinality bound describes: as many rows as
      the bound, each holding as many examples as the bound allows, the shortest examples in the
      rows that hold the most, dealt out evenly; then it exchanges up to two examples at a time
      between rows over capacity and rows with room. If no row is left over capacity, that plan
      is optimal.
    - Failing that, BFD and a local search that empties rows: the least-filled row's examples go
      into a pool; up to two pooled examples move into a row for up to two of its own whenever
      that takes tokens out of the pool, and otherwise up to two examples leave the least-filled
      row for shorter ones of another row, which gathers free room into one row. Each move lowers
      the pool total or makes the fill more uneven, so the search ends; a pool still left after
      a fixed number of moves ends it, and the last emptied row stands.

    More than `group_size` examples are packed by linear grouping (de la Vega and Lueker): with
    G groups, the longest example of each run of G consecutive lengths forms a representative
    instance, and every group reuses the representative's rows position by position, which fits
    because none of its examples is longer than the representative it stands in for.

    Deterministic: the plan depends only on the lengths. Dropping is best_fit_decreasing's.
    """
    if group_size <= 0:
        raise ValueError(f"group_size must be positive, got {group_size}")
    plain = best_fit_decreasing(lengths, capacity)
    if not plain.rows or len(plain.rows) == min_rows_lower_bound(lengths, capacity):
        return plain
    kept = [index for row in plain.rows for index in row]
    kept.sort(key=lambda index: (-lengths[index], index))
    groups = -(-len(kept) // group_size)
    pattern = _pack_tightly([lengths[index] for index in kept[::groups]], capacity)
    rows = [
        row
        for group in range(groups)
        for positions in pattern
        if (row := [kept[p * groups + group] for p in positions if p * groups + group < len(kept)])
    ]
    if len(rows) >= len(plain.rows):
        return plain
    return PackPlan(
        rows=_tidy(rows, lengths), dropped=plain.dropped, capacity=capacity, lengths=plain.lengths
    )


def _tidy(rows: list[list[int]], lengths: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Each row longest example first, rows by their longest example (as BFD leaves them)."""
    ordered = [tuple(sorted(row, key=lambda index: (-lengths[index], index))) for row in rows]
    return tuple(sorted(ordered, key=lambda row: (-lengths[row[0]], row[0])))


def _pack_tightly(sizes: list[int], capacity: int) -> list[list[int]]:
    """Rows of positions into sizes (all <= capacity), as pack_examples describes."""
    floor = min_rows_lower_bound(sizes, capacity)
    dealt = _deal_by_cardinality(sizes, capacity, floor)
    if dealt is not None:
        return dealt
    rows = [list(row) for row in best_fit_decreasing(sizes, capacity).rows]
    while len(rows) > floor:
        fills = [sum(sizes[p] for p in row) for row in rows]
        target = min(range(len(rows)), key=lambda row: (fills[row], -row))
        search = _RowSearch(sizes, capacity, [row for i, row in enumerate(rows) if i != target])
        if not search.absorb(rows[target]):
            break
        rows = [row for row in search.rows if row]
    return rows


def _deal_by_cardinality(sizes: list[int], capacity: int, count: int) -> list[list[int]] | None:
    """count rows shaped as the cardinality bound allows, or None if they cannot be made to fit.

    At most min(count, r_j) rows can hold j or more examples; taking that many (fewer at the top
    until they hold exactly the examples there are), the rows that hold the most examples get the
    shortest ones, dealt out in a serpentine within each class so that its rows come out even.
    Rows of many short examples are left to BFD, which is close to the bound there."""
    ascending = sorted(range(len(sizes)), key=lambda p: (sizes[p], p))
    prefix = list(itertools.accumulate((sizes[p] for p in ascending), initial=0))
    holding = [min(count, rows) for rows in _most_rows_holding(prefix, capacity)]
    if len(holding) > _PAIR_LIMIT:
        return None
    excess = sum(holding) - len(sizes)
    while excess > 0:  # a row fewer holding j examples is a row more holding j - 1
        cut = min(excess, holding[-1])
        holding[-1] -= cut
        excess -= cut
        if not holding[-1]:
            holding.pop()
    rows: list[list[int]] = []
    taken = 0
    for j in range(len(holding), 0, -1):
        width = holding[j - 1] - (holding[j] if j < len(holding) else 0)
        block = ascending[taken : taken + j * width]
        taken += j * width
        dealt: list[list[int]] = [[] for _ in range(width)]
        for k, p in enumerate(block):
            lap, seat = divmod(k, width)
            dealt[seat if lap % 2 == 0 else width - 1 - seat].append(p)
        rows += dealt
    search = _RowSearch(sizes, capacity, rows)
    return [row for row in search.rows if row] if search.relieve() else None


_Subset = tuple[int, tuple[int, ...]]  # (total size, positions)


class _RowSearch:
    """Rows under repair, with each row's free room and its subsets of up to two members."""

    def __init__(self, sizes: list[int], capacity: int, rows: list[list[int]]) -> None:
        self.sizes = sizes
        self.rows = [list(row) for row in rows]
        self.free = [capacity - sum(sizes[p] for p in row) for row in self.rows]
        self._subsets: dict[int, list[_Subset]] = {}

    def absorb(self, pool: list[int]) -> bool:
        """Place every pooled position into the rows, or report that the search gave up."""
        pool = list(pool)
        for _ in range(_MOVES_PER_ATTEMPT):
            if not pool:
                return True
            if not (self._drain(pool) or self._gather()):
                return False
        return not pool

    def _subsets_of(self, row: int) -> list[_Subset]:
        cached = self._subsets.get(row)
        if cached is None:
            cached = self._subsets[row] = _subsets(self.rows[row], self.sizes)
        return cached

    def _by_room(self) -> list[int]:
        return sorted(range(len(self.rows)), key=lambda row: (-self.free[row], row))

    def relieve(self) -> bool:
        """Move tokens out of rows over capacity into rows with room; True once none is over."""
        for _ in range(_MOVES_PER_ATTEMPT + len(self.rows)):
            worst = min(range(len(self.rows)), key=lambda row: (self.free[row], row))
            if self.free[worst] >= 0:
                return True
            receivers = [row for row in self._by_room() if self.free[row] > 0]
            offers = self._subsets_of(worst)[1:]
            if not self._move(worst, receivers, offers, most=-self.free[worst]):
                return False
        return min(self.free) >= 0

    def _drain(self, pool: list[int]) -> bool:
        """Exchange pool members for row members so that the most tokens leave the pool."""
        best = self._best_exchange(self._by_room(), _subsets(pool, self.sizes)[1:])
        if best is None:
            return False
        row, out, into = best
        self._exchange(row, out, into)
        pool[:] = [p for p in pool if p not in into] + list(out)
        return True

    def _gather(self) -> bool:
        """Move the most tokens out of the emptiest row into another, for shorter members."""
        donor, *others = self._by_room()
        return self._move(donor, others, self._subsets_of(donor)[1:])

    def _move(
        self, donor: int, rows: list[int], offers: list[_Subset], most: int | None = None
    ) -> bool:
        best = self._best_exchange(rows, offers, most)
        if best is None:
            return False
        row, out, into = best
        self._exchange(row, out, into)
        self._exchange(donor, into, out)
        return True

    def _best_exchange(
        self, rows: list[int], offers: list[_Subset], most: int | None = None
    ) -> tuple[int, tuple[int, ...], tuple[int, ...]] | None:
        """The row, its members out and the offered members in that add the most tokens to it
        (up to `most`, where more would be of no use).

        Rows come most free room first: no exchange can add more tokens than a row has room for,
        so the scan stops at the first row with no more room than the best gain found."""
        totals = [total for total, _ in offers]
        best_gain, best = 0, None
        for row in rows:
            room = self.free[row] if most is None else min(self.free[row], most)
            if room <= best_gain:
                break
            for given, members in self._subsets_of(row):
                slot = bisect.bisect_right(totals, given + room) - 1
                if slot >= 0 and totals[slot] - given > best_gain:
                    best_gain, best = totals[slot] - given, (row, members, offers[slot][1])
        return best

    def _exchange(self, row: int, out: tuple[int, ...], into: tuple[int, ...]) -> None:
        members = [p for p in self.rows[row] if p not in out] + list(into)
        self.rows[row] = members
        self.free[row] += sum(self.sizes[p] for p in out) - sum(self.sizes[p] for p in into)
        self._subsets.pop(row, None)


def _subsets(members: list[int], sizes: list[int]) -> list[_Subset]:
    """The empty subset first, then every member and (for short lists) every pair, by total."""
    singles = [(sizes[p], (p,)) for p in members]
    pairs = (
        [(sizes[a] + sizes[b], (a, b)) for a, b in itertools.combinations(members, 2)]
        if len(members) <= _PAIR_LIMIT
        else []
    )
    return [(0, ()), *sorted(singles + pairs)]
