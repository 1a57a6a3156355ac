"""外卖 (Food): Meituan-like delivery with menus, cart, checkout, wallet payment and tracking."""

from phonebuddy.phoneworld.apps.food.app import Food

__all__ = ["Food"]
