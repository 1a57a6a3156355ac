"""录音机 (Recorder): a voice recorder with folders, playback, transcripts, sharing and a
recycle bin (最近删除)."""

from phonebuddy.phoneworld.apps.recorder.app import Recorder

APP = Recorder
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Recorder"]
