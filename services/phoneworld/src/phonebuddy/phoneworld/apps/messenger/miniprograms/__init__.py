"""The mini-programs hosted by the messenger, by name."""

from phonebuddy.phoneworld.apps.messenger.miniprograms.bike import Bike
from phonebuddy.phoneworld.apps.messenger.miniprograms.coffee import Coffee
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import MiniProgram
from phonebuddy.phoneworld.apps.messenger.miniprograms.movies import Movies
from phonebuddy.phoneworld.apps.messenger.miniprograms.parcels import Parcels
from phonebuddy.phoneworld.apps.messenger.miniprograms.parking import Parking

PROGRAMS: dict[str, MiniProgram] = {
    program.name: program for program in (Coffee(), Parking(), Bike(), Movies(), Parcels())
}

__all__ = ["PROGRAMS", "MiniProgram"]
