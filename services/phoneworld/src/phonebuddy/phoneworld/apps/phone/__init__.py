"""电话 (Phone): call log, dial pad, contacts tab, call details and the in-call screen."""

from phonebuddy.phoneworld.apps.phone.app import Phone

__all__ = ["Phone"]
