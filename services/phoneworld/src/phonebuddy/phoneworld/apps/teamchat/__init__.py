"""Huddle (teamchat): a Slack-like workplace chat for the Northwind workspace. Channels and DMs
with unread badges and mentions, threads, reactions, pins, editing and deleting your own
messages, member profiles with local times, search, your status, saved items and reminders."""

from phonebuddy.phoneworld.apps.teamchat.app import Teamchat

APP = Teamchat
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Teamchat"]
