"""The Settings app through the action interface: its switches and levels are the OS settings,
Wi-Fi asks for the password of a new secured network, the language needs confirming, and the
device name cannot be emptied."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.settings.app import SETTINGS
from phonebuddy.phoneworld.device import Device
from phonebuddy.protocol import Type


class Driver(testing.Driver):
    """Acts like a user and insists that every step has an effect."""


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.act(driver.ui.open("设置"))
    return driver


def os_settings(device: Device) -> dict[str, Any]:
    return dict(device.state["os"]["settings"])


def wifi(device: Device) -> dict[str, Any]:
    return dict(device.state["apps"][SETTINGS]["wifi"])


def test_home_lists_every_settings_page(user: Driver) -> None:
    ids = {n.resource_id.rpartition(":id/")[2] for n in user.device.ui_tree().walk()}
    expected = {"wlan", "bluetooth", "display", "sound", "do_not_disturb", "language",
                "airplane", "about", "device_card"}  # fmt: skip
    assert expected <= ids


def test_brightness_steps_by_ten_and_stops_at_full(user: Driver) -> None:
    user.tap("display")
    start = os_settings(user.device)["brightness"]
    user.tap("brightness_up")
    assert os_settings(user.device)["brightness"] == start + 10
    assert user.text("brightness_value") == f"{start + 10}%"
    while os_settings(user.device)["brightness"] < 100:
        user.tap("brightness_up")
    assert "already at 100" in user.refuse("brightness_up")
    assert os_settings(user.device)["brightness"] == 100


def test_a_toggle_changes_the_os_setting_the_status_bar_shows(user: Driver) -> None:
    user.tap("bluetooth")
    assert os_settings(user.device)["bluetooth"] is False
    user.tap("bluetooth_toggle")
    assert os_settings(user.device)["bluetooth"] is True
    assert user.ui.find(text="AirPods Pro") is not None  # paired devices show once it is on
    status = [n.text for n in user.device.ui_tree().walk() if n.package == "com.android.systemui"]
    assert any("BT" in text for text in status)


def test_a_new_secured_network_needs_its_password(user: Driver) -> None:
    before = wifi(user.device)
    network = next(n for n in user.device.world.content(SETTINGS)["networks"]
                   if n["secured"] and n["id"] not in before["saved"])  # fmt: skip
    user.tap("wlan")
    for action in user.ui.scroll_to(f"network_{network['id']}"):
        user.act(action)
    user.tap(f"network_{network['id']}")
    assert user.ui.visible("password_dialog")
    user.tap("password")
    user.act(Type(text="wrong-password"))
    user.tap("password_connect")
    assert wifi(user.device) == before
    assert user.ui.find(text="密码错误，请重新输入") is not None
    user.tap("password")
    user.act(Type(text=network["password"]))
    user.tap("password_connect")
    assert wifi(user.device)["connected"] == network["id"]
    assert network["id"] in wifi(user.device)["saved"]
    assert not user.ui.visible("password_dialog")


def test_the_language_changes_only_after_confirming(user: Driver) -> None:
    for action in user.ui.scroll_to("language"):
        user.act(action)
    user.tap("language")
    user.tap("language_en-US")
    user.tap("language_cancel")
    assert os_settings(user.device)["language"] == "zh-CN"
    user.tap("language_en-US")
    user.tap("language_confirm")
    assert os_settings(user.device)["language"] == "en-US"


def test_the_device_name_cannot_be_emptied(user: Driver) -> None:
    name = user.device.state["apps"][SETTINGS]["about"]["device_name"]
    user.tap("device_card")
    assert user.ui.find(text=name) is not None
    user.tap("about_device_name")
    user.tap("clear")
    assert "cannot be empty" in user.refuse("rename_save")
    user.act(Type(text="我的新手机"))
    user.tap("rename_save")
    assert user.device.state["apps"][SETTINGS]["about"]["device_name"] == "我的新手机"
