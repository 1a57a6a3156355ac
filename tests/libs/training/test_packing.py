import itertools

from hypothesis import given
from hypothesis import strategies as st

from phonebuddy.training.packing import best_fit_decreasing
from phonebuddy.training.schedule import RowOrder, lr_at


@given(st.lists(st.integers(1, 300), max_size=60), st.integers(50, 256))
def test_every_example_is_placed_once_or_dropped_for_length(lengths, capacity) -> None:
    plan = best_fit_decreasing(lengths, capacity)
    placed = [index for row in plan.rows for index in row]
    assert sorted(placed + list(plan.dropped)) == list(range(len(lengths)))
    assert set(plan.dropped) == {i for i, n in enumerate(lengths) if n > capacity}
    assert all(plan.row_length(row) <= capacity for row in range(len(plan.rows)))
    # best fit never leaves two rows that would fit into one
    sizes = sorted(plan.row_length(row) for row in range(len(plan.rows)))
    assert len(sizes) < 2 or sizes[0] + sizes[1] > capacity


def test_best_fit_fills_the_tightest_row() -> None:
    plan = best_fit_decreasing([60, 50, 40, 30, 20], 100)
    assert plan.rows == ((0, 2), (1, 3, 4))
    assert plan.utilization == 1.0


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
