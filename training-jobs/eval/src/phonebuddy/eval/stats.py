"""The statistics a comparison rests on: for two policies on the same tasks, an exact McNemar test
and a paired-bootstrap interval for the difference in success (rates and their Wilson intervals
are `phonebuddy.trajectories.rate_of`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value: the discordant pairs under H0 are Binomial(n, 1/2)."""
    n = only_a + only_b
    if n == 0:
        return 1.0
    k = min(only_a, only_b)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return round(min(1.0, 2 * tail), 6)


def paired_bootstrap(
    a: Sequence[bool], b: Sequence[bool], *, samples: int, seed: int = 0
) -> tuple[float, float]:
    """95 % percentile interval of mean(b) - mean(a) over pairs resampled with replacement.

    Each pair contributes -1, 0 or +1, so a resample is fully described by how many pairs of
    each kind it draws: one multinomial draw per resample instead of n index draws."""
    if len(a) != len(b):
        raise ValueError("paired samples must have the same length")
    n = len(a)
    if n == 0:
        return (0.0, 0.0)
    diffs = [int(y) - int(x) for x, y in zip(a, b, strict=True)]
    shares = [diffs.count(-1) / n, diffs.count(0) / n, diffs.count(1) / n]
    counts = np.random.default_rng(seed).multinomial(n, shares, size=samples)
    means = (counts[:, 2] - counts[:, 0]) / n
    low, high = np.percentile(means, [2.5, 97.5])
    return (round(float(low), 4), round(float(high), 4))
