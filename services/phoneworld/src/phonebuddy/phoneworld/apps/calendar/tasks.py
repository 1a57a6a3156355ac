"""Task templates of the Calendar app, and two that move plans between Calendar and Notes."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.calendar.app import (
    CALENDAR,
    REMINDER_TEXT,
    REMINDERS,
    SEASON_END,
    SEASON_START,
    date_text,
)
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import ClockTime, Expectation, Text, TextSet, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import WritesValue
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI, texts
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction, Type

NOTES = "com.pw.notes"
EVENTS = f"apps/{CALENDAR}/events"
NOTES_LIST = f"apps/{NOTES}/notes"
NEW_TITLES = ("团队午餐", "看房", "家庭聚餐", "正畸复查", "项目复盘会", "游泳课", "交水电费",
              "买生日礼物", "年会彩排", "相亲")  # fmt: skip
NEW_LOCATIONS = ("西贝莜面村(望京店)", "链家(酒仙桥店)", "奥森公园南门", "B座 8楼 806",
                 "三里屯太古里", "朝阳区图书馆", "国贸大酒店 3层")  # fmt: skip
NEW_REMINDERS = (0, 5, 30, 60, 1440)
NEW_NOTES = ("带上笔记本电脑", "提前十分钟到", "记得带伞", "穿运动鞋", "带上合同复印件")
REMINDER_EN = {0: "at the start", 5: "5 minutes before", 30: "30 minutes before",
               60: "1 hour before", 1440: "1 day before"}  # fmt: skip
EVENT_FIELDS = ("title", "date", "start", "end", "location", "reminder", "notes")
_MONTH_TITLE = re.compile(r"(\d{4})年(\d{1,2})月")


def date_zh(iso: str) -> str:
    day = dt.date.fromisoformat(iso)
    return f"{day.month}月{day.day}日"


def date_en(iso: str) -> str:
    return dt.date.fromisoformat(iso).strftime("%B %-d, %Y")


def _minutes(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def seeded_events(world: World) -> list[Any]:
    return list(world.content(CALENDAR)["events"])


def one_off_events(world: World) -> list[Any]:
    titles = [e["title"] for e in seeded_events(world)]
    return [e for e in seeded_events(world) if titles.count(e["title"]) == 1]


def _random_day(rng: random.Random) -> str:
    span = (SEASON_END - SEASON_START).days
    return (SEASON_START + dt.timedelta(days=rng.randrange(span + 1))).isoformat()


def _new_event(rng: random.Random) -> Params:
    start = rng.randrange(16, 40) * 30  # 08:00 to 19:30
    return {"title": rng.choice(NEW_TITLES), "date": _random_day(rng), "start": _hhmm(start),
            "end": _hhmm(start + rng.choice((30, 60, 90, 120)))}  # fmt: skip


def event_problems(event: dict[str, Any], expected: Params) -> list[str]:
    """Fields of `event` that differ from the ones `expected` names."""
    return [
        f"{field} is {event[field]!r}, expected {expected[field]!r}"
        for field in EVENT_FIELDS
        if field in expected and event[field] != expected[field]
    ]


def one_new_event(diff: StateDiff, expected: Params) -> list[str]:
    added = diff.added(EVENTS)
    if len(added) != 1:
        return [f"expected one new event, found {len(added)}"]
    return event_problems(added[0], expected)


# -- oracle steps ------------------------------------------------------------------------------
def open_calendar(ui: OracleUI) -> Iterator[Action]:
    """Open Calendar, declining its holiday-subscription prompt if it shows."""
    yield ui.open("日历")
    if ui.visible("holiday_later"):
        yield ui.tap("holiday_later")


def show_day(ui: OracleUI, iso: str) -> Iterator[Action]:
    """On the month view: page to the day's month and select the day."""
    day = dt.date.fromisoformat(iso)
    while True:
        shown = _MONTH_TITLE.match(ui.text_of("toolbar_title"))
        if shown is None:
            raise OracleError("the month view shows no month")
        month = (int(shown[1]), int(shown[2]))
        if month == (day.year, day.month):
            break
        yield ui.tap("next_month" if month < (day.year, day.month) else "prev_month")
    if not ui.text_of("day_title").startswith(date_text(day)):
        yield ui.tap(f"day_{iso}")


def agenda(ui: OracleUI) -> list[tuple[str, list[str]]]:
    """The selected day's events on screen: (widget id, [title, 'start-end · location'])."""
    return [
        (node.resource_id.rpartition(":id/")[2], texts(node))
        for node in ui.find_all()
        if node.resource_id.startswith(f"{CALENDAR}:id/event_")
    ]


def open_event(ui: OracleUI, iso: str, title: str) -> Iterator[Action]:
    yield from open_calendar(ui)
    yield from show_day(ui, iso)
    yield from ui.scroll_to(text=title)
    widget_id = next((wid for wid, shown in agenda(ui) if shown[0] == title), None)
    if widget_id is None:
        raise OracleError(f"{title!r} is not on {iso}")
    yield ui.tap(widget_id)


def replace_text(ui: OracleUI, field: str, text: str) -> Iterator[Action]:
    """Make an editor field hold `text`: scroll to it, clear it (which focuses it), type."""
    yield from ui.scroll_to(field)
    current = ui.text_of(field)
    if current == text:
        return
    if current:
        yield ui.tap(f"clear_{field}")
        yield Type(text=text)
    else:
        yield from ui.type_into(field, text)


def fill_event(ui: OracleUI, values: Params) -> Iterator[Action]:
    """In the event editor: set the fields `values` names, pick its reminder, save."""
    for field in ("title", "date", "start", "end", "location"):
        if field in values:
            yield from replace_text(ui, field, values[field])
    if "reminder" in values:
        yield from ui.scroll_to("reminder")
        if values["reminder"] != shown_reminder(ui):
            yield ui.tap("reminder")
            yield ui.tap(f"reminder_{values['reminder']}")
    if "notes" in values:
        yield from replace_text(ui, "notes", values["notes"])
    yield ui.tap("save")


def shown_reminder(ui: OracleUI) -> int | None:
    """The reminder the editor's 提醒 row shows, in minutes before the start."""
    row = ui.node("reminder")
    shown = next((t.removesuffix("›").strip() for t in texts(row) if t.endswith("›")), None)
    for value, label in REMINDERS:
        if label == shown:
            return value
    raise OracleError(f"the 提醒 row shows {shown!r}")


class CalendarTemplate(TaskTemplate):
    """A template of the Calendar app alone."""

    category = Category.SINGLE_APP
    apps = (CALENDAR,)


# -- templates ---------------------------------------------------------------------------------
class CreateEvent(CalendarTemplate):
    id = "calendar.create_event"
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        return _new_event(rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, start, end = params["title"], params["start"], params["end"]
        day_zh, day_en = date_zh(params["date"]), date_en(params["date"])
        return phrased(
            zh=[f"在日历里新建日程“{title}”，时间是{day_zh} {start} 到 {end}",
                f"帮我加个日程“{title}”：{day_zh}，{start} 到 {end}",
                f"{day_zh} {start} 到 {end} 有个“{title}”，记到日历里"],
            en=[f"Add a calendar event '{title}' on {day_en} from {start} to {end}",
                f"Put '{title}' on my calendar for {day_en}, {start} to {end}",
                f"Please create the event '{title}' in Calendar: {day_en}, from {start} until "
                f"{end}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return one_new_event(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, params)


class CreateDetailedEvent(CalendarTemplate):
    id = "calendar.create_event_full"
    difficulty = 16

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**_new_event(rng), "location": rng.choice(NEW_LOCATIONS),
                "reminder": rng.choice(NEW_REMINDERS), "notes": rng.choice(NEW_NOTES)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        title, start, end = p["title"], p["start"], p["end"]
        place, notes = p["location"], p["notes"]
        day_zh, day_en = date_zh(p["date"]), date_en(p["date"])
        remind_zh, remind_en = REMINDER_TEXT[p["reminder"]], REMINDER_EN[p["reminder"]]
        return phrased(
            zh=[f"新建日程“{title}”：{day_zh} {start}-{end}，地点“{place}”，提醒设为{remind_zh}，"
                f"备注写“{notes}”",
                f"帮我在日历里加一个“{title}”，{day_zh} {start}-{end}，地点在“{place}”，"
                f"提醒选{remind_zh}，备注“{notes}”",
                f"{day_zh} {start}-{end} 有个“{title}”，地点“{place}”，请建个日程，"
                f"提醒设为{remind_zh}，备注写“{notes}”"],
            en=[f"Create the event '{title}' on {day_en}, {start}-{end}, at '{place}', with a "
                f"reminder {remind_en} and the note '{notes}'",
                f"Add '{title}' to my calendar on {day_en} from {start} to {end} at '{place}', "
                f"reminder {remind_en}, note '{notes}'",
                f"Please put an event on my calendar: '{title}', {day_en}, {start}-{end}, location "
                f"'{place}', reminder {remind_en}, notes '{notes}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return one_new_event(diff, params)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(ui, params)


def _existing_event_params(event: Any) -> Params:
    return {"event": event["id"], "title": event["title"], "date": event["date"]}


class DeleteEvent(CalendarTemplate):
    id = "calendar.delete_event"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return _existing_event_params(rng.choice(one_off_events(world)))

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, day_zh, day_en = params["title"], date_zh(params["date"]), date_en(params["date"])
        return phrased(
            zh=[f"删除{day_zh}的日程“{title}”", f"把{day_zh}的“{title}”从日历里删掉",
                f"{day_zh}的“{title}”取消了，帮我把这个日程删除"],
            en=[f"Delete the event '{title}' on {day_en}",
                f"Remove '{title}' on {day_en} from my calendar",
                f"The event '{title}' on {day_en} is off; please delete it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [e["id"] for e in diff.removed(EVENTS)]
        return [] if removed == [params["event"]] else [f"removed {removed}"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_event(ui, params["date"], params["title"])
        yield ui.tap("delete")
        yield ui.tap("confirm_delete")


class RescheduleEvent(CalendarTemplate):
    id = "calendar.reschedule_event"
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        event = rng.choice(one_off_events(world))
        start, end = _minutes(event["start"]), _minutes(event["end"])
        shifts = [h * 60 for h in (-3, -2, -1, 1, 2, 3) if start + h * 60 >= 7 * 60
                  and end + h * 60 <= 23 * 60 + 30]  # fmt: skip
        shift = rng.choice(shifts)
        return {"event": event["id"], "title": event["title"], "date": event["date"],
                "start": _hhmm(start + shift), "end": _hhmm(end + shift)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        title, start, end = p["title"], p["start"], p["end"]
        day_zh, day_en = date_zh(p["date"]), date_en(p["date"])
        return phrased(
            zh=[f"把{day_zh}的“{title}”改到当天 {start}-{end}",
                f"{day_zh}的“{title}”时间调整为同一天的 {start}-{end}",
                f"帮我把“{title}”（{day_zh}）挪到那天的 {start} 到 {end}"],
            en=[f"Move '{title}' on {day_en} to {start}-{end} the same day",
                f"Reschedule '{title}' on {day_en} to {start}-{end} that day",
                f"Please change the time of '{title}' on {day_en} to {start}-{end}, keeping the "
                "date"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{EVENTS}[{params['event']}]"
        diff.touched(path)
        before, after = diff.value_before(path), diff.value_after(path)
        if after is None:
            return ["the event was deleted"]
        expected = {**before, "start": params["start"], "end": params["end"]}
        return event_problems(after, expected)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_event(ui, params["date"], params["title"])
        yield ui.tap("edit")
        yield from fill_event(ui, {"start": params["start"], "end": params["end"]})


class AskLocation(CalendarTemplate):
    id = "calendar.ask_location"
    difficulty = 5
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        event = rng.choice(one_off_events(world))
        others = sorted({e["location"] for e in seeded_events(world)} - {event["location"]})
        return {**_existing_event_params(event), "wrong_location": rng.choice(others)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, day_zh, day_en = params["title"], date_zh(params["date"]), date_en(params["date"])
        return phrased(
            zh=[f"我{day_zh}的“{title}”在哪里？", f"{day_zh}的“{title}”地点是哪儿？",
                f"帮我查一下{day_zh}那个“{title}”在什么地方"],
            en=[f"Where is my '{title}' on {day_en}?",
                f"What is the location of '{title}' on {day_en}?",
                f"Check where '{title}' on {day_en} takes place"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        location = diff.value_before(f"{EVENTS}[{params['event']}]/location")
        others = [e["location"] for e in diff.value_before(EVENTS) if e["location"]]
        return Text([location], others=others, what="place")

    def wrong_answer(self, params: Params) -> str:
        return params["wrong_location"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_event(ui, params["date"], params["title"])
        yield Answer(text=ui.texts_in("event_location")[-1])


class AskStartTime(CalendarTemplate):
    id = "calendar.ask_start_time"
    difficulty = 4
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        event = rng.choice(one_off_events(world))
        # this task's own start, five minutes apart from 07:00 to 19:55, the length kept
        length = _minutes(event["end"]) - _minutes(event["start"])
        start = rng.randrange(7 * 60, 20 * 60, 5)
        end = min(start + length, 23 * 60 + 59)
        return {**_existing_event_params(event), "start": _hhmm(start), "end": _hhmm(end)}

    def setup(self, it: Interaction, params: Params) -> None:
        for event in it.data["events"]:
            if event["id"] == params["event"]:
                event.update(start=params["start"], end=params["end"])

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, day_zh, day_en = params["title"], date_zh(params["date"]), date_en(params["date"])
        return phrased(
            zh=[f"{day_zh}的“{title}”几点开始？", f"{day_zh}那个“{title}”的开始时间是几点？",
                f"帮我看下{day_zh}的“{title}”几点开始"],
            en=[f"What time does '{title}' on {day_en} start?",
                f"When does '{title}' on {day_en} begin?",
                f"Check the start time of '{title}' on {day_en}"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        start = diff.value_before(f"{EVENTS}[{params['event']}]/start")
        return ClockTime(*divmod(_minutes(start), 60))

    def wrong_answer(self, params: Params) -> str:
        return params["end"]  # the end time: read off the wrong end of the event

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_calendar(ui)
        yield from show_day(ui, params["date"])
        yield from ui.scroll_to(text=params["title"])
        shown = next(texts for _, texts in agenda(ui) if texts[0] == params["title"])
        yield Answer(text=shown[1][:5])


class AskDay(CalendarTemplate):
    id = "calendar.ask_day"
    difficulty = 4
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        events = seeded_events(world)
        date = rng.choice(sorted({e["date"] for e in events}))
        elsewhere = sorted({e["title"] for e in events if e["date"] != date} -
                           {e["title"] for e in events if e["date"] == date})  # fmt: skip
        return {"date": date, "other_title": rng.choice(elsewhere)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        day_zh, day_en = date_zh(params["date"]), date_en(params["date"])
        return phrased(
            zh=[f"我{day_zh}的日历上有哪些安排？", f"{day_zh}我有什么日程？",
                f"帮我看看{day_zh}日历里都排了什么"],
            en=[f"What is on my calendar on {day_en}?", f"What events do I have on {day_en}?",
                f"Check my calendar for {day_en}: what is planned that day?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        events = diff.value_before(EVENTS)
        titles = [e["title"] for e in events if e["date"] == params["date"]]
        return TextSet(titles, others=[e["title"] for e in events], what="event")

    def wrong_answer(self, params: Params) -> str:
        return params["other_title"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_calendar(ui)
        yield from show_day(ui, params["date"])
        yield from ui.scroll_to("day_title")
        titles = [shown[0] for _, shown in agenda(ui)]
        yield Answer(text="、".join(titles))


# -- with Notes --------------------------------------------------------------------------------
MEETING_NOTES = ("会议通知", "下周会议", "客户会议安排")
MEETINGS = (("项目启动会", "A座 5号会议室"), ("供应商洽谈", "华贸中心 2号楼 1801"),
            ("季度复盘会", "B座 3楼报告厅"), ("招聘沟通会", "腾讯会议"))  # fmt: skip
_MEETING = re.compile(
    r"(?P<month>\d{1,2})月(?P<day>\d{1,2})日 (?P<start>\d\d:\d\d)-(?P<end>\d\d:\d\d)，"
    r"(?P<title>[^，]+)，地点：(?P<location>.+)$"
)


class EventFromNote(TaskTemplate):
    id = "calendar.event_from_note"
    category = Category.CROSS_APP
    apps = (CALENDAR, NOTES)
    difficulty = 16

    def sample(self, world: World, rng: random.Random) -> Params:
        title, location = rng.choice(MEETINGS)
        event = _new_event(rng)
        return {**event, "title": title, "location": location,
                "note": rng.choice(MEETING_NOTES)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        p = params
        body = f"{date_zh(p['date'])} {p['start']}-{p['end']}，{p['title']}，地点：{p['location']}"
        it.app_data(NOTES)["notes"].insert(
            0, {"id": "note-meeting", "title": p["note"], "body": body, "pinned": False}
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        note = params["note"]
        return phrased(
            zh=[f"备忘录“{note}”里记了一个会议，帮我在日历里建一个日程：标题用会议名称，"
                "日期、时间和地点都按备忘录填",
                f"按备忘录“{note}”里记的会议，在日历里新建日程：标题是会议名称，日期、时间、地点"
                "照着备忘录填",
                f"帮我把备忘录“{note}”里的会议加到日历：会议名称做标题，日期、时间和地点用备忘录里的"],
            en=[f"The note '{note}' describes a meeting; add it to the calendar with the meeting's "
                "name as the title and the date, times and place from the note",
                f"Add the meeting from the note '{note}' to the calendar: its name as the title, "
                "and the date, times and place as the note gives them",
                f"Create a calendar event for the meeting in the note '{note}', titled with the "
                "meeting name and with the date, times and place from the note"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        expected = {k: params[k] for k in ("title", "date", "start", "end", "location")}
        return one_new_event(diff, expected)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["note"])
        yield ui.tap(text=params["note"])
        found = _MEETING.search(ui.text_of(f"{NOTES}:id/note_body"))
        if found is None:
            raise OracleError("the note describes no meeting")
        date = dt.date(SEASON_START.year, int(found["month"]), int(found["day"])).isoformat()
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        values = {k: found[k] for k in ("title", "start", "end", "location")}
        yield from fill_event(ui, {**values, "date": date})


PLAN_NOTE_TITLE = "明日安排"
EARLY_EVENTS = (("晨会", "A座 3号会议室"), ("送孩子去兴趣班", "少年宫"), ("早餐会", "国贸大酒店"),
                ("晨跑打卡", "朝阳公园"), ("医院抽血", "协和医院门诊楼"))  # fmt: skip


class TomorrowToNote(WritesValue):
    id = "calendar.tomorrow_to_note"
    category = Category.CROSS_APP
    apps = (CALENDAR, NOTES)
    difficulty = 10
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        title, location = rng.choice(EARLY_EVENTS)
        start = rng.randrange(14, 18) * 30  # 07:00 to 08:30, before every seeded event
        return {"title": title, "location": location, "start": _hhmm(start),
                "end": _hhmm(start + 30)}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        tomorrow = local_date(it.clock) + dt.timedelta(days=1)
        it.app_data(CALENDAR)["events"].append(
            {"id": "evt-task", "title": params["title"], "date": tomorrow.isoformat(),
             "start": params["start"], "end": params["end"], "location": params["location"],
             "reminder": 15}
        )  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title = PLAN_NOTE_TITLE
        return phrased(
            zh=[f"看看我明天的第一个日程，然后在备忘录里新建一条标题为“{title}”的备忘录，"
                "内容写上这个日程的开始时间和名称",
                f"新建一条标题为“{title}”的备忘录，写上我明天第一个日程的开始时间和名称",
                f"明天最早的日程是什么、几点开始？查好后记到备忘录里，标题写“{title}”"],
            en=[f"Look up my first calendar event tomorrow, then create a note titled '{title}' "
                "that says when it starts and what it is",
                f"Create a note titled '{title}' with the start time and the name of my first "
                "event tomorrow",
                "What is my earliest calendar event tomorrow, and when does it start? Write that "
                f"in a new note titled '{title}'"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(NOTES_LIST)
        if len(added) != 1:
            return [f"expected one new note, found {len(added)}"]
        note, problems = added[0], []
        if note["title"].strip() != PLAN_NOTE_TITLE:
            problems.append(f"the note is titled {note['title']!r}")
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        """The start and the name of tomorrow's first event; its end may be written too
        ('07:00-07:30 晨会', as the agenda shows it)."""
        events = diff.value_before(EVENTS)
        tomorrow = (local_date(diff.before["os"]["clock"]) + dt.timedelta(days=1)).isoformat()
        first = min((e for e in events if e["date"] == tomorrow), key=lambda e: e["start"])
        end = divmod(_minutes(first["end"]), 60)
        titles = [*(e["title"] for e in events), *(title for title, _ in EARLY_EVENTS)]
        return Together(ClockTime(*divmod(_minutes(first["start"]), 60), also=[end]),
                        Text([first["title"]], others=titles, what="event"))  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        now = dt.datetime.fromisoformat(ui.device.device_time())
        yield from open_calendar(ui)
        yield from show_day(ui, (now.date() + dt.timedelta(days=1)).isoformat())
        events = agenda(ui)
        if not events:
            raise OracleError("nothing on the calendar tomorrow")
        title, times = events[0][1][0], events[0][1][1]
        yield ui.open("备忘录")
        yield ui.tap(f"{NOTES}:id/new_note")
        yield from ui.type_into(f"{NOTES}:id/title", PLAN_NOTE_TITLE)
        yield from ui.type_into(f"{NOTES}:id/body", f"{times[:5]} {title}")
        yield ui.tap(f"{NOTES}:id/save")


TEMPLATES: tuple[TaskTemplate, ...] = (
    CreateEvent(),
    CreateDetailedEvent(),
    DeleteEvent(),
    RescheduleEvent(),
    AskLocation(),
    AskStartTime(),
    AskDay(),
    EventFromNote(),
    TomorrowToNote(),
)
