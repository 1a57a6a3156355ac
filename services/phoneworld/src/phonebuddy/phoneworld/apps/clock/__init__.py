"""时钟 (Clock): alarms, world clocks, a timer and a stopwatch; a direct tool to set an alarm."""

from phonebuddy.phoneworld.apps.clock.app import Clock

APP = Clock
"""This app, for the registry in `phonebuddy.phoneworld.apps`."""

__all__ = ["APP", "Clock"]
