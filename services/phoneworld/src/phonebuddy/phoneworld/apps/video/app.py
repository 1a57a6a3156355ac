"""The 短视频 app (Shorts): the 推荐/关注 feed (one full-screen video at a time, paged with
上一个/下一个 or by pulling down), a video's page (like, collect, comment, share link, follow),
search over videos and users with 最热/最新, a creator's profile, and 我 (喜欢, 收藏, 关注,
观看历史 with a confirmed clear).

The feed position is view state; what the user watched is kept in `history` (ignorable: every
look at a video records it, so only the clear-history task reads it)."""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import Label
from phonebuddy.phoneworld.apps.video.content import VIDEO, build
from phonebuddy.phoneworld.apps.video.screens import VideoScreens
from phonebuddy.phoneworld.state import clone
from phonebuddy.phoneworld.system.friction import Friction, Popup
from phonebuddy.phoneworld.ui.theme import AppTheme

__all__ = ["VIDEO", "Video"]


class Video(VideoScreens):
    package = VIDEO
    label = Label(zh="短视频", en="Shorts")
    domain = "social"
    theme = AppTheme(primary=(254, 44, 85))
    icon_text = "抖"
    ignorable = ("history",)
    friction = Friction(
        splash="记录美好生活",
        popup=Popup(
            "青少年模式",
            "为呵护未成年人健康成长，短视频推出了青少年模式。该模式下部分功能和内容将受到限制。",
            "我知道了",
            close="以后再说",
        ),
    )

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return build(rng)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        videos = [
            {**clone(v), "liked": False, "collected": False, "my_comments": []}
            for v in content["videos"]
        ]
        return {
            "videos": videos,
            "following": list(content["following"]),
            "history": list(content["history"]),
        }
