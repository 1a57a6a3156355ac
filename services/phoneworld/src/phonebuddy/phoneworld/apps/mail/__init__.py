"""邮件 (Mail): folders, reading, reply / forward / star / delete / move, compose with drafts,
search, contacts; shares open the composer; a direct tool sends mail."""

from phonebuddy.phoneworld.apps.mail.app import MailApp

__all__ = ["MailApp"]
