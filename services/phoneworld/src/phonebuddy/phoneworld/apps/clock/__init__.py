"""时钟 (Clock): alarms, world clocks, a timer and a stopwatch; a direct tool to set an alarm."""

from phonebuddy.phoneworld.apps.clock.app import Clock

__all__ = ["Clock"]
