"""The run manifest: what a run was asked to do and how far it got, group by group."""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from phonebuddy.protocol import Category, Source


class GroupStatus(StrEnum):
    PENDING = "pending"
    COMPLETE = "complete"  # all G episodes stored
    FAILED = "failed"  # could not be completed; none of its episodes count


class RunStatus(StrEnum):
    RUNNING = "running"
    DONE = "done"


def utcnow() -> datetime:
    return datetime.now(UTC)


class GroupRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    group_id: str
    task_id: str
    template_id: str
    category: Category
    apps: tuple[str, ...]
    source: Source
    size: int = Field(ge=1)
    status: GroupStatus = GroupStatus.PENDING
    episodes: list[str] = Field(default_factory=list, description="ids of the stored episodes")
    reason: str | None = Field(default=None, description="why a failed group failed")


class RunManifest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    run_id: str
    created_at: datetime = Field(default_factory=utcnow)
    updated_at: datetime = Field(default_factory=utcnow)
    finished_at: datetime | None = None
    status: RunStatus = RunStatus.RUNNING
    policy: dict[str, Any] = Field(default_factory=dict, description="endpoint, model, version")
    settings: dict[str, Any] = Field(default_factory=dict, description="group size, mix, budget")
    groups: list[GroupRecord] = Field(default_factory=list)

    def group(self, group_id: str) -> GroupRecord:
        for group in self.groups:
            if group.group_id == group_id:
                return group
        raise KeyError(f"run {self.run_id} has no group {group_id}")

    @property
    def done(self) -> bool:
        return all(group.status != GroupStatus.PENDING for group in self.groups)
