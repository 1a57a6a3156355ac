"""Env-endpoint messages: lease a device, reset it to a task, observe, act, verify, release.

The same messages serve PhoneWorld (source `sim`) and the real-device gateway (source `real`);
`verify` exists only where the env holds ground truth (sim). Errors come back as
`phonebuddy.protocol.errors.ErrorReply`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from phonebuddy.protocol.actions import Action
from phonebuddy.protocol.episodes import Verdict
from phonebuddy.protocol.geometry import ScreenSize
from phonebuddy.protocol.observation import Frame, Observation
from phonebuddy.protocol.tasks import Source, TaskSpec

MAX_LEASE_TTL_S = 3600.0
LEASE_ID_PATTERN = r"^[A-Za-z0-9_\-]{8,64}$"
ImageFormat = Literal["jpeg", "png"]


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class LeaseRequest(_Message):
    client_id: str = Field(min_length=1, max_length=128)
    ttl_s: float = Field(default=300.0, gt=0, le=MAX_LEASE_TTL_S)
    apps: tuple[str, ...] = Field(default=(), description="apps the device must have")


class Lease(_Message):
    """A device held for one client until `expires_at`; renew it or lose it."""

    lease_id: str = Field(pattern=LEASE_ID_PATTERN)
    device_id: str
    source: Source
    instance_id: str = Field(description="the env process that holds the device")
    screen: ScreenSize
    expires_at: datetime


class _LeaseScoped(_Message):
    lease_id: str = Field(pattern=LEASE_ID_PATTERN)


class RenewRequest(_LeaseScoped):
    ttl_s: float = Field(default=300.0, gt=0, le=MAX_LEASE_TTL_S)


class ResetRequest(_LeaseScoped):
    task: TaskSpec
    image_format: ImageFormat = "jpeg"


class ObserveRequest(_LeaseScoped):
    include_ui_tree: bool = True
    include_frame: bool = True
    image_format: ImageFormat = "jpeg"


class ObserveReply(_Message):
    observation: Observation
    frame: Frame | None = None


class ActRequest(_LeaseScoped):
    action: Action
    observe: bool = Field(default=False, description="also return the observation after acting")
    image_format: ImageFormat = "jpeg"


class ActReply(_Message):
    """`effect` says what the action did; a tap on nothing or typing with no focused field is a
    recorded no-op, not an error."""

    effect: Literal["applied", "no_op", "final"]
    note: str = ""
    action: Action | None = Field(
        default=None,
        description="the action as done: an element action with the point it resolved to",
    )
    observation: Observation | None = None
    frame: Frame | None = None


class VerifyRequest(_LeaseScoped):
    answer: str | None = None


class VerifyReply(_Message):
    verdict: Verdict


class ReleaseRequest(_LeaseScoped):
    pass


class ReleaseReply(_Message):
    released: bool
