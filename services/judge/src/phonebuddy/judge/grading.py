"""The grader: (episode, rubric) -> a result {id, passed, evidence} for every rubric item, from
the "grader" model.

The grader's user message holds the instruction, the rubric, the action log (the harness's
`step_text` per step, as the policy itself saw its history), the final answer if any, how the
episode ended, and the last K screenshots as `data:` URIs of the bytes in the trajectory store.
The screenshots are the screens the agent saw at each step followed by the final screen after
its last action; a screen identical to the one before it (a no-op action) is shown once, so the K
images are K distinct moments. With `send_task_metadata` (only for PhoneWorld's ground-truth
grader, a stand-in for PhoneWorld phones) the request's `metadata` names the episode's task.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from phonebuddy.agent import data_uri, step_text
from phonebuddy.judge.errors import JudgeError
from phonebuddy.judge.llm import ChatClient
from phonebuddy.judge.rubric import Rubric
from phonebuddy.protocol import Episode, EpisodeStatus, FrameRef, task_metadata
from phonebuddy.trajectories import TrajectoryError, TrajectoryStore

SYSTEM_PROMPT = (
    "You are a strict grader of an AI agent that operates an Android phone. You decide, for each "
    "item of a rubric, whether the agent's episode satisfies it. Judge only from the evidence: "
    "the action log and the screenshots. An item passes only when the evidence shows it is "
    "satisfied; when the evidence is missing, unclear or contradicts it, the item fails. The "
    "agent declaring success (terminate) is not evidence."
)

_STATUS_TEXT = {
    EpisodeStatus.TERMINATED: "the agent called terminate",
    EpisodeStatus.ANSWERED: "the agent gave an answer",
    EpisodeStatus.BUDGET_EXHAUSTED: "the step budget ran out before the agent finished",
    EpisodeStatus.ENV_ERROR: "the phone failed during the episode",
    EpisodeStatus.POLICY_ERROR: "the agent's model failed during the episode",
}


class ItemResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore", coerce_numbers_to_str=True)

    id: str = Field(min_length=1)
    passed: bool
    evidence: str = Field(default="", description="what in the log or screens decided it")

    @field_validator("id", mode="before")
    @classmethod
    def _strip(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @field_validator("evidence", mode="before")
    @classmethod
    def _text(cls, value: Any) -> Any:
        return "" if value is None else value


class GradingAnswer(BaseModel):
    """What the grader model must answer: one result per rubric item."""

    model_config = ConfigDict(extra="ignore")

    results: list[ItemResult] = Field(min_length=1)


def results_parser(rubric: Rubric) -> Callable[[dict[str, Any]], list[ItemResult]]:
    """Validates a grading answer against `rubric`: every item exactly once, no other ids;
    the results come back in the rubric's order."""

    def parse(value: dict[str, Any]) -> list[ItemResult]:
        answer = GradingAnswer.model_validate(value)
        ids = [result.id for result in answer.results]
        expected = rubric.ids
        missing = [item_id for item_id in expected if item_id not in ids]
        unknown = sorted({item_id for item_id in ids if item_id not in expected})
        repeated = sorted({item_id for item_id in ids if ids.count(item_id) > 1})
        problems = []
        if missing:
            problems.append(f"no result for {missing}")
        if unknown:
            problems.append(f"results for ids not in the rubric {unknown}")
        if repeated:
            problems.append(f"more than one result for {repeated}")
        if problems:
            raise ValueError("; ".join(problems))
        by_id = {result.id: result for result in answer.results}
        return [by_id[item_id] for item_id in expected]

    return parse


@dataclass(frozen=True, slots=True)
class Shot:
    """A screenshot the grader sees, with what it shows."""

    label: str
    frame: FrameRef


def final_shots(episode: Episode, count: int) -> list[Shot]:
    """The last `count` distinct screens of the episode, oldest first."""
    shots: list[Shot] = []
    for number, step in enumerate(episode.steps, 1):
        shots.append(Shot(f"the screen when the agent chose step {number}", step.observation.frame))
    if episode.final_observation is not None:
        shots.append(Shot("the final screen, after the last step", episode.final_observation.frame))
    distinct: list[Shot] = []
    for shot in shots:
        if distinct and distinct[-1].frame.sha256 == shot.frame.sha256:
            distinct[-1] = shot  # the same screen again: keep the later, truer label
        else:
            distinct.append(shot)
    return distinct[-count:] if count > 0 else []


def action_log(episode: Episode) -> str:
    lines = [f"Step {number}: {step_text(step)}" for number, step in enumerate(episode.steps, 1)]
    log = "\n".join(lines) if lines else "(no steps)"
    answer = (
        f"The agent's final answer: {json.dumps(episode.answer, ensure_ascii=False)}"
        if episode.answer is not None
        else "The agent gave no answer."
    )
    ended = f"The episode ended because {_STATUS_TEXT.get(episode.status, episode.status.value)}."
    error = f"\nError reported: {episode.error}" if episode.error else ""
    return f"{log}\n\n{answer}\n{ended}{error}"


def grading_messages(
    episode: Episode, rubric: Rubric, shots: list[Shot], frames: dict[str, bytes]
) -> list[dict[str, Any]]:
    rubric_text = "\n".join(f"- {item.id}: {item.criterion}" for item in rubric.items)
    schema = json.dumps(GradingAnswer.model_json_schema(), ensure_ascii=False)
    intro = (
        f"Task instruction:\n{episode.task.instruction_text}\n\n"
        f"Rubric items:\n{rubric_text}\n\n"
        f"What the agent did ({len(episode.steps)} steps; coordinates are in [0, 1000] on both "
        f"axes):\n{action_log(episode)}\n\n"
    )
    parts: list[dict[str, Any]] = []
    if shots:
        intro += f"The last {len(shots)} screenshots of the episode, oldest first:"
        parts.append({"type": "text", "text": intro})
        for number, shot in enumerate(shots, 1):
            parts.append({"type": "text", "text": f"\nScreenshot {number}: {shot.label}"})
            url = data_uri(frames[shot.frame.sha256], shot.frame.media_type)
            parts.append({"type": "image_url", "image_url": {"url": url}})
    else:
        parts.append({"type": "text", "text": intro + "There are no screenshots."})
    parts.append(
        {
            "type": "text",
            "text": (
                "\n\nGrade every rubric item: passed is true only if the evidence shows the "
                "item is satisfied. Give a short evidence sentence for each. Answer with one "
                "JSON object and nothing else, with exactly one result per rubric id, matching "
                f"this JSON schema:\n{schema}"
            ),
        }
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": parts}]


@dataclass(frozen=True, slots=True)
class GradingOutcome:
    results: list[ItemResult]
    frames: list[str] = field(default_factory=list)  # sha256 of the images sent, in order
    raw_answers: list[str] = field(default_factory=list)
    attempts: list[dict[str, Any]] = field(default_factory=list)
    latency_s: float = 0.0


class Grader:
    def __init__(
        self,
        client: ChatClient,
        trajectories: TrajectoryStore,
        *,
        frames: int,
        send_task_metadata: bool = False,
    ) -> None:
        if frames < 1:
            raise ValueError(f"the grader needs at least one screenshot, got frames={frames}")
        self.client = client
        self.trajectories = trajectories
        self.frames = frames
        self.send_task_metadata = send_task_metadata

    async def load_frames(
        self, shots: list[Shot], store: TrajectoryStore | None = None
    ) -> dict[str, bytes]:
        """The shots' bytes from `store` (the run's; the grader's own by default)."""
        source = store or self.trajectories
        wanted = list(dict.fromkeys(shot.frame.sha256 for shot in shots))
        try:
            data = await asyncio.gather(*(source.get_frame(sha) for sha in wanted))
        except TrajectoryError as exc:
            raise JudgeError("grading", str(exc)) from exc
        return dict(zip(wanted, data, strict=True))

    async def grade(
        self, episode: Episode, rubric: Rubric, *, store: TrajectoryStore | None = None
    ) -> GradingOutcome:
        """Every rubric item's result, from the screenshots in `store` (the episode's run's
        store; the grader's own by default); `JudgeError` if no usable grading came back."""
        started = time.perf_counter()
        shots = final_shots(episode, self.frames)
        frames = await self.load_frames(shots, store)
        messages = grading_messages(episode, rubric, shots, frames)
        metadata = task_metadata(episode.task) if self.send_task_metadata else None
        answer = await self.client.structured(messages, results_parser(rubric), metadata=metadata)
        return GradingOutcome(
            results=answer.value,
            frames=[shot.frame.sha256 for shot in shots],
            raw_answers=answer.raw_answers,
            attempts=answer.attempts,
            latency_s=time.perf_counter() - started,
        )
