"""Task templates of the Travel app: book the earliest or cheapest train with seats left (or
the train written in a note) and pay, book a hotel and pay, refund a ticket, add a passenger,
and questions about departure times, the earliest train with seats, and hotel prices."""

from __future__ import annotations

from phonebuddy.phoneworld.apps.travel.tasks_booking import (
    BookCheapestTrain,
    BookEarliestTrain,
    BookHotel,
    BookNoteTrain,
)
from phonebuddy.phoneworld.apps.travel.tasks_trips import (
    AddPassenger,
    DepartureTime,
    EarliestWithSeats,
    HotelPrice,
    RefundTicket,
)
from phonebuddy.phoneworld.tasks.base import TaskTemplate

TEMPLATES: tuple[TaskTemplate, ...] = (
    BookEarliestTrain(),
    BookCheapestTrain(),
    BookNoteTrain(),
    BookHotel(),
    RefundTicket(),
    AddPassenger(),
    DepartureTime(),
    EarliestWithSeats(),
    HotelPrice(),
)
