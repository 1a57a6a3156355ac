"""Policy server settings (environment variables PHONEBUDDY_POLICY_*)."""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

Backend = Literal["transformers", "vllm", "teacher", "replay"]


class PolicySettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PHONEBUDDY_POLICY_", frozen=True, extra="forbid")

    model: str = Field(
        default="",
        description="checkpoint to serve: a folder, or a store URL (s3://bucket/prefix, "
        "local:/path) that is copied to a local cache first; not used by the teacher",
    )
    backend: Backend = "transformers"
    served_model_name: str = Field(
        default="phonebuddy-policy", pattern=r"^[A-Za-z0-9._:/-]{1,128}$",
        description="the `model` name clients send and /v1/models lists",
    )  # fmt: skip
    model_version: str | None = Field(
        default=None, max_length=128,
        description="version reported with every response; default: derived from the weights",
    )  # fmt: skip
    host: str = "127.0.0.1"
    port: int = Field(default=8093, ge=0, le=65535)
    api_key: SecretStr | None = Field(
        default=None, description="if set, clients must send `Authorization: Bearer <key>`"
    )
    admin_token: SecretStr | None = Field(
        default=None,
        description="bearer token for /admin/reload, /pause, /resume and the weight-update "
        "routes; unset: they are off",
    )
    weight_roots: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(),
        description="comma-separated folders and store URL prefixes (s3://bucket/prefix) that "
        "/update_weights may read weights from; unset: weight updates are off",
    )
    pause_max_wait_s: float = Field(
        default=120.0, gt=0, le=3600,
        description="how long a chat request waits while paused before a 503 with Retry-After",
    )  # fmt: skip
    device: str = Field(default="auto", description="torch device: auto, cpu, cuda, cuda:1 ...")
    dtype: Literal["auto", "float32", "bfloat16", "float16"] = "auto"
    max_model_len: int = Field(default=32768, ge=256, description="prompt + completion tokens")
    max_tokens_default: int = Field(default=256, ge=1, description="when a request gives none")
    max_n: int = Field(default=64, ge=1, le=1024, description="largest `n` a request may ask")
    max_batch_rows: int = Field(default=16, ge=1, description="sequences generated together")
    batch_wait_ms: float = Field(
        default=5.0, ge=0, le=1000, description="how long a batch waits for company"
    )
    max_queue: int = Field(default=256, ge=1, description="queued requests before 503")
    max_image_bytes: int = Field(default=16 * 2**20, ge=1024)
    max_image_pixels: int = Field(
        default=40_000_000, ge=1024, description="decoded size limit (decompression bombs)"
    )
    max_images_per_request: int = Field(default=16, ge=0)
    max_concurrent_image_decodes: int = Field(
        default=2, ge=1, description="images decoded at full size at once, all requests together"
    )
    allow_remote_images: bool = Field(
        default=False,
        description="fetch http(s) image URLs; only from IMAGE_URL_ALLOW_HOSTS, never from "
        "private, loopback, link-local or otherwise non-public addresses",
    )
    image_url_allow_hosts: Annotated[tuple[str, ...], NoDecode] = Field(
        default=(),
        description="comma-separated host names remote images may come from; `*.example.com` "
        "allows its subdomains",
    )
    image_url_max_redirects: int = Field(default=3, ge=0, le=10)
    image_fetch_timeout_s: float = Field(
        default=10.0, gt=0, le=300, description="for the whole fetch, redirects included"
    )
    request_timeout_s: float = Field(default=300.0, gt=0, description="queue + generation")
    # vLLM only
    vllm_tensor_parallel_size: int = Field(default=1, ge=1)
    vllm_gpu_memory_utilization: float = Field(default=0.9, gt=0, le=1)
    vllm_extra_args: str = Field(default="", description="appended to vLLM's command line")

    @field_validator("image_url_allow_hosts", "weight_roots", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            value = value.split(",")
        if isinstance(value, list | tuple):
            return tuple(str(item).strip() for item in value if str(item).strip())
        return value

    @field_validator("image_url_allow_hosts")
    @classmethod
    def _host_names(cls, hosts: tuple[str, ...]) -> tuple[str, ...]:
        hosts = tuple(host.lower() for host in hosts)
        for host in hosts:
            name = host.removeprefix("*.")
            if not name or any(char in name for char in "/:@*?#[] "):
                raise ValueError(f"{host!r} is not a host name (write images.example.com)")
        return hosts

    @field_validator("weight_roots")
    @classmethod
    def _root_forms(cls, roots: tuple[str, ...]) -> tuple[str, ...]:
        for root in roots:
            if not root.startswith(("s3://", "local:/", "file:/", "/")):
                raise ValueError(f"{root!r} is not an absolute folder or a store URL (s3://...)")
        return roots

    @model_validator(mode="after")
    def _remote_needs_hosts(self) -> Self:
        if self.allow_remote_images and not self.image_url_allow_hosts:
            raise ValueError(
                "PHONEBUDDY_POLICY_ALLOW_REMOTE_IMAGES needs "
                "PHONEBUDDY_POLICY_IMAGE_URL_ALLOW_HOSTS (the hosts images may be fetched from)"
            )
        return self

    @model_validator(mode="after")
    def _needs_model(self) -> Self:
        if self.backend != "teacher" and not self.model:
            raise ValueError(
                "PHONEBUDDY_POLICY_MODEL (or --model) must name a checkpoint for the "
                f"{self.backend} backend"
            )
        return self
