"""PhoneWorld service settings (environment variables PHONEBUDDY_WORLD_*)."""

from __future__ import annotations

import re
from typing import Self

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from phonebuddy.protocol.subjects import host_instance_id


def _default_instance_id() -> str:
    return host_instance_id("world")


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
    # ADB: device i listens on `host`, port adb_base_port + i (none: no ADB; ADB has no
    # authentication here, so keep `host` on loopback or a private network); adb_register is an
    # adb server's HOST:PORT that every device registers with so that `adb devices` lists it.
    adb_base_port: int | None = Field(default=None, ge=1, le=65535)
    adb_register: str | None = None
    # None: every device speaks ADB and can also be leased over NATS. N: only the last N devices
    # speak ADB (ports adb_base_port + 0..N-1) and they are never leased over NATS, so a device
    # gateway driving them and sim episodes never share a phone.
    adb_devices: int | None = Field(default=None, ge=1)
    # Serve the ground-truth grader (a judge model stand-in for PhoneWorld phones over ADB only)
    # at /ground-truth/v1; the local stack points its rubric judge at it.
    ground_truth_judge: bool = False

    @field_validator("instance_id")
    @classmethod
    def _token(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,48}", value):
            raise ValueError("instance_id may hold only letters, digits, '-' and '_' (max 48)")
        return value

    @field_validator("adb_register")
    @classmethod
    def _host_port(cls, value: str | None) -> str | None:
        if value is not None:
            from phonebuddy.phoneworld.adb.register import parse_host_port

            parse_host_port(value)
        return value

    @model_validator(mode="after")
    def _adb_ports_fit(self) -> Self:
        if self.adb_base_port is not None and self.adb_base_port + self.devices - 1 > 65535:
            raise ValueError(
                f"adb_base_port {self.adb_base_port} + {self.devices} devices runs past port 65535"
            )
        if self.adb_devices is not None and self.adb_devices > self.devices:
            raise ValueError(f"adb_devices {self.adb_devices} is more than devices {self.devices}")
        if self.adb_register is not None and self.adb_base_port is None:
            raise ValueError("adb_register needs adb_base_port (the devices' ADB ports)")
        return self
