"""相册 (Gallery): a photo timeline, albums with multi-select, a viewer with favourite / share /
rename / move / delete, 最近删除 to restore from, and a files tab (下载, 文档)."""

from phonebuddy.phoneworld.apps.gallery.app import Gallery

APP = Gallery
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Gallery"]
