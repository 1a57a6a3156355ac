"""Messages to the rubric judge, which grades `real` episodes (no ground truth on a phone)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from phonebuddy.protocol.episodes import Episode, Verdict


class JudgeRequest(BaseModel):
    """Grade this episode. Its screenshots are already in the trajectory store (by hash); the
    judge stores its record (rubric, per-item results, raw answers) beside the episode."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    episode: Episode


class JudgeReply(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    verdict: Verdict
