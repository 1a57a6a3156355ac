"""演出票 (Show Tickets): a Damai-like live-show ticketing app. Shows by city and category with
search and sort, a show's sessions and price tiers, 想看, buying with 观演人 for 实名制 shows
(paid in the wallet), 缺货登记 for sold-out tiers, and orders with entry codes and refunds."""

from phonebuddy.phoneworld.apps.showtix.app import ShowTix

APP = ShowTix
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "ShowTix"]
