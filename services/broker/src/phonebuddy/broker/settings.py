"""Broker settings (environment variables PHONEBUDDY_BROKER_*; the policy API key is
PHONEBUDDY_POLICY_API_KEY, shared with the policy server, and bound to PHONEBUDDY_POLICY_URL and
PHONEBUDDY_TEACHER_URL; other endpoints are named in PHONEBUDDY_BROKER_POLICY_ENDPOINTS)."""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from phonebuddy.broker.endpoints import EndpointConfig, PolicyEndpoints
from phonebuddy.protocol.subjects import host_instance_id
from phonebuddy.trajectories.stores import RunStores, split_roots


def _default_instance_id() -> str:
    return host_instance_id("broker")


class BrokerSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="PHONEBUDDY_BROKER_", frozen=True, extra="ignore", populate_by_name=True
    )

    host: str = "127.0.0.1"
    port: int = Field(default=8096, ge=0, le=65535)
    instance_id: str = Field(default_factory=_default_instance_id)
    workers: int = Field(default=32, ge=1, le=4096, description="episodes run at once")
    durable: str = Field(default="broker", description="the JetStream consumer's name")
    policy_endpoints: dict[str, EndpointConfig] = Field(
        default_factory=dict,
        description='named endpoints, JSON {"name": {"base_url", "api_key", "teacher"}}',
    )
    policy_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("PHONEBUDDY_BROKER_POLICY_URL", "PHONEBUDDY_POLICY_URL"),
        description="the endpoint `policy` (the policy server), called with policy_api_key",
    )
    teacher_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("PHONEBUDDY_BROKER_TEACHER_URL", "PHONEBUDDY_TEACHER_URL"),
        description="the endpoint `teacher` (PhoneWorld's scripted teacher), with the same key",
    )
    policy_api_key: SecretStr | None = Field(
        default=None,
        validation_alias=AliasChoices(
            "PHONEBUDDY_BROKER_POLICY_API_KEY", "PHONEBUDDY_POLICY_API_KEY"
        ),
        description="sent to policy_url and teacher_url only",
    )
    open_policy_urls: bool = Field(
        default=True,
        description="requests may name other policy URLs (called without any credentials)",
    )
    default_store_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices(
            "PHONEBUDDY_BROKER_DEFAULT_STORE_URL", "PHONEBUDDY_STORE_URL"
        ),
        description="where runs go unless a request names a store",
    )
    store_roots: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(),
        validation_alias=AliasChoices("PHONEBUDDY_BROKER_STORE_ROOTS", "PHONEBUDDY_STORE_ROOTS"),
        description="other stores a request may name: inside these (comma-separated URLs)",
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

    @field_validator("store_roots", mode="before")
    @classmethod
    def _roots(cls, value: object) -> object:
        return split_roots(value)

    def endpoints(self) -> PolicyEndpoints:
        """The configured policy endpoints: `policy` and `teacher` from the shared variables,
        then PHONEBUDDY_BROKER_POLICY_ENDPOINTS (which wins on a name both give)."""
        shared: dict[str, EndpointConfig] = {}
        if self.policy_url:
            shared["policy"] = EndpointConfig(base_url=self.policy_url, api_key=self.policy_api_key)
        if self.teacher_url:
            shared["teacher"] = EndpointConfig(
                base_url=self.teacher_url, api_key=self.policy_api_key, teacher=True
            )
        return PolicyEndpoints(shared | self.policy_endpoints, open_urls=self.open_policy_urls)

    @model_validator(mode="after")
    def _endpoints_and_roots(self) -> BrokerSettings:
        self.endpoints()  # policy_url / teacher_url must be http(s) URLs
        RunStores(home=self.default_store_url, roots=self.store_roots)  # valid store URLs
        return self

    @field_validator("instance_id")
    @classmethod
    def _token(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,48}", value):
            raise ValueError("instance_id may hold only letters, digits, '-' and '_' (max 48)")
        return value
