"""生活圈 (Circle): a Xiaohongshu-like feed of seeded posts; like, collect, comment, follow."""

from phonebuddy.phoneworld.apps.circle.app import Circle

APP = Circle
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Circle"]
