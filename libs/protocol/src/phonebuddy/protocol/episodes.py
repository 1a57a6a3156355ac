"""Trajectory records: what happened at each step of an episode, and how it was rewarded."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from phonebuddy.protocol.actions import Action
from phonebuddy.protocol.observation import Observation
from phonebuddy.protocol.tasks import TaskSpec


class StepTimings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    policy_s: float = Field(default=0.0, ge=0)
    env_s: float = Field(default=0.0, ge=0)


class Step(BaseModel):
    """One observe -> policy -> act step. Exactly one of `action` and `invalid_reason` is set:
    an answer the harness could not parse is data, recorded with its reason."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    index: int = Field(ge=0)
    observation: Observation
    raw_output: str
    action: Action | None = None
    invalid_reason: str | None = None
    timings: StepTimings = StepTimings()
    policy_version: str | None = Field(default=None, description="the model that answered")

    @model_validator(mode="after")
    def _action_or_reason(self) -> Self:
        if (self.action is None) == (self.invalid_reason is None):
            raise ValueError("a step has either an action or an invalid_reason, exactly one")
        return self


class EpisodeStatus(StrEnum):
    """Why an episode ended."""

    TERMINATED = "terminated"  # the policy called terminate
    ANSWERED = "answered"  # the policy called answer
    BUDGET_EXHAUSTED = "budget_exhausted"
    ENV_ERROR = "env_error"
    POLICY_ERROR = "policy_error"


class Verdict(BaseModel):
    """The reward and why: from a rule-based verifier (sim) or the rubric judge (real)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    success: bool
    reward: float = Field(ge=0, le=1)
    grader: Literal["verifier", "judge"]
    reason: str = ""
    details: dict[str, Any] = Field(default_factory=dict)
    judge_error: bool = Field(default=False, description="the judge failed; never a success")

    @model_validator(mode="after")
    def _error_is_failure(self) -> Self:
        if self.judge_error and self.success:
            raise ValueError("a judge error can never be a success")
        return self


class PolicyRef(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str
    version: str
    endpoint: str | None = None


class Episode(BaseModel):
    """A whole trajectory as stored: task, steps, outcome, reward, and the policy that acted."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    episode_id: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.\-]+$")
    run_id: str = Field(min_length=1, max_length=128, pattern=r"^[A-Za-z0-9_.\-]+$")
    group_id: str | None = None
    sample_index: int | None = Field(default=None, ge=0, description="place in its group")
    task: TaskSpec
    policy: PolicyRef
    device_id: str
    steps: tuple[Step, ...] = ()
    final_observation: Observation | None = None
    status: EpisodeStatus
    answer: str | None = None
    verdict: Verdict | None = None
    error: str | None = None
    attempts: int = Field(default=1, ge=1, description="1 + retries on fresh devices")
    judge_s: float = Field(default=0.0, ge=0, description="time spent grading")
    started_at: datetime
    finished_at: datetime

    @property
    def reward(self) -> float:
        return self.verdict.reward if self.verdict is not None else 0.0

    @property
    def invalid_steps(self) -> int:
        return sum(step.invalid_reason is not None for step in self.steps)
