"""What the 智能家居 templates share: content look-ups, oracle steps and verifier checks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.smarthome.base import SMARTHOME
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category

DEVICES = f"apps/{SMARTHOME}/devices"
SCENES = f"apps/{SMARTHOME}/scenes"
AUTOMATIONS = f"apps/{SMARTHOME}/automations"
MEMBERS = f"apps/{SMARTHOME}/members"
APP_LABEL = "智能家居"
OP_ZH = {"on": "打开", "off": "关闭"}
OP_EN = {"on": "turn on", "off": "turn off"}
DAY_SETS = {"每天": [0, 1, 2, 3, 4, 5, 6], "工作日": [0, 1, 2, 3, 4], "周末": [5, 6]}
PRESETS = {"every": ("每天", DAY_SETS["每天"]), "weekdays": ("工作日", DAY_SETS["工作日"]),
           "weekend": ("周末", DAY_SETS["周末"])}  # fmt: skip
DAY_SETS_EN = {"每天": "every day", "工作日": "on weekdays", "周末": "at weekends"}


def devices(world: World) -> list[Any]:
    return list(world.content(SMARTHOME)["devices"])


def by_name(world: World, name: str) -> Any:
    return next(d for d in devices(world) if d["name"] == name)


def readings(world: World) -> Any:
    return world.content(SMARTHOME)["readings"]


def to_home(ui: OracleUI) -> Iterator[Action]:
    """Bring 智能家居 up on its home screen (it reopens where it was left)."""
    if ui.package != SMARTHOME:
        yield ui.open(APP_LABEL)
    while ui.find("tabs") is None:
        yield ui.back()


def open_device(ui: OracleUI, device_id: str) -> Iterator[Action]:
    """Open a device's page from the home screen's device list."""
    yield from to_home(ui)
    listed = any(":id/dev_" in n.resource_id for n in ui.device.ui_tree().walk())
    if ui.find("room_all") is None and not listed:
        yield ui.tap("tab_devices")
    yield from ui.scroll_to(f"dev_{device_id}")
    yield ui.tap(f"dev_{device_id}")


def home_tab(ui: OracleUI, tab: str) -> Iterator[Action]:
    yield from to_home(ui)
    yield ui.tap(f"tab_{tab}")


def set_temperature(ui: OracleUI, on: bool, temp: int) -> Iterator[Action]:
    """On an air conditioner's page: power it on if needed and set the temperature."""
    if not on:
        yield ui.tap("power")
    yield from ui.type_into("temp", str(temp))
    yield ui.tap("set_temp")


def device_changes(diff: StateDiff, device_id: str, changes: dict[str, Any]) -> list[str]:
    """The device's fields that changed are exactly `changes` (field -> new value)."""
    path = f"{DEVICES}[{device_id}]"
    return expect_changes(diff, path, {f"{path}/{k}": v for k, v in changes.items()})


def power_changes(device: dict[str, Any], op: str) -> dict[str, Any]:
    """The fields an on/off action changes on `device` (as it was before)."""
    on = op == "on"
    if device["kind"] == "curtain":
        changes: dict[str, Any] = {}
        if device["position"] != (100 if on else 0):
            changes["position"] = 100 if on else 0
        if device["on"] != on:
            changes["on"] = on
        return changes
    return {"on": on} if device["on"] != on else {}


def ac_changes(device: dict[str, Any], temp: int, mode: str | None = None) -> dict[str, Any]:
    changes: dict[str, Any] = {} if device["on"] else {"on": True}
    if device["temp"] != temp:
        changes["temp"] = temp
    if mode is not None and device["mode"] != mode:
        changes["mode"] = mode
    return changes


def new_automation(
    diff: StateDiff, *, time: str, days: list[int], device: str, op: str
) -> list[str]:
    auto, problems = one_added(diff, AUTOMATIONS, "automation")
    if auto is None:
        return problems
    got = (auto["time"], sorted(auto["days"]), auto["device"], auto["op"], auto["enabled"])
    want = (time, sorted(days), device, op, True)
    return [f"the automation is {got}, expected {want}"] if got != want else []


def new_member(diff: StateDiff, phone: str, role: str) -> list[str]:
    member, problems = one_added(diff, MEMBERS, "member")
    if member is not None and (member["phone"], member["role"]) != (phone, role):
        problems.append(f"invited {member['phone']} as {member['role']}, expected {phone} {role}")
    return problems


def add_automation(ui: OracleUI, time: str, days: list[int], device_id: str,
                   op: str) -> Iterator[Action]:  # fmt: skip
    """On the 自动化 tab: create one automation."""
    yield ui.tap("new_auto")
    yield from ui.type_into("time", time)
    preset = next((key for key, (_, shown) in PRESETS.items() if shown == sorted(days)), None)
    if preset is not None:
        yield ui.tap(f"days_{preset}")
    else:
        for day in days:
            yield ui.tap(f"day_{day}")
    yield ui.tap(f"op_{op}")
    yield from ui.scroll_to(f"auto_dev_{device_id}")
    yield ui.tap(f"auto_dev_{device_id}")
    yield ui.tap("save_auto")


def device_params(device: Any) -> Params:
    return {"device_id": device["id"], "device": device["name"], "room": device["room"]}


class SmartHomeTemplate(TaskTemplate):
    """A template of the Smart Home app alone."""

    category = Category.SINGLE_APP
    apps = (SMARTHOME,)
