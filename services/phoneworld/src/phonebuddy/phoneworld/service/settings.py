"""PhoneWorld service settings (environment variables PHONEBUDDY_WORLD_*)."""

from __future__ import annotations

import re
import socket

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_instance_id() -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", f"world-{socket.gethostname()}")[:48]


class WorldSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PHONEBUDDY_WORLD_", frozen=True, extra="forbid")

    devices: int = Field(default=4, ge=1, le=4096)
    world_seed: int = Field(default=0, ge=0)
    instance_id: str = Field(default_factory=_default_instance_id)
    host: str = "127.0.0.1"
    port: int = Field(default=8090, ge=0, le=65535)
    screen_width: int = Field(default=1080, ge=200, le=4096)
    screen_height: int = Field(default=2400, ge=200, le=8192)
    reap_interval_s: float = Field(default=1.0, gt=0)
    use_nats: bool = True

    @field_validator("instance_id")
    @classmethod
    def _token(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,48}", value):
            raise ValueError("instance_id may hold only letters, digits, '-' and '_' (max 48)")
        return value
