"""The handlers of 短视频: the only place its data changes."""

from __future__ import annotations

from typing import Any

from phonebuddy.phoneworld.app import App
from phonebuddy.phoneworld.apps.video.content import MAX_COMMENT, link
from phonebuddy.phoneworld.interaction import Interaction


class VideoHandlers(App):
    @staticmethod
    def find(it: Interaction, video_id: str) -> dict[str, Any]:
        for video in it.data["videos"]:
            if video["id"] == video_id:
                return video
        it.no_op(f"no video {video_id}")
        raise AssertionError  # no_op raises

    @staticmethod
    def watched(it: Interaction, video_id: str) -> None:
        history = it.data["history"]
        if video_id in history:
            history.remove(video_id)
        history.insert(0, video_id)

    def open_video(self, it: Interaction, video_id: str) -> None:
        self.find(it, video_id)
        self.watched(it, video_id)
        it.push("video", video_id=video_id, fields={"comment": ""})

    def page_feed(self, it: Interaction, tab: str, feed: list[str], index: int) -> None:
        """Move the feed to `index` (上一个/下一个, or pulling down for the previous one)."""
        if not 0 <= index < len(feed):
            it.toast("已经是第一个了" if index < 0 else "没有更多视频了")
            it.no_op(f"the feed has no video {index}")
        it.set_ui(f"index_{tab}", index)
        self.watched(it, feed[index])

    def toggle_like(self, it: Interaction, video_id: str) -> None:
        video = self.find(it, video_id)
        video["liked"] = not video["liked"]
        video["likes"] += 1 if video["liked"] else -1
        it.toast("已点赞" if video["liked"] else "已取消点赞")

    def toggle_collect(self, it: Interaction, video_id: str) -> None:
        video = self.find(it, video_id)
        video["collected"] = not video["collected"]
        video["collects"] += 1 if video["collected"] else -1
        it.toast("已收藏" if video["collected"] else "已取消收藏")

    def follow(self, it: Interaction, creator_id: str) -> None:
        if creator_id in it.data["following"]:
            it.no_op(f"{creator_id} is already followed")
        it.data["following"].append(creator_id)
        it.toast("已关注")

    def unfollow(self, it: Interaction, creator_id: str) -> None:
        if creator_id not in it.data["following"]:
            it.no_op(f"{creator_id} is not followed")
        it.data["following"].remove(creator_id)
        it.set_ui("dialog", None)
        it.toast("已取消关注")

    def comment(self, it: Interaction, video_id: str) -> None:
        video = self.find(it, video_id)
        text = it.field("comment").strip()
        if not text:
            it.toast("评论内容不能为空")
            it.no_op("empty comment")
        if len(text) > MAX_COMMENT:
            it.toast(f"评论不能超过{MAX_COMMENT}字")
            it.no_op("comment too long")
        video["my_comments"].append(text)
        video["comments"] += 1
        it.set_field("comment", "")
        it.toast("评论成功")

    def copy_link(self, it: Interaction, video_id: str) -> None:
        self.find(it, video_id)
        it.set_ui("dialog", None)
        it.copy(link(video_id))

    def clear_history(self, it: Interaction) -> None:
        if not it.data["history"]:
            it.no_op("the watch history is already empty")
        it.data["history"] = []
        it.set_ui("dialog", None)
        it.toast("观看历史已清空")
