"""备忘录 (Notes): folders of notes; create, edit, pin and delete; a direct tool to create one."""

from phonebuddy.phoneworld.apps.notes.app import Notes

__all__ = ["Notes"]
