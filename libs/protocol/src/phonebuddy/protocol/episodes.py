"""Trajectory records: what happened at each step of an episode, and how it was rewarded."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from datetime import datetime
from enum import StrEnum
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from phonebuddy.protocol.actions import Action
from phonebuddy.protocol.observation import SHA256_PATTERN, Observation
from phonebuddy.protocol.tasks import TaskSpec


class StepTimings(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    policy_s: float = Field(default=0.0, ge=0)
    env_s: float = Field(default=0.0, ge=0)


def token_ids_sha256(token_ids: Iterable[int]) -> str:
    """The digest of a token sequence: sha256 of the ids in decimal, comma-separated."""
    return hashlib.sha256(",".join(map(str, token_ids)).encode("ascii")).hexdigest()


class SampledTokens(BaseModel):
    """What the policy server generated for a step, in tokens: what RL trains on, never a
    re-tokenization of `raw_output`.

    `token_ids` are the ids exactly as sampled, a sampled end-of-turn token (`<|im_end|>`)
    included; `logprobs` has one entry per id, under the raw model that sampled them (before
    temperature, top-k and top-p, as vLLM returns by default). The prompt is kept as its length and
    digest (`token_ids_sha256` of the ids the server fed the model, images expanded), not as ids:
    the trainer rebuilds the prompt from the step's messages and screenshots (it needs them for
    the pixels anyway) and the digest proves it rebuilt exactly what was fed. Storing the ids
    would add about 7 bytes per prompt token to every step (a 1,700-token prompt: ~12 kB)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    token_ids: tuple[int, ...] = Field(min_length=1)
    logprobs: tuple[float, ...] | None = None
    prompt_tokens: int = Field(ge=1)
    prompt_sha256: str = Field(pattern=SHA256_PATTERN)

    @model_validator(mode="after")
    def _one_logprob_per_token(self) -> Self:
        if self.logprobs is not None and len(self.logprobs) != len(self.token_ids):
            raise ValueError(
                f"{len(self.logprobs)} logprobs for {len(self.token_ids)} sampled tokens"
            )
        return self

    def matches_prompt(self, prompt_ids: Sequence[int]) -> bool:
        """Whether `prompt_ids` are the prompt these tokens were sampled after."""
        return (
            len(prompt_ids) == self.prompt_tokens
            and token_ids_sha256(prompt_ids) == self.prompt_sha256
        )


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
    sample: SampledTokens | None = Field(
        default=None,
        description="the generated tokens; absent where the policy returned none (the "
        "teacher, a server without token ids) and in records older than them",
    )

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
