"""Learning on held-out seeds (slow: ~10 min on 2 cores, `make test-slow`): the tiny model
fine-tuned on teacher rollouts of one template beats the untrained model on other seeds of
those templates, with the 95 % interval's lower bound above the untrained rate.
`benchmarks/sft_heldout.py` runs the experiment and says which templates and why."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).parents[3] / "benchmarks" / "sft_heldout.py"


@pytest.mark.slow
@pytest.mark.timeout(5400)
def test_sft_beats_the_untrained_model_on_held_out_seeds() -> None:
    result = subprocess.run(
        [sys.executable, str(BENCHMARK)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr[-5000:]
    report = json.loads(result.stdout)
    assert report["teacher"]["overall"]["rate"] == 1.0
    assert set(report["eval_seeds"]).isdisjoint(report["train_seeds"])
    untrained = report["untrained"]["overall"]["rate"]
    low, _ = report["trained"]["overall"]["ci95"]
    assert low > untrained, report
