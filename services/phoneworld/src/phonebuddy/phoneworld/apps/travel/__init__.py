"""旅行 (Travel): 12306/Ctrip-like train tickets, hotels, orders with refunds, and passengers."""

from phonebuddy.phoneworld.apps.travel.app import Travel

APP = Travel
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Travel"]
