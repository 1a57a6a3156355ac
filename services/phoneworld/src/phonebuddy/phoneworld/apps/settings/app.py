"""The Settings app. The switches and levels it shows are the OS settings (`os/settings`), so
what it changes is what the status bar and the quick-settings shade show; Wi-Fi networks and
the about page are the app's own data."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen
from phonebuddy.phoneworld.interaction import Interaction, NoOp
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Dialog,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Text,
    TextField,
    Toggle,
    Widget,
)

SETTINGS = "com.pw.settings"
LEVEL_STEP = 10
LANGUAGES = (("zh-CN", "简体中文"), ("en-US", "English"))
LANGUAGE_NAMES = dict(LANGUAGES)
# Room below the last row of a list, so that scrolling can bring it fully into view.
END_SPACE = Spacer(60)
SIGNAL_BARS = ("", "▂", "▂▄", "▂▄▆", "▂▄▆█")

# ssid, secured, signal strength (1-4), password ("" for open networks)
NETWORKS = (
    ("ChinaNet-8A2F", True, 4, "88652341"),
    ("CMCC-5G-Home", True, 4, "cmcc2026home"),
    ("TP-LINK_5F3C", True, 3, "tplink5f3c"),
    ("Xiaomi_7E21", True, 3, "mi7e21wifi"),
    ("HUAWEI-B8D9", True, 2, "hw88b8d9"),
    ("瑞幸咖啡-Free", False, 3, ""),
    ("星巴克WiFi", False, 2, ""),
    ("Office-Guest", True, 2, "guest2026"),
    ("MERCURY_A1C8", True, 1, "mercury1c8"),
    ("ChinaUnicom-Q7", True, 1, "unicomq7q7"),
)
PAIRED_DEVICES = ("AirPods Pro", "小米手环 8", "车载蓝牙 BYD", "漫步者 W820NB")
# name, model, processor, Android version, system version
DEVICE_PROFILES = (
    ("Xiaomi 14", "23127PN0CC", "骁龙 8 Gen 3", 14, "Xiaomi HyperOS 1.0.6"),
    ("Redmi K70", "23113RKC6C", "骁龙 8 Gen 2", 14, "Xiaomi HyperOS 1.0.3"),
    ("OPPO Find X7", "PHZ110", "天玑 9300", 14, "ColorOS 14.0"),
    ("vivo X100", "V2309A", "天玑 9300", 14, "OriginOS 4"),
    ("Redmi Note 12", "22101316C", "天玑 1080", 13, "MIUI 14.0.8"),
    ("Xiaomi 15", "24129PN74C", "骁龙 8 至尊版", 15, "Xiaomi HyperOS 2.0.8"),
    ("一加 13", "PJZ110", "骁龙 8 至尊版", 15, "ColorOS 15.0"),
)


def network_id(index: int) -> str:
    return f"net-{index}"


def level_text(value: int) -> str:
    return f"{value}%"


class Settings(App):
    package = SETTINGS
    label = Label(zh="设置", en="Settings")
    domain = "system"
    theme = AppTheme(primary=(10, 89, 247))
    icon_text = "设"

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return {
            "networks": [
                {
                    "id": network_id(i),
                    "ssid": ssid,
                    "secured": secured,
                    "signal": signal,
                    "password": password,
                }
                for i, (ssid, secured, signal, password) in enumerate(NETWORKS)
            ],
            "paired_devices": list(PAIRED_DEVICES),
        }

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        strong = [n["id"] for n in content["networks"] if n["secured"] and n["signal"] >= 3]
        home, other = rng.sample(strong, k=2)
        name, model, cpu, android, system = rng.choice(DEVICE_PROFILES)
        total = rng.choice((128, 256, 512))
        return {
            "wifi": {"connected": home, "saved": sorted([home, other])},
            "about": {
                "device_name": name,
                "model": model,
                "processor": cpu,
                "android_version": android,
                "system_version": system,
                "ram_gb": rng.choice((8, 12, 16)),
                "storage_total_gb": total,
                "storage_used_gb": round(total * rng.uniform(0.3, 0.9), 1),
            },
        }

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def toggle_setting(it: Interaction, key: str) -> None:
        settings = it.os["settings"]
        settings[key] = not settings[key]

    @staticmethod
    def step_level(it: Interaction, key: str, delta: int) -> None:
        settings = it.os["settings"]
        value = min(100, max(0, settings[key] + delta))
        if value == settings[key]:
            it.no_op(f"{key} is already at {value}")
        settings[key] = value

    @staticmethod
    def set_language(it: Interaction, code: str) -> None:
        settings = it.os["settings"]
        if settings["language"] == code:
            it.no_op(f"the language is already {code}")
        settings["language"] = code
        it.set_ui("dialog", None)
        it.toast(f"已切换为{LANGUAGE_NAMES[code]}")

    @staticmethod
    def _network(it: Interaction, net_id: str) -> dict[str, Any]:
        network = next((n for n in it.content["networks"] if n["id"] == net_id), None)
        if network is None:
            raise NoOp(f"no network {net_id}")
        return network

    def _join(self, it: Interaction, net_id: str) -> None:
        wifi = it.data["wifi"]
        wifi["connected"] = net_id
        if net_id not in wifi["saved"]:
            wifi["saved"] = sorted([*wifi["saved"], net_id])
        it.set_ui("dialog", None)
        it.toast(f"已连接到 {self._network(it, net_id)['ssid']}")

    def tap_network(self, it: Interaction, net_id: str) -> None:
        """Saved and open networks join at once; a new secured one asks for its password."""
        network = self._network(it, net_id)
        if it.data["wifi"]["connected"] == net_id:
            it.no_op(f"already connected to {network['ssid']}")
        if network["secured"] and net_id not in it.data["wifi"]["saved"]:
            it.set_field("password", "")
            it.set_ui("dialog", {"kind": "password", "network": net_id, "error": False})
            return
        self._join(it, net_id)

    def submit_password(self, it: Interaction, net_id: str) -> None:
        network = self._network(it, net_id)
        if not it.field("password"):
            it.no_op("the password is empty")
        if it.field("password") != network["password"]:
            it.set_field("password", "")
            it.set_ui("dialog", {"kind": "password", "network": net_id, "error": True})
            return
        self._join(it, net_id)

    @staticmethod
    def rename_device(it: Interaction) -> None:
        name = it.field("device_name").strip()
        if not name:
            it.no_op("a device name cannot be empty")
        about = it.data["about"]
        if name == about["device_name"]:
            it.no_op("the name did not change")
        about["device_name"] = name
        it.pop()
        it.toast("设备名称已修改")

    @staticmethod
    def clear_field(it: Interaction, name: str) -> None:
        if not it.field(name):
            it.no_op(f"{name} is already empty")
        it.set_field(name, "")
        it.focus(name)

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        settings, about = v.os["settings"], v.data["about"]
        return Page(
            "设置",
            [
                Card(
                    [
                        Text(about["device_name"], size=52, bold=True),
                        Text(
                            f"{about['system_version']} · 已用 {about['storage_used_gb']} GB",
                            size=36,
                            color=theme.TEXT_SECONDARY,
                        ),
                    ],
                    on_tap=v.go("about"),
                    id="device_card",
                    padding=48,
                ),
                Spacer(30),
                self._entry(
                    v,
                    "airplane",
                    "飞行模式",
                    "飞",
                    (255, 112, 67),
                    "已开启" if settings["airplane_mode"] else "已关闭",
                ),
                self._entry(v, "wlan", "WLAN", "W", (10, 89, 247), self._wifi_summary(v)),
                self._entry(
                    v,
                    "bluetooth",
                    "蓝牙",
                    "B",
                    (30, 136, 229),
                    "已开启" if settings["bluetooth"] else "已关闭",
                ),
                Spacer(30),
                self._entry(
                    v,
                    "display",
                    "显示与亮度",
                    "亮",
                    (255, 160, 0),
                    level_text(settings["brightness"]),
                ),
                self._entry(
                    v,
                    "sound",
                    "声音",
                    "声",
                    (233, 30, 99),
                    f"音量 {level_text(settings['volume'])}",
                ),
                self._entry(
                    v,
                    "do_not_disturb",
                    "勿扰模式",
                    "勿",
                    (103, 58, 183),
                    "已开启" if settings["do_not_disturb"] else "已关闭",
                ),
                Spacer(30),
                self._entry(
                    v, "language", "语言", "语", (0, 150, 136), LANGUAGE_NAMES[settings["language"]]
                ),
                self._entry(
                    v,
                    "about",
                    "关于手机",
                    "i",
                    (96, 125, 139),
                    f"Android {about['android_version']}",
                ),
            ],
        )

    @staticmethod
    def _entry(
        v: View, target: str, title: str, glyph: str, color: theme.Color, summary: str
    ) -> ListItem:
        return ListItem(
            title,
            trailing=summary + "  ›",
            leading=glyph,
            leading_color=color,
            on_tap=v.go(target),
            id=target,
        )

    def _wifi_summary(self, v: View) -> str:
        if not v.os["settings"]["wifi"]:
            return "已关闭"
        connected = self._connected_ssid(v)
        return connected if connected else "未连接"

    @staticmethod
    def _connected_ssid(v: View) -> str | None:
        net_id = v.data["wifi"]["connected"]
        return next((n["ssid"] for n in v.content["networks"] if n["id"] == net_id), None)

    @screen("airplane")
    def airplane(self, v: View) -> Page:
        return Page(
            "飞行模式",
            [
                Toggle(
                    "飞行模式",
                    v.os["settings"]["airplane_mode"],
                    v.do(self.toggle_setting, "airplane_mode"),
                    id="airplane_toggle",
                    subtitle="关闭移动网络，WLAN 和蓝牙可单独开启",
                )
            ],
            on_back=v.back(),
        )

    @screen("wlan")
    def wlan(self, v: View) -> Page:
        on = v.os["settings"]["wifi"]
        body: list[Widget | None] = [
            Toggle("WLAN", on, v.do(self.toggle_setting, "wifi"), id="wifi_toggle")
        ]
        if not on:
            body.append(Text("开启 WLAN 后可查看可用网络", color=theme.TEXT_SECONDARY, padding=40))
            return Page("WLAN", body, on_back=v.back())
        wifi = v.data["wifi"]
        connected = [n for n in v.content["networks"] if n["id"] == wifi["connected"]]
        others = [n for n in v.content["networks"] if n["id"] != wifi["connected"]]
        others.sort(key=lambda n: (n["id"] not in wifi["saved"], -n["signal"]))
        if connected:
            body += [self._section("已连接"), self._network_item(v, connected[0], "已连接")]
        body.append(self._section("可用 WLAN"))
        body += [self._network_item(v, n, self._network_status(n, wifi["saved"])) for n in others]
        body.append(END_SPACE)
        return Page("WLAN", body, on_back=v.back(), overlay=self._password_dialog(v))

    @staticmethod
    def _section(title: str) -> Text:
        return Text(title, size=36, color=theme.TEXT_SECONDARY, padding=30)

    @staticmethod
    def _network_status(network: Any, saved: list[str]) -> str:
        if network["id"] in saved:
            return "已保存"
        return "加密" if network["secured"] else "开放网络"

    def _network_item(self, v: View, network: Any, status: str) -> ListItem:
        return ListItem(
            network["ssid"],
            subtitle=f"{status}  {SIGNAL_BARS[network['signal']]}",
            on_tap=v.do(self.tap_network, network["id"]),
            id=f"network_{network['id']}",
        )

    def _password_dialog(self, v: View) -> Dialog | None:
        dialog = v.ui("dialog")
        if not dialog or dialog["kind"] != "password":
            return None
        network = next(n for n in v.content["networks"] if n["id"] == dialog["network"])
        return Dialog(
            network["ssid"],
            message="密码错误，请重新输入" if dialog["error"] else "请输入 WLAN 密码",
            body=[TextField("password", v.field("password"), "密码", on_focus=v.focus("password"))],
            buttons=[
                Button("取消", v.set_ui("dialog", None), id="password_cancel", style="secondary"),
                Button("连接", v.do(self.submit_password, network["id"]), id="password_connect"),
            ],
            id="password_dialog",
        )

    @screen("bluetooth")
    def bluetooth(self, v: View) -> Page:
        on = v.os["settings"]["bluetooth"]
        body: list[Widget | None] = [
            Toggle(
                "蓝牙",
                on,
                v.do(self.toggle_setting, "bluetooth"),
                id="bluetooth_toggle",
                subtitle=f"设备名称：{v.data['about']['device_name']}",
            )
        ]
        if on:
            body.append(self._section("已配对的设备"))
            body += [ListItem(name, subtitle="已配对") for name in v.content["paired_devices"]]
            body.append(self._section("可用设备"))
            body.append(Text("正在搜索附近的设备…", color=theme.TEXT_SECONDARY, padding=40))
        else:
            body.append(Text("开启蓝牙后可连接附近的设备", color=theme.TEXT_SECONDARY, padding=40))
        return Page("蓝牙", body, on_back=v.back())

    def _stepper(self, v: View, key: str, title: str) -> Card:
        value = v.os["settings"][key]
        return Card(
            [
                Text(title, size=44),
                Row(
                    [
                        IconButton(
                            "minus",
                            f"降低{title}",
                            v.do(self.step_level, key, -LEVEL_STEP),
                            id=f"{key}_down",
                        ),
                        Text(
                            level_text(value), size=64, bold=True, align="center", id=f"{key}_value"
                        ),
                        IconButton(
                            "plus",
                            f"提高{title}",
                            v.do(self.step_level, key, LEVEL_STEP),
                            id=f"{key}_up",
                        ),
                    ]
                ),
            ],
            padding=40,
        )

    @screen("display")
    def display(self, v: View) -> Page:
        return Page(
            "显示与亮度",
            [
                Toggle(
                    "深色模式",
                    v.os["settings"]["dark_mode"],
                    v.do(self.toggle_setting, "dark_mode"),
                    id="dark_mode_toggle",
                    subtitle="让界面更护眼，夜间使用更舒适",
                ),
                Spacer(30),
                self._stepper(v, "brightness", "亮度"),
            ],
            on_back=v.back(),
        )

    @screen("sound")
    def sound(self, v: View) -> Page:
        return Page(
            "声音",
            [
                self._stepper(v, "volume", "媒体音量"),
                Spacer(30),
                ListItem("来电铃声", subtitle="默认铃声 (Mi)"),
                ListItem("通知提示音", subtitle="叮咚"),
            ],
            on_back=v.back(),
        )

    @screen("do_not_disturb")
    def do_not_disturb(self, v: View) -> Page:
        return Page(
            "勿扰模式",
            [
                Toggle(
                    "勿扰模式",
                    v.os["settings"]["do_not_disturb"],
                    v.do(self.toggle_setting, "do_not_disturb"),
                    id="dnd_toggle",
                    subtitle="开启后，来电和通知将静音",
                ),
                Text(
                    "闹钟仍会正常响铃。重复来电（15 分钟内同一号码第二次来电）不会被静音。",
                    size=36,
                    color=theme.TEXT_SECONDARY,
                    padding=40,
                ),
            ],
            on_back=v.back(),
        )

    @screen("language")
    def language(self, v: View) -> Page:
        current = v.os["settings"]["language"]
        items = [
            ListItem(
                name,
                trailing="✓" if code == current else "",
                selected=code == current,
                on_tap=v.set_ui("dialog", code) if code != current else None,
                id=f"language_{code}",
            )
            for code, name in LANGUAGES
        ]
        dialog = None
        chosen = v.ui("dialog")
        if chosen in LANGUAGE_NAMES:
            dialog = v.confirm(
                f"将系统语言切换为{LANGUAGE_NAMES[chosen]}？",
                v.do(self.set_language, chosen),
                message="部分应用需要重新打开后才会显示新语言。",
                label="切换",
                confirm_id="language_confirm",
                cancel_id="language_cancel",
            )
        return Page("语言", items, on_back=v.back(), overlay=dialog)

    @screen("about")
    def about(self, v: View) -> Page:
        about = v.data["about"]
        used, total = about["storage_used_gb"], about["storage_total_gb"]
        return Page(
            "关于手机",
            [
                Text(about["device_name"], size=64, bold=True, align="center", padding=50),
                ListItem(
                    "设备名称",
                    subtitle=about["device_name"],
                    trailing="›",
                    on_tap=v.go("rename", fields={"device_name": about["device_name"]}),
                    id="about_device_name",
                ),
                ListItem("型号", subtitle=about["model"], id="about_model"),
                ListItem(
                    "Android 版本",
                    subtitle=str(about["android_version"]),
                    id="about_android_version",
                ),
                ListItem("系统版本", subtitle=about["system_version"], id="about_system_version"),
                ListItem("处理器", subtitle=about["processor"], id="about_processor"),
                ListItem("运行内存", subtitle=f"{about['ram_gb']} GB", id="about_ram"),
                ListItem(
                    "存储空间", subtitle=f"已用 {used} GB / 共 {total} GB", id="about_storage"
                ),
                END_SPACE,
            ],
            on_back=v.back(),
        )

    @screen("rename")
    def rename(self, v: View) -> Page:
        return Page(
            "设备名称",
            [
                Row(
                    [
                        TextField(
                            "device_name",
                            v.field("device_name"),
                            "设备名称",
                            on_focus=v.focus("device_name"),
                        ),
                        IconButton(
                            "close", "清除", v.do(self.clear_field, "device_name"), id="clear"
                        ),
                    ]
                ),
                Text(
                    "设备名称会在蓝牙、WLAN 直连和热点中对其他设备显示。",
                    size=36,
                    color=theme.TEXT_SECONDARY,
                ),
                Button("确定", v.do(self.rename_device), id="rename_save"),
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )
