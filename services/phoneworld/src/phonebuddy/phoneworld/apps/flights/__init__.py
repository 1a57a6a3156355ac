"""航班管家 (Flights): a Chinese flight-booking app. One-way search by cities and date with
sorting and filters, a flight's cabins, booking for frequent passengers paid in the wallet,
trips with online check-in, refunds and sharing, and today's flight status with 关注."""

from phonebuddy.phoneworld.apps.flights.app import Flights

APP = Flights
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Flights"]
