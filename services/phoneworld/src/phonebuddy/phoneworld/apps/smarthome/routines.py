"""Scenes (run, create, rename, add and remove device actions, delete behind a confirmation),
timed automations (create with a time, weekdays and an action; enable or disable; delete behind
a confirmation) and sharing the home with family members by phone number."""

from __future__ import annotations

import re
from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.smarthome.base import ORANGE, SmartHomeBase
from phonebuddy.phoneworld.apps.smarthome.content import CONTROLLABLE, DAYS, ROLES, days_label
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Chip,
    IconButton,
    ListItem,
    Page,
    Text,
    TextField,
    Toggle,
    Widget,
    Wrap,
)

TIME = re.compile(r"^([01]\d|2[0-3]):[0-5]\d$")
PHONE = re.compile(r"^1\d{10}$")
OPS = (("on", "打开"), ("off", "关闭"))
PRESETS = (
    ("every", "每天", [0, 1, 2, 3, 4, 5, 6]),
    ("weekdays", "工作日", [0, 1, 2, 3, 4]),
    ("weekend", "周末", [5, 6]),
)


class RoutineScreens(SmartHomeBase):
    # -- handlers -----------------------------------------------------------------------------
    def run_scene(self, it: Interaction, scene_id: str) -> None:
        scene = self.find(it.data["scenes"], scene_id)
        if scene is None or not scene["actions"]:
            it.toast("场景中还没有动作")
            it.no_op(f"{scene_id} has no actions")
        changed = offline = 0
        for action in scene["actions"]:
            device = self.find(it.data["devices"], action["device"])
            if device is None or not device["online"]:
                offline += 1
            elif self.apply(device, action["op"]):
                changed += 1
        if not changed:
            it.toast("设备均已是目标状态" + (f"，{offline}个设备离线" if offline else ""))
            it.no_op(f"{scene_id} changed nothing")
        it.toast(f"已执行“{scene['name']}”" + (f"，{offline}个设备离线未执行" if offline else ""))

    def _scene_name(self, it: Interaction, keep: str | None = None) -> str:
        name = it.field("name").strip()
        if not name:
            it.toast("请输入场景名称")
            it.no_op("empty scene name")
        if any(s["name"] == name and s["id"] != keep for s in it.data["scenes"]):
            it.toast("已有同名场景")
            it.no_op(f"scene {name} exists")
        return name

    def create_scene(self, it: Interaction) -> None:
        name = self._scene_name(it)
        scene_id = it.new_id("sc")
        it.data["scenes"].append({"id": scene_id, "name": name, "actions": []})
        it.replace("scene", scene_id=scene_id, fields={"name": name})
        it.toast("场景已创建")

    def rename_scene(self, it: Interaction, scene_id: str) -> None:
        scene = self.find(it.data["scenes"], scene_id)
        if scene is None:
            it.no_op("no such scene")
        name = self._scene_name(it, keep=scene_id)
        if name == scene["name"]:
            it.no_op("name unchanged")
        scene["name"] = name
        it.toast("名称已保存")

    def add_action(self, it: Interaction, scene_id: str, device_id: str, op: str) -> None:
        scene = self.find(it.data["scenes"], scene_id)
        if scene is None:
            it.no_op("no such scene")
        if any(a["device"] == device_id for a in scene["actions"]):
            it.toast("该设备已在场景中")
            it.no_op(f"{device_id} already in {scene_id}")
        scene["actions"].append({"id": it.new_id("act"), "device": device_id, "op": op})
        it.pop()
        it.pop()
        it.toast("已添加动作")

    def remove_action(self, it: Interaction, scene_id: str, action_id: str) -> None:
        scene = self.find(it.data["scenes"], scene_id)
        if scene is None or self.find(scene["actions"], action_id) is None:
            it.no_op("no such action")
        scene["actions"] = [a for a in scene["actions"] if a["id"] != action_id]

    def delete_scene(self, it: Interaction, scene_id: str) -> None:
        if self.find(it.data["scenes"], scene_id) is None:
            it.no_op("no such scene")
        it.data["scenes"] = [s for s in it.data["scenes"] if s["id"] != scene_id]
        it.set_ui("dialog", None)
        it.pop()
        it.toast("场景已删除")

    def create_automation(self, it: Interaction) -> None:
        time = it.field("time").strip().replace("：", ":")
        if len(time) == 4 and time[1] == ":":
            time = "0" + time
        days, device_id, op = it.ui("days", []), it.ui("device"), it.ui("op")
        problem = ("请输入正确的时间，如07:30" if not TIME.match(time) else
                   "请至少选择一天" if not days else
                   "请选择设备" if device_id is None else
                   "请选择动作" if op is None else None)  # fmt: skip
        if problem:
            it.toast(problem)
            it.no_op(problem)
        it.data["automations"].append({"id": it.new_id("au"), "time": time,
                                       "days": sorted(days), "device": device_id, "op": op,
                                       "enabled": True})  # fmt: skip
        it.pop()
        it.toast("自动化已创建")

    def toggle_automation(self, it: Interaction, auto_id: str) -> None:
        auto = self.find(it.data["automations"], auto_id)
        if auto is None:
            it.no_op("no such automation")
        auto["enabled"] = not auto["enabled"]
        it.toast("已启用" if auto["enabled"] else "已停用")

    def delete_automation(self, it: Interaction, auto_id: str) -> None:
        if self.find(it.data["automations"], auto_id) is None:
            it.no_op("no such automation")
        it.data["automations"] = [a for a in it.data["automations"] if a["id"] != auto_id]
        it.set_ui("dialog", None)
        it.pop()
        it.toast("自动化已删除")

    def invite(self, it: Interaction) -> None:
        phone = it.field("phone").replace(" ", "").replace("-", "")
        if not PHONE.match(phone):
            it.toast("请输入11位手机号")
            it.no_op(f"bad phone {phone!r}")
        if any(m["phone"] == phone for m in it.data["members"]):
            it.toast("该号码已是家庭成员")
            it.no_op(f"{phone} already a member")
        role = it.ui("role", ROLES[0])
        it.data["members"].append({"id": it.new_id("m"), "name": "", "phone": phone,
                                   "role": role})  # fmt: skip
        it.pop()
        it.toast("邀请已发送")

    # -- home tabs ----------------------------------------------------------------------------
    def scenes_tab(self, v: View) -> tuple[list[Widget | None], Widget | None]:
        rows: list[Widget | None] = [Button("新建场景", v.go("new_scene"), id="new_scene")]
        for scene in v.data["scenes"]:
            rows.append(ListItem(
                scene["name"], subtitle=f"{len(scene['actions'])}个动作",
                leading=scene["name"][:1], leading_color=ORANGE,
                on_tap=v.go("scene", scene_id=scene["id"], fields={"name": scene["name"]}),
                id=f"scene_{scene['id']}",
                action=Button("执行", v.do(self.run_scene, scene["id"]), id=f"run_{scene['id']}",
                              height=90, size=34),
            ))  # fmt: skip
        return rows, None

    def autos_tab(self, v: View) -> tuple[list[Widget | None], Widget | None]:
        rows: list[Widget | None] = [Button("新建自动化", v.go("new_auto"), id="new_auto")]
        for auto in v.data["automations"]:
            rows.append(ListItem(
                f"{days_label(auto['days'])} {auto['time']}",
                subtitle=self.action_text(v.data, auto),
                trailing="已启用" if auto["enabled"] else "已停用",
                on_tap=v.go("automation", auto_id=auto["id"]), id=f"auto_{auto['id']}",
            ))  # fmt: skip
        return rows, None

    def me_tab(self, v: View) -> tuple[list[Widget | None], Widget | None]:
        rows: list[Widget | None] = [Text("家庭成员", size=44, bold=True, padding=12)]
        rows.append(ListItem("我", subtitle="创建者", id="member_me"))
        for member in v.data["members"]:
            rows.append(ListItem(member["name"] or member["phone"],
                                 subtitle=f"{member['phone']}｜{member['role']}",
                                 id=f"member_{member['id']}"))  # fmt: skip
        rows.append(Button("共享家庭", v.go("share"), id="share_home"))
        return rows, None

    # -- screens ------------------------------------------------------------------------------
    @screen("new_scene")
    def new_scene(self, v: View) -> Page:
        return Page("新建场景", [
            TextField("name", v.field("name"), "场景名称", on_focus=v.focus("name")),
            Button("创建", v.do(self.create_scene), id="create_scene"),
        ], on_back=v.back(), body_padding=30, spacing=20)  # fmt: skip

    @screen("scene")
    def scene(self, v: View) -> Page:
        scene = self.find(v.data["scenes"], v.params["scene_id"])
        if scene is None:
            return Page("场景", [Text("该场景已删除", padding=40)], on_back=v.back())
        rows: list[Widget | None] = [
            TextField("name", v.field("name"), "场景名称", on_focus=v.focus("name")),
            Button("保存名称", v.do(self.rename_scene, scene["id"]), id="save_name",
                   style="secondary"),
            Text("执行动作", size=44, bold=True, padding=12),
        ]  # fmt: skip
        for action in scene["actions"]:
            rows.append(ListItem(self.action_text(v.data, action), id=f"action_{action['id']}",
                                 action=IconButton("delete", "移除动作",
                                                   v.do(self.remove_action, scene["id"],
                                                        action["id"]),
                                                   id=f"remove_{action['id']}")))  # fmt: skip
        if not scene["actions"]:
            rows.append(Text("还没有动作", color=theme.TEXT_SECONDARY, id="no_actions"))
        rows += [
            Button("添加动作", v.go("add_action", scene_id=scene["id"]), id="add_action"),
            Button("执行场景", v.do(self.run_scene, scene["id"]), id="run_scene",
                   style="secondary"),
            Button("删除场景", v.set_ui("dialog", "delete"), id="delete_scene", style="danger"),
        ]  # fmt: skip
        dialog = None
        if v.ui("dialog") == "delete":
            dialog = v.confirm(f"删除场景“{scene['name']}”？", v.do(self.delete_scene, scene["id"]),
                               message="删除后无法恢复。", label="删除",
                               confirm_id="confirm_delete", danger=True)  # fmt: skip
        return Page(scene["name"], rows, on_back=v.back(), body_padding=30, spacing=20,
                    overlay=dialog)  # fmt: skip

    @screen("add_action")
    def add_action_page(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for device in v.data["devices"]:
            if device["kind"] in CONTROLLABLE:
                rows.append(ListItem(device["name"], subtitle=device["room"],
                                     on_tap=v.go("action_op", scene_id=v.params["scene_id"],
                                                 device_id=device["id"]),
                                     id=f"pick_{device['id']}"))  # fmt: skip
        return Page("选择设备", rows, on_back=v.back())

    @screen("action_op")
    def action_op(self, v: View) -> Page:
        device = self.device(v.data, v.params["device_id"])
        sid = v.params["scene_id"]
        return Page(device["name"], [Text("选择动作", size=44, bold=True)] + [
            Button(label, v.do(self.add_action, sid, device["id"], op), id=f"op_{op}")
            for op, label in OPS
        ], on_back=v.back(), body_padding=30, spacing=20)  # fmt: skip

    @screen("new_auto")
    def new_auto(self, v: View) -> Page:
        days: list[int] = v.ui("days", [])
        chosen, op = v.ui("device"), v.ui("op")
        rows: list[Widget | None] = [
            TextField("time", v.field("time"), "时间，如07:30", on_focus=v.focus("time")),
            Text("重复", size=40),
            Wrap([Chip(label, v.set_ui("days", preset), selected=days == preset,
                       id=f"days_{key}") for key, label, preset in PRESETS]),
            Wrap([Chip(d, v.set_ui("days", sorted(set(days) ^ {i})), selected=i in days,
                       id=f"day_{i}") for i, d in enumerate(DAYS)]),
            Text("动作", size=40),
            Wrap([Chip(label, v.set_ui("op", key), selected=op == key, id=f"op_{key}")
                  for key, label in OPS]),
            Text("设备", size=40),
        ]  # fmt: skip
        rows += [ListItem(d["name"], subtitle=d["room"], selected=chosen == d["id"],
                          on_tap=v.set_ui("device", d["id"]), id=f"auto_dev_{d['id']}")
                 for d in v.data["devices"] if d["kind"] in CONTROLLABLE]  # fmt: skip
        save = IconButton("check", "保存", v.do(self.create_automation), id="save_auto")
        return Page("新建自动化", rows, on_back=v.back(), actions=[save], body_padding=30,
                    spacing=16)  # fmt: skip

    @screen("automation")
    def automation(self, v: View) -> Page:
        auto = self.find(v.data["automations"], v.params["auto_id"])
        if auto is None:
            return Page("自动化", [Text("该自动化已删除", padding=40)], on_back=v.back())
        dialog = None
        if v.ui("dialog") == "delete":
            dialog = v.confirm("删除这条自动化？", v.do(self.delete_automation, auto["id"]),
                               label="删除", confirm_id="confirm_delete", danger=True)  # fmt: skip
        return Page("自动化", [
            Text(f"{days_label(auto['days'])} {auto['time']}", size=52, bold=True,
                 id="auto_when"),
            Text(self.action_text(v.data, auto), size=42, id="auto_action"),
            Toggle("启用", auto["enabled"], v.do(self.toggle_automation, auto["id"]),
                   id="auto_enabled"),
            Button("删除自动化", v.set_ui("dialog", "delete"), id="delete_auto", style="danger"),
        ], on_back=v.back(), body_padding=30, spacing=24, overlay=dialog)  # fmt: skip

    @screen("share")
    def share(self, v: View) -> Page:
        role = v.ui("role", ROLES[0])
        return Page("共享家庭", [
            Text(f"邀请家人加入“{v.content['home']}”", size=42),
            TextField("phone", v.field("phone"), "对方手机号", on_focus=v.focus("phone")),
            Text("角色", size=40),
            Wrap([Chip(r, v.set_ui("role", r), selected=role == r, id=f"role_{i}")
                  for i, r in enumerate(ROLES)]),
            Button("发送邀请", v.do(self.invite), id="invite"),
            Text("成员可控制设备，管理员还可管理场景和成员", size=34,
                 color=theme.TEXT_SECONDARY),
        ], on_back=v.back(), body_padding=30, spacing=20)  # fmt: skip


def scene_by_name(data: dict[str, Any], name: str) -> dict[str, Any] | None:
    return next((s for s in data["scenes"] if s["name"] == name), None)
