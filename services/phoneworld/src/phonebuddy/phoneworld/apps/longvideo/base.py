"""追剧's base: constants, look-ups and the handlers (the only place data changes)."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label
from phonebuddy.phoneworld.apps.longvideo import content
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

LONGVIDEO = "com.pw.longvideo"
GREEN: Color = (0, 190, 6)
DAY = 86400
# plan key -> (name, price in cents, days)
PLANS = {"month": ("月卡", 2500, 31), "quarter": ("季卡", 6800, 92), "year": ("年卡", 21800, 366)}
SPEEDS = (0.75, 1.0, 1.25, 1.5, 2.0)
QUALITIES = (("480P", "标清 480P"), ("720P", "高清 720P"), ("1080P", "蓝光 1080P"))
VIP_QUALITY = "1080P"
INTRO_SECONDS = 90
MERCHANT = "追剧VIP会员"


def speed_id(speed: float) -> str:
    """0.75 -> 'speed_075', 2.0 -> 'speed_200'."""
    return f"speed_{round(speed * 100):03d}"


def speed_label(speed: float) -> str:
    return f"{speed:g}X" if speed != 1 else "1.0X"


class LongVideoBase(App):
    package = LONGVIDEO
    label = Label(zh="追剧", en="Long Video")
    domain = "long video"
    theme = AppTheme(primary=GREEN)
    icon_text = "剧"
    friction = Friction(
        splash="追剧 · 好剧一起追",
        popup=Popup("青少年模式", "为呵护未成年人健康成长，追剧推出青少年模式，可在“我的”中开启。",
                    "我知道了"),
    )  # fmt: skip

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "history": [clone(h) for h in content["history"]],
            "follows": [clone(f) for f in content["follows"]],
            "downloads": [clone(d) for d in content["downloads"]],
            "ratings": [],
            "orders": [],
            "vip_until": 0,
            "settings": {"speed": 1.0, "danmaku": True, "quality": "720P",
                         "skip_intro": False, "skip_outro": False},
        }  # fmt: skip

    # -- look-ups ---------------------------------------------------------------------------------
    @staticmethod
    def title(v: Any, title_id: str) -> Any:
        return next(t for t in v.content["titles"] if t["id"] == title_id)

    @staticmethod
    def find(items: list[dict[str, Any]], item_id: str) -> dict[str, Any] | None:
        return next((x for x in items if x["id"] == item_id), None)

    @staticmethod
    def is_vip(v: Any) -> bool:
        return bool(v.data["vip_until"] > v.os["clock"])

    @staticmethod
    def vip_text(v: Any) -> str:
        if v.data["vip_until"] <= v.os["clock"]:
            return "未开通VIP会员"
        until = local_date(v.data["vip_until"])
        return f"VIP会员 · 有效期至{until.year}年{until.month}月{until.day}日"

    # -- handlers -------------------------------------------------------------------------------
    def toggle_follow(self, it: Interaction, title_id: str) -> None:
        follows = it.data["follows"]
        if self.find(follows, title_id) is not None:
            it.data["follows"] = [f for f in follows if f["id"] != title_id]
            it.toast("已取消追剧")
        else:
            follows.insert(0, {"id": title_id, "time": it.clock})
            it.toast("已加入追剧")

    def rate(self, it: Interaction, title_id: str, stars: int) -> None:
        rated = self.find(it.data["ratings"], title_id)
        if rated is not None and rated["stars"] == stars:
            it.no_op(f"{title_id} is already rated {stars}")
        if rated is None:
            it.data["ratings"].append({"id": title_id, "stars": stars})
        else:
            rated["stars"] = stars
        it.set_ui("dialog", None)
        it.toast(f"已评{stars}星")

    def share(self, it: Interaction, title_id: str) -> None:
        t = self.title(it, title_id)
        it.share({"kind": "link", "title": f"《{t['title']}》",
                  "text": f"我在追剧看《{t['title']}》，评分{t['rating']}，一起来看吧！",
                  "source": "追剧"})  # fmt: skip

    def play(self, it: Interaction, title_id: str, n: int) -> None:
        """Open the player on episode `n`; a VIP-only episode asks a non-member to join."""
        t = self.title(it, title_id)
        if not 1 <= n <= t["aired"]:
            it.toast("已经是最新一集" if n > t["aired"] else "没有这一集")
            it.no_op(f"{title_id} has no aired episode {n}")
        if t["episodes"][n - 1]["vip"] and not self.is_vip(it):
            it.set_ui("dialog", "vip")
            return
        entry = self.find(it.data["history"], title_id)
        start = INTRO_SECONDS if it.data["settings"]["skip_intro"] else 0
        if entry is None:
            it.data["history"].append({"id": title_id, "episode": n, "position": start,
                                       "time": it.clock})  # fmt: skip
        elif entry["episode"] != n:
            entry.update(episode=n, position=start, time=it.clock)
        else:
            entry["time"] = it.clock
        if it.entry["screen"] == "player":
            it.toast(f"正在播放{content.episode_label(t, n)}")
        else:
            it.push("player", title_id=title_id)

    def next_episode(self, it: Interaction, title_id: str) -> None:
        entry = self.find(it.data["history"], title_id)
        if entry is None:
            it.no_op(f"{title_id} is not playing")
        self.play(it, title_id, entry["episode"] + 1)

    def set_speed(self, it: Interaction, speed: float) -> None:
        if it.data["settings"]["speed"] == speed:
            it.no_op(f"the speed is already {speed}")
        it.data["settings"]["speed"] = speed
        it.toast(f"倍速 {speed_label(speed)}")

    def set_quality(self, it: Interaction, quality: str) -> None:
        if it.data["settings"]["quality"] == quality:
            it.no_op(f"the quality is already {quality}")
        if quality == VIP_QUALITY and not self.is_vip(it):
            it.set_ui("dialog", "vip")
            return
        it.data["settings"]["quality"] = quality
        it.toast(f"已切换至{quality}")

    def toggle_setting(self, it: Interaction, key: str) -> None:
        it.data["settings"][key] = not it.data["settings"][key]

    def download(self, it: Interaction, title_id: str, n: int) -> None:
        t = self.title(it, title_id)
        quality = it.ui("dl_quality", "720P")
        if any(d["id"] == f"{title_id}-{n}" for d in it.data["downloads"]):
            it.no_op(f"{title_id} episode {n} is already downloaded")
        if (t["episodes"][n - 1]["vip"] or quality == VIP_QUALITY) and not self.is_vip(it):
            it.set_ui("dialog", "vip")
            return
        it.data["downloads"].append({"id": f"{title_id}-{n}", "title": title_id, "episode": n,
                                     "quality": quality})  # fmt: skip
        it.toast(f"已加入缓存：{content.episode_label(t, n)} {quality}")

    def delete_download(self, it: Interaction, download_id: str) -> None:
        if self.find(it.data["downloads"], download_id) is None:
            it.no_op(f"no download {download_id}")
        it.data["downloads"] = [d for d in it.data["downloads"] if d["id"] != download_id]
        it.set_ui("dialog", None)
        it.toast("已删除缓存")

    def delete_history(self, it: Interaction, title_id: str) -> None:
        if self.find(it.data["history"], title_id) is None:
            it.no_op(f"{title_id} is not in the history")
        it.data["history"] = [h for h in it.data["history"] if h["id"] != title_id]
        it.toast("已删除观看记录")

    def clear_history(self, it: Interaction) -> None:
        if not it.data["history"]:
            it.no_op("the history is empty")
        it.data["history"] = []
        it.set_ui("dialog", None)
        it.toast("观看历史已清空")

    def buy_plan(self, it: Interaction) -> None:
        plan = it.ui("plan")
        if plan not in PLANS:
            it.no_op("no plan chosen")
        name, cents, _ = PLANS[plan]
        it.request_payment(amount_cents=cents, merchant=MERCHANT,
                           reference=f"{it.new_id('vip')}-{plan}",
                           description=f"追剧VIP{name}")  # fmt: skip

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        plan = reference.rpartition("-")[2]
        if not paid or plan not in PLANS:
            return
        name, cents, days = PLANS[plan]
        it.data["vip_until"] = max(it.data["vip_until"], it.clock) + days * DAY
        it.data["orders"].append({"id": reference, "plan": plan, "cents": cents,
                                  "time": it.clock})  # fmt: skip
        it.toast(f"VIP{name}开通成功")

    def clear_query(self, it: Interaction) -> None:
        if not it.field("query"):
            it.no_op("the search is empty")
        it.set_field("query", "")
