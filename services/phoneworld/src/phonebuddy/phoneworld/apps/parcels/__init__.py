"""快递 (Parcels): a Cainiao-like parcel tracker. Parcels with their timelines and pick-up codes,
add one by its tracking number (a pasted SMS works too), confirm pick-up, remarks, delete."""

from phonebuddy.phoneworld.apps.parcels.app import Parcels

APP = Parcels
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Parcels"]
