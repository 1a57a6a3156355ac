"""点评 (Reviews): a Dianping-like guide to local shops. Shops by category with filters, sorting
and search, a shop's page (rating, address to copy, reviews, 收藏), table booking with 我的订座
and cancelling, and writing a review."""

from phonebuddy.phoneworld.apps.reviews.app import Reviews

APP = Reviews
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Reviews"]
