"""Messages to the rubric judge, which grades `real` episodes (no ground truth on a phone)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from phonebuddy.protocol.episodes import Episode, Step, Verdict
from phonebuddy.protocol.observation import Observation


class JudgeRequest(BaseModel):
    """Grade this episode. Its screenshots are already, by hash, in the trajectory store at
    `store_url` (the run's store), and the judge stores its record (rubric, per-item results,
    raw answers) there, beside the episode; without `store_url`, in the judge's own store. The
    episode travels trimmed (`for_judging`): only what grading reads."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    episode: Episode
    store_url: str | None = Field(
        default=None, max_length=2048, description="the run's store; None: the judge's own"
    )


class JudgeReply(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Verdict


def _trimmed(observation: Observation) -> Observation:
    return observation.model_copy(update={"ui_tree": None, "tools": ()})


def for_judging(episode: Episode) -> Episode:
    """The episode as the judge needs it: its task, actions (or why a step was invalid),
    screenshots by reference, answer and outcome. UI trees, app tools and the model's raw
    outputs and sampled tokens, which grading never reads, are left out (they are most of a
    stored episode)."""

    def step(value: Step) -> Step:
        return value.model_copy(
            update={"observation": _trimmed(value.observation), "raw_output": "", "sample": None}
        )

    final = episode.final_observation
    return episode.model_copy(
        update={
            "steps": tuple(step(value) for value in episode.steps),
            "final_observation": _trimmed(final) if final is not None else None,
        }
    )
