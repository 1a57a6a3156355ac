"""The seeded home of 智能家居: rooms, devices with their state and readings, scenes,
automations, the door lock's log and a week of energy use per device."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.clock import EPOCH_START

ROOMS = ("客厅", "主卧", "次卧", "厨房", "书房", "阳台")
KINDS = {
    "light": "灯", "ac": "空调", "vacuum": "扫地机器人", "curtain": "窗帘", "plug": "智能插座",
    "purifier": "空气净化器", "lock": "门锁", "sensor": "温湿度计", "camera": "摄像头",
}  # fmt: skip
# (name, kind, room)
DEVICES = (
    ("客厅吸顶灯", "light", "客厅"), ("客厅空调", "ac", "客厅"),
    ("客厅窗帘", "curtain", "客厅"), ("客厅净化器", "purifier", "客厅"),
    ("电视插座", "plug", "客厅"), ("客厅温湿度计", "sensor", "客厅"),
    ("智能门锁", "lock", "客厅"), ("客厅摄像头", "camera", "客厅"),
    ("扫地机器人", "vacuum", "客厅"),
    ("主卧床头灯", "light", "主卧"), ("主卧空调", "ac", "主卧"), ("主卧窗帘", "curtain", "主卧"),
    ("主卧净化器", "purifier", "主卧"), ("主卧温湿度计", "sensor", "主卧"),
    ("次卧台灯", "light", "次卧"), ("次卧空调", "ac", "次卧"), ("次卧窗帘", "curtain", "次卧"),
    ("次卧净化器", "purifier", "次卧"), ("次卧温湿度计", "sensor", "次卧"),
    ("厨房灯", "light", "厨房"), ("电水壶插座", "plug", "厨房"), ("厨房温湿度计", "sensor", "厨房"),
    ("书房台灯", "light", "书房"), ("书房空调", "ac", "书房"), ("书房温湿度计", "sensor", "书房"),
    ("阳台灯", "light", "阳台"), ("阳台摄像头", "camera", "阳台"),
    ("阳台温湿度计", "sensor", "阳台"),
)  # fmt: skip
MODES = ("制冷", "制热", "除湿", "送风")
COLOR_TEMPS = (("warm", "暖光"), ("neutral", "自然光"), ("cool", "冷光"))
PURIFIER_MODES = ("自动", "睡眠", "强力")
SCENE_NAMES = ("回家", "离家", "睡眠", "观影")
DAYS = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
UNLOCKS = ("指纹开锁", "密码开锁", "手机开锁", "钥匙开锁")
FAMILY = ("爸爸", "妈妈", "小宇", "奶奶")
ROLES = ("成员", "管理员")
AC_MIN, AC_MAX = 16, 30
CONTROLLABLE = ("light", "ac", "curtain", "plug", "purifier", "camera", "vacuum")


def _device(rng: random.Random, i: int, name: str, kind: str, room: str) -> dict[str, Any]:
    device: dict[str, Any] = {"id": f"d-{i + 1:02d}", "name": name, "kind": kind, "room": room,
                              "online": True, "on": rng.random() < 0.5}  # fmt: skip
    if kind == "light":
        device.update(brightness=rng.randrange(2, 10) * 10,
                      color=rng.choice(COLOR_TEMPS)[0])  # fmt: skip
    elif kind == "ac":
        device.update(mode=rng.choice(MODES), temp=rng.randrange(22, 28))
    elif kind == "curtain":
        device.update(position=rng.choice((0, 30, 50, 100)))
        device["on"] = device["position"] > 0
    elif kind == "purifier":
        device.update(mode=rng.choice(PURIFIER_MODES), on=False)
    elif kind == "vacuum":
        device.update(battery=rng.randrange(35, 96), rooms=[], on=False)
    elif kind in ("sensor", "lock"):
        device["on"] = True
    return device


def _readings(rng: random.Random, devices: list[dict[str, Any]]) -> dict[str, Any]:
    humidity = rng.sample(range(35, 80), len(ROOMS))
    sensors = {
        room: {"temp": round(rng.uniform(18, 28), 1), "humidity": humidity[i]}
        for i, room in enumerate(ROOMS)
    }
    pm25 = {d["id"]: rng.randrange(12, 160) for d in devices if d["kind"] == "purifier"}
    energy = {
        d["id"]: [round(rng.uniform(0.1, {"ac": 6.0, "plug": 2.0}.get(d["kind"], 0.8)), 1)
                  for _ in DAYS]
        for d in devices if d["kind"] in ("light", "ac", "plug", "purifier", "vacuum")
    }  # fmt: skip
    return {"sensors": sensors, "pm25": pm25, "energy": energy}


def _lock_log(rng: random.Random) -> list[dict[str, Any]]:
    log = []
    time = EPOCH_START - rng.randrange(20, 90) * 60
    for i in range(16):
        log.append({"id": f"log-{i + 1:02d}", "time": time, "method": rng.choice(UNLOCKS),
                    "who": rng.choice(FAMILY)})  # fmt: skip
        time -= rng.randrange(3, 14) * 3600 + rng.randrange(0, 60) * 60
    return log


def _scenes(devices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_name = {d["name"]: d["id"] for d in devices}
    plans = {
        "回家": [("客厅吸顶灯", "on"), ("客厅空调", "on"), ("客厅窗帘", "off"),
                 ("客厅净化器", "on")],
        "离家": [("客厅吸顶灯", "off"), ("客厅空调", "off"), ("主卧空调", "off"),
                 ("电视插座", "off"), ("客厅摄像头", "on"), ("扫地机器人", "on")],
        "睡眠": [("主卧床头灯", "off"), ("主卧窗帘", "off"), ("主卧净化器", "on"),
                 ("客厅吸顶灯", "off")],
        "观影": [("客厅吸顶灯", "off"), ("客厅窗帘", "off"), ("电视插座", "on")],
    }  # fmt: skip
    return [
        {"id": f"sc-{i + 1}", "name": name,
         "actions": [{"id": f"sc-{i + 1}-{j + 1}", "device": by_name[dev], "op": op}
                     for j, (dev, op) in enumerate(plans[name])]}
        for i, name in enumerate(SCENE_NAMES)
    ]  # fmt: skip


def _automations(devices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    by_name = {d["name"]: d["id"] for d in devices}
    plans = (
        ("07:00", [0, 1, 2, 3, 4, 5, 6], "主卧窗帘", "on", True),
        ("23:00", [0, 1, 2, 3, 4], "客厅吸顶灯", "off", True),
        ("18:30", [0, 1, 2, 3, 4], "客厅空调", "on", False),
        ("09:30", [5, 6], "扫地机器人", "on", True),
    )
    return [
        {"id": f"au-{i + 1}", "time": time, "days": days, "device": by_name[dev], "op": op,
         "enabled": enabled}
        for i, (time, days, dev, op, enabled) in enumerate(plans)
    ]  # fmt: skip


def build(rng: random.Random) -> dict[str, Any]:
    devices = [_device(rng, i, *spec) for i, spec in enumerate(DEVICES)]
    offline = rng.sample([d for d in devices if d["kind"] in ("light", "ac", "plug", "camera")
                          and d["name"] not in ("客厅吸顶灯", "客厅空调")], 4)  # fmt: skip
    for device in offline:
        device["online"] = False
    return {
        "home": "我的家",
        "devices": devices,
        "readings": _readings(rng, devices),
        "lock_log": _lock_log(rng),
        "scenes": _scenes(devices),
        "automations": _automations(devices),
        "members": [{"id": "m-1", "name": "妈妈", "phone": "13912345678", "role": "管理员"}],
    }


def op_label(kind: str, op: str) -> str:
    if kind == "curtain":
        return "打开" if op == "on" else "关闭"
    if kind == "vacuum":
        return "开始清扫" if op == "on" else "停止清扫"
    return "打开" if op == "on" else "关闭"


def days_label(days: list[int]) -> str:
    if len(days) == 7:
        return "每天"
    if sorted(days) == [0, 1, 2, 3, 4]:
        return "工作日"
    if sorted(days) == [5, 6]:
        return "周末"
    return "、".join(DAYS[d] for d in sorted(days))
