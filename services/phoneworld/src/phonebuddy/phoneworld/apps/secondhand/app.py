"""The 闲置 app (a 闲鱼-like second-hand market): the class combining its screen modules."""

from __future__ import annotations

from phonebuddy.phoneworld.apps.secondhand.browse import BrowseScreens
from phonebuddy.phoneworld.apps.secondhand.mine import MineScreens


class Secondhand(BrowseScreens, MineScreens):
    """首页 feed by category, search with sort and filters, listing pages (我想要, chat and
    offers, buy through the wallet), 我买到的, 我想要的, publishing and managing listings."""
