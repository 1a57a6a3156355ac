"""The report's statistics against values worked out by hand or from their definitions."""

from __future__ import annotations

import math

import pytest

from phonebuddy.eval.stats import mcnemar_exact, paired_bootstrap
from phonebuddy.trajectories import rate_of as rate


def test_mcnemar_exact_is_the_two_sided_binomial_tail() -> None:
    assert mcnemar_exact(0, 0) == 1.0
    assert mcnemar_exact(3, 3) == 1.0
    assert mcnemar_exact(0, 6) == round(2 / 64, 6)  # 6 discordant pairs all one way
    # 1 vs 9: 2 * P(X <= 1), X ~ Binomial(10, 1/2) = 2 * 11 / 1024
    assert mcnemar_exact(1, 9) == round(22 / 1024, 6)
    assert mcnemar_exact(9, 1) == mcnemar_exact(1, 9)
    assert mcnemar_exact(4, 6) > 0.5


def test_paired_bootstrap_centres_on_the_difference_and_narrows_with_pairs() -> None:
    a = [True] * 10 + [False] * 30
    b = [True] * 20 + [False] * 20  # +0.25 on the same tasks
    low, high = paired_bootstrap(a, b, samples=5000)
    assert low < 0.25 < high
    assert low > 0  # ten pairs improved, none got worse
    wide = paired_bootstrap(a[::4], b[::4], samples=5000)
    assert wide[1] - wide[0] > high - low
    assert paired_bootstrap(a, a, samples=1000) == (0.0, 0.0)
    assert paired_bootstrap(a, b, samples=1000, seed=3) == paired_bootstrap(
        a, b, samples=1000, seed=3
    )
    with pytest.raises(ValueError, match="same length"):
        paired_bootstrap(a, b[:-1], samples=100)


def test_rates_carry_wilson_intervals() -> None:
    r = rate(3, 10)
    assert r.success_rate == 0.3
    assert math.isclose(r.ci95[0], 0.1078, abs_tol=1e-4)
    assert math.isclose(r.ci95[1], 0.6032, abs_tol=1e-4)
    assert rate(0, 0).success_rate == 0.0
