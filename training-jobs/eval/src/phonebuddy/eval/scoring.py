"""From stored episodes to the report's numbers: per policy, success by category, app, source
and split; steps per success; invalid-action rate; the step-count histogram; failures; and for
every pair of policies a paired comparison on the tasks both were scored on.

Episodes that could not be scored (the environment or the policy server failed, or the judge
errored) are counted apart and left out of every rate: they are neither successes nor failures.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from phonebuddy.eval.novelty import Situations
from phonebuddy.eval.stats import mcnemar_exact, paired_bootstrap
from phonebuddy.protocol import Episode, EpisodeStatus
from phonebuddy.trajectories import Rate, rate_of

UNSCORED = (EpisodeStatus.ENV_ERROR, EpisodeStatus.POLICY_ERROR)


@dataclass(frozen=True, slots=True)
class Scored:
    """One evaluated episode, labelled with the policy and the split (suite) it was run for."""

    policy: str
    split: str
    episode: Episode

    @property
    def key(self) -> tuple[str, str, str]:
        """What pairs two policies' episodes: the same task, source and split."""
        return (self.split, self.episode.task.source.value, self.episode.task.task_id)

    @property
    def scored(self) -> bool:
        verdict = self.episode.verdict
        return (
            self.episode.status not in UNSCORED and verdict is not None and not verdict.judge_error
        )

    @property
    def success(self) -> bool:
        verdict = self.episode.verdict
        return self.scored and verdict is not None and verdict.success


class Failure(BaseModel):
    model_config = ConfigDict(frozen=True)

    run_id: str
    episode_id: str
    template_id: str
    seed: int
    source: str
    split: str
    status: str
    steps: int
    reason: str
    url: str


class PolicyScore(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    target: str  # what was evaluated: the URL, endpoint or checkpoint
    versions: list[str]  # the model versions that answered
    runs: list[str]
    overall: Rate
    by_category: dict[str, Rate]
    by_app: dict[str, Rate]
    by_source: dict[str, Rate]
    by_split: dict[str, Rate]
    by_novelty: dict[str, Rate] = {}  # only with training runs to compare against (novelty.py)
    unscored: int  # episodes left out of every rate (env/policy/judge errors)
    steps_per_success: float | None
    invalid_action_rate: float
    step_histogram: dict[str, dict[int, int]]  # "success"/"failure" -> steps -> episodes
    failures: list[Failure]


class Comparison(BaseModel):
    model_config = ConfigDict(frozen=True)

    a: str
    b: str
    pairs: int
    both: int
    only_a: int
    only_b: int
    neither: int
    rate_a: float
    rate_b: float
    difference: float  # rate_b - rate_a
    difference_ci95: tuple[float, float]  # paired bootstrap
    mcnemar_p: float  # exact, two-sided
    significant: bool  # p < 0.05

    @property
    def verdict(self) -> str:
        if not self.significant:
            return "no significant difference"
        return f"{self.b if self.difference > 0 else self.a} is better"


def _rates(items: Iterable[tuple[str, bool]]) -> dict[str, Rate]:
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for key, won in items:
        tally[key][0] += int(won)
        tally[key][1] += 1
    return {key: rate_of(*tally[key]) for key in sorted(tally)}


def viewer_link(viewer_url: str, episode: Episode) -> str:
    return f"{viewer_url.rstrip('/')}/runs/{episode.run_id}/episodes/{episode.episode_id}"


def score_policy(
    name: str,
    target: str,
    results: Sequence[Scored],
    *,
    viewer_url: str,
    failures_listed: int,
    situations: Situations | None = None,
) -> PolicyScore:
    scored = [r for r in results if r.scored]
    histogram: dict[str, dict[int, int]] = {"success": {}, "failure": {}}
    for result in scored:
        side = histogram["success" if result.success else "failure"]
        steps = len(result.episode.steps)
        side[steps] = side.get(steps, 0) + 1
    wins = [r for r in scored if r.success]
    steps = [step for r in scored for step in r.episode.steps]
    failures = [
        Failure(
            run_id=r.episode.run_id, episode_id=r.episode.episode_id,
            template_id=r.episode.task.template_id, seed=r.episode.task.seed,
            source=r.episode.task.source.value, split=r.split, status=r.episode.status.value,
            steps=len(r.episode.steps),
            reason=(r.episode.verdict.reason if r.episode.verdict else r.episode.error or "")[:300],
            url=viewer_link(viewer_url, r.episode),
        )
        for r in results
        if not r.success
    ]  # fmt: skip
    return PolicyScore(
        name=name,
        target=target,
        versions=sorted({r.episode.policy.version for r in results}),
        runs=sorted({r.episode.run_id for r in results}),
        overall=rate_of(len(wins), len(scored)),
        by_category=_rates((r.episode.task.category.value, r.success) for r in scored),
        by_app=_rates((app, r.success) for r in scored for app in r.episode.task.apps),
        by_source=_rates((r.episode.task.source.value, r.success) for r in scored),
        by_split=_rates((r.split, r.success) for r in scored),
        by_novelty=(
            _rates(
                (label, r.success) for r in scored for label in situations.labels(r.episode.task)
            )
            if situations is not None
            else {}
        ),
        unscored=len(results) - len(scored),
        steps_per_success=(
            round(sum(len(r.episode.steps) for r in wins) / len(wins), 2) if wins else None
        ),
        invalid_action_rate=(
            round(sum(1 for s in steps if s.action is None) / len(steps), 4) if steps else 0.0
        ),
        step_histogram={side: dict(sorted(h.items())) for side, h in histogram.items()},
        failures=failures[:failures_listed],
    )


def compare(a: str, b: str, results: Sequence[Scored], *, bootstrap_samples: int) -> Comparison:
    """Policy b against policy a on the (split, source, task) both were scored on."""
    first = {r.key: r.success for r in results if r.policy == a and r.scored}
    second = {r.key: r.success for r in results if r.policy == b and r.scored}
    keys = sorted(first.keys() & second.keys())
    xs, ys = [first[k] for k in keys], [second[k] for k in keys]
    only_a = sum(1 for x, y in zip(xs, ys, strict=True) if x and not y)
    only_b = sum(1 for x, y in zip(xs, ys, strict=True) if y and not x)
    both = sum(1 for x, y in zip(xs, ys, strict=True) if x and y)
    p = mcnemar_exact(only_a, only_b)
    n = len(keys)
    return Comparison(
        a=a, b=b, pairs=n, both=both, only_a=only_a, only_b=only_b,
        neither=n - both - only_a - only_b,
        rate_a=round(sum(xs) / n, 4) if n else 0.0,
        rate_b=round(sum(ys) / n, 4) if n else 0.0,
        difference=round((sum(ys) - sum(xs)) / n, 4) if n else 0.0,
        difference_ci95=paired_bootstrap(xs, ys, samples=bootstrap_samples),
        mcnemar_p=p,
        significant=n > 0 and p < 0.05,
    )  # fmt: skip


def compare_all(
    names: Sequence[str], results: Sequence[Scored], *, bootstrap_samples: int
) -> list[Comparison]:
    """Every later policy against every earlier one (list the baseline first)."""
    return [
        compare(a, b, results, bootstrap_samples=bootstrap_samples)
        for a, b in itertools.combinations(names, 2)
    ]
