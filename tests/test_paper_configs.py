"""`configs/paper/` is the paper's recipe as the three jobs' config files (what the Kubernetes
Jobs run), `configs/tiny-cpu/` the variant the demo and tests run on 2 cores. Both are the jobs'
bundled presets (`--preset qwen3_5-4b`, `--preset tiny-cpu`), and the tiny variant differs from
the paper only where a 64M model on a CPU without phones must: how much work, where things go,
the hardware. The one knob of another kind, the learning rate, is named here with its reason."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from phonebuddy.eval.config import bundled_config as eval_preset
from phonebuddy.eval.config import load_config as load_eval
from phonebuddy.rl.config import bundled_config as rl_preset
from phonebuddy.rl.config import load_config as load_rl
from phonebuddy.sft.config import bundled_config as sft_preset
from phonebuddy.sft.config import load_config as load_sft

ROOT = Path(__file__).resolve().parents[1]
JOBS: dict[str, tuple[Callable[..., Any], Callable[[str], Path]]] = {
    "sft": (load_sft, sft_preset),
    "rl": (load_rl, rl_preset),
    "eval": (load_eval, eval_preset),
}
PLACE = {"name", "checkpoint.output", "metrics.port", "metrics.host", "policy.staging",
         "report.output", "report.viewer_url", "serve.host"}  # fmt: skip
HARDWARE = {"model.precision", "model.gradient_checkpointing", "serve.backend"}
SIZE = {
    "sft": {"packing.max_tokens", "optim.global_batch_rows", "optim.warmup_steps",
            "train.max_steps", "checkpoint.every_steps", "checkpoint.keep_last",
            "metrics.eval_every_steps", "data.validation_fraction"},
    "rl": {"rollout.suite", "rollout.tasks_per_step", "rollout.group_size", "rollout.step_budget",
           "rollout.max_tokens", "rollout.concurrency", "rollout.max_extra_rounds",
           "optim.max_tokens", "train.steps", "checkpoint.every_steps", "checkpoint.keep_last"},
    "eval": {"tasks.suites", "tasks.seeds", "rollout.step_budget", "rollout.max_tokens",
             "rollout.concurrency", "rollout.timeout_s", "serve.ready_timeout_s"},
}  # fmt: skip
NO_PHONES = {"rl": {"rollout.mix"}, "eval": {"tasks.sources"}}  # this machine has no real devices
# A 64M random model does not move at the paper's 4B learning rates within CPU minutes.
LEARNING_RATE = {"sft": {"optim.lr", "optim.min_lr"}, "rl": {"optim.lr"}}


def _flat(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            flat |= _flat(value, f"{prefix}{key}.")
        else:
            flat[f"{prefix}{key}"] = value
    return flat


def _load(job: str, folder: str) -> dict[str, Any]:
    load, preset = JOBS[job]
    path = ROOT / "configs" / folder / f"{job}.yaml"
    from_file = load(path).model_dump(mode="json")
    bundled = load(preset("qwen3_5-4b" if folder == "paper" else "tiny-cpu")).model_dump(
        mode="json"
    )
    assert from_file == bundled, f"configs/{folder}/{job}.yaml is not the bundled preset"
    return _flat(from_file)


@pytest.mark.parametrize("job", sorted(JOBS))
def test_the_tiny_variant_differs_from_the_paper_only_in_size(job: str) -> None:
    paper, tiny = _load(job, "paper"), _load(job, "tiny-cpu")
    assert paper.keys() == tiny.keys()
    differing = {key for key in paper if paper[key] != tiny[key]}
    allowed = (
        PLACE | HARDWARE | SIZE[job] | NO_PHONES.get(job, set()) | LEARNING_RATE.get(job, set())
    )
    assert differing <= allowed, f"{job}: not size-related: {sorted(differing - allowed)}"
    assert differing & SIZE[job]  # it is smaller


def test_the_paper_recipe_has_the_papers_numbers() -> None:
    sft, rl, evaluation = (_load(job, "paper") for job in ("sft", "rl", "eval"))
    assert sft["packing.max_tokens"] == 8192
    assert (sft["optim.lr"], sft["optim.min_lr"]) == (1e-5, 1e-6)
    assert sft["optim.global_batch_rows"] == 512
    assert sft["train.max_steps"] == 1115
    assert rl["train.steps"] == 50
    assert rl["rollout.mix"] == "real=0.5,sim=0.5"
    assert rl["rollout.step_budget"] == 30
    assert rl["rollout.suite"] == "train"
    assert evaluation["rollout.step_budget"] == 50
    assert evaluation["rollout.temperature"] == 0.0
    assert set(evaluation["tasks.suites"]) == {"test_seeds", "test_templates", "test_apps"}
