"""追剧's player (next episode, speed, 弹幕, quality) and the 我的 screens: VIP plans paid
through the wallet, watch history, downloads and the skip intro/outro settings."""

from __future__ import annotations

from phonebuddy.phoneworld.app import View, screen
from phonebuddy.phoneworld.apps.longvideo.base import (
    GREEN,
    PLANS,
    QUALITIES,
    SPEEDS,
    speed_id,
    speed_label,
)
from phonebuddy.phoneworld.apps.longvideo.browse import BrowseScreens
from phonebuddy.phoneworld.apps.longvideo.content import clock_text, episode_label
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import yuan
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    IconButton,
    Image,
    ListItem,
    Page,
    Spacer,
    Text,
    Toggle,
    Widget,
    Wrap,
)

DANMAKU = ("前方高能！", "这集太好哭了", "追到这里的举个手", "演技在线", "名场面来了")


class PlayerScreens(BrowseScreens):
    @screen("player")
    def player(self, v: View) -> Page:
        t = self.title(v, v.params["title_id"])
        entry = self.find(v.data["history"], t["id"])
        if entry is None:
            return Page(t["title"], [Text("观看记录已删除", padding=40)], on_back=v.back())
        settings = v.data["settings"]
        episode = t["episodes"][entry["episode"] - 1]
        label = episode_label(t, entry["episode"])
        body: list[Widget | None] = [
            Image(f"{t['title']} {label}", height=560, color=(20, 20, 20), id="screen"),
            Text(f"正在播放：{label}", size=46, bold=True, id="now_playing"),
            Text(f"{clock_text(entry['position'])} / {episode['minutes']}:00", size=38,
                 color=theme.TEXT_SECONDARY, id="position"),
            Text("VIP专享" if episode["vip"] else "免费观看", size=34, color=GREEN,
                 id="episode_tag"),
            Text("弹幕：" + "  ".join(DANMAKU[: 3 + entry["episode"] % 3]), size=34,
                 color=theme.TEXT_SECONDARY, id="danmaku_feed") if settings["danmaku"] else None,
            Button("下一集", v.do(self.next_episode, t["id"]), id="next_episode")
            if t["kind"] != "电影" else None,
            Toggle("弹幕", settings["danmaku"], v.do(self.toggle_setting, "danmaku"),
                   id="danmaku"),
            Text("倍速", size=40, bold=True),
            Wrap([Chip(speed_label(s), v.do(self.set_speed, s), selected=settings["speed"] == s,
                       id=speed_id(s)) for s in SPEEDS]),
            Text("清晰度", size=40, bold=True),
            Wrap([Chip(label + ("（VIP）" if key == "1080P" else ""), v.do(self.set_quality, key),
                       selected=settings["quality"] == key, id=f"q_{key}")
                  for key, label in QUALITIES]),
            Spacer(40),
        ]  # fmt: skip
        return Page(
            f"{t['title']} · {label}",
            body,
            on_back=v.back(),
            body_padding=24,
            spacing=16,
            overlay=self.vip_dialog(v) if v.ui("dialog") == "vip" else None,
        )

    @screen("vip")
    def vip(self, v: View) -> Page:
        plan = v.ui("plan")
        rows: list[Widget | None] = [
            Card([Text("VIP会员", size=52, bold=True),
                  Text(self.vip_text(v), size=38, id="vip_status"),
                  Text("免广告 · 蓝光1080P · VIP剧集抢先看", size=34, color=theme.TEXT_SECONDARY)],
                 padding=40),
            Text("选择套餐", size=44, bold=True),
        ]  # fmt: skip
        for key, (name, cents, days) in PLANS.items():
            rows.append(ListItem(
                name, subtitle=f"{days}天", trailing=("✓ " if plan == key else "") + yuan(cents),
                on_tap=v.set_ui("plan", key), id=f"plan_{key}",
            ))  # fmt: skip
        if plan in PLANS:
            name, cents, _ = PLANS[plan]
            rows.append(Button(f"立即开通{name} {yuan(cents)}", v.do(self.buy_plan), id="buy_vip"))
        return Page("开通会员", rows, on_back=v.back(), body_padding=24, spacing=16)

    @screen("history")
    def history(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for h in sorted(v.data["history"], key=lambda h: -h["time"]):
            t = self.title(v, h["id"])
            rows.append(ListItem(
                t["title"],
                subtitle=f"看到{episode_label(t, h['episode'])} {clock_text(h['position'])}",
                leading=t["title"][:1], leading_color=GREEN,
                on_tap=v.do(self.play, t["id"], h["episode"]), id=f"hist_{t['id']}",
                action=IconButton("delete", "删除记录", v.do(self.delete_history, t["id"]),
                                  id=f"del_hist_{t['id']}"),
            ))  # fmt: skip
        if rows:
            rows.append(Button("清空观看历史", v.set_ui("dialog", "clear"), id="clear_history",
                               style="danger"))  # fmt: skip
        else:
            rows.append(Text("暂无观看历史", color=theme.TEXT_SECONDARY, padding=40,
                             align="center"))  # fmt: skip
        dialog = self.vip_dialog(v) if v.ui("dialog") == "vip" else None
        if v.ui("dialog") == "clear" and v.data["history"]:
            dialog = v.confirm("清空全部观看历史？", v.do(self.clear_history),
                               message="清空后无法恢复。", label="清空", confirm_id="confirm_clear",
                               danger=True)  # fmt: skip
        return Page("观看历史", rows, on_back=v.back(), body_padding=24, spacing=12,
                    overlay=dialog)  # fmt: skip

    @screen("downloads")
    def downloads(self, v: View) -> Page:
        rows: list[Widget | None] = []
        for d in v.data["downloads"]:
            t = self.title(v, d["title"])
            rows.append(ListItem(
                t["title"], subtitle=f"{episode_label(t, d['episode'])}｜{d['quality']}",
                leading=t["title"][:1], leading_color=GREEN, id=f"dl_{d['id']}",
                action=IconButton("delete", "删除缓存", v.set_ui("dialog", d["id"]),
                                  id=f"del_dl_{d['id']}"),
            ))  # fmt: skip
        if not rows:
            rows.append(Text("暂无缓存", color=theme.TEXT_SECONDARY, padding=40, align="center"))
        dialog = None
        chosen = self.find(v.data["downloads"], v.ui("dialog") or "")
        if chosen is not None:
            t = self.title(v, chosen["title"])
            dialog = v.confirm(f"删除《{t['title']}》{episode_label(t, chosen['episode'])}的缓存？",
                               v.do(self.delete_download, chosen["id"]), label="删除",
                               confirm_id="confirm_delete", danger=True)  # fmt: skip
        return Page("我的缓存", rows, on_back=v.back(), body_padding=24, spacing=12,
                    overlay=dialog)  # fmt: skip

    @screen("settings")
    def settings(self, v: View) -> Page:
        s = v.data["settings"]
        return Page("播放设置", [
            Toggle("自动跳过片头", s["skip_intro"], v.do(self.toggle_setting, "skip_intro"),
                   id="skip_intro", subtitle="从正片开始播放"),
            Toggle("自动跳过片尾", s["skip_outro"], v.do(self.toggle_setting, "skip_outro"),
                   id="skip_outro", subtitle="片尾直接播放下一集"),
            Toggle("弹幕", s["danmaku"], v.do(self.toggle_setting, "danmaku"), id="danmaku"),
        ], on_back=v.back(), body_padding=24, spacing=12)  # fmt: skip
