"""微信 (Messenger, WeChat-like): chats, contacts, moments, and mini-programs (coffee, parking,
bike sharing, movie tickets, parcels) running inside its frame and paying through the wallet."""

from phonebuddy.phoneworld.apps.messenger.app import Messenger

APP = Messenger
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Messenger"]
