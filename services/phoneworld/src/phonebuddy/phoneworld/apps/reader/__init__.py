"""读书 (Reader): a WeChat-Reading-like e-book app. A shelf with reading progress, a catalogue
of books by category with search, buying paid books, a chapter reader with bookmarks, and the
week's reading minutes with a daily goal."""

from phonebuddy.phoneworld.apps.reader.app import Reader

APP = Reader
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Reader"]
