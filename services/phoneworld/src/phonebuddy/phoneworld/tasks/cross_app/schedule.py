"""Plans and reminders across apps: a meeting invitation in Mail put into the Calendar, and an
alarm before a train whose ticket is in Travel or in a 12306 mail."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.calendar.app import CALENDAR, REMINDER_TEXT
from phonebuddy.phoneworld.apps.calendar.tasks import (
    EVENTS,
    REMINDER_EN,
    event_problems,
    fill_event,
    open_calendar,
)
from phonebuddy.phoneworld.apps.clock.base import CLOCK, hhmm
from phonebuddy.phoneworld.apps.clock.tasks import (
    alarm_problems,
    fill_alarm_editor,
    one_new_alarm,
    open_clock,
)
from phonebuddy.phoneworld.apps.mail.base import MAIL_PACKAGE, ME_ADDRESS, WEEKDAYS
from phonebuddy.phoneworld.apps.mail.content import SERVICES
from phonebuddy.phoneworld.apps.mail.steps import (
    DATE_TIME,
    MEETING_PLACE,
    inbox_mails,
    mail_params,
    open_mail,
)
from phonebuddy.phoneworld.apps.travel.base import TRAVEL_PACKAGE, new_train_order
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import normalize
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.diff import StateDiff, one_added
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.ui.format import local_date
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

SEASON_YEAR = 2026
DURATIONS = (
    (60, "1小时", "1 hour"),
    (90, "1个半小时", "an hour and a half"),
    (120, "2小时", "2 hours"),
)
REMINDER_CHOICES = tuple(minutes for minutes in REMINDER_EN if minutes)  # not "at the start"
# How long before a train the alarm rings; an hour, what most people want, twice as often.
LEADS = (DURATIONS[0], *DURATIONS)
ALARM_LABELS = ("赶火车", "去火车站", "出发去高铁站")
# Devices reset at 09:00 and episodes last minutes: an alarm at 10:00 or later still rings
# today, one before 09:00 rings tomorrow; in between would be too close to call.
RINGS_TODAY_FROM, RINGS_TOMORROW_UNTIL = 10 * 60, 9 * 60
DAY_WORDS = {0: ("今天", "today"), 1: ("明天", "tomorrow")}
TRAIN_TIME = re.compile(r"(\d{1,2}):(\d{2})")
TASK_ORDER_ID = "ticket-task"
TASK_MAIL_ID = "mail-task-train"


def _clock_time(minutes: int) -> str:
    """Minutes after midnight as the calendar writes them: 870 -> '14:30'."""
    return hhmm(minutes // 60, minutes % 60)


# -- a meeting from Mail into the Calendar -----------------------------------------------------


class MeetingMailToCalendar(TaskTemplate):
    id = "cross_app.mail_meeting_to_calendar"
    category = Category.CROSS_APP
    apps = (MAIL_PACKAGE, CALENDAR)
    difficulty = 21

    def sample(self, world: World, rng: random.Random) -> Params:
        mail = rng.choice(inbox_mails(world, lambda m: m["facts"].get("kind") == "meeting"))
        facts = mail["facts"]
        start = facts["hour"] * 60 + facts["minute"]
        minutes, duration_zh, duration_en = rng.choice(DURATIONS)
        return {
            **mail_params(mail),
            "title": facts["topic"],
            "date": dt.date(SEASON_YEAR, facts["month"], facts["day"]).isoformat(),
            "start": _clock_time(start),
            "end": _clock_time(start + minutes),
            "duration": minutes,
            "duration_zh": duration_zh,
            "duration_en": duration_en,
            "location": facts["place"],
            "reminder": rng.choice(REMINDER_CHOICES),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        sender, subject, title = params["sender"], params["subject"], params["title"]
        lasting_zh, lasting_en = params["duration_zh"], params["duration_en"]
        remind_zh, remind_en = REMINDER_TEXT[params["reminder"]], REMINDER_EN[params["reminder"]]
        return phrased(
            zh=[f"把{sender}发来的邮件《{subject}》里的安排加到日历：标题写“{title}”，"
                f"日期、开始时间和地点按邮件填，时长{lasting_zh}，提醒设为“{remind_zh}”",
                f"{sender}发来一封邮件《{subject}》，帮我把这个会加到日历里：标题“{title}”，"
                f"日期、开始时间、地点照邮件写，时长{lasting_zh}，提醒选“{remind_zh}”",
                f"在日历里新建日程“{title}”，按{sender}的邮件《{subject}》填日期、开始时间和地点，"
                f"时长{lasting_zh}，提醒设为“{remind_zh}”"],
            en=[f"Put the meeting from {sender}'s mail '{subject}' in the calendar: title "
                f"'{title}', the date, start time and place from the mail, lasting {lasting_en}, "
                f"with a reminder {remind_en}",
                f"Schedule the meeting from {sender}'s mail '{subject}' in the calendar: title "
                f"'{title}', lasting {lasting_en}, reminder {remind_en}, and the date, start time "
                "and place as the mail gives them",
                f"Could you note the meeting from {sender}'s mail '{subject}' in the calendar: "
                f"title '{title}', with the date, start time and place the mail gives, "
                f"{lasting_en} long and a reminder {remind_en}?"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        event, problems = one_added(diff, EVENTS, "event")
        if event is None:
            return problems
        exact = ("title", "date", "start", "end", "reminder")
        problems += event_problems(event, {key: params[key] for key in exact})
        # The place may be typed with other spacing than the mail's "星河大厦 12 层".
        if normalize(event["location"]) != normalize(params["location"]):
            problems.append(f"location is {event['location']!r}, expected {params['location']!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mail(ui, "inbox", params["subject"])
        body = ui.text_of("mail_body")
        when, place = DATE_TIME.search(body), MEETING_PLACE.search(body)
        if when is None or place is None:
            raise OracleError("the mail names no date, time or place")
        month, day, hour, minute = (int(part) for part in when.groups())
        start = hour * 60 + minute
        yield from open_calendar(ui)
        yield ui.tap("new_event")
        yield from fill_event(
            ui,
            {
                "title": params["title"],
                "date": dt.date(SEASON_YEAR, month, day).isoformat(),
                "start": _clock_time(start),
                "end": _clock_time(start + params["duration"]),
                "location": place.group(1) or place.group(2),
                "reminder": params["reminder"],
            },
        )


# -- an alarm before a train -------------------------------------------------------------------


def _sample_train(world: World, rng: random.Random) -> Params:
    """A train, how long before it the alarm rings, and whether it leaves today or tomorrow
    (chosen so that the alarm's next ring is the one before the train)."""
    routes = world.content(TRAVEL_PACKAGE)["routes"]
    while True:
        train = rng.choice(routes[rng.choice(sorted(routes))])
        if train["prices"]["second"] is None:
            continue
        lead, lead_zh, lead_en = rng.choice(LEADS)
        hour, minute = (int(part) for part in train["depart"].split(":"))
        alarm = hour * 60 + minute - lead
        if RINGS_TOMORROW_UNTIL <= alarm < RINGS_TODAY_FROM or alarm < 0:
            continue
        return {
            "route": f"{train['from']}-{train['to']}",
            "train": train["number"],
            "depart": train["depart"],
            "days": 0 if alarm >= RINGS_TODAY_FROM else 1,
            "lead": lead,
            "lead_zh": lead_zh,
            "lead_en": lead_en,
            "hour": alarm // 60,
            "minute": alarm % 60,
            "label": rng.choice(ALARM_LABELS),
        }


def _train(world: World, params: Params) -> Any:
    trains = world.content(TRAVEL_PACKAGE)["routes"][params["route"]]
    return next(t for t in trains if t["number"] == params["train"])


def _travel_day(it: Interaction, params: Params) -> dt.date:
    return local_date(it.clock) + dt.timedelta(days=params["days"])


class _TrainAlarm(TaskTemplate):
    """Set an alarm some time before a train; subclasses say where the ticket is."""

    category = Category.CROSS_APP

    def sample(self, world: World, rng: random.Random) -> Params:
        return _sample_train(world, rng)

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        alarm, problems = one_new_alarm(diff)
        if alarm is None:
            return problems
        return alarm_problems(alarm, params["hour"], params["minute"], params["label"], [])

    @staticmethod
    def set_alarm(ui: OracleUI, departs: str, params: Params) -> Iterator[Action]:
        """Open Clock and add an alarm `params["lead"]` minutes before `departs` ("08:20")."""
        found = TRAIN_TIME.search(departs)
        if found is None:
            raise OracleError(f"no departure time in {departs!r}")
        ring = int(found[1]) * 60 + int(found[2]) - params["lead"]
        yield from open_clock(ui)
        yield ui.tap("add_alarm")
        yield from fill_alarm_editor(ui, ring // 60, ring % 60, params["label"], None)


class TrainOrderAlarm(_TrainAlarm):
    id = "cross_app.train_order_alarm"
    apps = (TRAVEL_PACKAGE, CLOCK)
    difficulty = 11

    def setup(self, it: Interaction, params: Params) -> None:
        travel = it.app_data(TRAVEL_PACKAGE)
        booked = it.clock - 3 * 86400
        order = new_train_order(
            TASK_ORDER_ID,
            _train(it.device.world, params),
            "second",
            _travel_day(it, params).isoformat(),
            travel["passengers"][:1],
            booked,
        )
        order.update(status="paid", paid_at=booked + 60)
        travel["orders"].append(order)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        day_zh, day_en = DAY_WORDS[params["days"]]
        lead_zh, lead_en, label = params["lead_zh"], params["lead_en"], params["label"]
        return phrased(
            zh=[f"我{day_zh}要坐火车，车票在旅行App的订单里。帮我在时钟里定一个发车前"
                f"{lead_zh}的闹钟，标签写“{label}”",
                f"请在时钟里加一个闹钟，比我{day_zh}那趟火车的发车时间早{lead_zh}，"
                f"标签“{label}”。车票在旅行App的订单里能查到",
                f"去旅行App的订单里看看我{day_zh}的火车几点开，然后在时钟里定个提前{lead_zh}的"
                f"闹钟，标签写“{label}”"],
            en=[f"I am taking a train {day_en}; the ticket is among my orders in Travel. Set an "
                f"alarm in Clock {lead_en} before it departs, labelled '{label}'",
                f"Set an alarm in Clock {lead_en} before my train leaves {day_en}, labelled "
                f"'{label}'; the ticket is in my orders in Travel",
                f"Check in my Travel orders when my train departs {day_en}, then set an alarm in "
                f"Clock for {lead_en} before departure, labelled '{label}'"],
        )  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("旅行")
        yield ui.tap("tab_orders")
        yield from ui.scroll_to(f"order_{TASK_ORDER_ID}")
        yield ui.tap(f"order_{TASK_ORDER_ID}")
        route = next((n.text for n in ui.find_all() if "→" in n.text and ":" in n.text), None)
        if route is None:
            raise OracleError("the order shows no route with times")
        yield from self.set_alarm(ui, route, params)


class TrainMailAlarm(_TrainAlarm):
    id = "cross_app.train_mail_alarm"
    apps = (MAIL_PACKAGE, CLOCK)
    difficulty = 12

    def setup(self, it: Interaction, params: Params) -> None:
        train = _train(it.device.world, params)
        day = _travel_day(it, params)
        name, address = SERVICES["12306"]
        body = (
            f"尊敬的林晓女士：\n\n您好！您已成功购买 {day.month}月{day.day}日"
            f"（周{WEEKDAYS[day.weekday()]}）{train['number']} 次列车车票：\n"
            f"{train['from_station']}站 {train['depart']} 开，{train['to_station']}站 "
            f"{train['arrive']} 到，二等座。\n\n请持购票时使用的有效身份证件原件乘车，并预留足够"
            "的安检和检票时间。\n\n中国铁路客户服务中心"
        )
        mail = it.app_data(MAIL_PACKAGE)
        mail["mails"].append(
            {
                "id": TASK_MAIL_ID,
                "folder": "inbox",
                "starred": False,
                "from_name": name,
                "from_addr": address,
                "to": ME_ADDRESS,
                "subject": f"【铁路12306】购票成功：{day.month}月{day.day}日 "
                f"{train['from']}-{train['to']} {train['number']}",
                "body": body,
                "time": it.clock - 2 * 3600,
                "attachments": [],
                "facts": {"kind": "train", "train": train["number"]},
                "reply_to": None,
                "forward_of": None,
            }
        )
        mail["read"][TASK_MAIL_ID] = False

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        day_zh, day_en = DAY_WORDS[params["days"]]
        lead_zh, lead_en, label = params["lead_zh"], params["lead_en"], params["label"]
        return phrased(
            zh=[f"12306发邮件说我{day_zh}的火车票买好了。按邮件里的发车时间，在时钟里定一个提前"
                f"{lead_zh}响的闹钟，标签写“{label}”",
                f"我{day_zh}的火车票已经买好了，12306发了确认邮件。帮我在时钟里定个闹钟，"
                f"比邮件里的发车时间早{lead_zh}，标签“{label}”",
                f"查看12306发来的购票邮件，找到我{day_zh}那趟火车的发车时间，在时钟里设一个"
                f"提前{lead_zh}的闹钟，标签写“{label}”"],
            en=[f"12306 mailed me that my train ticket for {day_en} is booked. Using the "
                f"departure time in that mail, set an alarm in Clock {lead_en} before it, "
                f"labelled '{label}'",
                f"My train ticket for {day_en} is booked and 12306 sent me a mail about it. Set an "
                f"alarm in Clock {lead_en} before the departure time in that mail, labelled "
                f"'{label}'",
                f"Find the 12306 booking mail for my train {day_en} and set an alarm in Clock "
                f"{lead_en} before the departure time it gives, labelled '{label}'"],
        )  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from ui.open_app("邮件")
        yield ui.tap("folder_inbox")
        yield from ui.scroll_to(f"mail_{TASK_MAIL_ID}")
        yield ui.tap(f"mail_{TASK_MAIL_ID}")
        body = ui.text_of("mail_body")
        departs = re.search(r"站 (\d{1,2}:\d{2}) 开", body)
        if departs is None:
            raise OracleError("the mail names no departure")
        yield from self.set_alarm(ui, departs[1], params)


TEMPLATES: tuple[TaskTemplate, ...] = (MeetingMailToCalendar(), TrainOrderAlarm(), TrainMailAlarm())
