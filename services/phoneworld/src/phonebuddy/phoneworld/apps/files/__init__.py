"""文件管理 (Files): folders and files of the phone's storage, categories, recent and starred
files, search, rename, move/copy, the 回收站, storage totals, and the Mail app's attachments."""

from phonebuddy.phoneworld.apps.files.app import Files

APP = Files
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Files"]
