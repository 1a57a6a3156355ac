"""`phonebuddy eval` end to end on the real local stack: the scripted teacher (broker endpoint)
against the tiny random checkpoint the job serves itself, on the smoke templates at held-out
seeds; the report's numbers are checked against the stored episodes, and train seeds or train
suites are refused."""

from __future__ import annotations

import asyncio
import math
from typing import Any

import pytest

from phonebuddy.eval.stats import mcnemar_exact
from phonebuddy.protocol import TEST_SEEDS
from phonebuddy.storage import LocalStore
from phonebuddy.trajectories import TrajectoryStore

Evaluated = Any  # tests/training_jobs/eval/conftest.py
# The first test to ask for `evaluated` runs the shared evaluation (46 s on 2 quiet cores, 6 min
# on busy ones).
pytestmark = pytest.mark.timeout(1200)


def _stored(evaluated: Evaluated, run_id: str) -> list:
    async def read() -> list:
        store = TrajectoryStore(LocalStore(evaluated.stack.store))
        return [episode async for episode in store.episodes(run_id)]

    return asyncio.run(read())


def test_the_report_holds_each_policy_on_the_same_held_out_tasks(evaluated: Evaluated) -> None:
    report = evaluated.report
    tiny, teacher = report["policies"]  # --policy, then --checkpoint, then --endpoint entries
    assert [tiny["name"], teacher["name"]] == ["tiny", "teacher"]
    assert report["seeds"] == [TEST_SEEDS[0] + i for i in range(evaluated.seeds)]
    assert report["splits"] == ["test_smoke"]
    assert report["step_budget"] == evaluated.budget
    tasks = {}
    for policy in (teacher, tiny):
        (run_id,) = policy["runs"]
        episodes = _stored(evaluated, run_id)
        assert len(episodes) == evaluated.tasks
        assert {e.task.split for e in episodes} == {"test"}
        assert {e.task.seed for e in episodes} == set(report["seeds"])
        tasks[policy["name"]] = sorted(e.task.task_id for e in episodes)
        wins = sum(1 for e in episodes if e.verdict is not None and e.verdict.success)
        assert policy["overall"]["successes"] == wins
        assert policy["overall"]["episodes"] + policy["unscored"] == evaluated.tasks
        steps = [s for e in episodes for s in e.steps]
        invalid = sum(1 for s in steps if s.action is None) / len(steps)
        assert math.isclose(policy["invalid_action_rate"], invalid, abs_tol=1e-4)
        histogram = policy["step_histogram"]
        assert (
            sum(histogram["success"].values()) + sum(histogram["failure"].values())
            == (policy["overall"]["episodes"])
        )
    assert tasks["teacher"] == tasks["tiny"]  # paired: the same tasks, the same seeds
    assert teacher["overall"]["successes"] == evaluated.tasks  # the oracle solves every one
    assert teacher["steps_per_success"] > 1
    assert set(teacher["by_category"]) == {"single_app", "cross_app", "mini_program"}
    assert tiny["overall"]["successes"] == 0  # random weights
    assert tiny["invalid_action_rate"] > 0.5
    assert len(tiny["failures"]) == evaluated.tasks
    failure = tiny["failures"][0]
    assert failure["url"] == (
        f"http://viewer.invalid:8099/runs/{failure['run_id']}/episodes/{failure['episode_id']}"
    )


def test_the_comparison_says_the_difference_is_real(evaluated: Evaluated) -> None:
    (comparison,) = evaluated.report["comparisons"]
    assert (comparison["a"], comparison["b"]) == ("tiny", "teacher")
    assert comparison["pairs"] == evaluated.tasks
    assert comparison["only_a"] == 0
    assert comparison["only_b"] == evaluated.tasks
    assert comparison["difference"] == 1.0
    assert comparison["difference_ci95"] == [1.0, 1.0]
    assert comparison["mcnemar_p"] == mcnemar_exact(0, evaluated.tasks) < 0.05
    assert comparison["significant"]
    assert "teacher is better" in evaluated.stderr
    assert evaluated.done["policies"]["teacher"]["successes"] == evaluated.tasks


def test_the_html_report_is_one_self_contained_file(evaluated: Evaluated) -> None:
    html = evaluated.html.read_text()
    assert html.startswith("<!doctype html>")
    assert html.count('<svg class="chart"') == 2
    assert html.count('<svg class="histogram"') == 2
    assert "http://viewer.invalid:8099/runs/" in html
    for forbidden in ("<script", "<link", 'src="http', "@import"):
        assert forbidden not in html
    assert evaluated.done["html"] == f"local:{evaluated.output}/tiny-eval/report.html"


def test_train_seeds_and_train_suites_are_refused(evaluated: Evaluated) -> None:
    common = ["--preset", "tiny-cpu", "--endpoint", "teacher=teacher", "--quiet"]
    seeds = evaluated.run(*common, "--set", "tasks.first_seed=0")
    assert seeds.exit_code == 2
    assert "evaluation never samples train seeds" in seeds.stderr
    suite = evaluated.run(*common, "--suite", "smoke", "--output", "local:/nonexistent")
    assert suite.exit_code == 2
    assert "train split" in suite.stderr
    nobody = evaluated.run("--preset", "tiny-cpu")
    assert nobody.exit_code == 2
    assert "no policy to evaluate" in nobody.stderr
