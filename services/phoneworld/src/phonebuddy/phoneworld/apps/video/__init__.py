"""短视频 (Shorts): a Douyin-like short-video app. A 推荐/关注 feed of full-screen videos paged
up and down, like/collect/comment/share, search (videos and users, 最热/最新), creators'
profiles with follow, and 我 (likes, collections, following, a watch history to clear)."""

from phonebuddy.phoneworld.apps.video.app import Video

APP = Video
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Video"]
