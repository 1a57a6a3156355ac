"""Every PhoneWorld app, in launcher order. Add a new app here (explicit registry)."""

from __future__ import annotations

from phonebuddy.phoneworld.app import App


def all_apps() -> list[App]:
    from phonebuddy.phoneworld.apps.notes import Notes
    from phonebuddy.phoneworld.apps.wallet import Wallet

    return [
        Notes(),
        Wallet(),
    ]
