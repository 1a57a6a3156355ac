"""The 智能家居 app: the device screens and the routines (scenes, automations, sharing)
combined; what they share is in `base`."""

from __future__ import annotations

from phonebuddy.phoneworld.apps.smarthome.routines import RoutineScreens
from phonebuddy.phoneworld.apps.smarthome.screens import HomeScreens


class SmartHome(HomeScreens, RoutineScreens):
    """智能家居 (Smart Home), a 米家-like app."""
