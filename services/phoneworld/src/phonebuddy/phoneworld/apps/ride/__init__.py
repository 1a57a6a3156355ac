"""打车 (Ride): DiDi-like ride hailing with fare estimates, drivers, timed trips and payment."""

from phonebuddy.phoneworld.apps.ride.app import Ride

APP = Ride
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Ride"]
