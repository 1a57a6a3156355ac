"""备忘录 (Notes): folders of notes; create, edit, pin and delete; a direct tool to create one."""

from phonebuddy.phoneworld.apps.notes.app import Notes

APP = Notes
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Notes"]
