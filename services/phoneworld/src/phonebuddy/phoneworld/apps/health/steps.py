"""What the Health templates share: paths into its data, reading the start state, and oracle
steps (the 周 tab, the runs, a workout shared to WeChat, a weight logged)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.gallery.steps import SHARE_TO
from phonebuddy.phoneworld.apps.health.app import (
    HEALTH,
    KIND_TABS,
)
from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.tasks.base import Params
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleUI, texts
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action

CLOCK = "com.pw.clock"
MESSAGES = "com.pw.messages"
MESSENGER = "com.pw.messenger"
NOTES = "com.pw.notes"
ROOT = f"apps/{HEALTH}"
WEIGHTS = f"{ROOT}/weights"
NOTE_TITLES = ("本周步数", "运动周报", "步数统计")
DOCTORS = (("13857120458", "王医生"), ("13957183026", "李医生"), ("15067129933", "陈医生"))
KIND_EN = {"跑步": "running", "步行": "walking", "骑行": "cycling", "游泳": "swimming"}
ALARM_LABELS = ("晨跑", "运动提醒", "出门走走")


def health(world: World) -> dict[str, Any]:
    return world.content(HEALTH)  # type: ignore[no-any-return]


def before(diff: StateDiff) -> dict[str, Any]:
    return diff.before["apps"][HEALTH]  # type: ignore[no-any-return]


def clock_of(diff: StateDiff) -> int:
    return int(diff.before["os"]["clock"])


def week_steps(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in data["days"] if d["ago"] < 7]


def open_health(ui: OracleUI, entry: str) -> Iterator[Action]:
    yield ui.open("运动健康")
    yield from ui.scroll_to(entry)
    yield ui.tap(entry)


def week_rows(ui: OracleUI, rows: dict[int, tuple[str, int]]) -> Iterator[Action]:
    """Open the 周 tab and scroll through it, filling `rows` with ago -> (date, steps)."""
    yield from open_health(ui, "open_history")
    yield ui.tap("tab_week")
    for ago in range(7):
        yield from ui.scroll_to(f"day_{ago}")
        parts = texts(ui.node(f"day_{ago}"))
        steps = next(t for t in parts if t.endswith("步") and t[:-1].isdigit())
        title = next(t for t in parts if "月" in t and "日 " in t)
        rows[ago] = (title.split()[1], int(steps.removesuffix("步")))


def longest_run(ui: OracleUI, distances: list[float]) -> Iterator[Action]:
    """Open the runs and scroll through them, filling `distances` with every run's km."""
    yield from open_health(ui, "open_workouts")
    yield ui.tap(f"kind_{[k for k, _ in KIND_TABS].index('跑步')}")
    seen: dict[str, float] = {}
    while True:
        for node in ui.find_all():
            if ":id/workout_" in node.resource_id:
                title = next(t for t in texts(node) if t.startswith("跑步 "))
                seen[node.resource_id] = float(title.split()[1].removesuffix("公里"))
        if ui.device.scroll_room("content")[1] <= 0:
            break
        yield ui.page_down()
    distances.extend(seen.values())


def share_to_friend(ui: OracleUI, params: Params) -> Iterator[Action]:
    """On a workout's page: 分享 → WeChat → the friend's chat → 发送."""
    yield ui.tap("share")
    yield ui.tap(SHARE_TO.format("messenger"))
    yield from ui.allow_permission()
    chat = f"pick_{private_chat_id(params['friend_id'])}"
    yield from ui.scroll_to(chat)
    yield ui.tap(chat)
    yield ui.tap("share_send")


def one_weight(diff: StateDiff, ago: int, kg: float) -> list[str]:
    added = diff.added(WEIGHTS)
    if len(added) != 1:
        return [f"expected one new weight entry, found {len(added)}"]
    entry, problems = added[0], []
    if entry["ago"] != ago:
        problems.append(f"the entry is for {entry['ago']} days ago, expected {ago}")
    if entry["kg"] != kg:
        problems.append(f"the entry says {entry['kg']} kg, expected {kg}")
    return problems


def add_weight(ui: OracleUI, kg: float, date: str | None = None) -> Iterator[Action]:
    yield ui.tap("add_weight")
    if date is not None:
        yield from ui.type_into("date", date)
    yield from ui.type_into("kg", f"{kg}")
    yield ui.tap("save_weight")


EN_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
ZH_WEEKDAYS = "一二三四五六日"


def weekday_forms(index: int) -> tuple[str, ...]:
    zh = ZH_WEEKDAYS[index]
    forms = (f"周{zh}", f"星期{zh}", EN_WEEKDAYS[index])
    return (*forms, "星期天", "周天") if index == 6 else forms
