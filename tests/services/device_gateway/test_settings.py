"""Gateway settings from the environment: lists, the app table, clear errors."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from phonebuddy.device_gateway.settings import GatewaySettings, split_address


def test_defaults_need_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("CONNECT", "SERIALS", "APPS", "ADB_SERVER"):
        monkeypatch.delenv(f"PHONEBUDDY_GATEWAY_{name}", raising=False)
    settings = GatewaySettings()
    assert settings.adb_address == ("127.0.0.1", 5037)
    assert settings.connect == ()
    assert settings.instance_id.startswith("gateway-")
    assert "com.android.systemui" in settings.protected_packages


def test_lists_and_apps_come_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PHONEBUDDY_GATEWAY_ADB_SERVER", "10.0.0.5:5038")
    monkeypatch.setenv("PHONEBUDDY_GATEWAY_CONNECT", "10.0.0.7:5555, phone-2.lab:5555")
    monkeypatch.setenv("PHONEBUDDY_GATEWAY_SERIALS", '["R58M123", "emulator-5554"]')
    monkeypatch.setenv("PHONEBUDDY_GATEWAY_APPS", "Notes=com.pw.notes,备忘录=com.pw.notes")
    monkeypatch.setenv("PHONEBUDDY_GATEWAY_SETTLE_S", "0")
    settings = GatewaySettings()
    assert settings.adb_address == ("10.0.0.5", 5038)
    assert settings.connect == ("10.0.0.7:5555", "phone-2.lab:5555")
    assert settings.serials == ("R58M123", "emulator-5554")
    assert settings.apps == {"Notes": "com.pw.notes", "备忘录": "com.pw.notes"}
    assert settings.settle_s == 0
    monkeypatch.setenv("PHONEBUDDY_GATEWAY_APPS", '{"WeChat": "com.tencent.mm"}')
    assert GatewaySettings().apps == {"WeChat": "com.tencent.mm"}


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("adb_server", "localhost", "is not HOST:PORT"),
        ("adb_server", "host:70000", "out of range"),
        ("connect", ("10.0.0.7",), "is not HOST:PORT"),
        ("apps", {"Evil": "x; reboot"}, "not package names"),
        ("apps", "Notes", "name=package pairs"),
        ("instance_id", "a.b", "letters, digits"),
        ("adb_timeout_s", 0, "greater than 0"),
    ],
)
def test_bad_values_say_what_is_wrong(field: str, value: object, message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        GatewaySettings(**{field: value})


def test_split_address_takes_ipv6() -> None:
    assert split_address("[::1]:5037") == ("::1", 5037)
