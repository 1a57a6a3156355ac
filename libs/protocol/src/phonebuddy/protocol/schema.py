"""JSON Schemas of the public messages (`phonebuddy schema`)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, TypeAdapter

from phonebuddy.protocol import env, rollout
from phonebuddy.protocol.actions import action_adapter
from phonebuddy.protocol.episodes import Episode, Step, Verdict
from phonebuddy.protocol.errors import ErrorReply
from phonebuddy.protocol.judging import JudgeReply, JudgeRequest
from phonebuddy.protocol.observation import Frame, Observation
from phonebuddy.protocol.tasks import TaskSpec

PUBLIC_MESSAGES: dict[str, type[BaseModel] | TypeAdapter[Any]] = {
    "Action": action_adapter,
    "Observation": Observation,
    "Frame": Frame,
    "TaskSpec": TaskSpec,
    "Step": Step,
    "Verdict": Verdict,
    "Episode": Episode,
    "ErrorReply": ErrorReply,
    "LeaseRequest": env.LeaseRequest,
    "Lease": env.Lease,
    "RenewRequest": env.RenewRequest,
    "ResetRequest": env.ResetRequest,
    "ObserveRequest": env.ObserveRequest,
    "ObserveReply": env.ObserveReply,
    "ActRequest": env.ActRequest,
    "ActReply": env.ActReply,
    "VerifyRequest": env.VerifyRequest,
    "VerifyReply": env.VerifyReply,
    "ReleaseRequest": env.ReleaseRequest,
    "ReleaseReply": env.ReleaseReply,
    "JudgeRequest": JudgeRequest,
    "JudgeReply": JudgeReply,
    "RolloutRequest": rollout.RolloutRequest,
    "RolloutAccepted": rollout.RolloutAccepted,
    "EpisodeWork": rollout.EpisodeWork,
    "RunEvent": rollout.RunEvent,
    "RunStatusQuery": rollout.RunStatusQuery,
    "RunProgress": rollout.RunProgress,
    "TaskQuery": rollout.TaskQuery,
    "TaskList": rollout.TaskList,
    "OracleRequest": rollout.OracleRequest,
    "OracleReply": rollout.OracleReply,
}


def json_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of one public message, by name."""
    try:
        target = PUBLIC_MESSAGES[name]
    except KeyError:
        known = ", ".join(sorted(PUBLIC_MESSAGES))
        raise KeyError(f"no public message named {name!r}; known: {known}") from None
    is_adapter = isinstance(target, TypeAdapter)
    schema = target.json_schema() if is_adapter else target.model_json_schema()
    schema.setdefault("title", name)
    return schema


def all_json_schemas() -> dict[str, dict[str, Any]]:
    return {name: json_schema(name) for name in PUBLIC_MESSAGES}
