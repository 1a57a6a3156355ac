"""The 追剧 app: a Chinese long-video streaming app (series, films, variety shows, anime)."""

from __future__ import annotations

from phonebuddy.phoneworld.apps.longvideo.base import LONGVIDEO
from phonebuddy.phoneworld.apps.longvideo.player import PlayerScreens


class LongVideo(PlayerScreens):
    """Home with channels, filters and sorting; search by title or actor; a title's page
    (episodes, 追剧, rating, share, downloads); the player; VIP plans; history; downloads."""


__all__ = ["LONGVIDEO", "LongVideo"]
