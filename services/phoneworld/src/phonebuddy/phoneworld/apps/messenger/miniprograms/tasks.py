"""Task templates of the mini-programs (category mini_program): order coffee, pay for parking,
ride a shared bike, buy movie tickets, track parcels, and questions about each."""

from __future__ import annotations

from phonebuddy.phoneworld.apps.messenger.miniprograms import (
    tasks_dining,
    tasks_dining_qa,
    tasks_shipping,
    tasks_shipping_more,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.tasks_daily import (
    BikeLastRide,
    BikeRide,
    CoffeeOrder,
    CoffeePrice,
    ParkingAddPlate,
    ParkingFee,
    ParkingPay,
)
from phonebuddy.phoneworld.apps.messenger.miniprograms.tasks_movies_parcels import (
    MovieFromCard,
    MovieShowtimes,
    MovieTickets,
    ParcelAdd,
    ParcelFromChat,
    ParcelPickupCode,
    ParcelStatus,
    track_number,
)
from phonebuddy.phoneworld.tasks.base import TaskTemplate

__all__ = ["TEMPLATES", "track_number"]

TEMPLATES: tuple[TaskTemplate, ...] = (
    CoffeeOrder(),
    CoffeePrice(),
    ParkingPay(),
    ParkingFee(),
    ParkingAddPlate(),
    BikeRide(),
    BikeLastRide(),
    MovieTickets(),
    MovieFromCard(),
    MovieShowtimes(),
    ParcelAdd(),
    ParcelFromChat(),
    ParcelStatus(),
    ParcelPickupCode(),
    *tasks_dining.TEMPLATES,
    *tasks_dining_qa.TEMPLATES,
    *tasks_shipping.TEMPLATES,
    *tasks_shipping_more.TEMPLATES,
)
