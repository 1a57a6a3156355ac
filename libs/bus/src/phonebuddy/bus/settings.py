"""How to reach NATS: read from `PHONEBUDDY_NATS_*` environment variables."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Self

from pydantic import Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from phonebuddy.bus.permissions import inbox_prefix


class NatsSettings(BaseSettings):
    """Connection settings for the bus; every field can be set as `PHONEBUDDY_NATS_<FIELD>`."""

    model_config = SettingsConfigDict(env_prefix="PHONEBUDDY_NATS_", frozen=True, extra="forbid")

    @classmethod
    def from_variables(cls, variables: Mapping[str, str], **overrides: Any) -> Self:
        """Settings from the PHONEBUDDY_NATS_* entries of `variables` (say, a local stack's),
        then `overrides`; anything unset still comes from the environment."""
        prefix = "PHONEBUDDY_NATS_"
        given = {
            key.removeprefix(prefix).lower(): value
            for key, value in variables.items()
            if key.startswith(prefix)
        }
        return cls(**{**given, **overrides})

    url: str = Field(
        default="nats://127.0.0.1:4222",
        description="Server URL; `tls://` forces TLS, `nats://` upgrades when the server asks.",
    )
    user: str | None = Field(default=None, description="User name for user/password auth.")
    password: SecretStr | None = Field(default=None, description="Password for `user`.")
    tls_ca_file: Path | None = Field(
        default=None, description="CA bundle that signed the server certificate."
    )
    tls_cert_file: Path | None = Field(
        default=None, description="Client certificate (PEM) for mutual TLS."
    )
    tls_key_file: Path | None = Field(
        default=None, description="Private key (PEM) of the client certificate."
    )
    connect_timeout_s: float = Field(
        default=5.0, gt=0, description="The longest the first connect may take, all tries included."
    )
    request_timeout_s: float = Field(
        default=10.0, gt=0, description="Default timeout of a request and of JetStream API calls."
    )
    reconnect_wait_s: float = Field(
        default=2.0, ge=0, description="Pause between reconnect tries after a connection is lost."
    )
    max_reconnect_attempts: int = Field(
        default=-1,
        description="Reconnect tries after a connection is lost; -1 keeps trying for ever.",
    )
    name: str = Field(
        default="phonebuddy", min_length=1, description="Client name shown in NATS monitoring."
    )
    inbox_prefix: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z0-9_\-$]+(\.[A-Za-z0-9_\-]+)*$",
        description="Subject prefix of this client's reply inboxes; by default `_INBOX.<user>` "
        "(what `phonebuddy.bus.permissions` allows each user), or `_INBOX` without a user.",
    )

    @model_validator(mode="after")
    def _key_needs_cert(self) -> Self:
        if self.tls_key_file is not None and self.tls_cert_file is None:
            raise ValueError(
                "PHONEBUDDY_NATS_TLS_KEY_FILE is set but PHONEBUDDY_NATS_TLS_CERT_FILE is not; "
                "a client key needs its certificate"
            )
        if self.password is not None and self.user is None:
            raise ValueError(
                "PHONEBUDDY_NATS_PASSWORD is set but PHONEBUDDY_NATS_USER is not; "
                "set the user the password belongs to"
            )
        return self

    @property
    def reply_prefix(self) -> str:
        """The inbox prefix in effect: `inbox_prefix`, else the one for `user`."""
        return self.inbox_prefix or inbox_prefix(self.user)

    @property
    def uses_tls(self) -> bool:
        """Whether any TLS option is set (the client then brings its own SSL context)."""
        return any(
            path is not None for path in (self.tls_ca_file, self.tls_cert_file, self.tls_key_file)
        )
