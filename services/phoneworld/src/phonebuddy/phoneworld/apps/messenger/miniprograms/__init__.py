"""The mini-programs hosted by the messenger, by name."""

from phonebuddy.phoneworld.apps.messenger.miniprograms.bike import Bike
from phonebuddy.phoneworld.apps.messenger.miniprograms.coffee import Coffee
from phonebuddy.phoneworld.apps.messenger.miniprograms.dining import Dining
from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import MiniProgram
from phonebuddy.phoneworld.apps.messenger.miniprograms.fuel import Fuel
from phonebuddy.phoneworld.apps.messenger.miniprograms.groupbuy import Groupbuy
from phonebuddy.phoneworld.apps.messenger.miniprograms.hospital import Hospital
from phonebuddy.phoneworld.apps.messenger.miniprograms.movies import Movies
from phonebuddy.phoneworld.apps.messenger.miniprograms.parcels import Parcels
from phonebuddy.phoneworld.apps.messenger.miniprograms.parking import Parking
from phonebuddy.phoneworld.apps.messenger.miniprograms.powerbank import Powerbank
from phonebuddy.phoneworld.apps.messenger.miniprograms.shipping import Shipping
from phonebuddy.phoneworld.apps.messenger.miniprograms.tickets import Tickets
from phonebuddy.phoneworld.apps.messenger.miniprograms.utilities import Utilities

PROGRAMS: dict[str, MiniProgram] = {
    program.name: program
    for program in (
        Coffee(),
        Parking(),
        Bike(),
        Movies(),
        Parcels(),
        Hospital(),
        Utilities(),
        Tickets(),
        Powerbank(),
        Fuel(),
        Groupbuy(),
        Dining(),
        Shipping(),
    )
}

__all__ = ["PROGRAMS", "MiniProgram"]
