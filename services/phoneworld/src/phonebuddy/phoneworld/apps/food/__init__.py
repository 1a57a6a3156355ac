"""外卖 (Food): Meituan-like delivery with menus, cart, checkout, wallet payment and tracking."""

from phonebuddy.phoneworld.apps.food.app import Food

APP = Food
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Food"]
