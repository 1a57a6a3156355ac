"""购物 (Shop, Taobao-like): catalogue search, product pages with SKUs, cart, checkout paid in
the wallet, and orders."""

from phonebuddy.phoneworld.apps.shop.app import Shop

__all__ = ["Shop"]
