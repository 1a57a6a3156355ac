"""录音机's constants, look-ups and handlers (the only place its data changes); the screens are
in `app.py`."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label
from phonebuddy.phoneworld.apps.recorder import content
from phonebuddy.phoneworld.apps.recorder.content import FOLDERS
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

RECORDER = "com.pw.recorder"
RED: Color = (229, 57, 53)
QUALITIES = (("low", "普通", 2), ("standard", "标准", 4), ("high", "高品质", 12))
SPEEDS = (("1x", 1.0), ("1.5x", 1.5), ("2x", 2.0))
SORTS = (("time", "时间"), ("duration", "时长"), ("name", "名称"))
DEFAULT_NAME = "新录音"
MAX_NAME = 30
SHARE_TARGETS = "微信、邮件、备忘录"


class RecorderBase(App):
    package = RECORDER
    label = Label(zh="录音机", en="Recorder")
    domain = "audio tools"
    theme = AppTheme(primary=RED)
    icon_text = "录"
    # The recording in progress (start/pause/stop) is UI state until it is saved.
    ignorable = ("session",)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        recordings = []
        for rec in content["recordings"]:
            item = clone(rec)
            del item["facts"]
            recordings.append(item)
        return {
            "recordings": recordings,
            "settings": {"quality": "standard", "call_recording": False},
            "session": None,
        }

    # -- look-ups ---------------------------------------------------------------------------------
    @staticmethod
    def rec(data: dict[str, Any], rec_id: str) -> dict[str, Any] | None:
        return next((r for r in data["recordings"] if r["id"] == rec_id), None)

    @staticmethod
    def elapsed(session: dict[str, Any], now: int) -> int:
        """Seconds recorded so far: the finished stretches plus the running one."""
        running = now - session["since"] if session["running"] else 0
        return int(session["done"] + running)

    # -- recording --------------------------------------------------------------------------------
    def start(self, it: Interaction) -> None:
        if it.data["session"] is not None:
            it.no_op("already recording")
        it.data["session"] = {"started": it.clock, "since": it.clock, "done": 0,
                              "running": True, "stopped": False}  # fmt: skip
        it.toast("开始录音")

    def pause(self, it: Interaction) -> None:
        s = it.data["session"]
        if s is None or not s["running"]:
            it.no_op("not recording")
        s["done"] = self.elapsed(s, it.clock)
        s["running"] = False
        it.toast("已暂停")

    def resume(self, it: Interaction) -> None:
        s = it.data["session"]
        if s is None or s["running"] or s["stopped"]:
            it.no_op("not paused")
        s.update(since=it.clock, running=True)
        it.toast("继续录音")

    def stop(self, it: Interaction) -> None:
        s = it.data["session"]
        if s is None or s["stopped"]:
            it.no_op("nothing to stop")
        s["done"] = self.elapsed(s, it.clock)
        s.update(running=False, stopped=True)
        if s["done"] < 1:
            it.data["session"] = None
            it.toast("录音时间太短")
            return
        taken = {r["name"] for r in it.data["recordings"]}
        n = 1
        while f"{DEFAULT_NAME} {n}" in taken:
            n += 1
        it.set_field("rec_name", f"{DEFAULT_NAME} {n}")
        it.set_ui("dialog", "save")

    def name_problem(self, data: dict[str, Any], name: str, own: str | None = None) -> str | None:
        if not name:
            return "名称不能为空"
        if len(name) > MAX_NAME:
            return f"名称不能超过{MAX_NAME}个字"
        if any(c in name for c in '/\\:*?"<>|'):
            return "名称不能包含特殊字符"
        if any(r["name"] == name and r["id"] != own for r in data["recordings"]):
            return "已有同名录音"
        return None

    def save(self, it: Interaction) -> None:
        s = it.data["session"]
        if s is None or not s["stopped"]:
            it.no_op("nothing to save")
        name = it.field("rec_name").strip()
        problem = self.name_problem(it.data, name)
        if problem:
            it.toast(problem)
            it.no_op(problem)
        per_second = next(k for q, _, k in QUALITIES if q == it.data["settings"]["quality"])
        rec_id = it.new_id("rec")
        it.data["recordings"].insert(0, {
            "id": rec_id, "name": name, "folder": "", "duration": s["done"],
            "size": s["done"] * per_second, "transcript": "", "created": s["started"],
            "starred": False, "deleted": False,
        })  # fmt: skip
        it.data["session"] = None
        it.set_ui("dialog", None)
        it.replace("rec", rec_id=rec_id)
        it.toast("录音已保存")

    def discard(self, it: Interaction) -> None:
        if it.data["session"] is None:
            it.no_op("nothing to discard")
        it.data["session"] = None
        it.set_ui("dialog", None)
        it.toast("已放弃本次录音")

    # -- a recording ---------------------------------------------------------------------------
    def _live(self, it: Interaction, rec_id: str) -> dict[str, Any]:
        rec = self.rec(it.data, rec_id)
        if rec is None or rec["deleted"]:
            it.no_op(f"no recording {rec_id}")
        return rec

    def toggle_star(self, it: Interaction, rec_id: str) -> None:
        rec = self._live(it, rec_id)
        rec["starred"] = not rec["starred"]
        it.toast("已标星" if rec["starred"] else "已取消标星")

    def open_rename(self, it: Interaction, rec_id: str) -> None:
        rec = self._live(it, rec_id)
        it.set_field("new_name", rec["name"])
        it.set_ui("dialog", "rename")

    @staticmethod
    def clear_field(it: Interaction, name: str) -> None:
        if not it.field(name):
            it.no_op(f"{name} is already empty")
        it.set_field(name, "")
        it.focus(name)

    def rename(self, it: Interaction, rec_id: str) -> None:
        rec = self._live(it, rec_id)
        name = it.field("new_name").strip()
        if name == rec["name"]:
            it.no_op("the name did not change")
        problem = self.name_problem(it.data, name, own=rec_id)
        if problem:
            it.toast(problem)
            it.no_op(problem)
        rec["name"] = name
        it.set_ui("dialog", None)
        it.toast("已重命名")

    def move(self, it: Interaction, rec_id: str, folder: str) -> None:
        rec = self._live(it, rec_id)
        if folder not in FOLDERS:
            it.no_op(f"no folder {folder}")
        if rec["folder"] == folder:
            it.toast("已在该文件夹中")
            it.no_op("already in that folder")
        rec["folder"] = folder
        it.set_ui("dialog", None)
        it.toast(f"已移动到“{folder}”")

    def copy_transcript(self, it: Interaction, rec_id: str) -> None:
        rec = self._live(it, rec_id)
        if not rec["transcript"]:
            it.toast("没有可复制的文字")
            it.no_op("no transcript")
        it.copy(rec["transcript"])

    def share(self, it: Interaction, rec_id: str, what: str) -> None:
        rec = self._live(it, rec_id)
        it.set_ui("dialog", None)
        if what == "text":
            if not rec["transcript"]:
                it.toast("没有可分享的文字")
                it.no_op("no transcript")
            it.share({"kind": "text", "text": rec["transcript"]})
        else:
            label = f"录音“{rec['name']}”（{content.mmss(rec['duration'])}）"
            it.share({"kind": "file", "name": f"{rec['name']}.m4a", "text": label})

    def delete(self, it: Interaction, rec_id: str) -> None:
        rec = self._live(it, rec_id)
        rec["deleted"] = True
        it.set_ui("dialog", None)
        it.pop()
        it.toast("已移到最近删除")

    def restore(self, it: Interaction, rec_id: str) -> None:
        rec = self.rec(it.data, rec_id)
        if rec is None or not rec["deleted"]:
            it.no_op(f"{rec_id} is not in the bin")
        rec["deleted"] = False
        it.toast("已恢复")

    def purge(self, it: Interaction, rec_id: str) -> None:
        rec = self.rec(it.data, rec_id)
        if rec is None or not rec["deleted"]:
            it.no_op(f"{rec_id} is not in the bin")
        it.data["recordings"] = [r for r in it.data["recordings"] if r["id"] != rec_id]
        it.set_ui("dialog", None)
        it.toast("已彻底删除")

    # -- settings -------------------------------------------------------------------------------
    def set_quality(self, it: Interaction, quality: str) -> None:
        if it.data["settings"]["quality"] == quality:
            it.no_op("quality unchanged")
        it.data["settings"]["quality"] = quality
        it.toast("录音音质已更新")

    def toggle_calls(self, it: Interaction) -> None:
        on = not it.data["settings"]["call_recording"]
        it.data["settings"]["call_recording"] = on
        it.toast("通话录音已开启" if on else "通话录音已关闭")
