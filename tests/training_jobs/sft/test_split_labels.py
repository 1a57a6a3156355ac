"""SFT decides which stored steps are held out from (template, seed) against PhoneWorld's
declared split, never from the `split` label a step carries: a held-out template solved at a test
seed and stored labelled `train` (the adversarial repro) is still refused."""

from __future__ import annotations

import asyncio
import dataclasses

import pytest

from phonebuddy.protocol import TEST_SEEDS
from phonebuddy.sft.config import DataConfig, RunSource
from phonebuddy.sft.data import DataError, load_rows, refuse_test_split


def test_steps_relabelled_train_are_refused_by_their_template_and_seed(
    tmp_path, run_writer
) -> None:
    held = asyncio.run(
        run_writer(tmp_path, "relabelled", ["settings.night_mode"], [TEST_SEEDS[0] + 3])
    )
    at_test_seed = asyncio.run(run_writer(tmp_path, "late", ["settings.toggle"], [TEST_SEEDS[0]]))
    for run, template in ((held, "settings.night_mode"), (at_test_seed, "settings.toggle")):
        config = DataConfig(runs=(RunSource(run=run.run_id, store=run.store_url),))
        loaded = load_rows(config)
        forged = [dataclasses.replace(row, split="train") for row in loaded]
        with pytest.raises(DataError, match=template.replace(".", r"\.")):
            refuse_test_split(forged, config)
        # and a train task labelled `test` is judged a train task: the label decides nothing
    train = asyncio.run(run_writer(tmp_path, "train", ["settings.toggle"], [3]))
    config = DataConfig(runs=(RunSource(run=train.run_id, store=train.store_url),))
    refuse_test_split([dataclasses.replace(row, split="test") for row in load_rows(config)], config)
