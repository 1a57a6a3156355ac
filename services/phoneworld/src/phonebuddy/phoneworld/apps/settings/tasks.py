"""Task templates of the Settings app, and one that takes a Wi-Fi password from Notes."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.settings.app import (
    DEVICE_PROFILES,
    LANGUAGE_NAMES,
    LEVEL_STEP,
    NETWORKS,
    SETTINGS,
    network_id,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI, texts
from phonebuddy.phoneworld.tasks.toggles import Switch, ToggleTemplate
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction, Type

NOTES = "com.pw.notes"
WIFI = f"apps/{SETTINGS}/wifi"
ABOUT = f"apps/{SETTINGS}/about"


SWITCHES = {
    key: Switch(f"os/settings/{key}", (entry,), toggle, zh, en)
    for key, entry, toggle, zh, en in (
        ("wifi", "wlan", "wifi_toggle", "WLAN", "Wi-Fi"),
        ("bluetooth", "bluetooth", "bluetooth_toggle", "蓝牙", "Bluetooth"),
        ("dark_mode", "display", "dark_mode_toggle", "深色模式", "dark mode"),
        ("do_not_disturb", "do_not_disturb", "dnd_toggle", "勿扰模式", "Do Not Disturb"),
        ("airplane_mode", "airplane", "airplane_toggle", "飞行模式", "airplane mode"),
    )
}
# level setting: (home entry, zh name, en name)
LEVELS = {"brightness": ("display", "屏幕亮度", "screen brightness"),
          "volume": ("sound", "媒体音量", "media volume")}  # fmt: skip
SSIDS = {network_id(i): network[0] for i, network in enumerate(NETWORKS)}
DEVICE_NAMES = (
    "小王的手机",
    "Lily's Phone",
    "办公备用机",
    "老爸的手机",
    "PW-Test-01",
    "阿杰的小米",
)


def expect_setting(diff: StateDiff, key: str, expected: Any) -> list[str]:
    """Claim os/settings/<key> and check where it ended up."""
    diff.touched(f"os/settings/{key}")
    value = diff.value_after(f"os/settings/{key}")
    return [] if value == expected else [f"{key} is {value!r}, expected {expected!r}"]


def switch_to(ui: OracleUI, key: str, on: bool) -> Iterator[Action]:
    """From the Settings home: open the setting's page and flip it if it is not `on` yet."""
    switch = SWITCHES[key]
    yield from ui.scroll_to(switch.route[0])
    yield ui.tap(switch.route[0])
    toggle = ui.find(switch.toggle)
    if toggle is None:
        raise OracleError(f"{switch.toggle!r} is not on screen")
    if toggle.checked != on:
        yield ui.tap(switch.toggle)


def step_level_to(ui: OracleUI, key: str, target: int) -> Iterator[Action]:
    """On a page with the level's −/+ stepper: tap until it shows `target`."""
    while True:
        current = int(ui.texts_in(f"{key}_value")[0].rstrip("%"))
        if current == target:
            return
        yield ui.tap(f"{key}_up" if current < target else f"{key}_down")


def _level_pair(rng: random.Random) -> tuple[int, int]:
    """A start and a target level, two to five steps apart."""
    start = rng.randrange(0, 11) * LEVEL_STEP
    targets = [t * LEVEL_STEP for t in range(11) if 2 <= abs(t * LEVEL_STEP - start) // 10 <= 5]
    return start, rng.choice(targets)


def _connect(ui: OracleUI, ssid: str, password: str) -> Iterator[Action]:
    """From the Settings home: join `ssid`, typing `password` when asked."""
    yield ui.tap("wlan")
    yield from ui.scroll_to(text=ssid)
    item = next((n for n in ui.find_all() if n.resource_id.startswith(f"{SETTINGS}:id/network_")
                 and ssid in texts(n)), None)  # fmt: skip
    if item is None:
        raise OracleError(f"network {ssid!r} is not listed")
    widget_id = item.resource_id.rpartition(":id/")[2]
    yield from ui.scroll_to(widget_id)
    yield ui.tap(widget_id)
    if ui.visible("password"):
        yield from ui.type_into("password", password)
        yield ui.tap("password_connect")


def _wifi_problems(diff: StateDiff, net_id: str) -> list[str]:
    diff.touched(WIFI)
    before, after = diff.value_before(WIFI), diff.value_after(WIFI)
    problems = []
    if after["connected"] != net_id:
        problems.append(f"connected to {after['connected']}, expected {net_id}")
    if sorted({*before["saved"], net_id}) != after["saved"]:
        problems.append(f"saved networks are {after['saved']}, expected {net_id} added")
    return problems


def _prepare_wifi(it: Interaction, net_id: str) -> None:
    """Wi-Fi on, connected to a saved network that is not `net_id`, and `net_id` not saved."""
    it.os["settings"]["wifi"] = True
    wifi = it.app_data(SETTINGS)["wifi"]
    wifi["saved"] = [n for n in wifi["saved"] if n != net_id]
    if wifi["connected"] == net_id or wifi["connected"] not in wifi["saved"]:
        wifi["connected"] = wifi["saved"][0]


def _secured_network(rng: random.Random) -> dict[str, Any]:
    index = rng.choice([i for i, n in enumerate(NETWORKS) if n[1]])
    ssid, _, _, password = NETWORKS[index]
    return {"network": network_id(index), "ssid": ssid, "password": password}


class SettingsTemplate(TaskTemplate):
    """A template of the Settings app alone."""

    category = Category.SINGLE_APP
    apps = (SETTINGS,)


class ToggleSetting(ToggleTemplate):
    id = "settings.toggle"
    apps = (SETTINGS,)
    difficulty = 3
    app_names = ("设置", "Settings")
    switches = SWITCHES


class _SetLevel(SettingsTemplate):
    key: str
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        start, target = _level_pair(rng)
        return {"start": start, "target": target}

    def setup(self, it: Interaction, params: Params) -> None:
        it.os["settings"][self.key] = params["start"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        _, zh, en = LEVELS[self.key]
        target = params["target"]
        return phrased(
            zh=[f"把{zh}调到 {target}%", f"{zh}设成 {target}%", f"在设置里把{zh}改为 {target}%"],
            en=[f"Set the {en} to {target}%", f"Make the {en} {target}%",
                f"In Settings, change the {en} to {target}%"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_setting(diff, self.key, params["target"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("设置")
        yield ui.tap(LEVELS[self.key][0])
        yield from step_level_to(ui, self.key, params["target"])


class SetBrightness(_SetLevel):
    id = "settings.brightness"
    key = "brightness"


class SetVolume(_SetLevel):
    id = "settings.volume"
    key = "volume"


class SwitchLanguage(SettingsTemplate):
    id = "settings.language"
    difficulty = 4

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"language": rng.choice(sorted(LANGUAGE_NAMES))}

    def setup(self, it: Interaction, params: Params) -> None:
        other = next(code for code in LANGUAGE_NAMES if code != params["language"])
        it.os["settings"]["language"] = other

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = LANGUAGE_NAMES[params["language"]]
        english = "Simplified Chinese" if params["language"] == "zh-CN" else "English"
        return phrased(
            zh=[f"把手机的系统语言改成{name}", f"系统语言切换为{name}",
                f"我想让手机显示{name}，改一下语言"],
            en=[f"Change the phone's system language to {english}",
                f"Switch the system language to {english}",
                f"I want the phone in {english}; change its language"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return expect_setting(diff, "language", params["language"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("设置")
        yield from ui.scroll_to("language")
        yield ui.tap("language")
        yield ui.tap(f"language_{params['language']}")
        yield ui.tap("language_confirm")


class ConnectWifi(SettingsTemplate):
    id = "settings.wifi_connect"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        return _secured_network(rng)

    def setup(self, it: Interaction, params: Params) -> None:
        _prepare_wifi(it, params["network"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        ssid, password = params["ssid"], params["password"]
        return phrased(
            zh=[f"连接 WLAN 网络“{ssid}”，密码是 {password}",
                f"帮我连上“{ssid}”这个 WiFi，密码 {password}",
                f"WLAN 密码是 {password}，请连接网络“{ssid}”"],
            en=[f"Connect to the Wi-Fi network '{ssid}'; the password is {password}",
                f"Join the '{ssid}' Wi-Fi with the password {password}",
                f"The Wi-Fi password is {password}: connect to the network '{ssid}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _wifi_problems(diff, params["network"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("设置")
        yield from _connect(ui, params["ssid"], params["password"])


class RenameDevice(SettingsTemplate):
    id = "settings.rename_device"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"name": rng.choice(DEVICE_NAMES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"把这台手机的设备名称改为“{name}”", f"手机名称改成“{name}”",
                f"在关于手机里把设备名设为“{name}”"],
            en=[f"Rename this phone to '{name}'", f"Change the device name to '{name}'",
                f"In About phone, set the device name to '{name}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.touched(f"{ABOUT}/device_name")
        name = diff.value_after(f"{ABOUT}/device_name")
        return [] if name == params["name"] else [f"device name is {name!r}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("设置")
        yield ui.tap("device_card")
        yield ui.tap("about_device_name")
        yield ui.tap("clear")  # clearing also focuses the field
        yield Type(text=params["name"])
        yield ui.tap("rename_save")


class NightMode(SettingsTemplate):
    id = "settings.night_mode"
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        start = rng.randrange(6, 11) * LEVEL_STEP
        return {"start": start, "target": rng.choice((10, 20, 30))}

    def setup(self, it: Interaction, params: Params) -> None:
        settings = it.os["settings"]
        settings.update(dark_mode=False, do_not_disturb=False, brightness=params["start"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        target = params["target"]
        return phrased(
            zh=[f"睡前设置：打开勿扰模式和深色模式，并把屏幕亮度调到 {target}%",
                f"我要睡觉了：开启勿扰和深色模式，亮度调成 {target}%",
                f"把屏幕亮度调到 {target}%，再打开深色模式和勿扰模式"],
            en=[f"Bedtime setup: turn on Do Not Disturb and dark mode, and set the screen "
                f"brightness to {target}%",
                f"I'm going to sleep: turn on Do Not Disturb and dark mode, brightness {target}%",
                f"Set the screen brightness to {target}%, then turn on dark mode and Do Not "
                "Disturb"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return [
            *expect_setting(diff, "do_not_disturb", True),
            *expect_setting(diff, "dark_mode", True),
            *expect_setting(diff, "brightness", params["target"]),
        ]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("设置")
        yield from switch_to(ui, "do_not_disturb", True)
        yield ui.back()
        yield from switch_to(ui, "dark_mode", True)
        yield from step_level_to(ui, "brightness", params["target"])


class AskBrightness(SettingsTemplate):
    id = "settings.ask_brightness"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"brightness": rng.randrange(1, 11) * LEVEL_STEP}

    def setup(self, it: Interaction, params: Params) -> None:
        it.os["settings"]["brightness"] = params["brightness"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["现在屏幕亮度是多少？", "看一下屏幕亮度设的是多少", "手机亮度现在调到了几？"],
            en=["What is the screen brightness now?", "Check what the screen brightness is set to",
                "How bright is the screen set at the moment?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(diff.value_before("os/settings/brightness"), unit="%")

    def wrong_answer(self, params: Params) -> str:
        return f"{params['brightness'] - LEVEL_STEP}%"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("设置")
        yield ui.tap("display")
        yield Answer(text=ui.texts_in("brightness_value")[0])


# about-page field: (list item id, zh question, en question, a value no device has)
# field: (the About entry that shows it, zh wordings, en wordings, a wrong answer)
ABOUT_QUESTIONS = {
    "android_version": (
        "about_android_version",
        ("这台手机的 Android 版本是多少？", "手机系统是安卓几？", "查一下手机的 Android 版本"),
        ("Which Android version does this phone run?", "What Android version is on this phone?",
         "Look up the phone's Android version"),
        "Android 12",
    ),
    "ram_gb": (
        "about_ram",
        ("这台手机的运行内存有多大？", "手机的 RAM 是多少？", "看看这台手机运行内存几个 G"),
        ("How much RAM does this phone have?", "What is the phone's RAM?",
         "Check how many GB of memory (RAM) this phone has"),
        "6 GB",
    ),
    "storage_used_gb": (
        "about_storage",
        ("手机存储空间已经用了多少 GB？", "存储已用多少？", "查一下手机存储用掉了多少空间"),
        ("How many GB of storage are used on this phone?", "How much storage has been used?",
         "Find out how much of the phone's storage is used up"),
        "999.9 GB",
    ),
    "model": (
        "about_model",
        ("这台手机的型号是什么？", "手机型号是多少？", "帮我看一下这台手机的型号"),
        ("What is this phone's model number?", "Which model is this phone?",
         "Look up the model number of this phone"),
        "SM-S9180",
    ),
}  # fmt: skip


class AboutPhone(SettingsTemplate):
    id = "settings.about_phone"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"field": rng.choice(sorted(ABOUT_QUESTIONS))}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        _, zh, en, _ = ABOUT_QUESTIONS[params["field"]]
        return phrased(zh, en)

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        value = diff.value_before(f"{ABOUT}/{params['field']}")
        if isinstance(value, str):  # the model number, the one text field asked about
            return Text([value], others=[p[1] for p in DEVICE_PROFILES], what="model")
        return Number(value, unit=" GB" if params["field"].endswith("_gb") else "")

    def wrong_answer(self, params: Params) -> str:
        return ABOUT_QUESTIONS[params["field"]][3]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("设置")
        yield from ui.scroll_to("about")
        yield ui.tap("about")
        item = ABOUT_QUESTIONS[params["field"]][0]
        yield from ui.scroll_to(item)
        shown = ui.texts_in(item)[-1]  # storage reads '已用 87.0 GB / 共 256 GB': the used part
        yield Answer(text=shown.partition(" / ")[0])


class AskConnectedWifi(SettingsTemplate):
    id = "settings.ask_wifi"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        first, second = rng.sample([i for i, n in enumerate(NETWORKS) if n[1]], k=2)
        # this task's own saved networks besides the connected one: a seeded 0 to 9 of them
        rest = [network_id(i) for i in range(len(NETWORKS)) if i != first]
        saved = rng.sample(rest, rng.randint(0, len(rest)))
        return {"network": network_id(first), "ssid": NETWORKS[first][0],
                "other_ssid": NETWORKS[second][0], "saved": sorted(saved)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.os["settings"]["wifi"] = True
        wifi = it.app_data(SETTINGS)["wifi"]
        wifi["connected"] = params["network"]
        wifi["saved"] = sorted({*params["saved"], params["network"]})

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["手机现在连接的是哪个 WLAN？除了它还保存了几个网络？",
                "现在连的 WiFi 叫什么名字？另外还有几个已保存的 WiFi？",
                "查一下手机当前连接的无线网络，以及除此之外已保存的网络有几个"],
            en=["Which Wi-Fi network is the phone connected to, and how many other networks "
                "are saved?",
                "What's the name of the Wi-Fi the phone is on? How many other saved Wi-Fi "
                "networks are there?",
                "Find out which wireless network the phone is using right now, and how many "
                "networks besides it are saved"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        connected = diff.value_before(f"{WIFI}/connected")
        saved = [n for n in diff.value_before(f"{WIFI}/saved") if n != connected]
        name = Text([SSIDS[connected]], others=[n[0] for n in NETWORKS], what="Wi-Fi network")
        return Together(name, Number(len(saved), unit="个"))

    def wrong_answer(self, params: Params) -> str:
        return f"{params['other_ssid']}，另外保存了{len(params['saved'])}个"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("设置")
        yield ui.tap("wlan")
        seen: dict[str, list[str]] = {}
        while True:
            for node in ui.find_all():
                if node.resource_id.startswith(f"{SETTINGS}:id/network_"):
                    found = texts(node)
                    if len(found) >= len(seen.get(node.resource_id, [])):
                        seen[node.resource_id] = found
            if ui.device.scroll_room("content")[1] <= 0:
                break
            yield ui.page_down()
        connected = next((t for t in seen.values() if t[-1].startswith("已连接")), None)
        if connected is None:
            raise OracleError("no network is marked 已连接")
        saved = sum(t[-1].startswith("已保存") for t in seen.values())
        yield Answer(text=f"{connected[0]}，另外保存了{saved}个")


# Notes that hold a network's name and password, as people jot them down.
WIFI_NOTE_TITLES = ("公司WiFi", "咖啡店WiFi", "朋友家WiFi", "新家WiFi")
_WIFI_NOTE = re.compile(r"网络：(?P<ssid>\S+)\s+密码：(?P<password>\S+)")


class WifiFromNote(TaskTemplate):
    id = "settings.wifi_from_note"
    category = Category.CROSS_APP
    apps = (SETTINGS, NOTES)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**_secured_network(rng), "note": rng.choice(WIFI_NOTE_TITLES)}

    def setup(self, it: Interaction, params: Params) -> None:
        _prepare_wifi(it, params["network"])
        body = f"网络：{params['ssid']}  密码：{params['password']}"
        it.app_data(NOTES)["notes"].insert(
            0, {"id": "note-wifi", "title": params["note"], "body": body, "pinned": False}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        note = params["note"]
        return phrased(
            zh=[f"备忘录“{note}”里记着一个 WLAN 的名称和密码，帮我把手机连上这个网络",
                f"WiFi 名和密码在备忘录“{note}”里，照着连上",
                f"打开备忘录“{note}”，用里面的 WLAN 名称和密码连接网络"],
            en=[f"The note '{note}' has a Wi-Fi network's name and password; connect the phone "
                "to that network",
                f"The Wi-Fi name and password are in the note '{note}': get the phone on it",
                f"Open the note '{note}' and join the Wi-Fi network it names, with its password"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return _wifi_problems(diff, params["network"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["note"])
        yield ui.tap(text=params["note"])
        found = _WIFI_NOTE.search(ui.texts_in(f"{NOTES}:id/note_body")[0])
        if found is None:
            raise OracleError("the note holds no network and password")
        yield ui.open("设置")
        yield from _connect(ui, found["ssid"], found["password"])


TEMPLATES: tuple[TaskTemplate, ...] = (
    ToggleSetting(),
    SetBrightness(),
    SetVolume(),
    SwitchLanguage(),
    ConnectWifi(),
    RenameDevice(),
    NightMode(),
    AskBrightness(),
    AboutPhone(),
    AskConnectedWifi(),
    WifiFromNote(),
)
