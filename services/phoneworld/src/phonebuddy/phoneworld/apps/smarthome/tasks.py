"""Task templates of the Smart Home app (智能家居): device control, scenes and automations
here, the questions and conditional ones in `questions`, the cross-app ones in `cross`;
`TEMPLATES` lists them all."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.smarthome.base import SMARTHOME
from phonebuddy.phoneworld.apps.smarthome.common import (
    AUTOMATIONS,
    DAY_SETS,
    DAY_SETS_EN,
    OP_EN,
    OP_ZH,
    SCENES,
    SmartHomeTemplate,
    ac_changes,
    add_automation,
    device_changes,
    device_params,
    devices,
    home_tab,
    new_automation,
    open_device,
    power_changes,
    set_temperature,
)
from phonebuddy.phoneworld.apps.smarthome.content import CONTROLLABLE, days_label
from phonebuddy.phoneworld.apps.smarthome.cross import CROSS_TEMPLATES
from phonebuddy.phoneworld.apps.smarthome.questions import QUESTION_TEMPLATES
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Instruction

NEW_SCENES = ("起床", "晚餐", "阅读", "会客", "午休", "运动")


class SetAcTemperature(SmartHomeTemplate):
    id = "smarthome.set_ac_temp"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        ac = pick(rng, [d for d in devices(world) if d["kind"] == "ac" and d["online"]])
        temp = rng.choice([t for t in range(18, 29) if t != ac["temp"]])
        return {**device_params(ac), "temp": temp}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        room, t = params["room"], params["temp"]
        return phrased(
            zh=[f"把{room}的空调调到{t}度", f"帮我在智能家居里将{room}空调设为{t}℃",
                f"{room}有点不舒服，空调温度设成{t}度吧"],
            en=[f"Set the air conditioner in the {room} to {t} degrees",
                f"In Smart Home, set the {room} AC to {t}°C",
                f"The {room} is uncomfortable: put its air conditioner on {t} degrees"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        before = diff.value_before(f"apps/{SMARTHOME}/devices[{params['device_id']}]")
        return device_changes(diff, params["device_id"], ac_changes(before, params["temp"]))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_device(ui, params["device_id"])
        on = ui.text_of("device_status") != "已关闭"
        yield from set_temperature(ui, on, params["temp"])


def scene_effects(
    world_devices: list[dict[str, Any]], scene: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """device id -> the fields running `scene` changes on it."""
    by_id = {d["id"]: d for d in world_devices}
    effects = {}
    for action in scene["actions"]:
        device = by_id[action["device"]]
        if device["online"] and (changes := power_changes(device, action["op"])):
            effects[device["id"]] = changes
    return effects


class RunScene(SmartHomeTemplate):
    id = "smarthome.run_scene"
    difficulty = 3

    def sample(self, world: World, rng: random.Random) -> Params:
        scenes = [s for s in world.content(SMARTHOME)["scenes"]
                  if scene_effects(devices(world), s)]  # fmt: skip
        scene = pick(rng, scenes)
        return {"scene_id": scene["id"], "scene": scene["name"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        s = params["scene"]
        return phrased(
            zh=[f"执行智能家居里的“{s}”场景", f"帮我一键开启“{s}”模式", f"运行一下“{s}”这个场景"],
            en=[f"Run the '{s}' scene in Smart Home", f"Please start the '{s}' scene",
                f"Trigger the scene '{s}' with one tap"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        before = diff.before["apps"][SMARTHOME]
        scene = next(s for s in before["scenes"] if s["id"] == params["scene_id"])
        problems = []
        for device_id, changes in scene_effects(before["devices"], scene).items():
            problems += device_changes(diff, device_id, changes)
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from home_tab(ui, "scenes")
        yield ui.tap(f"run_{params['scene_id']}")


class BuildScene(SmartHomeTemplate):
    """Long horizon: a new scene with five device actions."""

    id = "smarthome.build_scene"
    difficulty = 26

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, [d for d in devices(world) if d["kind"] in CONTROLLABLE], 5)
        actions = [[d["id"], d["name"], rng.choice(("on", "off"))] for d in chosen]
        return {"name": rng.choice(NEW_SCENES), "actions": actions}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        zh = "，".join(f"{OP_ZH[op]}{dev}" for _, dev, op in params["actions"])
        en = ", ".join(f"{OP_EN[op]} '{dev}'" for _, dev, op in params["actions"])
        return phrased(
            zh=[f"新建一个场景“{name}”，包含这些动作：{zh}",
                f"帮我在智能家居里创建场景“{name}”，动作依次是{zh}",
                f"我想要一个叫“{name}”的场景：{zh}"],
            en=[f"Create a new scene '{name}' with these actions: {en}",
                f"In Smart Home, make a scene '{name}' whose actions are: {en}",
                f"I want a scene called '{name}': {en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        scene, problems = one_added(diff, SCENES, "scene")
        if scene is None:
            return problems
        if scene["name"] != params["name"]:
            problems.append(f"the scene is named {scene['name']!r}, expected {params['name']!r}")
        got = sorted((a["device"], a["op"]) for a in scene["actions"])
        want = sorted((d, op) for d, _, op in params["actions"])
        if got != want:
            problems.append(f"the scene's actions are {got}, expected {want}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from home_tab(ui, "scenes")
        yield ui.tap("new_scene")
        yield from ui.type_into("name", params["name"])
        yield ui.tap("create_scene")
        for device_id, _, op in params["actions"]:
            yield from ui.scroll_to("add_action")
            yield ui.tap("add_action")
            yield from ui.scroll_to(f"pick_{device_id}")
            yield ui.tap(f"pick_{device_id}")
            yield ui.tap(f"op_{op}")


class NewAutomation(SmartHomeTemplate):
    id = "smarthome.new_automation"
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        device = pick(rng, [d for d in devices(world) if d["kind"] in CONTROLLABLE])
        time = f"{rng.randrange(6, 23):02d}:{rng.choice((0, 15, 30, 45)):02d}"
        return {**device_params(device), "time": time, "when": rng.choice(list(DAY_SETS)),
                "op": rng.choice(("on", "off"))}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, when, dev = params["time"], params["when"], params["device"]
        op_zh, op_en, when_en = OP_ZH[params["op"]], OP_EN[params["op"]], DAY_SETS_EN[when]
        return phrased(
            zh=[f"添加一个自动化：{when}{t}{op_zh}{dev}", f"设置{when}的{t}自动{op_zh}{dev}",
                f"帮我建个自动化，让{dev}在{when}{t}自动{op_zh}"],
            en=[f"Add an automation: {when_en} at {t}, {op_en} '{dev}'",
                f"Set '{dev}' to {op_en} automatically at {t} {when_en}",
                f"Create an automation that will {op_en} '{dev}' {when_en} at {t}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return new_automation(diff, time=params["time"], days=DAY_SETS[params["when"]],
                              device=params["device_id"], op=params["op"])  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from home_tab(ui, "autos")
        yield from add_automation(ui, params["time"], DAY_SETS[params["when"]],
                                  params["device_id"], params["op"])  # fmt: skip


class NightAutomations(SmartHomeTemplate):
    """Long horizon: the same switch-off time for three devices, one automation each."""

    id = "smarthome.night_automations"
    difficulty = 36

    def sample(self, world: World, rng: random.Random) -> Params:
        chosen = pick(rng, [d for d in devices(world) if d["kind"] in ("light", "plug", "ac")], 3)
        return {"ids": [d["id"] for d in chosen], "names": [d["name"] for d in chosen],
                "time": rng.choice(("22:30", "23:00", "23:30", "00:00", "00:30"))}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t = params["time"]
        zh = "、".join(f"“{n}”" for n in params["names"])
        en = ", ".join(f"'{n}'" for n in params["names"])
        return phrased(
            zh=[f"给{zh}各建一个自动化：每天{t}关闭", f"我想让{zh}每天{t}都自动关掉，帮我设置好",
                f"每天{t}自动关闭这三个设备：{zh}（每个设备一条自动化）"],
            en=[f"Create an automation for each of {en}: turn it off every day at {t}",
                f"I want {en} to switch off automatically every day at {t}: set that up",
                f"Every day at {t}, turn off these three devices: {en} (one automation each)"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(AUTOMATIONS)
        got = sorted((a["time"], sorted(a["days"]), a["device"], a["op"], a["enabled"])
                     for a in added)  # fmt: skip
        want = sorted((params["time"], DAY_SETS["每天"], d, "off", True) for d in params["ids"])
        return [f"automations added {got}, expected {want}"] if got != want else []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from home_tab(ui, "autos")
        for device_id in params["ids"]:
            yield from add_automation(ui, params["time"], DAY_SETS["每天"], device_id, "off")


class DeleteAutomation(SmartHomeTemplate):
    id = "smarthome.delete_automation"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        auto = pick(rng, world.content(SMARTHOME)["automations"])
        device = next(d for d in devices(world) if d["id"] == auto["device"])
        return {"auto_id": auto["id"], "time": auto["time"], "when": days_label(auto["days"]),
                "device": device["name"], "op": auto["op"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        t, dev, op = params["time"], params["device"], params["op"]
        when = params["when"]
        return phrased(
            zh=[f"删除{when}{t}{OP_ZH[op]}“{dev}”的那条自动化",
                f"那个{when}{t}自动{OP_ZH[op]}“{dev}”的自动化不要了，删掉",
                f"在智能家居里把{when}{t}{OP_ZH[op]}“{dev}”的自动化删除"],
            en=[f"Delete the automation that will {OP_EN[op]} '{dev}' at {t}",
                f"I no longer want the {t} automation to {OP_EN[op]} '{dev}': delete it",
                f"In Smart Home, remove the automation to {OP_EN[op]} '{dev}' at {t}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [a["id"] for a in diff.removed(AUTOMATIONS)]
        return [] if removed == [params["auto_id"]] else [f"removed {removed}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from home_tab(ui, "autos")
        yield ui.tap(f"auto_{params['auto_id']}")
        yield ui.tap("delete_auto")
        yield ui.tap("confirm_delete")


TEMPLATES: tuple[TaskTemplate, ...] = (
    SetAcTemperature(),
    RunScene(),
    BuildScene(),
    NewAutomation(),
    NightAutomations(),
    DeleteAutomation(),
    *QUESTION_TEMPLATES,
    *CROSS_TEMPLATES,
)
