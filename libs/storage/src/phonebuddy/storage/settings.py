"""`StoreSettings` (env prefix PHONEBUDDY_STORE_) and the store URL forms it accepts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self
from urllib.parse import unquote, urlsplit

from pydantic import SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from phonebuddy.storage.errors import StoreConfigError
from phonebuddy.storage.keys import validate_bucket_name, validate_prefix

URL_FORMS = "local:/path, file:///path or s3://bucket[/prefix]"
_URL_SETTING = "PHONEBUDDY_STORE_URL"


@dataclass(frozen=True, slots=True)
class LocalLocation:
    root: Path


@dataclass(frozen=True, slots=True)
class S3Location:
    bucket: str
    prefix: str


def _redacted(url: str) -> str:
    """The URL with any user:password@ part replaced, safe to put in an error message."""
    scheme, sep, rest = url.partition("://")
    if sep and "@" in rest.split("/", 1)[0]:
        return f"{scheme}://***@{rest.split('@', 1)[1]}"
    return url


def parse_store_url(url: str) -> LocalLocation | S3Location:
    """Where a store URL points. Credentials are never read from a URL: one that carries
    them is refused (they belong in PHONEBUDDY_STORE_ACCESS_KEY / _SECRET_KEY)."""
    scheme, colon, rest = url.partition(":")
    scheme = scheme.lower()
    if not colon or "/" in scheme:
        raise StoreConfigError(_URL_SETTING, f"{url!r} has no scheme; use {URL_FORMS}")
    if scheme == "local":
        if not rest:
            raise StoreConfigError(_URL_SETTING, f"{url!r} names no folder; use local:/path")
        return LocalLocation(Path(rest))
    parts = urlsplit(url)
    if parts.username is not None or parts.password is not None:
        raise StoreConfigError(
            _URL_SETTING,
            f"{_redacted(url)!r} carries credentials; put them in "
            "PHONEBUDDY_STORE_ACCESS_KEY and PHONEBUDDY_STORE_SECRET_KEY instead",
        )
    if parts.query or parts.fragment:
        raise StoreConfigError(_URL_SETTING, f"{url!r} may not have a query or fragment")
    if scheme == "file":
        if parts.netloc not in ("", "localhost") or not parts.path:
            raise StoreConfigError(_URL_SETTING, f"{url!r} is not file:///absolute/path")
        return LocalLocation(Path(unquote(parts.path)))
    if scheme == "s3":
        if not parts.hostname:
            raise StoreConfigError(_URL_SETTING, f"{url!r} names no bucket; use s3://bucket")
        bucket = validate_bucket_name(parts.netloc)
        prefix = validate_prefix(unquote(parts.path).strip("/"))
        return S3Location(bucket=bucket, prefix=prefix)
    raise StoreConfigError(
        _URL_SETTING, f"{_redacted(url)!r} has an unsupported scheme; use {URL_FORMS}"
    )


class StoreSettings(BaseSettings):
    """Which object store to open, from PHONEBUDDY_STORE_* variables.

    `url` says where (a local folder or an S3 bucket and prefix); for s3:// the server is
    `endpoint` (host:port) and the credentials are `access_key` / `secret_key`.
    """

    model_config = SettingsConfigDict(env_prefix="PHONEBUDDY_STORE_", frozen=True, extra="ignore")

    @classmethod
    def from_variables(cls, variables: Mapping[str, str], **overrides: Any) -> Self:
        """Settings from the PHONEBUDDY_STORE_* entries of `variables` (say, a local stack's),
        then `overrides`; anything unset still comes from the environment."""
        prefix = "PHONEBUDDY_STORE_"
        given = {
            key.removeprefix(prefix).lower(): value
            for key, value in variables.items()
            if key.startswith(prefix)
        }
        return cls(**{**given, **overrides})

    url: str = "local:.phonebuddy/store"
    endpoint: str | None = None
    access_key: str | None = None
    secret_key: SecretStr | None = None
    secure: bool = False
    region: str | None = None
    create_bucket: bool = False

    @model_validator(mode="after")
    def _check(self) -> StoreSettings:
        if isinstance(parse_store_url(self.url), S3Location):
            self.s3_connection()
        return self

    @property
    def location(self) -> LocalLocation | S3Location:
        return parse_store_url(self.url)

    def s3_connection(self) -> tuple[str, str, str]:
        """(endpoint, access_key, secret_key), or a `StoreConfigError` naming what is unset."""
        secret = self.secret_key.get_secret_value() if self.secret_key is not None else ""
        values = {
            "PHONEBUDDY_STORE_ENDPOINT": self.endpoint or "",
            "PHONEBUDDY_STORE_ACCESS_KEY": self.access_key or "",
            "PHONEBUDDY_STORE_SECRET_KEY": secret,
        }
        missing = [name for name, value in values.items() if not value]
        if missing:
            raise StoreConfigError(", ".join(missing), f"must be set for the S3 store {self.url!r}")
        endpoint, access_key, secret_key = values.values()
        return endpoint, access_key, secret_key
