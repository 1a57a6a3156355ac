"""录音机 (Recorder): the recordings list (search, sort by 时间/时长/名称, folders), recording
(开始 → 暂停/继续 → 停止, then name it), a recording's page (playback position and speed, star,
rename, move, 转文字, copy, share, delete to 最近删除), 最近删除 (restore, delete for good) and
settings (quality, 通话录音)."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.recorder.base import (
    QUALITIES,
    RED,
    SORTS,
    SPEEDS,
    RecorderBase,
)
from phonebuddy.phoneworld.apps.recorder.content import FOLDERS, mmss, size_label, when_label
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
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
    Wrap,
)

SORT_KEYS = {
    "time": lambda r: -r["created"],
    "duration": lambda r: -r["duration"],
    "name": lambda r: r["name"],
}


class Recorder(RecorderBase):
    @screen("home")
    def home(self, v: View) -> Page:
        sort, folder = v.ui("sort", "time"), v.ui("folder", "")
        query = v.field("search").strip()
        recs = [r for r in v.data["recordings"] if not r["deleted"]]
        if folder:
            recs = [r for r in recs if r["folder"] == folder]
        if query:
            recs = [r for r in recs if query in r["name"]]
        recs.sort(key=SORT_KEYS[sort])
        folders = [Chip("全部", v.set_ui("folder", ""), selected=not folder, id="folder_all")]
        folders += [Chip(f, v.set_ui("folder", f), selected=folder == f, id=f"folder_{f}")
                    for f in FOLDERS]  # fmt: skip
        rows: list[Widget | None] = [
            self._name_field(v, "search", "搜索录音名称"),
            Wrap(
                [
                    Chip(
                        f"按{label}", v.set_ui("sort", key), selected=sort == key, id=f"sort_{key}"
                    )
                    for key, label in SORTS
                ]
            ),
            Wrap(folders),
            Text(f"共{len(recs)}条录音", size=34, color=theme.TEXT_SECONDARY, id="count"),
        ]
        for r in recs:
            rows.append(
                ListItem(
                    ("★ " if r["starred"] else "") + r["name"],
                    subtitle=f"{when_label(r['created'])}｜{r['folder'] or '未分类'}",
                    trailing=mmss(r["duration"]),
                    leading="录",
                    leading_color=RED,
                    on_tap=v.go("rec", rec_id=r["id"]),
                    id=f"rec_{r['id']}",
                )
            )
        if not recs:
            rows.append(Text(f"没有找到“{query}”" if query else "暂无录音",
                             color=theme.TEXT_SECONDARY, padding=40, align="center"))  # fmt: skip
        rows += [
            Button("最近删除", v.go("trash"), id="open_trash", style="secondary"),
            Spacer(60),
        ]
        return Page(
            "录音机",
            rows,
            actions=[IconButton("settings", "设置", v.go("settings"), id="settings")],
            bottom=Button("录音", v.go("record"), id="record"),
            body_padding=24,
            spacing=16,
        )

    @screen("record")
    def record(self, v: View) -> Page:
        s: dict[str, Any] | None = v.data["session"]
        if s is None:
            status, controls = "准备录音", [Button("开始", v.do(self.start), id="rec_start")]
        else:
            status = "已停止" if s["stopped"] else ("录音中" if s["running"] else "已暂停")
            controls = [
                Button("暂停", v.do(self.pause), id="rec_pause", style="secondary")
                if s["running"]
                else Button("继续", v.do(self.resume), id="rec_resume", style="secondary"),
                Button("停止", v.do(self.stop), id="rec_stop", style="danger"),
            ]
        dialog = None
        if v.ui("dialog") == "save" and s is not None and s["stopped"]:
            dialog = Dialog(
                "保存录音",
                message=f"时长 {mmss(s['done'])}",
                body=[self._name_field(v, "rec_name", "录音名称")],
                buttons=[
                    Button("放弃", v.do(self.discard), id="rec_discard", style="secondary"),
                    Button("保存", v.do(self.save), id="rec_save"),
                ],
            )
        quality = next(label for q, label, _ in QUALITIES if q == v.data["settings"]["quality"])
        return Page(
            "录音",
            [
                Text(status, size=56, bold=True, align="center", id="rec_status", padding=40),
                Text(f"音质：{quality}", size=36, color=theme.TEXT_SECONDARY, align="center",
                     id="rec_quality"),
                *controls,
            ],
            on_back=v.back(),
            body_padding=40,
            spacing=30,
            overlay=dialog,
        )  # fmt: skip

    @screen("rec")
    def recording(self, v: View) -> Page:
        rec = self.rec(v.data, v.params["rec_id"])
        if rec is None or rec["deleted"]:
            return Page("录音", [Text("该录音已删除", padding=40)], on_back=v.back())
        rid = rec["id"]
        pos, speed = min(v.ui("pos", 0), rec["duration"]), v.ui("speed", "1x")
        playing = v.ui("playing", False)
        shown = v.ui("transcript", False)
        body: list[Widget | None] = [
            Card([
                Text(rec["name"], size=52, bold=True, id="name"),
                Text(when_label(rec["created"]), size=36, id="created"),
                Text(f"时长 {mmss(rec['duration'])}｜{size_label(rec['size'])}", size=36,
                     id="info"),
                Text(f"文件夹：{rec['folder'] or '未分类'}", size=36, id="folder"),
            ]),
            Text(f"{mmss(pos)} / {mmss(rec['duration'])}", size=44, align="center",
                 id="position"),
            Button("暂停" if playing else "播放", v.set_ui("playing", not playing), id="play"),
            Button("后退15秒", v.set_ui("pos", max(0, pos - 15)), id="rewind",
                   style="secondary", enabled=pos > 0),
            Button("前进15秒", v.set_ui("pos", min(rec["duration"], pos + 15)), id="forward",
                   style="secondary", enabled=pos < rec["duration"]),
            Wrap([Chip(label, v.set_ui("speed", label), selected=speed == label,
                       id=f"speed_{label.replace('.', '')}") for label, _ in SPEEDS]),
            Button("收起文字" if shown else "转文字", v.set_ui("transcript", not shown),
                   id="transcribe", style="secondary"),
        ]  # fmt: skip
        if shown:
            body += [
                Text(rec["transcript"] or "未识别到语音内容", size=40, id="transcript"),
                Button("复制文字", v.do(self.copy_transcript, rid), id="copy_text",
                       style="secondary") if rec["transcript"] else None,
            ]  # fmt: skip
        return Page(
            "录音详情",
            [*body, Spacer(60)],
            on_back=v.back(),
            actions=[
                IconButton("star", "取消标星" if rec["starred"] else "标星",
                           v.do(self.toggle_star, rid), id="star",
                           color=RED if rec["starred"] else None),
                IconButton("share", "分享", v.set_ui("dialog", "share"), id="share"),
                IconButton("more", "更多", v.set_ui("dialog", "more"), id="more"),
            ],
            body_padding=30,
            spacing=20,
            overlay=self._rec_dialog(v, rec),
        )  # fmt: skip

    def _name_field(self, v: View, name: str, hint: str) -> Row:
        return Row([
            TextField(name, v.field(name), hint, on_focus=v.focus(name)),
            IconButton("close", "清空", v.do(self.clear_field, name), id=f"clear_{name}",
                       size=100),
        ], spacing=8)  # fmt: skip

    def _rec_dialog(self, v: View, rec: dict[str, Any]) -> Dialog | None:
        rid, which = rec["id"], v.ui("dialog")
        close = Button("取消", v.set_ui("dialog", None), id="cancel", style="secondary")
        if which == "more":
            return Dialog("更多操作", buttons=[
                Button("重命名", v.do(self.open_rename, rid), id="rename", style="secondary"),
                Button("移动到文件夹", v.set_ui("dialog", "move"), id="move", style="secondary"),
                Button("删除", v.set_ui("dialog", "delete"), id="delete", style="danger"),
                close,
            ])  # fmt: skip
        if which == "rename":
            ok = Button("确定", v.do(self.rename, rid), id="rename_ok")
            return Dialog("重命名", body=[self._name_field(v, "new_name", "新名称")],
                          buttons=[close, ok])  # fmt: skip
        if which == "move":
            return Dialog("移动到", buttons=[
                *[Button(f, v.do(self.move, rid, f), id=f"move_{f}", style="secondary")
                  for f in FOLDERS],
                close,
            ])  # fmt: skip
        if which == "share":
            return Dialog("分享", message="可分享到微信、邮件、备忘录等", buttons=[
                Button("分享录音文件", v.do(self.share, rid, "file"), id="share_file"),
                Button("分享文字", v.do(self.share, rid, "text"), id="share_text",
                       style="secondary"),
                close,
            ])  # fmt: skip
        if which == "delete":
            return v.confirm(f"删除“{rec['name']}”？", v.do(self.delete, rid),
                             message="录音将移到最近删除，30天后自动清除。", label="删除",
                             confirm_id="confirm_delete", danger=True)  # fmt: skip
        return None

    @screen("trash")
    def trash(self, v: View) -> Page:
        gone = sorted((r for r in v.data["recordings"] if r["deleted"]),
                      key=lambda r: -r["created"])  # fmt: skip
        rows: list[Widget | None] = [
            Text("录音删除后保留30天，点按可彻底删除", size=34, color=theme.TEXT_SECONDARY,
                 padding=12),
        ]  # fmt: skip
        rows += [
            ListItem(r["name"], subtitle=f"{when_label(r['created'])}｜{mmss(r['duration'])}",
                     on_tap=v.set_ui("dialog", r["id"]), id=f"trash_{r['id']}",
                     action=Chip("恢复", v.do(self.restore, r["id"]), id=f"restore_{r['id']}"))
            for r in gone
        ]  # fmt: skip
        if not gone:
            rows.append(Text("最近删除为空", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        dialog = None
        target = self.rec(v.data, v.ui("dialog") or "")
        if target is not None and target["deleted"]:
            dialog = v.confirm(f"彻底删除“{target['name']}”？", v.do(self.purge, target["id"]),
                               message="彻底删除后无法恢复。", label="彻底删除",
                               confirm_id="confirm_purge", danger=True)  # fmt: skip
        return Page("最近删除", rows, on_back=v.back(), overlay=dialog)

    @screen("settings")
    def settings(self, v: View) -> Page:
        st = v.data["settings"]
        return Page(
            "设置",
            [
                Text("录音音质", size=40, bold=True, padding=12),
                Wrap([Chip(label, v.do(self.set_quality, q), selected=st["quality"] == q,
                           id=f"quality_{q}") for q, label, _ in QUALITIES]),
                Toggle("通话录音", st["call_recording"], v.do(self.toggle_calls),
                       id="call_recording", subtitle="通话时自动录音，保存在“通话”文件夹"),
            ],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
        )  # fmt: skip
