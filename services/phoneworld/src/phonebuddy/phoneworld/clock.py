"""The simulated clock: when every device's day starts and how far each action moves it.

A leaf module (it imports nothing of PhoneWorld) so that apps, their content and their tasks can
name the epoch without importing the device, which imports the world, which imports the apps.
"""

from __future__ import annotations

import datetime as dt

# 2026-03-16 09:00 Beijing time; every reset starts from here plus a seeded offset of days.
EPOCH_START = int(
    dt.datetime(2026, 3, 16, 9, 0, tzinfo=dt.timezone(dt.timedelta(hours=8))).timestamp()
)
# How far the clock moves for one action (a `wait` moves it by its own duration).
SECONDS_PER_ACTION = 3
