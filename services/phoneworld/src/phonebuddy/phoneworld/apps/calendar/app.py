"""The Calendar app: a month grid with the selected day's agenda under it, event pages, an
event editor, and a prompt on first open that offers to subscribe to public holidays.

Seeded events cover March and April 2026, the months a reset device's clock can fall in.
"""

from __future__ import annotations

import calendar as cal
import datetime as dt
import random
import re
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.interaction import Interaction, NoOp
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import BEIJING, local_date
from phonebuddy.phoneworld.ui.theme import AppTheme, Color
from phonebuddy.phoneworld.ui.widgets import (
    BottomSheet,
    Button,
    Card,
    Dialog,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Text,
    TextField,
    Widget,
)

CALENDAR = "com.pw.calendar"
SEASON_START = dt.date(2026, 3, 1)
SEASON_END = dt.date(2026, 4, 30)
WEEKDAYS = ("一", "二", "三", "四", "五", "六", "日")
# Room below the last row of a list, so that scrolling can bring it fully into view.
END_SPACE = Spacer(60)
DEFAULT_REMINDER = 15
REMINDERS: tuple[tuple[int | None, str], ...] = (
    (None, "不提醒"),
    (0, "日程开始时"),
    (5, "5分钟前"),
    (15, "15分钟前"),
    (30, "30分钟前"),
    (60, "1小时前"),
    (1440, "1天前"),
)
REMINDER_TEXT = dict(REMINDERS)
HOLIDAYS = {
    "2026-03-08": "妇女节",
    "2026-03-12": "植树节",
    "2026-04-01": "愚人节",
    "2026-04-05": "清明节",
}
# title, weekday, start, end, location, reminder
WEEKLY_EVENTS = (
    ("项目周会", 0, "10:00", "11:00", "A座 3号会议室", 15),
    ("瑜伽课", 3, "19:30", "20:30", "梵音瑜伽(望京店)", 60),
)
# title, location, minutes, reminder; each happens once, on a seeded day
ONE_OFF_EVENTS = (
    ("牙医复诊", "瑞尔齿科(国贸诊所)", 60, 60),
    ("和王总吃饭", "海底捞(三里屯店)", 120, 30),
    ("产品评审会", "A座 12楼大会议室", 90, 15),
    ("看电影", "万达影城(CBD店)", 150, 30),
    ("家长会", "实验小学 三年级二班", 90, 60),
    ("季度述职", "B座 5楼 503", 60, 15),
    ("年度体检", "爱康国宾(建外SOHO)", 120, 1440),
    ("同学聚会", "胡大饭馆(簋街店)", 180, 60),
    ("面试候选人", "腾讯会议 312-556-890", 60, 5),
    ("理发", "文峰美发(望京店)", 60, 30),
    ("带猫打疫苗", "瑞派宠物医院", 60, 60),
    ("科目二考试", "海淀驾校考场", 120, 1440),
    ("客户拜访", "华贸中心 2号楼", 90, 30),
    ("话剧《茶馆》", "首都剧场", 150, 60),
    ("打羽毛球", "奥体中心羽毛球馆", 120, 30),
    ("签租房合同", "链家(望京店)", 60, 30),
    ("读书会", "PageOne书店(三里屯)", 120, 15),
    ("陪爸妈逛公园", "颐和园", 180, 60),
    ("接机", "首都机场 T3", 60, 60),
    ("部门团建", "北京欢乐谷", 240, 1440),
    ("英语口语课", "线上课堂", 60, 15),
    ("汽车保养", "比亚迪4S店(亦庄)", 120, 60),
    ("演唱会", "国家体育场(鸟巢)", 180, 1440),
    ("技术分享会", "B座 3楼报告厅", 90, 15),
    ("社区志愿服务", "望京社区服务站", 120, 30),
    ("签证面谈", "美国驻华大使馆", 60, 1440),
    ("预算评审", "A座 12楼大会议室", 60, 15),
    ("钢琴课", "雅马哈音乐中心", 60, 30),
)
EVENT_NOTES = {
    "年度体检": "空腹，带身份证",
    "签证面谈": "带护照和 DS-160 确认页",
    "科目二考试": "带身份证，提前 30 分钟到",
    "和王总吃饭": "已订 8 号包间",
    "签租房合同": "带身份证和押金",
}
_ISO_DATE = re.compile(r"^\s*(\d{4})\s*[-/.年]\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?\s*$")
_SHORT_DATE = re.compile(r"^\s*(\d{1,2})\s*[-/.月]\s*(\d{1,2})\s*日?\s*$")
_TIME = re.compile(r"^\s*(\d{1,2})\s*[:：]\s*(\d{2})\s*$")


def parse_date(text: str, year: int) -> dt.date | None:
    """'2026-03-20', '2026/3/20', '2026年3月20日' or '3月20日' (in `year`); None if invalid."""
    match = _ISO_DATE.match(text)
    parts = (int(match[1]), int(match[2]), int(match[3])) if match else None
    if parts is None and (short := _SHORT_DATE.match(text)):
        parts = (year, int(short[1]), int(short[2]))
    if parts is None:
        return None
    try:
        return dt.date(*parts)
    except ValueError:
        return None


def parse_time(text: str) -> str | None:
    """'9:30' or '09：30' -> '09:30'; None if it is not a time of day."""
    match = _TIME.match(text)
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        return None
    return f"{int(match[1]):02d}:{match[2]}"


def date_text(day: dt.date) -> str:
    return f"{day.month}月{day.day}日 周{WEEKDAYS[day.weekday()]}"


def _hhmm(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def _seed_events(rng: random.Random) -> list[dict[str, Any]]:
    days = [
        SEASON_START + dt.timedelta(days=i) for i in range((SEASON_END - SEASON_START).days + 1)
    ]
    events: list[dict[str, Any]] = []
    for title, weekday, start, end, location, reminder in WEEKLY_EVENTS:
        for day in days:
            if day.weekday() == weekday:
                events.append(
                    {
                        "title": title,
                        "date": day.isoformat(),
                        "start": start,
                        "end": end,
                        "location": location,
                        "reminder": reminder,
                        "notes": "",
                    }
                )
    for (title, location, length, reminder), day in zip(
        ONE_OFF_EVENTS, rng.sample(days, k=len(ONE_OFF_EVENTS)), strict=True
    ):
        start = rng.randrange(18, 39) * 30  # 09:00 to 19:00, on the half hour
        events.append(
            {
                "title": title,
                "date": day.isoformat(),
                "start": _hhmm(start),
                "end": _hhmm(min(start + length, 23 * 60 + 30)),
                "location": location,
                "reminder": reminder,
                "notes": EVENT_NOTES.get(title, ""),
            }
        )
    events.sort(key=lambda e: (e["date"], e["start"]))
    return [{"id": f"evt-{i}", **event} for i, event in enumerate(events)]


class Calendar(App):
    package = CALENDAR
    label = Label(zh="日历", en="Calendar")
    domain = "productivity"
    theme = AppTheme(primary=(240, 90, 40))
    icon_text = "历"
    # Answering the holiday prompt is friction, not an effect; subscribing is.
    ignorable = ("holiday_prompt_seen",)

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        return {"events": _seed_events(rng)}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        subscribed = rng.random() < 0.3
        return {
            "events": content["events"],
            "holidays_subscribed": subscribed,
            "holiday_prompt_seen": subscribed or rng.random() < 0.4,
        }

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def find_event(it: Interaction, event_id: str) -> dict[str, Any]:
        event = next((e for e in it.data["events"] if e["id"] == event_id), None)
        if event is None:
            raise NoOp(f"no event {event_id}")
        return event

    @staticmethod
    def add_event(
        it: Interaction,
        *,
        title: str,
        date: str,
        start: str,
        end: str,
        location: str = "",
        reminder: int | None = DEFAULT_REMINDER,
        notes: str = "",
    ) -> str:
        event_id = it.new_id("evt")
        it.data["events"].append(
            {
                "id": event_id,
                "title": title,
                "date": date,
                "start": start,
                "end": end,
                "location": location,
                "reminder": reminder,
                "notes": notes,
            }
        )
        return event_id

    @staticmethod
    def answer_holiday_prompt(it: Interaction, subscribe: bool) -> None:
        it.data["holiday_prompt_seen"] = True
        if subscribe:
            it.data["holidays_subscribed"] = True
            it.toast("已订阅节假日")

    @staticmethod
    def show_month(it: Interaction, month_start: dt.date, today_: dt.date) -> None:
        same_month = (today_.year, today_.month) == (month_start.year, month_start.month)
        month, selected = month_start.isoformat()[:7], (today_ if same_month else month_start)
        shown = (it.ui("month", today_.isoformat()[:7]), it.ui("selected", today_.isoformat()))
        if shown == (month, selected.isoformat()):
            it.no_op(f"already showing {month}")
        it.set_ui("month", month)
        it.set_ui("selected", selected.isoformat())

    @staticmethod
    def select_day(it: Interaction, day: str) -> None:
        if it.ui("selected") == day:
            it.no_op(f"{day} is already selected")
        it.set_ui("selected", day)

    def _validated(self, it: Interaction) -> dict[str, Any]:
        """The editor's fields as event values; a no-op with a toast if something is wrong."""
        title = it.field("title").strip()
        day = parse_date(it.field("date"), local_date(it.clock).year)
        start, end = parse_time(it.field("start")), parse_time(it.field("end"))
        problem = None
        if not title:
            problem = "请输入日程标题"
        elif day is None:
            problem = "日期格式不正确，如 2026-03-20"
        elif start is None or end is None:
            problem = "时间格式不正确，如 09:30"
        elif end <= start:
            problem = "结束时间需晚于开始时间"
        if problem is not None:
            it.toast(problem)
            raise NoOp(problem)
        reminder = it.ui("reminder", it.entry["params"]["reminder"])
        return {
            "title": title,
            "date": day.isoformat(),
            "start": start,
            "end": end,
            "location": it.field("location").strip(),
            "reminder": reminder,
            "notes": it.field("notes").strip(),
        }

    def save_event(self, it: Interaction) -> None:
        values = self._validated(it)
        event_id = it.entry["params"]["event_id"]
        if event_id is None:
            self.add_event(it, **values)
        else:
            self.find_event(it, event_id).update(values)
        it.pop()
        if event_id is None:  # back on the month view: show the new event's day
            it.set_ui("month", values["date"][:7])
            it.set_ui("selected", values["date"])
        it.toast("日程已保存")

    def delete_event(self, it: Interaction, event_id: str) -> None:
        it.data["events"].remove(self.find_event(it, event_id))
        it.pop()
        it.toast("日程已删除")

    @staticmethod
    def open_reminder_sheet(it: Interaction) -> None:
        it.set_ui("dialog", "reminder")
        # A picker hides the keyboard, as on Android; the sheet would not fit above it.
        it.device.state["ui"]["focus"] = None

    @staticmethod
    def choose_reminder(it: Interaction, minutes: int | None) -> None:
        it.set_ui("reminder", minutes)
        it.set_ui("dialog", None)

    @staticmethod
    def clear_field(it: Interaction, name: str) -> None:
        if not it.field(name):
            it.no_op(f"{name} is already empty")
        it.set_field(name, "")
        it.focus(name)

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        now = local_date(v.os["clock"])
        month = dt.date.fromisoformat(v.ui("month", now.isoformat()[:7]) + "-01")
        selected = dt.date.fromisoformat(v.ui("selected", now.isoformat()))
        previous = (month - dt.timedelta(days=1)).replace(day=1)
        following = (month + dt.timedelta(days=31)).replace(day=1)
        dated = self._events_by_date(v)
        body: list[Widget | None] = [
            Row(
                [Text(d, size=34, color=theme.TEXT_SECONDARY, align="center") for d in WEEKDAYS],
                spacing=8,
            ),
            *self._month_grid(v, month, selected, now, dated),
            Spacer(24),
            self._day_header(v, selected),
            *self._agenda(v, dated.get(selected.isoformat(), [])),
            END_SPACE,
        ]
        new_event = v.go(
            "edit",
            event_id=None,
            reminder=DEFAULT_REMINDER,
            fields={"date": selected.isoformat(), **self._default_times(v, selected, now)},
        )
        return Page(
            f"{month.year}年{month.month}月",
            body,
            actions=[
                IconButton("‹", "上个月", v.do(self.show_month, previous, now), id="prev_month"),
                IconButton("›", "下个月", v.do(self.show_month, following, now), id="next_month"),
                IconButton(
                    "今", "回到今天", v.do(self.show_month, now.replace(day=1), now), id="today"
                ),
                IconButton("plus", "新建日程", new_event, id="new_event"),
            ],
            body_padding=16,
            spacing=8,
            overlay=self._holiday_prompt(v),
        )

    @staticmethod
    def _events_by_date(v: View) -> dict[str, list[Any]]:
        dated: dict[str, list[Any]] = {}
        for event in sorted(v.data["events"], key=lambda e: (e["start"], e["end"])):
            dated.setdefault(event["date"], []).append(event)
        return dated

    @staticmethod
    def _default_times(v: View, day: dt.date, now: dt.date) -> dict[str, str]:
        hour = 9
        if day == now:
            hour = min(22, dt.datetime.fromtimestamp(v.os["clock"], BEIJING).hour + 1)
        return {"start": f"{hour:02d}:00", "end": f"{hour + 1:02d}:00"}

    def _month_grid(
        self,
        v: View,
        month: dt.date,
        selected: dt.date,
        now: dt.date,
        dated: dict[str, list[Any]],
    ) -> list[Widget]:
        weeks = cal.Calendar(firstweekday=0).monthdatescalendar(month.year, month.month)
        return [
            Row([self._day_cell(v, day, month, selected, now, dated) for day in week], spacing=8)
            for week in weeks
        ]

    def _day_cell(
        self,
        v: View,
        day: dt.date,
        month: dt.date,
        selected: dt.date,
        now: dt.date,
        dated: dict[str, list[Any]],
    ) -> Widget:
        if day.month != month.month:
            return Text(" ", size=44, padding=10)
        iso = day.isoformat()
        holiday = HOLIDAYS.get(iso) if v.data["holidays_subscribed"] else None
        marker = holiday or ("•" * min(3, len(dated.get(iso, []))) or " ")
        is_selected = day == selected
        fill: Color = v.app.theme.primary if is_selected else theme.SURFACE
        number_color: Color = theme.TEXT
        if is_selected:
            number_color = theme.WHITE
        elif day == now:
            number_color = v.app.theme.primary
        return Card(
            [
                Text(str(day.day), size=44, bold=day == now, color=number_color, align="center"),
                Text(
                    marker,
                    size=26,
                    align="center",
                    color=theme.WHITE if is_selected else v.app.theme.primary,
                ),
            ],
            on_tap=v.do(self.select_day, iso),
            id=f"day_{iso}",
            padding=10,
            spacing=0,
            fill=fill,
        )

    @staticmethod
    def _day_header(v: View, day: dt.date) -> Text:
        holiday = HOLIDAYS.get(day.isoformat()) if v.data["holidays_subscribed"] else None
        suffix = f" · {holiday}" if holiday else ""
        return Text(date_text(day) + suffix, size=42, bold=True, padding=24, id="day_title")

    @staticmethod
    def _agenda(v: View, events: list[Any]) -> list[Widget]:
        if not events:
            return [Text("当天没有日程", color=theme.TEXT_SECONDARY, padding=24, id="no_events")]
        return [
            ListItem(
                event["title"],
                subtitle=f"{event['start']}-{event['end']}"
                + (f" · {event['location']}" if event["location"] else ""),
                leading=event["title"],
                on_tap=v.go("event", event_id=event["id"]),
                id=f"event_{event['id']}",
            )
            for event in events
        ]

    def _holiday_prompt(self, v: View) -> Dialog | None:
        if v.data["holiday_prompt_seen"]:
            return None
        return Dialog(
            "订阅节假日日历？",
            message="在日历中显示法定节假日和调休安排。",
            buttons=[
                Button(
                    "暂不",
                    v.do(self.answer_holiday_prompt, False),
                    id="holiday_later",
                    style="secondary",
                ),
                Button("订阅", v.do(self.answer_holiday_prompt, True), id="holiday_subscribe"),
            ],
            id="holiday_prompt",
        )

    @screen("event")
    def event(self, v: View) -> Page:
        event = next((e for e in v.data["events"] if e["id"] == v.params["event_id"]), None)
        if event is None:
            return Page("日程", [Text("该日程已被删除", padding=40)], on_back=v.back())
        day = dt.date.fromisoformat(event["date"])
        dialog = None
        if v.ui("dialog") == "delete":
            dialog = v.confirm(
                "删除此日程？",
                v.do(self.delete_event, event["id"]),
                message=event["title"],
                label="删除",
                confirm_id="confirm_delete",
                danger=True,
            )
        edit = v.go(
            "edit",
            event_id=event["id"],
            reminder=event["reminder"],
            fields={k: event[k] for k in ("title", "date", "start", "end", "location", "notes")},
        )
        return Page(
            "日程详情",
            [
                Text(event["title"], size=60, bold=True, id="event_title"),
                Text(
                    f"{date_text(day)}  {event['start']} - {event['end']}", size=42, id="event_time"
                ),
                ListItem("地点", subtitle=event["location"] or "未设置", id="event_location"),
                ListItem(
                    "提醒",
                    subtitle=REMINDER_TEXT.get(event["reminder"], "不提醒"),
                    id="event_reminder",
                ),
                ListItem("备注", subtitle=event["notes"], id="event_notes")
                if event["notes"]
                else None,
            ],
            on_back=v.back(),
            actions=[
                IconButton("edit", "编辑", edit, id="edit"),
                IconButton("delete", "删除", v.set_ui("dialog", "delete"), id="delete"),
            ],
            body_padding=40,
            spacing=30,
            overlay=dialog,
        )

    @screen("edit")
    def edit(self, v: View) -> Page:
        creating = v.params["event_id"] is None
        reminder = v.ui("reminder", v.params["reminder"])
        return Page(
            "新建日程" if creating else "编辑日程",
            [
                self._field(v, "title", "标题", "添加标题"),
                self._field(v, "date", "日期", "2026-03-20"),
                Row(
                    [
                        self._field(v, "start", "开始", "09:00"),
                        self._field(v, "end", "结束", "10:00"),
                    ]
                ),
                self._field(v, "location", "地点", "添加地点"),
                ListItem(
                    "提醒",
                    trailing=REMINDER_TEXT[reminder] + "  ›",
                    on_tap=v.do(self.open_reminder_sheet),
                    id="reminder",
                ),
                self._field(v, "notes", "备注", "添加备注", multiline=True),
                END_SPACE,
            ],
            on_back=v.back(),
            actions=[IconButton("check", "保存", v.do(self.save_event), id="save")],
            body_padding=40,
            spacing=20,
            overlay=self._reminder_sheet(v, reminder),
        )

    def _reminder_sheet(self, v: View, chosen: int | None) -> BottomSheet | None:
        if v.ui("dialog") != "reminder":
            return None
        return BottomSheet(
            "提醒",
            [
                ListItem(
                    label,
                    trailing="✓" if value == chosen else "",
                    selected=value == chosen,
                    on_tap=v.do(self.choose_reminder, value),
                    id=f"reminder_{'none' if value is None else value}",
                )
                for value, label in REMINDERS
            ],
            on_dismiss=v.set_ui("dialog", None),
            id="reminder_sheet",
        )

    def _field(
        self, v: View, name: str, label: str, placeholder: str, *, multiline: bool = False
    ) -> Card:
        return Card(
            [
                Text(label, size=32, color=theme.TEXT_SECONDARY),
                Row(
                    [
                        TextField(
                            name,
                            v.field(name),
                            placeholder,
                            on_focus=v.focus(name),
                            multiline=multiline,
                        ),
                        IconButton(
                            "close",
                            f"清除{label}",
                            v.do(self.clear_field, name),
                            id=f"clear_{name}",
                            size=100,
                        ),
                    ],
                    spacing=8,
                ),
            ],
            padding=16,
            spacing=4,
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool(
        "create_event",
        "Create a calendar event on date (YYYY-MM-DD) from start to end (HH:MM, 24-hour).",
        {"title": str, "date": str, "start": str, "end": str},
    )
    def create_event_tool(
        self, it: Interaction, title: str, date: str, start: str, end: str
    ) -> str:
        day = parse_date(date, local_date(it.clock).year)
        start_time, end_time = parse_time(start), parse_time(end)
        if not title.strip() or day is None or start_time is None or end_time is None:
            raise NoOp("create_event needs a title, a YYYY-MM-DD date and HH:MM times")
        if end_time <= start_time:
            raise NoOp("the event must end after it starts")
        event_id = self.add_event(
            it, title=title.strip(), date=day.isoformat(), start=start_time, end=end_time
        )
        return f"created {event_id} on {day.isoformat()} {start_time}-{end_time}"
