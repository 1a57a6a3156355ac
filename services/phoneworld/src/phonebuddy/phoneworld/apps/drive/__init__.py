"""Cloud Drive: a Google-Drive-like cloud storage app. A folder tree with breadcrumbs and
sorting, search, Starred, Shared with me, a Trash, file details (rename, move, offline) and
sharing with people (Viewer, Commenter, Editor) or by link."""

from phonebuddy.phoneworld.apps.drive.app import Drive

APP = Drive
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Drive"]
