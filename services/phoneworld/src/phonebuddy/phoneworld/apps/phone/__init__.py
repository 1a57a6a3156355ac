"""电话 (Phone): call log, dial pad, contacts tab, call details and the in-call screen."""

from phonebuddy.phoneworld.apps.phone.app import Phone

APP = Phone
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Phone"]
