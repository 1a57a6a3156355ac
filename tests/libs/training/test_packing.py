import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from phonebuddy.training.packing import (
    PackPlan,
    best_fit_decreasing,
    best_fit_shuffled,
    min_rows_lower_bound,
    pack_examples,
)
from phonebuddy.training.schedule import RowOrder, lr_at


def optimum_rows(lengths: list[int], capacity: int) -> int:
    """Fewest rows for the examples that fit, by trying every placement (longest first)."""
    sizes = sorted((n for n in lengths if n <= capacity), reverse=True)
    best = len(sizes)
    loads: list[int] = []

    def place(k: int) -> None:
        nonlocal best
        if k == len(sizes):
            best = min(best, len(loads))
            return
        tried = set()  # rows with equal loads are interchangeable
        for row, load in enumerate(loads):
            if load + sizes[k] <= capacity and load not in tried:
                tried.add(load)
                loads[row] += sizes[k]
                place(k + 1)
                loads[row] -= sizes[k]
        if len(loads) + 1 < best:
            loads.append(sizes[k])
            place(k + 1)
            loads.pop()

    place(0)
    return best


def small_instances(count: int, seed: int) -> list[tuple[list[int], int]]:
    """Random instances of up to 12 examples; half of them of a sixth to a third of a row, where
    rows hold 3-5 examples and best fit goes wrong most often (as with real SFT steps)."""
    rng = random.Random(seed)
    instances = []
    for k in range(count):
        capacity = rng.randint(20, 200)
        low, high = (capacity // 6, capacity // 3) if k % 2 else (1, capacity + 20)
        lengths = [rng.randint(max(1, low), high) for _ in range(rng.randint(1, 12))]
        instances.append((lengths, capacity))
    return instances


def assert_valid(plan: PackPlan, lengths: list[int], capacity: int) -> None:
    placed = [index for row in plan.rows for index in row]
    assert sorted(placed + list(plan.dropped)) == list(range(len(lengths)))
    assert set(plan.dropped) == {i for i, n in enumerate(lengths) if n > capacity}
    assert all(row and plan.row_length(k) <= capacity for k, row in enumerate(plan.rows))
    assert plan.lengths == tuple(lengths)
    assert plan.capacity == capacity


lengths_and_capacity = (st.lists(st.integers(1, 300), max_size=60), st.integers(50, 256))


@given(*lengths_and_capacity)
def test_every_example_is_placed_once_or_dropped_for_length(lengths, capacity) -> None:
    plan = best_fit_decreasing(lengths, capacity)
    assert_valid(plan, lengths, capacity)
    # best fit never leaves two rows that would fit into one
    sizes = sorted(plan.row_length(row) for row in range(len(plan.rows)))
    assert len(sizes) < 2 or sizes[0] + sizes[1] > capacity


@given(*lengths_and_capacity, st.sampled_from([1, 4, 16, 2048]))
def test_the_packer_keeps_every_example_once_and_never_needs_more_rows_than_bfd(
    lengths, capacity, group_size
) -> None:
    plan = pack_examples(lengths, capacity, group_size=group_size)
    assert_valid(plan, lengths, capacity)
    bound = min_rows_lower_bound(lengths, capacity)
    assert bound <= len(plan.rows) <= len(best_fit_decreasing(lengths, capacity).rows)


@given(*lengths_and_capacity, st.integers(0, 3))
def test_shuffled_best_fit_places_every_example_once_and_depends_on_the_seed_only(
    lengths, capacity, seed
) -> None:
    plan = best_fit_shuffled(lengths, capacity, seed=seed)
    assert_valid(plan, lengths, capacity)
    assert best_fit_shuffled(list(lengths), capacity, seed=seed) == plan
    sizes = sorted(plan.row_length(row) for row in range(len(plan.rows)))
    assert len(sizes) < 2 or sizes[0] + sizes[1] > capacity


def test_shuffled_rows_mix_examples_that_length_packing_keeps_together() -> None:
    """Two tasks whose examples differ in length: packing by length gives rows of one task each,
    shuffled packing rows of both (what a random minibatch holds)."""
    rng = random.Random(0)
    lengths = [rng.randint(380, 420) for _ in range(200)]
    lengths += [rng.randint(280, 320) for _ in range(200)]
    task = [0] * 200 + [1] * 200

    def mixed_rows(plan: PackPlan) -> int:
        return sum(len({task[index] for index in row}) == 2 for row in plan.rows)

    tight, shuffled = pack_examples(lengths, 4096), best_fit_shuffled(lengths, 4096, seed=0)
    assert mixed_rows(tight) <= 0.3 * len(tight.rows)
    assert mixed_rows(shuffled) >= 0.9 * len(shuffled.rows)
    assert len(shuffled.rows) <= 1.1 * len(tight.rows)
    assert best_fit_shuffled(lengths, 4096, seed=1) != shuffled


def test_best_fit_fills_the_tightest_row() -> None:
    plan = best_fit_decreasing([60, 50, 40, 30, 20], 100)
    assert plan.rows == ((0, 2), (1, 3, 4))
    assert plan.utilization == 1.0


def test_the_bound_never_exceeds_the_brute_force_optimum() -> None:
    instances = small_instances(600, seed=1)
    exact = 0
    for lengths, capacity in instances:
        bound, optimum = min_rows_lower_bound(lengths, capacity), optimum_rows(lengths, capacity)
        assert bound <= optimum, (lengths, capacity)
        exact += bound == optimum
    assert exact >= 0.95 * len(instances)


@pytest.mark.parametrize(
    ("lengths", "capacity", "rows"),
    [
        ([26] * 7, 100, 3),  # three a row at most: 7 examples need 3 rows, tokens alone say 2
        ([51, 51, 51, 10], 100, 3),  # each example over half a row needs its own: tokens say 2
        ([500, 51, 51, 51, 10], 100, 3),  # a dropped example plays no part
        ([1700] * 9, 8192, 3),  # four a row at most, as with SFT steps of ~1,700 tokens
        ([], 100, 0),
    ],
)
def test_the_bound_is_exact_where_the_optimum_is_known(lengths, capacity, rows) -> None:
    assert optimum_rows(lengths, capacity) == rows
    assert min_rows_lower_bound(lengths, capacity) == rows


def test_the_bound_refuses_what_the_packer_refuses() -> None:
    with pytest.raises(ValueError, match="positive"):
        min_rows_lower_bound([10], 0)
    with pytest.raises(ValueError, match="at least one token"):
        min_rows_lower_bound([10, 0], 100)


@pytest.mark.parametrize(
    ("lengths", "capacity"),
    [
        ([28, 28, 22, 32, 24, 24, 26, 37], 112),  # found by the local search that empties rows
        ([17, 30, 24, 22, 28, 21, 19, 31], 97),  # found by dealing out the bound's rows
    ],
)
def test_the_packer_reaches_the_optimum_where_bfd_does_not(lengths, capacity) -> None:
    optimum = optimum_rows(lengths, capacity)
    assert len(best_fit_decreasing(lengths, capacity).rows) == optimum + 1
    plan = pack_examples(lengths, capacity)
    assert_valid(plan, lengths, capacity)
    assert len(plan.rows) == optimum


def test_the_packer_reaches_the_optimum_on_most_small_instances_bfd_gets_wrong() -> None:
    missed_by_bfd = reached = 0
    for lengths, capacity in small_instances(2000, seed=2):
        optimum = optimum_rows(lengths, capacity)
        if len(best_fit_decreasing(lengths, capacity).rows) > optimum:
            missed_by_bfd += 1
            reached += len(pack_examples(lengths, capacity).rows) == optimum
    assert missed_by_bfd >= 40
    assert reached >= 0.95 * missed_by_bfd


def test_large_instances_reuse_a_representative_packing_that_still_beats_bfd() -> None:
    rng = random.Random(3)
    lengths = [rng.randint(1500, 2300) for _ in range(3000)]
    grouped = pack_examples(lengths, 8192, group_size=500)
    assert_valid(grouped, lengths, 8192)
    bfd_rows = len(best_fit_decreasing(lengths, 8192).rows)
    assert len(grouped.rows) < 0.97 * bfd_rows
    assert len(grouped.rows) <= 1.01 * min_rows_lower_bound(lengths, 8192)


def test_a_grouping_worse_than_bfd_falls_back_to_bfd() -> None:
    lengths = [28, 28, 22, 32, 24, 24, 26, 37]
    # one example per group: the representative is one example, so every row holds one
    assert pack_examples(lengths, 112, group_size=1) == best_fit_decreasing(lengths, 112)


def test_the_plan_depends_only_on_the_lengths() -> None:
    rng = random.Random(4)
    lengths = [rng.randint(1500, 2300) for _ in range(700)]
    first = pack_examples(lengths, 8192, group_size=128)
    again = pack_examples(tuple(lengths), 8192, group_size=128)
    assert first == again
    assert first.rows != best_fit_decreasing(lengths, 8192).rows


def test_learning_rate_warms_up_then_decays_to_its_floor() -> None:
    values = [lr_at(step, lr=1e-5, min_lr=1e-6, warmup=2, total=10) for step in range(11)]
    assert values[0] == 5e-6
    assert values[1] == 1e-5
    assert values[2] == 1e-5
    assert all(a >= b for a, b in itertools.pairwise(values[2:]))
    assert abs(values[10] - 1e-6) < 1e-12


def test_row_order_is_a_seeded_permutation_per_epoch() -> None:
    order = RowOrder(5, seed=3)
    first, second = order.take(0, 5), order.take(5, 5)
    assert sorted(first) == sorted(second) == list(range(5))
    assert first != second
    assert RowOrder(5, seed=3).take(3, 6) == first[3:] + second[:4]
