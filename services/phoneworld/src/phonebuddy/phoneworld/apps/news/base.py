"""头条新闻's data, look-ups and handlers (the only place its data changes)."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View
from phonebuddy.phoneworld.apps.news import content
from phonebuddy.phoneworld.apps.news.content import CHANNELS, START_CHANNELS
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui.theme import AppTheme, Color

NEWS = "com.pw.news"
RED: Color = (240, 65, 66)
CHANNEL_NAMES = dict(CHANNELS)
PUSH = (("breaking", "突发新闻推送"), ("followed", "关注的作者更新"), ("comments", "评论与回复"),
        ("night", "夜间免打扰"))  # fmt: skip
FONTS = (("small", "小", 36), ("mid", "中", 40), ("large", "大", 48))
MAX_COMMENT = 200


class NewsBase(App):
    package = NEWS
    label = Label(zh="头条新闻", en="News")
    domain = "news"
    theme = AppTheme(primary=RED)
    icon_text = "头"
    ignorable = ("history",)  # reading an article records it

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return content.build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        t0 = min(a["time"] for a in content["articles"])
        return {
            "channels": [{"id": key} for key in START_CHANNELS],
            "following": [{"id": s} for s in content["followed"]],
            "saved": [{"id": a, "time": t0} for a in content["saved"]],
            "history": [{"id": a, "time": t0 + i} for i, a in enumerate(content["history"])],
            "likes": [],
            "comments": [],
            "votes": [],
            "hidden": [],
            "push": {"breaking": True, "followed": True, "comments": False, "night": False},
            "font": "mid",
        }

    # -- look-ups -------------------------------------------------------------------------------
    @staticmethod
    def article(v: View | Interaction, article_id: str) -> dict[str, Any]:
        """An article as this phone shows it: the shared one with the fields a correction on
        this device (`revised`) replaces, if any."""
        article = next(a for a in v.content["articles"] if a["id"] == article_id)
        revised = v.data.get("revised", {}).get(article_id)
        return article if revised is None else {**article, **revised}

    @staticmethod
    def has(items: list[dict[str, Any]], item_id: str) -> bool:
        return any(x["id"] == item_id for x in items)

    # -- handlers -------------------------------------------------------------------------------
    def open_article(self, it: Interaction, article_id: str) -> None:
        history = [h for h in it.data["history"] if h["id"] != article_id]
        it.data["history"] = [*history, {"id": article_id, "time": it.clock}]
        it.push("article", article_id=article_id)

    def toggle_saved(self, it: Interaction, article_id: str) -> None:
        if self.has(it.data["saved"], article_id):
            it.data["saved"] = [s for s in it.data["saved"] if s["id"] != article_id]
            it.toast("已取消收藏")
        else:
            it.data["saved"].append({"id": article_id, "time": it.clock})
            it.toast("已收藏")

    def toggle_like(self, it: Interaction, article_id: str) -> None:
        if self.has(it.data["likes"], article_id):
            it.data["likes"] = [x for x in it.data["likes"] if x["id"] != article_id]
        else:
            it.data["likes"].append({"id": article_id})
            it.toast("已点赞")

    def send_comment(self, it: Interaction, article_id: str) -> None:
        text = it.field("comment").strip()
        if not text:
            it.toast("评论内容不能为空")
            it.no_op("empty comment")
        if len(text) > MAX_COMMENT:
            it.toast(f"评论不能超过{MAX_COMMENT}字")
            it.no_op("comment too long")
        it.data["comments"].append({"id": it.new_id("cm"), "article": article_id,
                                    "text": text, "time": it.clock})  # fmt: skip
        it.set_field("comment", "")
        it.toast("评论成功")

    def vote(self, it: Interaction, article_id: str, option: int) -> None:
        if self.has(it.data["votes"], article_id):
            it.toast("你已经投过票了")
            it.no_op(f"already voted on {article_id}")
        it.data["votes"].append({"id": article_id, "option": option, "time": it.clock})
        it.toast("投票成功")

    def follow(self, it: Interaction, source: str) -> None:
        if self.has(it.data["following"], source):
            it.no_op(f"{source} is followed already")
        it.data["following"].append({"id": source})
        it.toast("关注成功")

    def unfollow(self, it: Interaction, source: str) -> None:
        it.set_ui("dialog", None)
        if not self.has(it.data["following"], source):
            it.no_op(f"{source} is not followed")
        it.data["following"] = [f for f in it.data["following"] if f["id"] != source]
        it.toast("已取消关注")

    def clear_history(self, it: Interaction) -> None:
        it.set_ui("dialog", None)
        if not it.data["history"]:
            it.no_op("the history is empty")
        it.data["history"] = []
        it.toast("历史记录已清空")

    def hide(self, it: Interaction, article_id: str) -> None:
        if self.has(it.data["hidden"], article_id):
            it.no_op(f"{article_id} is hidden already")
        it.data["hidden"].append({"id": article_id})
        it.toast("将减少此类内容推荐")

    def add_channel(self, it: Interaction, key: str) -> None:
        if self.has(it.data["channels"], key):
            it.no_op(f"{key} is on the tab bar")
        it.data["channels"].append({"id": key})
        it.toast(f"已添加“{CHANNEL_NAMES[key]}”")

    def remove_channel(self, it: Interaction, key: str) -> None:
        if key == "rec":
            it.toast("“推荐”频道不能删除")
            it.no_op("推荐 stays")
        if not self.has(it.data["channels"], key):
            it.no_op(f"{key} is not on the tab bar")
        it.data["channels"] = [c for c in it.data["channels"] if c["id"] != key]
        it.toast(f"已移除“{CHANNEL_NAMES[key]}”")

    def set_push(self, it: Interaction, key: str) -> None:
        it.data["push"][key] = not it.data["push"][key]

    def set_font(self, it: Interaction, font: str) -> None:
        if it.data["font"] == font:
            it.no_op(f"the font is {font} already")
        it.data["font"] = font

    def share(self, it: Interaction, article_id: str) -> None:
        a = self.article(it, article_id)
        it.share({"kind": "link", "title": a["title"], "text": a["paragraphs"][0],
                  "source": "头条新闻"})  # fmt: skip
