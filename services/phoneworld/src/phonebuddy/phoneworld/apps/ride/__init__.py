"""打车 (Ride): DiDi-like ride hailing with fare estimates, drivers, timed trips and payment."""

from phonebuddy.phoneworld.apps.ride.app import Ride

__all__ = ["Ride"]
