"""邮件 (Mail): folders, reading, reply / forward / star / delete / move, compose with drafts,
search, contacts; shares open the composer; a direct tool sends mail."""

from phonebuddy.phoneworld.apps.mail.app import MailApp

APP = MailApp
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "MailApp"]
