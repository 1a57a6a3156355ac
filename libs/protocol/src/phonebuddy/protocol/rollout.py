"""Rollout requests to the broker, the work items it queues, and PhoneWorld's task catalogue and
oracle verbs that the broker and the teacher policy use."""

from __future__ import annotations

import re
from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from phonebuddy.protocol.actions import Action
from phonebuddy.protocol.prompting import PromptConfig
from phonebuddy.protocol.tasks import MAX_STEP_BUDGET, TRAIN_STEP_BUDGET, Source, TaskSpec

_ID = r"^[A-Za-z0-9_.\-]{1,128}$"
_MIX_ITEM = re.compile(r"^\s*(sim|real)\s*=\s*([0-9]*\.?[0-9]+)\s*$")


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def check_seeds(seeds: tuple[int, ...]) -> tuple[int, ...]:
    if not seeds or any(seed < 0 for seed in seeds):
        raise ValueError("seeds must be one or more non-negative integers")
    return seeds


class SourceMix(_Message):
    """Share of groups per source, e.g. sim=0.5, real=0.5 (normalized; each group is one task
    on one source)."""

    sim: float = Field(default=1.0, ge=0)
    real: float = Field(default=0.0, ge=0)

    @model_validator(mode="after")
    def _some(self) -> Self:
        if self.sim + self.real <= 0:
            raise ValueError("the source mix gives no source a share")
        return self

    @classmethod
    def parse(cls, text: str) -> SourceMix:
        """`sim=0.5,real=0.5` (or `sim=1`, `real=1`)."""
        values: dict[str, float] = {"sim": 0.0, "real": 0.0}
        for item in text.split(","):
            match = _MIX_ITEM.fullmatch(item)
            if match is None:
                raise ValueError(f"{item!r} in mix {text!r} is not sim=SHARE or real=SHARE")
            values[match.group(1)] = float(match.group(2))
        return cls(**values)

    def shares(self) -> dict[Source, float]:
        total = self.sim + self.real
        return {Source.SIM: self.sim / total, Source.REAL: self.real / total}


class PolicyTarget(_Message):
    """Which policy plays: an endpoint the broker is configured with, by name, or any
    OpenAI-compatible API root. No credentials travel in a request: the broker sends an API key
    only to the endpoint it is configured for (a `base_url` equal to a configured endpoint's is
    that endpoint), and nothing task-specific to any endpoint but a scripted teacher."""

    endpoint: str | None = Field(
        default=None, pattern=r"^[A-Za-z0-9_.\-]{1,64}$",
        description="a policy endpoint configured in the broker (PHONEBUDDY_BROKER_POLICY_*)",
    )  # fmt: skip
    base_url: str | None = Field(
        default=None, min_length=1, max_length=2048, description="API root, .../v1"
    )
    model: str = "phonebuddy-policy"

    @model_validator(mode="after")
    def _named(self) -> Self:
        if self.endpoint is None and self.base_url is None:
            raise ValueError("name the policy: give an endpoint name or a base_url")
        return self


class SamplingSpec(_Message):
    temperature: float = Field(default=1.0, ge=0, le=2)
    top_p: float = Field(default=1.0, gt=0, le=1)
    max_tokens: int = Field(default=256, ge=1, le=32768)
    seed: int | None = Field(default=None, ge=0, description="episode k of a group uses seed+k")


class TaskSelection(_Message):
    """Tasks by PhoneWorld suite or template ids (PhoneWorld instantiates them), or given whole
    (e.g. instructions for real phones)."""

    suite: str | None = None
    template_ids: tuple[str, ...] = ()
    seeds: tuple[int, ...] = (0,)
    language: Literal["zh", "en"] = "en"
    tasks: tuple[TaskSpec, ...] = ()

    @model_validator(mode="after")
    def _one_way(self) -> Self:
        ways = sum([self.suite is not None, bool(self.template_ids), bool(self.tasks)])
        if ways != 1:
            raise ValueError("give exactly one of suite, template_ids or tasks")
        return self

    @field_validator("seeds")
    @classmethod
    def _seeds(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        return check_seeds(value)


class RolloutRequest(_Message):
    run_id: str = Field(pattern=_ID)
    tasks: TaskSelection
    policy: PolicyTarget
    group_size: int = Field(default=1, ge=1, le=256)
    mix: SourceMix = SourceMix()
    step_budget: int = Field(default=TRAIN_STEP_BUDGET, ge=1, le=MAX_STEP_BUDGET)
    concurrency: int = Field(default=8, ge=1, le=1024, description="episodes at once")
    sampling: SamplingSpec = SamplingSpec()
    prompt: PromptConfig = Field(
        default_factory=PromptConfig, description="how each step's prompt shows the phone"
    )
    redundancy: int = Field(
        default=0, ge=0, le=64, description="extra episodes per real group; first G to finish"
    )
    max_env_retries: int = Field(default=2, ge=0, le=10, description="fresh devices per episode")
    min_policy_step: int | None = Field(
        default=None, ge=0,
        description="refuse episodes from policy versions older than this step (staleness)",
    )  # fmt: skip
    store_url: str | None = Field(default=None, description="where trajectories go; None: default")


class RolloutAccepted(_Message):
    run_id: str
    groups: int
    episodes: int
    store_url: str


class EpisodeWork(_Message):
    """One episode to run: a JetStream work item (message id: store digest/run/episode id).
    `index` is its place in the run's plan: the broker keeps at most `concurrency` items of a
    run queued, and the item at `index` queues the one at `index + concurrency` when it is
    done."""

    run_id: str = Field(pattern=_ID)
    index: int = Field(ge=0, description="place in the run's plan")
    group_id: str = Field(pattern=_ID)
    episode_id: str = Field(pattern=_ID)
    sample_index: int = Field(ge=0)
    group_size: int = Field(ge=1)
    task: TaskSpec
    policy: PolicyTarget
    sampling: SamplingSpec
    step_budget: int = Field(ge=1, le=MAX_STEP_BUDGET)
    prompt: PromptConfig
    max_env_retries: int = Field(ge=0)
    min_policy_step: int | None = None
    store_url: str


class RunEvent(_Message):
    """Progress of a run, published on `rollout_events_subject(run_id)` (core NATS, not kept)."""

    run_id: str
    kind: Literal["episode_stored", "group_complete", "group_failed", "run_done"]
    episode_id: str | None = None
    group_id: str | None = None
    success: bool | None = None
    detail: str = ""


UNKNOWN_RUN = "unknown_run"
"""The `details` key of the `invalid_request` error a broker answers a `RunStatusQuery` with
when the store holds no such run (its value: the run id)."""


class RunStatusQuery(_Message):
    """Where does a run stand? Asked on `ROLLOUT_STATUS` (any broker answers with a
    `RunProgress`, or `UNKNOWN_RUN`): core NATS keeps no events, so a follower that subscribed
    late, reconnected or missed one resyncs with this."""

    run_id: str = Field(pattern=_ID)
    store_url: str | None = Field(
        default=None,
        description="the store `RolloutAccepted` named; None: the broker's default store",
    )


class RunProgress(_Message):
    """A run's state as its manifest (and the answering broker) knows it. `done`: every group
    is settled (complete or failed); the episodes of complete groups are in the store."""

    run_id: str
    store_url: str
    groups: int = Field(ge=0)
    groups_complete: int = Field(default=0, ge=0)
    groups_failed: int = Field(default=0, ge=0)
    episodes_stored: int = Field(default=0, ge=0)
    done: bool = False

    @property
    def groups_settled(self) -> int:
        return self.groups_complete + self.groups_failed


# ---- PhoneWorld's catalogue and oracle ----


class TaskQuery(_Message):
    suite: str | None = None
    template_ids: tuple[str, ...] = ()
    seeds: tuple[int, ...] = (0,)
    language: Literal["zh", "en"] = "en"

    @field_validator("seeds")
    @classmethod
    def _seeds(cls, value: tuple[int, ...]) -> tuple[int, ...]:
        return check_seeds(value)


class TaskList(_Message):
    tasks: tuple[TaskSpec, ...]


class OracleRequest(_Message):
    task: TaskSpec


class OracleReply(_Message):
    """The scripted solution from the task's start state, ending with answer or terminate."""

    actions: tuple[Action, ...]
