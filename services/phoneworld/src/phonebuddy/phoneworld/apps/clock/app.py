"""The Clock app: alarms, world clocks, a countdown timer and a stopwatch, on four tabs.

Times shown are Beijing time read from the simulated device clock. The alarm editor keeps the
time being edited in its view state: the −/+ buttons step it, and a time typed into the `time`
field ("06:45") takes precedence, so an agent can either tap or type.

Alarms live in `alarms`, the world clock, timer and stopwatch in `tools`; what they share is
in `base`.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import Label, View, screen, tool
from phonebuddy.phoneworld.apps.clock.alarms import AlarmScreens
from phonebuddy.phoneworld.apps.clock.base import CITIES, CLOCK, END_SPACE, SEED_ALARMS, TABS, hhmm
from phonebuddy.phoneworld.apps.clock.tools import ToolScreens
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import Page, Tabs


class Clock(AlarmScreens, ToolScreens):
    package = CLOCK
    label = Label(zh="时钟", en="Clock")
    domain = "productivity"
    theme = AppTheme(primary=(48, 79, 254))
    icon_text = "钟"
    permissions = ("notifications",)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return {
            "cities": [
                {"id": cid, "name": zh, "name_en": en, "utc_offset": offset}
                for cid, zh, en, offset in CITIES
            ]
        }

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        alarms = sorted(rng.sample(SEED_ALARMS, k=rng.randint(3, 5)), key=lambda a: a[:2])
        cities = rng.sample([c["id"] for c in content["cities"]], k=rng.randint(1, 3))
        return {
            "alarms": [
                {
                    "id": f"alarm-{i}",
                    "hour": hour,
                    "minute": minute,
                    "label": label,
                    "repeat": list(repeat),
                    "enabled": rng.random() < 0.7,
                }
                for i, (hour, minute, label, repeat) in enumerate(alarms)
            ],
            "world_clocks": [{"id": city} for city in cities],
            "timer": {
                "duration_seconds": rng.choice((3, 5, 10)) * 60,
                "running": False,
                "started_at": None,
            },
            "stopwatch": {"running": False, "started_at": None, "elapsed_seconds": 0},
        }

    @staticmethod
    def clear_field(it: Interaction, name: str) -> None:
        if not it.field(name):
            it.no_op(f"{name} is already empty")
        it.set_field(name, "")
        it.focus(name)

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "alarm")
        body, actions = {
            "alarm": self._alarm_tab,
            "world": self._world_tab,
            "timer": self._timer_tab,
            "stopwatch": self._stopwatch_tab,
        }[tab](v)
        return Page(
            "时钟",
            [*body, END_SPACE],
            header=Tabs(TABS, tab, v.on_select("tab")),
            actions=actions,
            overlay=self._remove_city_dialog(v),
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "set_alarm",
        "Create an alarm that rings once at hour:minute (24-hour clock) with a label.",
        {"hour": int, "minute": int, "label": str},
    )
    def set_alarm_tool(self, it: Interaction, hour: int, minute: int, label: str) -> str:
        alarm_id = self.add_alarm(it, hour, minute, label, [])
        return f"created {alarm_id} at {hhmm(hour, minute)}"
