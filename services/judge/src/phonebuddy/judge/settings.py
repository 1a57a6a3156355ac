"""Judge settings (environment variables PHONEBUDDY_JUDGE_*).

Each of the two roles, `rubric` (writes a rubric per instruction) and `grader` (grades an
episode item by item), names an OpenAI-compatible endpoint: `<ROLE>_BASE_URL` (the API root,
ending in /v1 for most servers), `<ROLE>_MODEL` and an optional `<ROLE>_API_KEY`. The limits
(concurrency, requests per minute) are shared by both roles: they bound what this process sends,
in total.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from phonebuddy.judge.errors import JudgeConfigError
from phonebuddy.trajectories.stores import ROOTS_VARIABLE, RunStores, split_roots

ENV_PREFIX = "PHONEBUDDY_JUDGE_"
ROLES = ("rubric", "grader")


class JudgeSettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, frozen=True, extra="forbid", populate_by_name=True
    )

    rubric_base_url: str = Field(description="the rubric writer's API root, e.g. http://h:8000/v1")
    rubric_model: str = Field(min_length=1, description="the rubric writer's model name")
    rubric_api_key: SecretStr | None = Field(default=None, description="bearer token, if any")
    grader_base_url: str = Field(description="the grader's API root, e.g. http://h:8000/v1")
    grader_model: str = Field(min_length=1, description="the grader's model name")
    grader_api_key: SecretStr | None = Field(default=None, description="bearer token, if any")

    max_concurrency: int = Field(default=4, ge=1, le=512, description="LLM calls at once")
    requests_per_minute: float = Field(
        default=120.0, ge=0, description="LLM calls started per minute; 0: no limit"
    )
    timeout_s: float = Field(default=120.0, gt=0, le=3600, description="limit of one LLM call")
    max_retries: int = Field(default=3, ge=0, le=20, description="retries after the first call")
    backoff_s: float = Field(default=1.0, ge=0, le=600, description="first retry's pause")
    backoff_max_s: float = Field(default=30.0, ge=0, le=3600, description="longest pause")
    frames: int = Field(default=3, ge=1, le=16, description="final screenshots the grader sees")
    max_tokens: int = Field(default=1024, ge=16, le=65536, description="per answer")
    temperature: float = Field(default=0.0, ge=0, le=2)
    json_mode: bool = Field(
        default=True, description='send response_format={"type": "json_object"}'
    )
    task_metadata: bool = Field(
        default=False,
        description=(
            "send the episode's PhoneWorld task (template, seed, language) as request metadata "
            "to the grader: only for PhoneWorld's ground-truth grader, never a real model"
        ),
    )
    request_concurrency: int = Field(
        default=16, ge=1, le=1024, description="episodes graded at once by this process"
    )
    store_roots: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(),
        validation_alias=AliasChoices(f"{ENV_PREFIX}STORE_ROOTS", ROOTS_VARIABLE),
        description="runs' stores a request may name besides the judge's own: inside these",
    )
    host: str = "127.0.0.1"
    port: int = Field(default=8094, ge=0, le=65535)

    @field_validator("store_roots", mode="before")
    @classmethod
    def _roots(cls, value: object) -> object:
        return split_roots(value)

    @field_validator("store_roots")
    @classmethod
    def _valid_roots(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        RunStores(home=None, roots=value)
        return value

    @field_validator("rubric_base_url", "grader_base_url")
    @classmethod
    def _url(cls, value: str) -> str:
        value = value.strip()
        if not value.startswith(("http://", "https://")):
            raise ValueError(f"{value!r} is not an http:// or https:// URL")
        return value.rstrip("/")

    @model_validator(mode="after")
    def _backoff(self) -> JudgeSettings:
        if self.backoff_max_s < self.backoff_s:
            raise ValueError("backoff_max_s must not be smaller than backoff_s")
        return self


def variable(field: str) -> str:
    return f"{ENV_PREFIX}{field.upper()}"


def load_settings(**overrides: Any) -> JudgeSettings:
    """Settings from the environment, with `overrides` (None values ignored) on top; a missing
    or invalid value raises `JudgeConfigError` with one sentence naming the variables."""
    given = {key: value for key, value in overrides.items() if value is not None}
    try:
        return JudgeSettings(**given)
    except ValidationError as exc:
        raise _config_error(exc) from None


def _config_error(exc: ValidationError) -> JudgeConfigError:
    missing: list[str] = []
    invalid: list[tuple[str, str]] = []
    for error in exc.errors(include_url=False, include_input=False):
        field = ".".join(str(part) for part in error["loc"])
        if error["type"] == "missing":
            missing.append(variable(field))
        elif field:
            invalid.append((variable(field), error["msg"]))
        else:
            invalid.append((f"{ENV_PREFIX}*", error["msg"]))
    parts = []
    if missing:
        verb = "is" if len(missing) == 1 else "are"
        parts.append(
            f"{_join(missing)} {verb} not set (each role, rubric and grader, needs the "
            "base URL and model name of an OpenAI-compatible endpoint)"
        )
    parts.extend(f"{name} is invalid ({message})" for name, message in invalid)
    names = missing + [name for name, _ in invalid]
    return JudgeConfigError(names, "The judge cannot start: " + "; ".join(parts) + ".")


def _join(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
