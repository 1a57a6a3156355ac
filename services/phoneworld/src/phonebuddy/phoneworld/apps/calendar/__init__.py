"""日历 (Calendar): a month view with each day's agenda, event pages and an event editor; a direct
tool to create an event."""

from phonebuddy.phoneworld.apps.calendar.app import Calendar

APP = Calendar
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Calendar"]
