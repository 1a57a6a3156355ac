"""Every PhoneWorld app, in launcher order. Add a new app here (explicit registry)."""

from __future__ import annotations

from phonebuddy.phoneworld.app import App


def all_apps() -> list[App]:
    from phonebuddy.phoneworld.apps.calendar import Calendar
    from phonebuddy.phoneworld.apps.clock import Clock
    from phonebuddy.phoneworld.apps.contacts import Contacts
    from phonebuddy.phoneworld.apps.food import Food
    from phonebuddy.phoneworld.apps.gallery import Gallery
    from phonebuddy.phoneworld.apps.mail import MailApp
    from phonebuddy.phoneworld.apps.messages import Messages
    from phonebuddy.phoneworld.apps.messenger import Messenger
    from phonebuddy.phoneworld.apps.music import Music
    from phonebuddy.phoneworld.apps.notes import Notes
    from phonebuddy.phoneworld.apps.phone import Phone
    from phonebuddy.phoneworld.apps.ride import Ride
    from phonebuddy.phoneworld.apps.settings import Settings
    from phonebuddy.phoneworld.apps.shop import Shop
    from phonebuddy.phoneworld.apps.travel import Travel
    from phonebuddy.phoneworld.apps.wallet import Wallet
    from phonebuddy.phoneworld.apps.weather import Weather

    return [
        Notes(),
        Wallet(),
        Shop(),
        Settings(),
        Clock(),
        Calendar(),
        Food(),
        Ride(),
        Travel(),
        Contacts(),
        Phone(),
        Messages(),
        MailApp(),
        Gallery(),
        Messenger(),
        Weather(),
        Music(),
    ]
