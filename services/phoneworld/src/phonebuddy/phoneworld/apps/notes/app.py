"""The Notes app: a list of notes, a note page, an editor. Shares can be saved as notes."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    IconButton,
    ListItem,
    Page,
    Text,
    TextField,
)

SEED_NOTES = (
    ("购物清单", "牛奶、鸡蛋、面包、苹果"),
    ("会议纪要", "周五前提交季度报告；下周二评审设计稿"),
    ("读书笔记", "《三体》：黑暗森林法则"),
    ("旅行计划", "五一去杭州，订西湖边的酒店"),
    ("健身计划", "周一三五跑步5公里，周二四力量训练"),
    ("WiFi 密码", "家里: pw-home-2026"),
    ("生日提醒", "妈妈的生日是6月12日"),
    ("菜谱", "番茄炒蛋：番茄两个，鸡蛋三个，盐少许"),
)


NOTES_ON_NEW_DEVICE = 5


class Notes(App):
    package = "com.pw.notes"
    label = Label(zh="备忘录", en="Notes")
    domain = "productivity"
    theme = AppTheme(primary=(255, 179, 0), on_primary=(33, 33, 33))
    icon_text = "记"
    accepts_shares = True

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        chosen = rng.sample(SEED_NOTES, k=NOTES_ON_NEW_DEVICE)
        return {
            "notes": [
                {"id": f"note-{i}", "title": title, "body": body, "pinned": False}
                for i, (title, body) in enumerate(chosen)
            ]
        }

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def create_note(it: Interaction, title: str, body: str) -> str:
        if not title.strip():
            it.no_op("a note needs a title")
        note_id = it.new_id("note")
        it.data["notes"].insert(
            0, {"id": note_id, "title": title.strip(), "body": body, "pinned": False}
        )
        return note_id

    @staticmethod
    def find(it: Interaction, note_id: str) -> dict[str, Any]:
        for note in it.data["notes"]:
            if note["id"] == note_id:
                return note
        it.no_op(f"no note {note_id}")
        raise AssertionError  # no_op raises

    def save_editor(self, it: Interaction) -> None:
        note_id = it.entry["params"].get("note_id")
        title, body = it.field("title"), it.field("body")
        if note_id is None:
            self.create_note(it, title, body)
        else:
            note = self.find(it, note_id)
            note["title"], note["body"] = title.strip() or note["title"], body
        it.pop()
        it.toast("已保存")

    def toggle_pin(self, it: Interaction, note_id: str) -> None:
        note = self.find(it, note_id)
        note["pinned"] = not note["pinned"]

    def delete(self, it: Interaction, note_id: str) -> None:
        it.data["notes"] = [n for n in it.data["notes"] if n["id"] != note_id]
        it.reset_to("home")
        it.toast("已删除")

    def receive_share(self, it: Interaction, payload: dict[str, Any]) -> None:
        it.push(
            "edit",
            note_id=None,
            fields={"title": str(payload.get("title", "分享")), "body": str(payload["text"])},
        )

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        notes = sorted(v.data["notes"], key=lambda n: not n["pinned"])
        items = [
            ListItem(
                ("📌 " if n["pinned"] else "") + n["title"],
                subtitle=n["body"],
                on_tap=v.go("note", note_id=n["id"]),
                id=f"note_{n['id']}",
            )
            for n in notes
        ] or [Text("还没有备忘录", color=theme.TEXT_SECONDARY, padding=40)]
        return Page(
            "备忘录",
            items,
            actions=[IconButton("plus", "新建备忘录", v.go("edit", note_id=None), id="new_note")],
        )

    @screen("note")
    def note(self, v: View) -> Page:
        note = next((n for n in v.data["notes"] if n["id"] == v.params["note_id"]), None)
        if note is None:
            return Page("备忘录", [Text("该备忘录已被删除", padding=40)], on_back=v.back())
        dialog = None
        if v.ui("dialog") == "delete":
            dialog = v.confirm(
                "删除这条备忘录？",
                v.do(self.delete, note["id"]),
                label="删除",
                confirm_id="confirm_delete",
                danger=True,
            )
        return Page(
            note["title"],
            [Text(note["body"], size=44, padding=48, id="note_body")],
            on_back=v.back(),
            actions=[
                IconButton(
                    "star",
                    "置顶" if not note["pinned"] else "取消置顶",
                    v.do(self.toggle_pin, note["id"]),
                    id="pin",
                ),
                IconButton(
                    "edit",
                    "编辑",
                    v.go(
                        "edit",
                        note_id=note["id"],
                        fields={"title": note["title"], "body": note["body"]},
                    ),
                    id="edit",
                ),
                IconButton("delete", "删除", v.set_ui("dialog", "delete"), id="delete"),
            ],
            overlay=dialog,
        )

    @screen("edit")
    def edit(self, v: View) -> Page:
        creating = v.params.get("note_id") is None
        return Page(
            "新建备忘录" if creating else "编辑备忘录",
            [
                TextField(
                    "title",
                    v.field("title", v.params.get("title", "")),
                    "标题",
                    on_focus=v.focus("title"),
                ),
                TextField(
                    "body",
                    v.field("body", v.params.get("body", "")),
                    "内容",
                    multiline=True,
                    on_focus=v.focus("body"),
                ),
                Button("保存", v.do(self.save_editor), id="save"),
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool("create_note", "Create a note with a title and a body.", {"title": str, "body": str})
    def create_note_tool(self, it: Interaction, title: str, body: str) -> str:
        return f"created {self.create_note(it, title, body)}"
