"""Broker settings (environment variables PHONEBUDDY_BROKER_*; the policy API key is
PHONEBUDDY_POLICY_API_KEY, shared with the policy server)."""

from __future__ import annotations

import re
import socket
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


def _default_instance_id() -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", f"broker-{socket.gethostname()}")[:48]


class BrokerSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="PHONEBUDDY_BROKER_", frozen=True, extra="ignore", populate_by_name=True
    )

    host: str = "127.0.0.1"
    port: int = Field(default=8096, ge=0, le=65535)
    instance_id: str = Field(default_factory=_default_instance_id)
    workers: int = Field(default=32, ge=1, le=4096, description="episodes run at once")
    durable: str = Field(default="broker", description="the JetStream consumer's name")
    policy_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices(
            "PHONEBUDDY_BROKER_POLICY_API_KEY", "PHONEBUDDY_POLICY_API_KEY"
        ),
    )
    default_store_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices(
            "PHONEBUDDY_BROKER_DEFAULT_STORE_URL", "PHONEBUDDY_STORE_URL"
        ),
        description="where runs go unless a request names a store",
    )
    env_timeout_s: float = Field(default=30.0, gt=0, description="one env verb")
    policy_timeout_s: float = Field(default=300.0, gt=0, description="one policy call")
    judge_timeout_s: float = Field(default=300.0, gt=0, description="grading one episode")
    episode_timeout_s: float = Field(default=3600.0, gt=0, description="one whole attempt")
    policy_retries: int = Field(default=3, ge=0, le=20, description="per call, on 5xx/timeouts")
    lease_ttl_s: float = Field(default=300.0, gt=0, le=3600)
    lease_wait_s: float = Field(default=120.0, gt=0, description="wait for a free device")
    image_format: Literal["jpeg", "png"] = "jpeg"
    ack_wait_s: float = Field(default=60.0, gt=0)
    max_deliver: int = Field(default=5, ge=1)
    reconcile_interval_s: float = Field(default=5.0, gt=0, description="heal run manifests")

    @field_validator("instance_id")
    @classmethod
    def _token(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,48}", value):
            raise ValueError("instance_id may hold only letters, digits, '-' and '_' (max 48)")
        return value
