"""Typed error replies shared by every env endpoint and service."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class ErrorCode(StrEnum):
    """What went wrong, in words a caller can branch on."""

    INVALID_REQUEST = "invalid_request"
    INVALID_ACTION = "invalid_action"
    UNKNOWN_TASK = "unknown_task"
    UNKNOWN_APP = "unknown_app"
    LEASE_NOT_FOUND = "lease_not_found"
    LEASE_EXPIRED = "lease_expired"
    NO_DEVICE_AVAILABLE = "no_device_available"
    DEVICE_LOST = "device_lost"
    UNSUPPORTED = "unsupported"
    TIMEOUT = "timeout"
    PAYLOAD_TOO_LARGE = "payload_too_large"
    INTERNAL = "internal"


class ErrorReply(BaseModel):
    """The body of every error reply; `retryable` tells a caller whether trying again may help."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: ErrorCode
    message: str = Field(min_length=1)
    retryable: bool = False
    details: dict[str, Any] = Field(default_factory=dict)
