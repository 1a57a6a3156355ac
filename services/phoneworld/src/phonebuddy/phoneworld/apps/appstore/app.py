"""The App Store app (应用市场): the class combining its screen modules."""

from __future__ import annotations

from phonebuddy.phoneworld.apps.appstore.detail import DetailScreens
from phonebuddy.phoneworld.apps.appstore.home import HomeScreens


class Appstore(HomeScreens, DetailScreens):
    """推荐/分类/排行 and search, an app's page, installing, buying through the wallet,
    updates, uninstalling, the 愿望单, reviews and the auto-update setting."""
