"""音乐 (Music, NetEase-Cloud-Music-like): a song catalogue with artists and charts, search, the
player (now playing, play mode, queue), liked songs, playlists, play history; a direct tool to
play a song."""

from phonebuddy.phoneworld.apps.music.app import Music

APP = Music
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Music"]
