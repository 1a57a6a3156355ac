"""Calibration: judge episodes that have ground truth (PhoneWorld's verifier verdicts) and
measure how often the judge agrees.

"Success" is the positive class. A `judge_error` counts as the judge saying "not a success" (that
is how its reward would be used) and is also counted on its own. Precision = TP / (TP + FP),
recall = TP / (TP + FN), agreement = (TP + TN) / n; a ratio with nothing to divide is None.
"""

from __future__ import annotations

import asyncio

from pydantic import BaseModel, ConfigDict

from phonebuddy.judge.judge import Judge
from phonebuddy.protocol import Episode, Verdict
from phonebuddy.trajectories import TrajectoryStore


class Disagreement(BaseModel):
    model_config = ConfigDict(frozen=True)

    episode_id: str
    template_id: str
    verifier_success: bool
    judge_success: bool
    judge_error: bool
    judge_reason: str


class CalibrationReport(BaseModel):
    model_config = ConfigDict(frozen=True)

    run_id: str
    models: dict[str, str]
    n: int
    skipped: int = 0  # stored episodes without a verifier verdict
    true_positives: int
    false_positives: int
    true_negatives: int
    false_negatives: int
    judge_errors: int
    agreement: float | None
    precision: float | None
    recall: float | None
    disagreements: list[Disagreement]


def _ratio(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 4) if denominator else None


async def calibrate(
    judge: Judge,
    trajectories: TrajectoryStore,
    run_id: str,
    *,
    limit: int | None = None,
    concurrency: int = 8,
    save_records: bool = False,
) -> CalibrationReport:
    """Judge the run's episodes that carry a verifier verdict (the first `limit` by id) and
    compare. With `save_records`, each judge record is stored beside its episode."""
    labelled: list[tuple[Episode, bool]] = []  # (episode, the verifier's success)
    skipped = 0
    async for episode in trajectories.episodes(run_id):
        if episode.verdict is None or episode.verdict.grader != "verifier":
            skipped += 1
        elif limit is None or len(labelled) < limit:
            labelled.append((episode, episode.verdict.success))
    slots = asyncio.Semaphore(max(1, concurrency))

    async def judged(episode: Episode, actual: bool) -> tuple[Episode, bool, Verdict]:
        async with slots:
            verdict, record = await judge.grade(episode)
            if save_records:
                await trajectories.put_judge_record(run_id, episode.episode_id, record)
        return episode, actual, verdict

    outcomes = await asyncio.gather(*(judged(episode, actual) for episode, actual in labelled))
    tp = fp = tn = fn = errors = 0
    disagreements = []
    for episode, actual, verdict in outcomes:
        predicted, judge_error, reason = verdict.success, verdict.judge_error, verdict.reason
        errors += judge_error
        tp += actual and predicted
        fp += predicted and not actual
        fn += actual and not predicted
        tn += not actual and not predicted
        if actual != predicted:
            disagreements.append(
                Disagreement(
                    episode_id=episode.episode_id,
                    template_id=episode.task.template_id,
                    verifier_success=actual,
                    judge_success=predicted,
                    judge_error=judge_error,
                    judge_reason=reason,
                )
            )
    n = len(outcomes)
    return CalibrationReport(
        run_id=run_id,
        models=judge.models,
        n=n,
        skipped=skipped,
        true_positives=tp,
        false_positives=fp,
        true_negatives=tn,
        false_negatives=fn,
        judge_errors=errors,
        agreement=_ratio(tp + tn, n),
        precision=_ratio(tp, tp + fp),
        recall=_ratio(tp, tp + fn),
        disagreements=disagreements,
    )


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def report_table(report: CalibrationReport) -> str:
    """The report as text for a terminal."""
    width = max(len("judge: failure"), 14)
    lines = [
        f"judge calibration on run {report.run_id}: {report.n} episodes with a verifier "
        f"verdict ({report.skipped} without one skipped)",
        f"models: rubric {report.models.get('rubric')}, grader {report.models.get('grader')}",
        "",
        f"{'':<{width}}  {'verifier: success':>17}  {'verifier: failure':>17}",
        f"{'judge: success':<{width}}  {report.true_positives:>17}  {report.false_positives:>17}",
        f"{'judge: failure':<{width}}  {report.false_negatives:>17}  {report.true_negatives:>17}",
        "",
        f"agreement {_fmt(report.agreement)}   precision {_fmt(report.precision)}   "
        f"recall {_fmt(report.recall)}   judge errors {report.judge_errors}",
    ]
    if report.disagreements:
        lines += ["", "disagreements:"]
        for item in report.disagreements:
            said = "judge error" if item.judge_error else f"judge {_word(item.judge_success)}"
            lines.append(
                f"  {item.episode_id}  {item.template_id}  verifier "
                f"{_word(item.verifier_success)}, {said}: {item.judge_reason[:120]}"
            )
    return "\n".join(lines)


def _word(success: bool) -> str:
    return "success" if success else "failure"
