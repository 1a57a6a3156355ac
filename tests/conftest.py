"""Fixtures the whole suite shares: the tiny Qwen3.5 checkpoints, built once per session (each
is ~280 MB on disk; one copy per test folder used to cost 1.6 GB of the CI machine's disk)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from phonebuddy.policy_model import make_tiny

# Property tests assert behaviour, not speed: on a loaded 2-core machine input generation can
# be slow, which Hypothesis would report as a failure of its own.
settings.register_profile("phonebuddy", suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("phonebuddy")


@pytest.fixture(scope="session")
def tiny_seed0(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model with seed 0. Shared: read it, never write into its folder."""
    return make_tiny(tmp_path_factory.mktemp("tiny") / "tiny-seed0", seed=0)


@pytest.fixture(scope="session")
def tiny_seed1(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny model with seed 1 (other weights, same shapes). Shared: never write into it."""
    return make_tiny(tmp_path_factory.mktemp("tiny") / "tiny-seed1", seed=1)
