"""Question and conditional templates of 智能家居: the most humid room, a device's week of
energy use, how many devices are offline; the purifier or the curtain by the PM2.5 reading, the
air conditioner's dehumidifying or the purifier by the humidity."""

from __future__ import annotations

import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.smarthome.base import SMARTHOME
from phonebuddy.phoneworld.apps.smarthome.common import (
    SmartHomeTemplate,
    by_name,
    device_changes,
    device_params,
    devices,
    open_device,
    power_changes,
    readings,
)
from phonebuddy.phoneworld.apps.smarthome.content import ROOMS
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Instruction

SENSOR_ROOMS = {f"{room}温湿度计": room for room in ROOMS}


def week_kwh(world: World, device_id: str) -> float:
    return round(sum(readings(world)["energy"][device_id]), 1)


class MostHumidRoom(SmartHomeTemplate):
    """Compare: the room whose 温湿度计 reads the highest humidity, and that humidity (this
    task's own readings: every room's differs)."""

    id = "smarthome.most_humid_room"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        sensors = [d for d in devices(world) if d["kind"] == "sensor"]
        level = rng.randrange(30, 66)  # the day's humidity, every room's a little apart
        humidity = [level + h for h in rng.sample(range(26), len(sensors))]
        found = {str(d["id"]): {"temp": round(rng.uniform(18, 28), 1), "humidity": h}
                 for d, h in zip(sensors, humidity, strict=True)}  # fmt: skip
        ranked = sorted(sensors, key=lambda d: -found[d["id"]]["humidity"])
        return {"readings": found, "sensor_ids": [str(d["id"]) for d in sensors],
                "second": [str(ranked[1]["room"]), found[ranked[1]["id"]]["humidity"]]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        for device in it.data["devices"]:
            if device["id"] in params["readings"]:
                device["reading"] = dict(params["readings"][device["id"]])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["家里哪个房间湿度最高？湿度是多少？",
                "看看各房间的温湿度计，哪个房间最潮湿，湿度多少？",
                "智能家居里，湿度读数最高的是哪个房间？读数是多少？"],
            en=["Which room at home has the highest humidity, and what is it?",
                "Check the room sensors: which room is the most humid, and how humid is it?",
                "In Smart Home, which room's humidity reading is the highest, and what does it "
                "read?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        before = {d["id"]: d for d in diff.before["apps"][SMARTHOME]["devices"]}
        found = {before[i]["room"]: before[i]["reading"]["humidity"] for i in params["sensor_ids"]}
        room = max(found, key=lambda r: found[r])
        others = [r for r in ROOMS if r != room]
        return Together(Text((room,), others=others, what="room"),
                        Number(found[room], unit="%"))  # fmt: skip

    def wrong_answer(self, params: Params) -> str:
        room, humidity = params["second"]
        return f"{room}，湿度{humidity}%"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("智能家居")
        best, best_value = "", -1
        for sensor_id in params["sensor_ids"]:
            yield from ui.scroll_to(f"dev_{sensor_id}")
            room, status = ui.texts_in(f"dev_{sensor_id}")[-1].split("｜")
            value = int(status.split("湿度")[1].rstrip("%"))
            if value > best_value:
                best, best_value = room, value
        yield Answer(text=f"{best}，湿度{best_value}%")


class WeekEnergy(SmartHomeTemplate):
    """Aggregate: a device's kWh over the last seven days, summed."""

    id = "smarthome.week_energy"
    difficulty = 6
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        device = pick(rng, [d for d in devices(world) if d["id"] in readings(world)["energy"]])
        return {**device_params(device), "total": week_kwh(world, device["id"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        dev = params["device"]
        return phrased(
            zh=[f"“{dev}”近7天一共用了多少度电？", f"算一下“{dev}”近7天的总用电量是多少度",
                f"把“{dev}”过去7天每天的用电加起来是多少度？"],
            en=[f"How many kWh did '{dev}' use in total over the last 7 days?",
                f"Work out the total energy use of '{dev}' over the past 7 days, in kWh",
                f"What do the daily kWh of '{dev}' for the last 7 days add up to?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(params["total"], unit="度")

    def wrong_answer(self, params: Params) -> str:
        return f"{params['total'] + 1.5:.1f}度"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_device(ui, params["device_id"])
        total = 0.0
        for day in range(7):
            yield from ui.scroll_to(f"energy_{day}")
            said = next(t for t in ui.texts_in(f"energy_{day}") if t.endswith("度"))
            total += float(said[:-1])
        yield Answer(text=f"{total:.1f}度")


class OfflineCount(SmartHomeTemplate):
    """Count: the devices shown 离线 on the device list."""

    id = "smarthome.offline_count"
    difficulty = 8
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # this task's own offline devices: a seeded 1 to 18 of them
        offline = rng.sample([str(d["id"]) for d in devices(world)], rng.randint(1, 18))
        return {"count": len(offline), "offline": sorted(offline),
                "ids": [d["id"] for d in devices(world)]}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        for device in it.data["devices"]:
            device["online"] = device["id"] not in params["offline"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["家里现在有几个设备离线？", "数一下智能家居里离线的设备有多少个",
                "我家有多少台设备处于离线状态？"],
            en=["How many devices at home are offline right now?",
                "Count the offline devices in Smart Home",
                "How many of my home's devices are offline?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        before = diff.before["apps"][SMARTHOME]["devices"]
        return Number(sum(not d["online"] for d in before))

    def wrong_answer(self, params: Params) -> str:
        return f"{params['count'] + 1}个"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("智能家居")
        count = 0
        for device_id in params["ids"]:
            yield from ui.scroll_to(f"dev_{device_id}")
            count += ui.texts_in(f"dev_{device_id}")[-1].endswith("离线")
        yield Answer(text=f"{count}个")


class PurifierByPm(SmartHomeTemplate):
    """Conditional: PM2.5 above a threshold turns the room's purifier on, otherwise its
    curtain is opened (or closed, when it is open already)."""

    id = "smarthome.purifier_by_pm"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        room = rng.choice(("客厅", "主卧", "次卧"))
        purifier, curtain = by_name(world, f"{room}净化器"), by_name(world, f"{room}窗帘")
        pm = readings(world)["pm25"][purifier["id"]]
        threshold = rng.choice((50, 75, 100, 115))
        if threshold == pm:
            threshold += 5
        return {"room": room, "threshold": threshold, "purifier_id": purifier["id"],
                "curtain_id": curtain["id"], "high": pm > threshold,
                "curtain_op": "off" if curtain["position"] else "on"}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        room, n = params["room"], params["threshold"]
        op = "关上" if params["curtain_op"] == "off" else "打开"
        op_en = "close" if params["curtain_op"] == "off" else "open"
        return phrased(
            zh=[f"看一下{room}净化器的PM2.5：高于{n}就打开净化器，否则把{room}窗帘{op}",
                f"如果{room}的PM2.5超过{n}，帮我开净化器；没超过的话就{op}{room}窗帘",
                f"{room}PM2.5大于{n}时开启{room}净化器，不然就把{room}的窗帘{op}"],
            en=[f"Check the PM2.5 on the {room} purifier: above {n}, turn the purifier on; "
                f"otherwise {op_en} the {room} curtain",
                f"If the {room} PM2.5 is over {n}, switch on the purifier; if not, {op_en} the "
                f"{room} curtain",
                f"When the {room} PM2.5 exceeds {n}, turn on its purifier, else {op_en} the "
                f"{room} curtain"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        devs = {d["id"]: d for d in diff.before["apps"][SMARTHOME]["devices"]}
        if params["high"]:
            return device_changes(diff, params["purifier_id"], {"on": True})
        curtain = devs[params["curtain_id"]]
        return device_changes(diff, curtain["id"], power_changes(curtain, params["curtain_op"]))

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_device(ui, params["purifier_id"])
        pm = int(ui.text_of("pm25").split("：")[1].removesuffix("μg/m³"))
        if pm > params["threshold"]:
            yield ui.tap("power")
            return
        yield ui.back()
        yield from open_device(ui, params["curtain_id"])
        yield ui.tap("pos_0" if params["curtain_op"] == "off" else "pos_100")


class DryIfHumid(SmartHomeTemplate):
    """Conditional: a humid living room gets the AC in 除湿 mode, otherwise the purifier on."""

    id = "smarthome.dry_if_humid"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        humidity = readings(world)["sensors"]["客厅"]["humidity"]
        ac, purifier = by_name(world, "客厅空调"), by_name(world, "客厅净化器")
        threshold = rng.choice((50, 60, 70))
        if threshold == humidity or (ac["on"] and ac["mode"] == "除湿"):
            threshold = max(humidity + 1, threshold)
        return {"threshold": threshold, "high": humidity > threshold, "ac_id": ac["id"],
                "purifier_id": purifier["id"],
                "sensor_id": by_name(world, "客厅温湿度计")["id"]}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        n = params["threshold"]
        return phrased(
            zh=[f"客厅湿度如果高于{n}%，把客厅空调开成除湿模式；否则打开客厅净化器",
                f"看看客厅温湿度计：湿度超过{n}%就让客厅空调除湿，没超过就开客厅净化器",
                f"客厅湿度大于{n}%的话开空调除湿，不然帮我开一下客厅的空气净化器"],
            en=[f"If the living-room (客厅) humidity is above {n}%, run the 客厅 AC in 除湿 "
                "mode; otherwise turn on the 客厅 purifier",
                f"Check the 客厅 sensor: humidity over {n}% means the 客厅 AC on 除湿 mode, "
                "otherwise switch on the 客厅 purifier",
                f"When the 客厅 humidity exceeds {n}%, set the AC there to 除湿 (dry) mode, else "
                "turn on the 客厅 air purifier"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        if not params["high"]:
            return device_changes(diff, params["purifier_id"], {"on": True})
        ac = diff.value_before(f"apps/{SMARTHOME}/devices[{params['ac_id']}]")
        changes = {} if ac["on"] else {"on": True}
        if ac["mode"] != "除湿":
            changes["mode"] = "除湿"
        return device_changes(diff, params["ac_id"], changes)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_device(ui, params["sensor_id"])
        humidity = int(ui.text_of("humidity").split("：")[1].rstrip("%"))
        yield ui.back()
        if humidity <= params["threshold"]:
            yield from open_device(ui, params["purifier_id"])
            yield ui.tap("power")
            return
        yield from open_device(ui, params["ac_id"])
        if ui.text_of("device_status") == "已关闭":
            yield ui.tap("power")
        if not ui.text_of("device_status").startswith("除湿"):
            yield ui.tap("mode_2")


QUESTION_TEMPLATES: tuple[TaskTemplate, ...] = (
    MostHumidRoom(),
    WeekEnergy(),
    OfflineCount(),
    PurifierByPm(),
    DryIfHumid(),
)
