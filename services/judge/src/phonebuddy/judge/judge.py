"""`Judge.grade(episode) -> (Verdict, record)`: the rubric for the instruction, a result for
every rubric item, and success only if every item passed.

Anything that keeps the judge from a usable rubric or grading — timeouts, HTTP errors, answers
that never validate, a screenshot missing from the store — gives
`Verdict(success=False, reward=0.0, grader="judge", judge_error=True, reason=...)`, never a
success. The record (a JSON-able dict, stored beside the episode by the endpoint) holds the
rubric, the per-item results, every raw model answer and call, the models, the timings and the
error if any.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Self

import httpx

from phonebuddy.judge.errors import JudgeError
from phonebuddy.judge.grading import Grader, GradingOutcome, ItemResult
from phonebuddy.judge.llm import ChatClient, Endpoint, Limits, RetryPolicy
from phonebuddy.judge.metrics import JudgeMetrics
from phonebuddy.judge.rubric import Rubric, RubricOutcome, RubricWriter
from phonebuddy.judge.settings import JudgeSettings
from phonebuddy.protocol import Episode, Verdict
from phonebuddy.storage import StoreError
from phonebuddy.trajectories import TrajectoryError, TrajectoryStore, instruction_hash

log = logging.getLogger(__name__)
RECORD_VERSION = 1


def verdict_from_results(rubric: Rubric, results: list[ItemResult]) -> Verdict:
    failed = [result for result in results if not result.passed]
    details = {
        "rubric_items": len(results),
        "passed": [result.id for result in results if result.passed],
        "failed": [result.id for result in failed],
    }
    if not failed:
        return Verdict(
            success=True,
            reward=1.0,
            grader="judge",
            reason=f"all {len(results)} rubric items passed",
            details=details,
        )
    reasons = "; ".join(
        f"{result.id}: {result.evidence}" if result.evidence else result.id for result in failed
    )
    return Verdict(
        success=False,
        reward=0.0,
        grader="judge",
        reason=f"{len(failed)} of {len(results)} rubric items failed ({reasons})",
        details=details,
    )


def verdict_outcome(verdict: Verdict) -> str:
    """pass, fail or judge_error."""
    if verdict.judge_error:
        return "judge_error"
    return "pass" if verdict.success else "fail"


def error_verdict(stage: str, message: str) -> Verdict:
    return Verdict(
        success=False,
        reward=0.0,
        grader="judge",
        judge_error=True,
        reason=f"judge error: {message}",
        details={"stage": stage},
    )


class Judge:
    """Grades episodes. Build one with `Judge.from_settings(...)` and close it (or use it as an
    async context manager) to release its HTTP connections."""

    def __init__(
        self,
        rubrics: RubricWriter,
        grader: Grader,
        *,
        metrics: JudgeMetrics | None = None,
        http: httpx.AsyncClient | None = None,
    ) -> None:
        self.rubrics = rubrics
        self.grader = grader
        self.metrics = metrics
        self._http = http

    @classmethod
    def from_settings(
        cls,
        settings: JudgeSettings,
        trajectories: TrajectoryStore,
        *,
        metrics: JudgeMetrics | None = None,
    ) -> Judge:
        http = httpx.AsyncClient(
            limits=httpx.Limits(max_connections=settings.max_concurrency * 2),
            timeout=settings.timeout_s,
        )
        limits = Limits(
            max_concurrency=settings.max_concurrency,
            requests_per_minute=settings.requests_per_minute,
        )
        retry = RetryPolicy(
            timeout_s=settings.timeout_s,
            max_retries=settings.max_retries,
            backoff_s=settings.backoff_s,
            backoff_max_s=settings.backoff_max_s,
        )
        observer = metrics.observe_call if metrics is not None else None

        def client(role: str) -> ChatClient:
            endpoint = Endpoint(
                base_url=getattr(settings, f"{role}_base_url"),
                model=getattr(settings, f"{role}_model"),
                api_key=getattr(settings, f"{role}_api_key"),
            )
            return ChatClient(
                endpoint, role=role, http=http, limits=limits, retry=retry,
                json_mode=settings.json_mode, temperature=settings.temperature,
                max_tokens=settings.max_tokens, observer=observer,
            )  # fmt: skip

        rubrics = RubricWriter(
            client("rubric"),
            trajectories.store,
            on_lookup=metrics.observe_rubric_lookup if metrics is not None else None,
        )
        grader = Grader(
            client("grader"), trajectories, frames=settings.frames,
            send_task_metadata=settings.task_metadata,
        )  # fmt: skip
        return cls(rubrics, grader, metrics=metrics, http=http)

    @property
    def models(self) -> dict[str, str]:
        return {"rubric": self.rubrics.client.model, "grader": self.grader.client.model}

    async def close(self) -> None:
        if self._http is not None:
            await self._http.aclose()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def grade(
        self, episode: Episode, *, store: TrajectoryStore | None = None
    ) -> tuple[Verdict, dict[str, Any]]:
        """The episode's verdict and the judge's record of how it got there; its screenshots
        come from `store`, the run's store (the judge's own by default). Never raises for a
        model or store failure: that is a `judge_error` verdict."""
        started = time.perf_counter()
        instruction = episode.task.instruction_text
        record: dict[str, Any] = {
            "version": RECORD_VERSION,
            "run_id": episode.run_id,
            "episode_id": episode.episode_id,
            "task_id": episode.task.task_id,
            "instruction": instruction,
            "instruction_hash": instruction_hash(instruction),
            "models": self.models,
            "rubric": None,
            "rubric_cached": None,
            "results": [],
            "frames": [],
            "raw": {"rubric": [], "grading": []},
            "calls": {"rubric": [], "grading": []},
            "timings": {"rubric_s": 0.0, "grading_s": 0.0, "total_s": 0.0},
            "error": None,
        }
        if self.metrics is not None:
            self.metrics.in_flight.inc()
        stage = "rubric"
        try:
            rubric_outcome = await self.rubrics.rubric_for(instruction)
            _note_rubric(record, rubric_outcome)
            stage = "grading"
            grading = await self.grader.grade(episode, rubric_outcome.rubric, store=store)
            _note_grading(record, grading)
            verdict = verdict_from_results(rubric_outcome.rubric, grading.results)
            # Every verdict names the models behind it, so a stand-in's are never mistaken.
            verdict = verdict.model_copy(
                update={"details": {**verdict.details, "models": self.models}}
            )
        except JudgeError as exc:
            verdict = self._failed(record, stage, str(exc), exc.attempts, exc.raw_answers)
        except (StoreError, TrajectoryError) as exc:
            verdict = self._failed(record, stage, f"the store failed: {exc}", [], [])
        except Exception as exc:  # a bug must not become a reward; it is logged in full
            log.exception("grading episode %s failed unexpectedly", episode.episode_id)
            verdict = self._failed(record, stage, f"{type(exc).__name__}: {exc}", [], [])
        finally:
            if self.metrics is not None:
                self.metrics.in_flight.dec()
        total = time.perf_counter() - started
        record["timings"]["total_s"] = round(total, 4)
        record["verdict"] = verdict.model_dump(mode="json")
        record["judged_at"] = datetime.now(UTC).isoformat()
        if self.metrics is not None:
            self.metrics.verdicts.labels(outcome=verdict_outcome(verdict)).inc()
            self.metrics.grade_latency.observe(total)
        return verdict, record

    @staticmethod
    def _failed(
        record: dict[str, Any],
        stage: str,
        message: str,
        attempts: list[dict[str, Any]],
        raw_answers: list[str],
    ) -> Verdict:
        key = "rubric" if stage == "rubric" else "grading"
        if attempts:
            record["calls"][key] = attempts
        if raw_answers:
            record["raw"][key] = raw_answers
        record["error"] = {"stage": stage, "message": message}
        log.warning("judge error (%s): %s", stage, message)
        return error_verdict(stage, message)


def _note_rubric(record: dict[str, Any], outcome: RubricOutcome) -> None:
    record["rubric"] = outcome.rubric.model_dump(mode="json", exclude={"raw_answer"})
    record["rubric_cached"] = outcome.cached
    record["raw"]["rubric"] = outcome.raw_answers
    record["calls"]["rubric"] = outcome.attempts
    record["timings"]["rubric_s"] = round(outcome.latency_s, 4)


def _note_grading(record: dict[str, Any], outcome: GradingOutcome) -> None:
    record["results"] = [result.model_dump(mode="json") for result in outcome.results]
    record["frames"] = outcome.frames
    record["raw"]["grading"] = outcome.raw_answers
    record["calls"]["grading"] = outcome.attempts
    record["timings"]["grading_s"] = round(outcome.latency_s, 4)
