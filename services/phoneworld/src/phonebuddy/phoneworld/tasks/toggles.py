"""On/off templates from data: an app lists its switches (where the value lives, the taps that
reach the toggle from the app's first screen, the switch's names) and one small subclass of
`ToggleTemplate` gives a template that samples a switch and a direction, sets the opposite up,
words the task three ways per language, verifies that exactly that value changed, and flips the
toggle in its oracle only when it is not already right.

    class ToggleAlerts(ToggleTemplate):
        id = "weather.alerts"
        apps = (WEATHER,)
        app_names = ("天气", "Weather")
        switches = {"alerts": Switch(f"apps/{WEATHER}/alerts", ("settings",), "alerts",
                                     "恶劣天气预警", "severe-weather alerts")}
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.protocol import Action, Category, Instruction

if TYPE_CHECKING:
    from phonebuddy.phoneworld.interaction import Interaction
    from phonebuddy.phoneworld.tasks.diff import StateDiff
    from phonebuddy.phoneworld.world import World


@dataclass(frozen=True, slots=True)
class Switch:
    """An on/off setting as a user finds it."""

    path: str  # its value in the device state: "os/settings/wifi", "apps/<package>/alerts"
    route: tuple[str, ...]  # the widget ids to tap, from the app's first screen, to its page
    toggle: str  # the toggle's widget id
    zh: str
    en: str


def _set(state: dict[str, Any], path: str, value: bool) -> None:
    *parents, key = path.split("/")
    node = state
    for part in parents:
        node = node[part]
    node[key] = value


class ToggleTemplate(TaskTemplate):
    """Turn one of `switches` on or off (only off with `turn_on = False`)."""

    category = Category.SINGLE_APP
    difficulty = 4
    app_names: ClassVar[tuple[str, str]]  # the app as the launcher shows it, and in English
    switches: ClassVar[Mapping[str, Switch]]
    turn_on: ClassVar[bool] = True

    def sample(self, world: World, rng: random.Random) -> Params:
        key = rng.choice(sorted(self.switches))
        return {"key": key, "on": self.turn_on and rng.random() < 0.5}

    def setup(self, it: Interaction, params: Params) -> None:
        _set(it.device.state, self.switches[params["key"]].path, not params["on"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        switch = self.switches[params["key"]]
        app_zh, app_en = self.app_names
        act_zh, act_en = ("打开", "on") if params["on"] else ("关闭", "off")
        return phrased(
            zh=[f"在{app_zh}里{act_zh}{switch.zh}", f"帮我把{app_zh}里的{switch.zh}{act_zh}",
                f"打开{app_zh}，{act_zh}{switch.zh}"],
            en=[f"Turn {act_en} {switch.en} in {app_en}", f"Switch {app_en}'s {switch.en} {act_en}",
                f"Open {app_en} and turn {switch.en} {act_en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = self.switches[params["key"]].path
        changed = [(c.path, c.after) for c in diff.touched(path)]
        if changed != [(path, params["on"])]:
            return [f"expected {path} switched to {params['on']}, got {changed}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        switch = self.switches[params["key"]]
        yield ui.open(self.app_names[0])
        yield from ui.allow_permission()
        for step in switch.route:
            if not ui.visible(step):
                yield from ui.scroll_to(step)
            yield ui.tap(step)
        yield from ui.scroll_to(switch.toggle)
        toggle = ui.find(switch.toggle)
        if toggle is None:
            raise OracleError(f"{switch.toggle!r} is not on screen")
        if toggle.checked != params["on"]:
            yield ui.tap(switch.toggle)
