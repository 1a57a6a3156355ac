"""充电桩 (EV Charging): a 特来电/星星充电-like app. Nearby charging stations with filters and
sorting, time-of-use prices, starting a session on a free pile by its number, the session that
advances with the clock, bills paid from the 充电余额 or in the wallet, recharging, vehicles,
coupons, favourites and the charging history."""

from phonebuddy.phoneworld.apps.charging.app import Charging

APP = Charging
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Charging"]
