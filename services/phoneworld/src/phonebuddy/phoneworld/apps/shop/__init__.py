"""购物 (Shop, Taobao-like): catalogue search, product pages with SKUs, cart, checkout paid in
the wallet, and orders."""

from phonebuddy.phoneworld.apps.shop.app import Shop

APP = Shop
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Shop"]
