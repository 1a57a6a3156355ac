"""Scoring on hand-built episodes: what counts, what is left out, and how pairs are formed."""

from __future__ import annotations

from datetime import UTC, datetime

from phonebuddy.eval.scoring import Scored, compare, score_policy
from phonebuddy.protocol import Category, Episode, EpisodeStatus, Source, TaskSpec, Verdict
from phonebuddy.protocol.episodes import PolicyRef
from phonebuddy.protocol.tasks import Instruction

NOW = datetime(2026, 12, 1, tzinfo=UTC)


def _episode(
    seed: int,
    *,
    success: bool | None,
    status: EpisodeStatus = EpisodeStatus.TERMINATED,
    judge_error: bool = False,
    source: Source = Source.SIM,
) -> Episode:
    verdict = (
        None
        if success is None
        else Verdict(
            success=success, reward=float(success), judge_error=judge_error,
            grader="judge" if source is Source.REAL else "verifier",
        )
    )  # fmt: skip
    return Episode(
        episode_id=f"e{seed}-{source.value}", run_id="run", device_id="pw-1",
        task=TaskSpec(template_id="settings.toggle", seed=seed, source=source,
                      instruction=Instruction(zh="x", en="x"), category=Category.SINGLE_APP,
                      apps=("com.pw.settings",)),
        steps=(), status=status, verdict=verdict, started_at=NOW, finished_at=NOW,
        policy=PolicyRef(model="m", version="v1"),
    )  # fmt: skip


def test_unscorable_episodes_are_left_out_of_every_rate() -> None:
    results = [
        Scored("p", "test_seeds", _episode(1, success=True)),
        Scored("p", "test_seeds", _episode(2, success=False)),
        Scored("p", "test_seeds", _episode(3, success=None, status=EpisodeStatus.ENV_ERROR)),
        Scored("p", "test_seeds", _episode(4, success=False, status=EpisodeStatus.POLICY_ERROR)),
        Scored("p", "test_seeds", _episode(5, success=False, judge_error=True, source=Source.REAL)),
        Scored("p", "test_seeds", _episode(6, success=True, source=Source.REAL)),
    ]
    score = score_policy("p", "url", results, viewer_url="http://v/", failures_listed=10)
    assert (score.overall.successes, score.overall.episodes) == (2, 3)
    assert score.unscored == 3
    assert score.by_source["real"].episodes == 1
    assert score.by_app["com.pw.settings"].episodes == 3
    assert score.by_split["test_seeds"].successes == 2
    # every episode that did not succeed is listed, scored or not, with its viewer link
    assert sorted(f.seed for f in score.failures) == [2, 3, 4, 5]
    assert score.failures[0].url == "http://v/runs/run/episodes/e2-sim"
    assert score.steps_per_success == 0.0
    limited = score_policy("p", "url", results, viewer_url="http://v", failures_listed=1)
    assert len(limited.failures) == 1


def test_pairs_are_the_tasks_both_policies_were_scored_on() -> None:
    a = [Scored("a", "s", _episode(seed, success=seed < 2)) for seed in range(6)]
    b = [Scored("b", "s", _episode(seed, success=seed < 5)) for seed in range(6)]
    b[5] = Scored("b", "s", _episode(5, success=None, status=EpisodeStatus.ENV_ERROR))
    result = compare("a", "b", [*a, *b], bootstrap_samples=500)
    assert result.pairs == 5  # seed 5 is unscored for b
    assert (result.both, result.only_a, result.only_b, result.neither) == (2, 0, 3, 0)
    assert result.difference == 0.6
    assert not result.significant  # 3 discordant pairs cannot reach p < 0.05
    assert result.verdict == "no significant difference"
