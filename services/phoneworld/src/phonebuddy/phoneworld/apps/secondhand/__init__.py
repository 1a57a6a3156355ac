"""闲置 (Secondhand): a 闲鱼-like second-hand market. A feed of listings by category, search
with sort and filters, 我想要, chats and offers with sellers, buying through the wallet with an
address, orders with receipt confirmation, and publishing and managing one's own listings."""

from phonebuddy.phoneworld.apps.secondhand.app import Secondhand

APP = Secondhand
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Secondhand"]
