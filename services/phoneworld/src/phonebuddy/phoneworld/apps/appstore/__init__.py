"""应用市场 (App Store): a Chinese Android app store. 推荐/分类/排行 tabs, search sorted by
rating or downloads, an app's page (details, 更新内容, 权限, reviews), installing free apps,
buying paid ones through the wallet, 我的 (installed apps, updates, uninstalling, storage),
the 愿望单, writing reviews and auto-update on Wi-Fi."""

from phonebuddy.phoneworld.apps.appstore.app import Appstore

APP = Appstore
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Appstore"]
