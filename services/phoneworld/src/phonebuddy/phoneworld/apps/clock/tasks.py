"""Task templates of the Clock app, and one that sets an alarm from a note."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.clock.base import (
    CITIES,
    CLOCK,
    TIMER_PRESETS,
    WEEKDAYS,
    WEEKEND,
    WORKDAYS,
    hhmm,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import (
    ClockTime,
    Expectation,
    Number,
    Together,
    numbers_in,
)
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction, Type

NOTES = "com.pw.notes"
ALARMS = f"apps/{CLOCK}/alarms"
WORLD_CLOCKS = f"apps/{CLOCK}/world_clocks"
TIMER = f"apps/{CLOCK}/timer"
TASK_ALARM = "alarm-task"
EN_WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
# Repeat patterns of two or more days, as people ask for them.
REPEATS = (WORKDAYS, WEEKEND, [0, 2, 4], [1, 3], [0, 3], [5])
ALARM_LABELS = ("晨跑", "吃药", "开会", "取快递", "给妈妈打电话", "健身", "背单词", "喝水")
# Times no seeded alarm uses, so the task's alarm is the only one at its time.
TASK_TIMES = ((6, 10), (6, 40), (13, 20), (15, 0), (16, 45), (20, 0), (21, 15), (23, 5))
TIMER_MINUTES = (2, 4, 6, 8, 12, 20, 25)


def time_zh(hour: int, minute: int) -> str:
    return f"{hour}:{minute:02d}"


def repeat_zh(days: list[int]) -> str:
    if days == WORKDAYS:
        return "每个工作日（周一至周五）"
    if days == WEEKEND:
        return "每个周末（周六和周日）"
    return "每周" + "、".join(WEEKDAYS[d] for d in days)


def repeat_en(days: list[int]) -> str:
    if days == WORKDAYS:
        return "every weekday (Monday to Friday)"
    if days == WEEKEND:
        return "every weekend (Saturday and Sunday)"
    names = [EN_WEEKDAYS[d] for d in days]
    return "every " + (names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1])


def open_clock(ui: OracleUI) -> Iterator[Action]:
    """Open the Clock app, allowing its notification permission if it asks."""
    yield from ui.open_app("时钟")


def alarm_widget_id(ui: OracleUI, hour: int, minute: int) -> str:
    """The id of the alarm row on screen that shows hour:minute."""
    for node in ui.find_all():
        if node.resource_id.startswith(f"{CLOCK}:id/alarm_") and any(
            child.text == hhmm(hour, minute) for child in node.walk()
        ):
            return node.resource_id.rpartition(":id/")[2]
    raise OracleError(f"no alarm at {hhmm(hour, minute)} on screen")


def replace_text(ui: OracleUI, field: str, text: str) -> Iterator[Action]:
    """Type `text` into an editor field, clearing what it holds first (clearing focuses it)."""
    node = ui.find(field)
    if node is not None and node.text:
        yield ui.tap(f"clear_{field}")
        yield Type(text=text)
    else:
        yield from ui.type_into(field, text)


def fill_alarm_editor(
    ui: OracleUI, hour: int, minute: int, label: str | None, repeat: list[int] | None
) -> Iterator[Action]:
    """In the alarm editor: type the time, then the label and repeat days if given."""
    yield from replace_text(ui, "time", hhmm(hour, minute))
    if label is not None:
        yield from replace_text(ui, "label", label)
    for day in repeat or []:
        yield from ui.scroll_to(f"repeat_{day}")
        yield ui.tap(f"repeat_{day}")
    yield ui.tap("save")


def alarm_problems(
    alarm: dict[str, Any], hour: int, minute: int, label: str | None, repeat: list[int] | None
) -> list[str]:
    """What is wrong with an alarm that should ring at hour:minute (label/repeat if given)."""
    problems = []
    if (alarm["hour"], alarm["minute"]) != (hour, minute):
        problems.append(f"alarm rings at {hhmm(alarm['hour'], alarm['minute'])}, expected "
                        f"{hhmm(hour, minute)}")  # fmt: skip
    if label is not None and alarm["label"] != label:
        problems.append(f"label is {alarm['label']!r}, expected {label!r}")
    if repeat is not None and alarm["repeat"] != repeat:
        problems.append(f"repeats on {alarm['repeat']}, expected {repeat}")
    if not alarm["enabled"]:
        problems.append("the alarm is not enabled")
    return problems


def one_new_alarm(diff: StateDiff) -> tuple[dict[str, Any] | None, list[str]]:
    added = diff.added(ALARMS)
    if len(added) != 1:
        return None, [f"expected one new alarm, found {len(added)}"]
    return added[0], []


class ClockTemplate(TaskTemplate):
    """A template of the Clock app alone."""

    category = Category.SINGLE_APP
    apps = (CLOCK,)


class CreateAlarm(ClockTemplate):
    id = "clock.alarm_once"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"hour": rng.randrange(5, 23), "minute": rng.randrange(0, 12) * 5}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        time = time_zh(params["hour"], params["minute"])
        return phrased(
            zh=[f"定一个 {time} 的闹钟，只响一次", f"帮我设个 {time} 的闹钟，不要重复",
                f"新建一个单次闹钟，时间是 {time}"],
            en=[f"Set a one-time alarm for {time}", f"Add an alarm at {time} that doesn't repeat",
                f"I need an alarm at {time}, just once"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        alarm, problems = one_new_alarm(diff)
        if alarm is None:
            return problems
        return alarm_problems(alarm, params["hour"], params["minute"], None, [])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_clock(ui)
        yield ui.tap("add_alarm")
        yield from fill_alarm_editor(ui, params["hour"], params["minute"], None, None)


class CreateRepeatingAlarm(ClockTemplate):
    id = "clock.alarm_repeating"
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        return {
            "hour": rng.randrange(5, 10),
            "minute": rng.randrange(0, 12) * 5,
            "label": rng.choice(ALARM_LABELS),
            "repeat": list(rng.choice([r for r in REPEATS if len(r) >= 2])),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        time, label = time_zh(params["hour"], params["minute"]), params["label"]
        days_zh, days_en = repeat_zh(params["repeat"]), repeat_en(params["repeat"])
        return phrased(
            zh=[f"新建一个{days_zh} {time} 响的闹钟，名称为“{label}”",
                f"帮我加个闹钟“{label}”，{days_zh} {time} 响",
                f"闹钟名叫“{label}”，{days_zh}的 {time} 响，帮我建一个"],
            en=[f"Create an alarm named '{label}' that rings at {time} {days_en}",
                f"Add a '{label}' alarm for {time}, repeating {days_en}",
                f"I need an alarm at {time} {days_en}; call it '{label}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        alarm, problems = one_new_alarm(diff)
        if alarm is None:
            return problems
        return alarm_problems(
            alarm, params["hour"], params["minute"], params["label"], params["repeat"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_clock(ui)
        yield ui.tap("add_alarm")
        yield from fill_alarm_editor(
            ui, params["hour"], params["minute"], params["label"], params["repeat"]
        )


def _task_alarm(rng: random.Random) -> Params:
    hour, minute = rng.choice(TASK_TIMES)
    return {"hour": hour, "minute": minute, "label": rng.choice(ALARM_LABELS)}


class _WithTaskAlarm(ClockTemplate):
    """Templates that act on an alarm the setup puts in place (id `alarm-task`)."""

    def setup(self, it: Interaction, params: Params) -> None:
        alarms = it.app_data(CLOCK)["alarms"]
        alarms.append(
            {"id": TASK_ALARM, "hour": params["hour"], "minute": params["minute"],
             "label": params["label"], "repeat": WORKDAYS,
             "enabled": params.get("enabled_at_start", True)}
        )  # fmt: skip

    def _alarm_name(self, params: Params) -> tuple[str, str]:
        time = time_zh(params["hour"], params["minute"])
        return f"{time} 的“{params['label']}”闹钟", f"the {time} alarm '{params['label']}'"

    def _open_alarm(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_clock(ui)
        yield from ui.scroll_to(text=hhmm(params["hour"], params["minute"]))
        yield ui.tap(alarm_widget_id(ui, params["hour"], params["minute"]))


class ToggleAlarm(_WithTaskAlarm):
    id = "clock.alarm_toggle"
    difficulty = 3

    def sample(self, world: World, rng: random.Random) -> Params:
        on = rng.random() < 0.5
        return {**_task_alarm(rng), "on": on, "enabled_at_start": not on}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh, en = self._alarm_name(params)
        if params["on"]:
            return phrased(
                zh=[f"打开{zh}", f"把{zh}开起来", f"帮我启用{zh}"],
                en=[f"Turn on {en}", f"Switch {en} on", f"Please enable {en}"],
            )  # fmt: skip
        return phrased(
            zh=[f"关闭{zh}", f"把{zh}关掉", f"帮我停用{zh}"],
            en=[f"Turn off {en}", f"Switch {en} off", f"Please disable {en}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.touched(f"{ALARMS}[{TASK_ALARM}]/enabled")
        enabled = diff.value_after(f"{ALARMS}[{TASK_ALARM}]/enabled")
        return [] if enabled == params["on"] else [f"the alarm's enabled is {enabled!r}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_clock(ui)
        yield from ui.scroll_to(text=hhmm(params["hour"], params["minute"]))
        row = alarm_widget_id(ui, params["hour"], params["minute"])
        yield ui.tap("switch_" + row.removeprefix("alarm_"))


class DeleteAlarm(_WithTaskAlarm):
    id = "clock.alarm_delete"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        return _task_alarm(rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh, en = self._alarm_name(params)
        return phrased(
            zh=[f"删除{zh}", f"把{zh}删掉", f"{zh}不用了，帮我删了"],
            en=[f"Delete {en}", f"Remove {en}", f"I don't need {en} anymore; delete it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [a["id"] for a in diff.removed(ALARMS)]
        return [] if removed == [TASK_ALARM] else [f"removed {removed}, expected {TASK_ALARM}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self._open_alarm(ui, params)
        yield from ui.scroll_to("delete_alarm")
        yield ui.tap("delete_alarm")
        yield ui.tap("confirm_delete")


class RescheduleAlarm(_WithTaskAlarm):
    id = "clock.alarm_reschedule"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        alarm = _task_alarm(rng)
        shift = rng.choice((-90, -30, -15, 15, 30, 60))
        new = (alarm["hour"] * 60 + alarm["minute"] + shift) % (24 * 60)
        return {**alarm, "new_hour": new // 60, "new_minute": new % 60}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        zh, en = self._alarm_name(params)
        time = time_zh(params["new_hour"], params["new_minute"])
        return phrased(
            zh=[f"把{zh}改到 {time}", f"{zh}改成 {time} 响", f"请把{zh}的时间调整为 {time}"],
            en=[f"Move {en} to {time}", f"Change {en} so it rings at {time}",
                f"Reschedule {en} for {time}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.touched(f"{ALARMS}[{TASK_ALARM}]")
        alarm = diff.value_after(f"{ALARMS}[{TASK_ALARM}]")
        if alarm is None:
            return ["the alarm was deleted"]
        return alarm_problems(
            alarm, params["new_hour"], params["new_minute"], params["label"], WORKDAYS
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from self._open_alarm(ui, params)
        yield from fill_alarm_editor(ui, params["new_hour"], params["new_minute"], None, None)


class AddWorldClock(ClockTemplate):
    id = "clock.world_clock_add"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        city_id, name, name_en, _ = rng.choice(CITIES)
        return {"city": city_id, "name": name, "name_en": name_en}

    def setup(self, it: Interaction, params: Params) -> None:
        data = it.app_data(CLOCK)
        data["world_clocks"] = [c for c in data["world_clocks"] if c["id"] != params["city"]]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, name_en = params["name"], params["name_en"]
        return phrased(
            zh=[f"在世界时钟里添加{name}", f"把{name}加到世界时钟",
                f"我想在世界时钟里看到{name}的时间，帮我加上"],
            en=[f"Add {name_en} to the world clock", f"Put {name_en} on the world clock",
                f"I'd like to see the time in {name_en}; add it to the world clock"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = [c["id"] for c in diff.added(WORLD_CLOCKS)]
        return [] if added == [params["city"]] else [f"added {added}, expected "
                                                      f"{params['city']}"]  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_clock(ui)
        yield ui.tap("tab_world")
        yield ui.tap("add_city")
        yield from ui.type_into("query", params["name"])
        yield ui.tap(f"city_{params['city']}")


class StartTimer(ClockTemplate):
    id = "clock.timer"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"minutes": rng.choice(TIMER_MINUTES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        minutes = params["minutes"]
        return phrased(
            zh=[f"开始一个 {minutes} 分钟的倒计时", f"帮我倒计时 {minutes} 分钟",
                f"设一个 {minutes} 分钟的计时器并开始计时"],
            en=[f"Start a {minutes}-minute timer",
                f"Count down {minutes} minutes for me",
                f"Set a timer for {minutes} minutes and start it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        diff.touched(TIMER)
        timer = diff.value_after(TIMER)
        problems = []
        if timer["duration_seconds"] != params["minutes"] * 60:
            problems.append(f"the timer is set to {timer['duration_seconds']} s")
        if not timer["running"]:
            problems.append("the timer is not running")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_clock(ui)
        yield ui.tap("tab_timer")
        target = params["minutes"]
        current = int(ui.text_of("timer_display").split(":")[0])
        preset = min(TIMER_PRESETS, key=lambda p: abs(p - target))
        if abs(preset - target) < abs(current - target):
            yield ui.tap(f"preset_{preset}")
            current = preset
        for _ in range(abs(target - current)):
            yield ui.tap("timer_plus" if target > current else "timer_minus")
        yield ui.tap("timer_start")


class AskEarliestAlarm(ClockTemplate):
    id = "clock.ask_earliest_alarm"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        early = rng.randrange(5 * 12, 6 * 12 + 9) * 5  # 05:00 to 06:40, every 5 minutes
        decoy = early - rng.randrange(2, 9) * 5
        return {"hour": early // 60, "minute": early % 60,
                "decoy_hour": decoy // 60, "decoy_minute": decoy % 60}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(CLOCK)["alarms"] += [
            {"id": TASK_ALARM, "hour": params["hour"], "minute": params["minute"],
             "label": "早起", "repeat": WORKDAYS, "enabled": True},
            {"id": "alarm-decoy", "hour": params["decoy_hour"], "minute": params["decoy_minute"],
             "label": "", "repeat": [], "enabled": False},
        ]  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["我开着的闹钟里，最早的是几点？", "已开启的闹钟中，最早响的是几点？",
                "看看我开着的闹钟，最早的一个定在几点"],
            en=["What time is my earliest alarm that is turned on?",
                "Among the alarms I have switched on, what's the earliest time?",
                "Check my enabled alarms and tell me the earliest time one is set for"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        enabled = [a for a in diff.value_before(ALARMS) if a["enabled"]]
        return ClockTime(*min((a["hour"], a["minute"]) for a in enabled))

    def wrong_answer(self, params: Params) -> str:
        return hhmm(params["decoy_hour"], params["decoy_minute"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_clock(ui)
        for node in ui.find_all():  # rows are sorted by time
            alarm_id = node.resource_id.partition(f"{CLOCK}:id/switch_")[2]
            if alarm_id and node.checked:
                row = ui.node(f"alarm_{alarm_id}")
                yield Answer(text=next(n.text for n in row.walk() if n.text))
                return
        raise OracleError("no enabled alarm on screen")


class AskTimeDifference(ClockTemplate):
    id = "clock.ask_time_difference"
    difficulty = 4
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        city_id, name, name_en, offset = rng.choice([c for c in CITIES if c[3] != 480])
        # and a seeded moment in Beijing: what time is it then in the city?
        beijing = rng.randrange(24 * 60)
        return {"city": city_id, "name": name, "name_en": name_en,
                "hours": abs(offset - 480) / 60, "offset": offset - 480,
                "beijing": f"{beijing // 60:02d}:{beijing % 60:02d}"}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        clocks = it.app_data(CLOCK)["world_clocks"]
        if all(c["id"] != params["city"] for c in clocks):
            clocks.append({"id": params["city"]})

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, name_en, at = params["name"], params["name_en"], params["beijing"]
        return phrased(
            zh=[f"看一下世界时钟：{name}和北京相差几个小时？北京时间{at}时{name}是几点？",
                f"{name}跟北京差几个小时？北京{at}的时候{name}几点？查一下世界时钟",
                f"用世界时钟帮我看看，{name}和北京的时差是几小时，北京时间{at}对应{name}几点"],
            en=[f"Check the world clock: how many hours apart are {name_en} and Beijing? When it "
                f"is {at} in Beijing, what time is it in {name_en}?",
                f"What's the time difference in hours between {name_en} and Beijing, and what "
                f"time is it in {name_en} at {at} Beijing time? Look at the world clock",
                f"Use the world clock to find how many hours {name_en} is from Beijing, and the "
                f"time there when it is {at} in Beijing"],
        )  # fmt: skip

    @staticmethod
    def local_minutes(params: Params) -> int:
        hour, minute = (int(x) for x in params["beijing"].split(":"))
        return (hour * 60 + minute + params["offset"]) % (24 * 60)

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        # '晚8小时', '-8', '8 hours behind': the difference either way
        local = ClockTime(*divmod(self.local_minutes(params), 60))
        return Together(local, Number(params["hours"], unit="小时", signed=False))

    def wrong_answer(self, params: Params) -> str:
        hour, minute = divmod(self.local_minutes(params), 60)
        return f"{params['hours'] + 1:g}小时，那时是{hour:02d}:{minute:02d}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_clock(ui)
        yield ui.tap("tab_world")
        yield from ui.scroll_to(f"offset_{params['city']}")
        said = ui.text_of(f"offset_{params['city']}")  # e.g. '今天，晚8小时'
        hours = numbers_in(said.partition("，")[2])
        if not hours:
            raise OracleError(f"cannot read the time difference from {said!r}")
        ahead = "早" in said.partition("，")[2]
        hour, minute = (int(x) for x in params["beijing"].split(":"))
        local = (hour * 60 + minute + round((1 if ahead else -1) * hours[0] * 60)) % (24 * 60)
        yield Answer(text=f"{hours[0]:g}小时，那时是{local // 60:02d}:{local % 60:02d}")


# The note that tells when to get up, and the alarm the agent should set from it.
TRIP_NOTES = (
    ("出差安排", "明天{time}起床，{train}的高铁 G{number} 去上海"),
    ("面试提醒", "明早{time}起床，{train}前到望京 SOHO 面试"),
    ("早班机", "{time}起床！{train}首都机场 T3 值机，航班 CA{number}"),
)
_WAKE_TIME = re.compile(r"(\d{1,2}:\d{2})起床")


class AlarmFromNote(TaskTemplate):
    id = "clock.alarm_from_note"
    category = Category.CROSS_APP
    apps = (CLOCK, NOTES)
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        wake = rng.randrange(4 * 12, 7 * 12) * 5  # 04:00 to 06:55
        train = wake + rng.randrange(6, 16) * 10
        title, body = rng.choice(TRIP_NOTES)
        text = body.format(
            time=time_zh(wake // 60, wake % 60),
            train=time_zh(train // 60, train % 60),
            number=rng.randrange(10, 999),
        )
        return {"note": title, "body": text, "hour": wake // 60, "minute": wake % 60}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(NOTES)["notes"].insert(
            0, {"id": "note-trip", "title": params["note"], "body": params["body"],
                "pinned": False}
        )  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        note = params["note"]
        return phrased(
            zh=[f"按备忘录“{note}”里写的起床时间定一个闹钟",
                f"备忘录“{note}”里写了几点起床，照这个时间帮我设个闹钟",
                f"打开备忘录“{note}”看看起床时间，然后按那个时间定闹钟"],
            en=[f"Set an alarm for the wake-up time written in the note '{note}'",
                f"The note '{note}' says when I have to get up; set an alarm for that time",
                f"Look up the wake-up time in the note '{note}' and set an alarm for it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        alarm, problems = one_new_alarm(diff)
        if alarm is None:
            return problems
        return alarm_problems(alarm, params["hour"], params["minute"], None, None)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["note"])
        yield ui.tap(text=params["note"])
        found = _WAKE_TIME.search(ui.text_of(f"{NOTES}:id/note_body"))
        if found is None:
            raise OracleError("the note has no wake-up time")
        hour, minute = (int(part) for part in found[1].split(":"))
        yield from open_clock(ui)
        yield ui.tap("add_alarm")
        yield from fill_alarm_editor(ui, hour, minute, None, None)


TEMPLATES: tuple[TaskTemplate, ...] = (
    CreateAlarm(),
    CreateRepeatingAlarm(),
    ToggleAlarm(),
    DeleteAlarm(),
    RescheduleAlarm(),
    AddWorldClock(),
    StartTimer(),
    AskEarliestAlarm(),
    AskTimeDifference(),
    AlarmFromNote(),
)
