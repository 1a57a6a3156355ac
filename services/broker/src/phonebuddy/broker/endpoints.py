"""The policy endpoints the broker calls, and the credentials bound to each.

The broker is configured with named endpoints (`PHONEBUDDY_BROKER_POLICY_ENDPOINTS`, plus
`policy` and `teacher` from the shared PHONEBUDDY_POLICY_URL / PHONEBUDDY_TEACHER_URL with
PHONEBUDDY_POLICY_API_KEY). A rollout request names one of them, by name or by its exact
`base_url`, and only then is the endpoint's key sent, to the endpoint's configured URL. Any other
URL is called with no credentials and is marked as no teacher (with `open_policy_urls`), or
refused. Only an endpoint configured as `teacher` is told which task it plays.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator

from phonebuddy.protocol import PolicyTarget


class EndpointConfig(BaseModel):
    """One configured policy endpoint."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    base_url: str = Field(description="the API root, .../v1")
    api_key: SecretStr | None = Field(default=None, description="sent to this endpoint only")
    teacher: bool = Field(
        default=False, description="a scripted teacher: requests say which task (template, seed)"
    )

    @field_validator("base_url")
    @classmethod
    def _http(cls, value: str) -> str:
        value = normalized(value)
        if not value.startswith(("http://", "https://")):
            raise ValueError(f"{value!r} is not an http:// or https:// URL")
        return value


class UnknownEndpointError(ValueError):
    """A policy the broker may not call (an unknown name, or a URL no endpoint has)."""


def normalized(url: str) -> str:
    return url.strip().rstrip("/")


class PolicyEndpoints:
    def __init__(self, configured: Mapping[str, EndpointConfig], *, open_urls: bool) -> None:
        self.configured = dict(configured)
        self.open_urls = open_urls
        self._by_url = {config.base_url: name for name, config in self.configured.items()}

    def resolve(self, target: PolicyTarget) -> tuple[PolicyTarget, EndpointConfig]:
        """The target as the broker will call it (named endpoints get their configured URL)
        and the endpoint's settings; `UnknownEndpointError` if it may not be called."""
        name = target.endpoint
        if name is None and target.base_url is not None:
            name = self._by_url.get(normalized(target.base_url))
        if name is not None:
            config = self.configured.get(name)
            if config is None:
                known = ", ".join(sorted(self.configured)) or "none"
                raise UnknownEndpointError(
                    f"the broker has no policy endpoint {name!r} (it has: {known})"
                )
            if target.base_url is not None and normalized(target.base_url) != config.base_url:
                raise UnknownEndpointError(
                    f"policy endpoint {name!r} is at {config.base_url}, not {target.base_url}"
                )
            resolved = target.model_copy(update={"endpoint": name, "base_url": config.base_url})
            return resolved, config
        url = normalized(target.base_url or "")
        if not self.open_urls:
            known = ", ".join(sorted(self.configured)) or "none"
            raise UnknownEndpointError(
                f"{url} is none of the broker's policy endpoints ({known}), and it calls no "
                "others (PHONEBUDDY_BROKER_OPEN_POLICY_URLS=false)"
            )
        try:
            config = EndpointConfig(base_url=url)
        except ValueError as exc:
            raise UnknownEndpointError(f"policy base_url {url!r}: {exc}") from None
        return target.model_copy(update={"base_url": config.base_url}), config
