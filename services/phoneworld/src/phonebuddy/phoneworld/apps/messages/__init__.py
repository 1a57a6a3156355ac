"""信息 (Messages): SMS threads, verification codes, compose and reply; accepts shares; a direct
tool to send an SMS."""

from phonebuddy.phoneworld.apps.messages.app import Messages

APP = Messages
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Messages"]
