"""追剧 (Long Video): an iQiyi/Tencent-Video-like streaming app. Channels of series, films,
variety shows and anime with filters and sorting, search by title or actor, a title's page with
its episodes, 追剧, ratings, sharing and downloads, the player (next episode, speed, 弹幕,
清晰度), VIP plans paid through the wallet, watch history and downloads."""

from phonebuddy.phoneworld.apps.longvideo.app import LongVideo

APP = LongVideo
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "LongVideo"]
