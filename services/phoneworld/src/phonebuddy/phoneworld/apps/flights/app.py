"""The Flights app (航班管家), put together from its screen modules: `search` (机票, results,
a flight's cabins, the order form) and `trips` (home, trips, check-in, flight status)."""

from __future__ import annotations

from phonebuddy.phoneworld.apps.flights.trips import TripScreens


class Flights(TripScreens):
    """航班管家: search, book and pay for flights; check in, refund and follow them."""
