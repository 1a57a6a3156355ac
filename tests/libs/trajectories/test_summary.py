"""Run summaries: counts and rates over episodes of complete groups only, with Wilson CIs."""

from __future__ import annotations

import math

import pytest

from phonebuddy.trajectories import GroupStatus, summarize, wilson


def test_only_complete_groups_count(demo_run):
    summary = summarize(demo_run.manifest, demo_run.episodes.values())
    counted = demo_run.counted()
    assert "failed-ok" not in {e.episode_id for e in counted}
    assert summary.episodes == len(counted) == 7
    assert (summary.groups_complete, summary.groups_failed, summary.groups_pending) == (5, 1, 0)
    assert summary.overall.successes == 4  # notes-ok, wallet-ok, cross-ok, real-ok
    assert summary.overall.success_rate == round(4 / 7, 4)
    assert summary.overall.ci95 == wilson(4, 7)


def test_rates_by_source_category_and_app(demo_run):
    summary = summarize(demo_run.manifest, demo_run.episodes.values())
    assert {k: (r.successes, r.episodes) for k, r in summary.by_source.items()} == {
        "real": (1, 2),
        "sim": (3, 5),
    }
    assert {k: (r.successes, r.episodes) for k, r in summary.by_category.items()} == {
        "cross_app": (1, 1),
        "single_app": (3, 6),
    }
    # A cross-app episode counts for each of its apps.
    assert {k: (r.successes, r.episodes) for k, r in summary.by_app.items()} == {
        "com.pw.gallery": (1, 1),
        "com.pw.notes": (3, 6),
        "com.pw.wallet": (1, 1),
    }


def test_steps_invalid_actions_judge_errors_and_time(demo_run):
    counted = demo_run.counted()
    summary = summarize(demo_run.manifest, demo_run.episodes.values())
    steps = sum(len(e.steps) for e in counted)
    assert summary.steps == steps
    assert summary.mean_steps == round(steps / 7, 2)
    assert summary.invalid_actions == 1
    assert summary.invalid_rate == round(1 / steps, 4)
    assert summary.judge_errors == 1
    assert summary.retries == 0
    start = min(e.started_at for e in counted)
    end = max(e.finished_at for e in counted)
    assert summary.wall_s == round((end - start).total_seconds(), 3)
    assert summary.policy_versions == ["oracle"]


def test_a_failed_group_drops_all_its_episodes_from_the_numbers(demo_run):
    manifest = demo_run.manifest.model_copy(deep=True)
    manifest.group("g-real").status = GroupStatus.FAILED
    summary = summarize(manifest, demo_run.episodes.values())
    assert summary.episodes == 5
    assert "real" not in summary.by_source
    assert summary.judge_errors == 0
    assert summary.groups_failed == 2


def test_an_empty_run_has_zero_rates_not_errors(demo_run):
    manifest = demo_run.manifest.model_copy(update={"groups": []})
    summary = summarize(manifest, [])
    assert summary.episodes == 0
    assert summary.overall.success_rate == 0.0
    assert summary.overall.ci95 == (0.0, 0.0)
    assert summary.mean_steps == 0.0
    assert summary.wall_s == 0.0


@pytest.mark.parametrize(("successes", "total"), [(0, 10), (5, 10), (10, 10), (1, 3), (37, 50)])
def test_wilson_interval_contains_the_rate_and_matches_the_formula(successes, total):
    low, high = wilson(successes, total)
    p = successes / total
    assert 0.0 <= low <= p <= high <= 1.0
    z = 1.96
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total**2)) / (1 + z * z / total)
    assert low == pytest.approx(max(0.0, centre - half), abs=1e-4)
    assert high == pytest.approx(min(1.0, centre + half), abs=1e-4)


def test_wilson_interval_narrows_with_more_episodes():
    small = wilson(5, 10)
    large = wilson(500, 1000)
    assert large[1] - large[0] < small[1] - small[0]
