"""The Smart Home app (智能家居) through the action interface: devices by room, a light's and an
air conditioner's controls with their limits, offline devices refusing, the door lock's log,
running and editing scenes (deletion behind a confirmation), automations and sharing the home."""

from __future__ import annotations

from typing import Any

import pytest

from phonebuddy.phoneworld import testing
from phonebuddy.phoneworld.apps.smarthome.base import SMARTHOME
from phonebuddy.phoneworld.device import Device
from phonebuddy.phoneworld.world import World


class Driver(testing.Driver):
    scroll_first = True

    @property
    def data(self) -> dict[str, Any]:
        return self.app_state(SMARTHOME)  # type: ignore[no-any-return]

    def dev(self, name: str) -> dict[str, Any]:
        return next(d for d in self.data["devices"] if d["name"] == name)

    def dev_by_id(self, device_id: str) -> dict[str, Any]:
        return next(d for d in self.data["devices"] if d["id"] == device_id)

    def home(self) -> None:
        while not self.visible("tabs"):
            self.back()

    def open_device(self, name: str) -> dict[str, Any]:
        device = self.dev(name)
        self.tap(f"dev_{device['id']}")
        return device


@pytest.fixture
def user(device: Device) -> Driver:
    driver = Driver(device)
    driver.open("智能家居")
    return driver


def test_rooms_filter_the_device_list(user: Driver, world: World) -> None:
    user.tap("room_3")
    kitchen = {f"dev_{d['id']}" for d in user.data["devices"] if d["room"] == "厨房"}
    shown = {i for i in user.ids() if i.startswith("dev_")}
    assert shown == kitchen


def test_air_conditioner_temperature_is_validated(user: Driver) -> None:
    ac = user.open_device("客厅空调")
    if not ac["on"]:
        user.tap("power")
    user.type_into("temp", "31")
    user.refuse("set_temp")
    user.home()
    user.open_device("客厅空调")
    user.type_into("temp", "abc")
    user.refuse("set_temp")
    user.home()
    user.open_device("客厅空调")
    user.type_into("temp", "16")
    user.tap("set_temp")
    assert user.dev("客厅空调")["temp"] == 16
    user.refuse("temp_down")
    user.tap("temp_up")
    user.tap("mode_2")
    assert user.dev("客厅空调")["temp"] == 17
    assert user.dev("客厅空调")["mode"] == "除湿"
    assert user.text("temp_now") == "设定温度：17℃"


def test_light_brightness_and_colour(user: Driver) -> None:
    light = user.open_device("客厅吸顶灯")
    if not light["on"]:
        user.refuse("bright_up")
        user.tap("power")
    before = user.dev("客厅吸顶灯")["brightness"]
    user.tap("bright_down")
    assert user.dev("客厅吸顶灯")["brightness"] == before - 10
    user.tap("color_cool" if light["color"] != "cool" else "color_warm")
    user.tap("power")
    assert user.dev("客厅吸顶灯")["on"] is False


def test_offline_devices_refuse_control(user: Driver) -> None:
    device = next(d for d in user.data["devices"] if not d["online"])
    user.tap(f"dev_{device['id']}")
    assert user.visible("offline_note")
    user.refuse("power")


def test_lock_log_and_sensor_readings(user: Driver, world: World) -> None:
    user.open_device("智能门锁")
    assert user.visible("log_0")
    user.scroll_to("log_15")
    user.back()
    user.open_device("书房温湿度计")
    humidity = world.content(SMARTHOME)["readings"]["sensors"]["书房"]["humidity"]
    assert user.text("humidity") == f"湿度：{humidity}%"


def test_run_a_scene_skips_offline_devices(user: Driver) -> None:
    ac = user.open_device("客厅空调")
    if not ac["on"]:
        user.tap("power")
    user.home()
    user.tap("tab_scenes")
    scene = next(s for s in user.data["scenes"] if s["name"] == "离家")
    offline = {a["device"]: user.dev_by_id(a["device"]) for a in scene["actions"]}
    offline = {k: dict(d) for k, d in offline.items() if not d["online"]}
    user.tap(f"run_{scene['id']}")
    assert user.dev("客厅空调")["on"] is False
    assert user.dev("客厅吸顶灯")["on"] is False
    assert user.dev("客厅摄像头")["on"] is True or "客厅摄像头" in {
        d["name"] for d in offline.values()
    }
    for device_id, before in offline.items():
        assert user.dev_by_id(device_id) == before
    user.refuse(f"run_{scene['id']}")  # everything is already as the scene wants


def test_device_search(user: Driver) -> None:
    user.type_into("search", "空调")
    shown = {i for i in user.ids() if i.startswith("dev_")}
    assert shown == {f"dev_{d['id']}" for d in user.data["devices"] if "空调" in d["name"]}
    user.type_into("search", "不存在")
    assert user.visible("no_devices")


def test_create_edit_and_delete_a_scene(user: Driver) -> None:
    user.tap("tab_scenes")
    user.tap("new_scene")
    user.refuse("create_scene")
    user.type_into("name", "回家")
    user.refuse("create_scene")
    user.home()
    user.tap("new_scene")
    user.type_into("name", "起床")
    user.tap("create_scene")
    light = user.dev("书房台灯")
    user.tap("add_action")
    user.tap(f"pick_{light['id']}")
    user.tap("op_on")
    scene = next(s for s in user.data["scenes"] if s["name"] == "起床")
    assert [(a["device"], a["op"]) for a in scene["actions"]] == [(light["id"], "on")]
    user.tap("add_action")
    user.tap(f"pick_{light['id']}")
    user.refuse("op_off")
    user.back()
    user.back()
    user.tap("delete_scene")
    user.tap("cancel") if user.visible("cancel") else user.back()
    assert any(s["name"] == "起床" for s in user.data["scenes"])
    user.tap("delete_scene")
    user.tap("confirm_delete")
    assert not any(s["name"] == "起床" for s in user.data["scenes"])


def test_automations_are_created_toggled_and_deleted(user: Driver) -> None:
    user.tap("tab_autos")
    user.tap("new_auto")
    user.type_into("time", "7:15")
    user.refuse("save_auto")  # no day, no action, no device
    user.tap("day_0")
    user.tap("op_off")
    curtain = user.dev("次卧窗帘")
    user.tap(f"auto_dev_{curtain['id']}")
    user.tap("save_auto")
    auto = user.data["automations"][-1]
    assert (auto["time"], auto["days"], auto["device"], auto["op"]) == (
        "07:15",
        [0],
        curtain["id"],
        "off",
    )
    user.tap(f"auto_{auto['id']}")
    user.tap("auto_enabled")
    assert user.data["automations"][-1]["enabled"] is False
    user.tap("delete_auto")
    user.tap("confirm_delete")
    assert all(a["id"] != auto["id"] for a in user.data["automations"])


def test_share_home_validates_the_phone(user: Driver) -> None:
    user.tap("tab_me")
    user.tap("share_home")
    user.type_into("phone", "1381234")
    user.refuse("invite")
    user.home()
    user.tap("share_home")
    user.type_into("phone", "13912345678")
    user.refuse("invite")  # already a member
    user.home()
    user.tap("share_home")
    user.type_into("phone", "13800001111")
    user.tap("role_1")
    user.tap("invite")
    assert user.data["members"][-1]["phone"] == "13800001111"
    assert user.data["members"][-1]["role"] == "管理员"
