"""Gateway settings (environment variables PHONEBUDDY_GATEWAY_*).

Lists (`CONNECT`, `SERIALS`, `PROTECTED_PACKAGES`, `LAUNCHER_PACKAGES`) take commas or JSON;
`APPS` takes JSON (`{"Notes": "com.example.notes"}`) or `name=package` pairs with commas.
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from phonebuddy.device_gateway.actions import is_package_name
from phonebuddy.device_gateway.phone import DEFAULT_PROTECTED
from phonebuddy.protocol.subjects import host_instance_id

_ADDRESS = re.compile(r"^(?P<host>[A-Za-z0-9_.\-]+|\[[0-9A-Fa-f:.]+\]):(?P<port>\d{1,5})$")
# Home apps of common phones; the home app a phone reports is added per device.
DEFAULT_LAUNCHERS = (
    "com.android.launcher3",
    "com.google.android.apps.nexuslauncher",
    "com.miui.home",
    "com.huawei.android.launcher",
    "com.hihonor.android.launcher",
    "com.oppo.launcher",
    "com.bbk.launcher2",
    "com.sec.android.app.launcher",
    "com.pw.launcher",  # PhoneWorld's home screen, when its phones are driven over ADB
)


def _default_instance_id() -> str:
    return host_instance_id("gateway")


def split_address(address: str) -> tuple[str, int]:
    """`HOST:PORT` -> (host, port); ValueError with the reason otherwise."""
    match = _ADDRESS.fullmatch(address.strip())
    if match is None:
        raise ValueError(f"{address!r} is not HOST:PORT")
    port = int(match.group("port"))
    if not 0 < port < 65536:
        raise ValueError(f"port {port} in {address!r} is out of range")
    return match.group("host").strip("[]"), port


def _comma_list(value: Any) -> Any:
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            return json.loads(text)
        return [item.strip() for item in text.split(",") if item.strip()]
    return value


CommaList = Annotated[tuple[str, ...], NoDecode]


class GatewaySettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="PHONEBUDDY_GATEWAY_", frozen=True, extra="forbid")

    adb_server: str = Field(default="127.0.0.1:5037", description="the adb server, HOST:PORT")
    connect: CommaList = Field(default=(), description="network devices to `adb connect`")
    serials: CommaList = Field(default=(), description="serial allow-list; empty: every device")
    instance_id: str = Field(default_factory=_default_instance_id)
    host: str = "127.0.0.1"
    port: int = Field(default=8091, ge=0, le=65535)
    # Below the bus's default request timeout (10 s), so that a caller hears `device_lost` or
    # `timeout` from the gateway rather than nothing.
    adb_timeout_s: float = Field(default=8.0, gt=0, le=300, description="per ADB call")
    ping_timeout_s: float = Field(default=3.0, gt=0, le=60)
    lock_timeout_s: float = Field(default=8.0, gt=0, le=600, description="wait for a busy device")
    health_interval_s: float = Field(default=2.0, gt=0)
    reap_interval_s: float = Field(default=1.0, gt=0)
    settle_s: float = Field(default=0.3, ge=0, le=10, description="pause after an action")
    jpeg_quality: int = Field(default=85, ge=10, le=100)
    adb_keyboard_ime: str | None = Field(
        default=None, description="IME to enable and select at probe, e.g. ADBKeyboard's"
    )
    apps: Annotated[dict[str, str], NoDecode] = Field(default_factory=dict)
    protected_packages: CommaList = DEFAULT_PROTECTED
    launcher_packages: CommaList = DEFAULT_LAUNCHERS
    max_adb_threads: int = Field(default=64, ge=2, le=1024)
    task_setup_action: str | None = Field(
        default=None,
        pattern=r"^[A-Za-z][A-Za-z0-9_.]*$",
        description=(
            "intent action of the phones' task set-up receiver: after resetting the task's apps "
            "the gateway broadcasts it with the task's template_id, seed and language and "
            "requires RESULT_OK (PhoneWorld's phones have one; unset for physical phones)"
        ),
    )
    ready_without_devices: bool = Field(
        default=False,
        description="/readyz without the healthy-device check (a local stack without phones)",
    )

    @field_validator("connect", "serials", "protected_packages", "launcher_packages", mode="before")
    @classmethod
    def _lists(cls, value: Any) -> Any:
        return _comma_list(value)

    @field_validator("apps", mode="before")
    @classmethod
    def _apps(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if text.startswith("{"):
                return json.loads(text)
            pairs = [item.split("=", 1) for item in text.split(",") if item.strip()]
            if any(len(pair) != 2 for pair in pairs):
                raise ValueError("APPS must be JSON or name=package pairs separated by commas")
            return {name.strip(): package.strip() for name, package in pairs}
        return value

    @field_validator("apps")
    @classmethod
    def _packages(cls, value: dict[str, str]) -> dict[str, str]:
        bad = [package for package in value.values() if not is_package_name(package)]
        if bad:
            raise ValueError(f"not package names: {bad}")
        return value

    @field_validator("adb_server")
    @classmethod
    def _server(cls, value: str) -> str:
        split_address(value)
        return value

    @field_validator("connect")
    @classmethod
    def _addresses(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for address in value:
            split_address(address)
        return value

    @field_validator("instance_id")
    @classmethod
    def _token(cls, value: str) -> str:
        if not re.fullmatch(r"[A-Za-z0-9_-]{1,48}", value):
            raise ValueError("instance_id may hold only letters, digits, '-' and '_' (max 48)")
        return value

    @property
    def adb_address(self) -> tuple[str, int]:
        return split_address(self.adb_server)
