"""The Phone app (电话): call log with a missed-calls filter, dial pad, a contacts tab that reads
the Contacts app's data, call details (call back, message, save as contact) and the in-call
screen.

A placed call is one call-log entry: outgoing, `duration` 0 and `active` while the in-call
screen is up; hanging up ends it with the simulated seconds that passed. Nobody answers and
nothing else happens, so calls stay deterministic.
"""

from __future__ import annotations

import random
from typing import Any

from phonebuddy.phoneworld.app import App, Label, View, screen, tool
from phonebuddy.phoneworld.apps.contacts.app import (
    CONTACTS,
    MOBILE_PREFIXES,
    PHONE,
    avatar_colour,
    day_start,
    digits,
    find_by_number,
    format_phone,
    format_time,
    matches_query,
    roster,
    sort_key,
)
from phonebuddy.phoneworld.clock import EPOCH_START
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.theme import AppTheme
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Column,
    Divider,
    IconButton,
    ListItem,
    Page,
    Row,
    Spacer,
    Tabs,
    Text,
    TextField,
    Widget,
    Wrap,
)

# Seeded history ends the night before the earliest possible start day, so it always lies in
# the past of the device clock; templates add "today's" calls in their setup.
HISTORY_END = day_start(EPOCH_START)
HISTORY_DAYS = 8
SEEDED_CALLS = 26
SERVICE_NUMBERS = {
    "10086": "中国移动",
    "95588": "工商银行",
    "95555": "招商银行",
    "95338": "顺丰速运",
    "12306": "铁路客服",
    "12345": "政务服务便民热线",
}
KIND_LABELS = {"incoming": "呼入", "outgoing": "呼出", "missed": "未接"}
KEYPAD = (("1", "2", "3"), ("4", "5", "6"), ("7", "8", "9"), ("*", "0", "#"))
KEY_IDS = {"*": "star", "#": "hash"}
CALL_SCREEN = (28, 32, 40)
CALL_SCREEN_TEXT = (190, 196, 206)
RINGING_SECONDS = 9


def format_duration(seconds: int) -> str:
    minutes, rest = divmod(seconds, 60)
    return f"{minutes}分{rest:02d}秒" if minutes else f"{rest}秒"


def unknown_mobile(rng: random.Random) -> str:
    """A mobile number that is nobody's in the roster (a courier, a sales call)."""
    known = {c["phone"] for c in roster()}
    while True:
        number = rng.choice(MOBILE_PREFIXES) + f"{rng.randrange(10**8):08d}"
        if number not in known:
            return number


def _seeded_calls(rng: random.Random) -> list[dict[str, Any]]:
    people = roster()
    close = [c for c in people if c["favorite"] or c["group"] in ("家人", "同事")]
    strangers = [unknown_mobile(rng) for _ in range(4)]
    # Between 08:00 and 22:00 on one of the days before the history ends.
    times = sorted(
        HISTORY_END - days_back * 86400 + rng.randrange(8 * 3600, 22 * 3600)
        for days_back in rng.choices(range(1, HISTORY_DAYS + 1), k=SEEDED_CALLS)
    )
    calls = []
    for i, time in enumerate(times):
        roll = rng.random()
        if roll < 0.55:
            number = rng.choice(close)["phone"]
        elif roll < 0.8:
            number = rng.choice(people)["phone"]
        elif roll < 0.92:
            number = rng.choice(strangers)
        else:
            number = rng.choice(tuple(SERVICE_NUMBERS))
        kind = rng.choices(("incoming", "outgoing", "missed"), weights=(45, 40, 15))[0]
        duration = 0 if kind == "missed" else rng.randrange(8, 900)
        calls.append(
            {
                "id": f"call-{i + 1:02d}",
                "number": number,
                "kind": kind,
                "time": time,
                "duration": duration,
                "active": False,
            }
        )
    return calls


class Phone(App):
    package = PHONE
    label = Label(zh="电话", en="Phone")
    domain = "communication"
    theme = AppTheme(primary=(34, 160, 90))
    icon_text = "话"
    permissions = ("contacts",)

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {"calls": _seeded_calls(rng)}

    # -- handlers (the only place data changes) -----------------------------------------------
    @staticmethod
    def _find(it: Interaction, call_id: str) -> dict[str, Any]:
        call = next((c for c in it.data["calls"] if c["id"] == call_id), None)
        if call is None:
            it.no_op(f"no call {call_id}")
        return call  # type: ignore[return-value]  # no_op raised otherwise

    @staticmethod
    def _end(call: dict[str, Any], now: int) -> None:
        call["active"] = False
        call["duration"] = max(0, now - call["time"])

    @classmethod
    def place_call(cls, it: Interaction, number: str) -> str:
        """Dial `number`: a new outgoing log entry, and the in-call screen."""
        number = digits(number)
        if not number:
            it.no_op("no number to call")
        for call in it.data["calls"]:
            if call["active"]:
                cls._end(call, it.clock)
        call_id = it.new_id("call")
        it.data["calls"].append(
            {
                "id": call_id,
                "number": number,
                "kind": "outgoing",
                "time": it.clock,
                "duration": 0,
                "active": True,
            }
        )
        it.push("calling", call_id=call_id)
        return call_id

    @classmethod
    def call_from_elsewhere(cls, it: Interaction, number: str) -> None:
        """Another app's call button: bring Phone to the front and dial."""
        it.open_app(PHONE)
        cls.place_call(it.for_app(PHONE), number)

    def call_back(self, it: Interaction, call_id: str) -> None:
        self.place_call(it, self._find(it, call_id)["number"])

    def hang_up(self, it: Interaction, call_id: str) -> None:
        call = self._find(it, call_id)
        if not call["active"]:
            it.no_op("the call has already ended")
        self._end(call, it.clock)
        it.pop()
        it.toast(f"通话结束 {format_duration(call['duration'])}")

    @staticmethod
    def press_key(it: Interaction, key: str) -> None:
        it.set_field("number", it.field("number") + key)

    @staticmethod
    def backspace(it: Interaction) -> None:
        typed = it.field("number")
        if not typed:
            it.no_op("the number is already empty")
        it.set_field("number", typed[:-1])

    def call_typed(self, it: Interaction) -> None:
        number = digits(it.field("number"))
        if not number:
            it.no_op("请先输入号码")
        it.set_field("number", "")
        self.place_call(it, number)

    def message(self, it: Interaction, number: str) -> None:
        from phonebuddy.phoneworld.apps.messages.app import Messages  # it imports contacts only

        Messages.open_conversation_from_elsewhere(it, number)

    @staticmethod
    def add_to_contacts(it: Interaction, number: str) -> None:
        it.open_app(CONTACTS)
        fields = {"name": "", "phone": format_phone(number), "company": "", "email": ""}
        it.for_app(CONTACTS).push("edit", contact_id=None, fields=fields)

    @staticmethod
    def view_contact(it: Interaction, contact_id: str) -> None:
        it.open_app(CONTACTS, "contact", contact_id=contact_id)

    # -- what the screens show ------------------------------------------------------------------
    @staticmethod
    def _may_read_contacts(v: View) -> bool:
        return v.os["permissions"].get(PHONE, {}).get("contacts") is not False

    def _contacts(self, v: View) -> list[dict[str, Any]]:
        return list(v.app_data(CONTACTS)["contacts"]) if self._may_read_contacts(v) else []

    def _name(self, v: View, number: str) -> str:
        contact = find_by_number(self._contacts(v), number)
        if contact is not None:
            return str(contact["name"])
        return SERVICE_NUMBERS.get(number, format_phone(number))

    # -- screens --------------------------------------------------------------------------------
    @screen("home")
    def home(self, v: View) -> Page:
        tab = v.ui("tab", "recents")
        if tab == "dialpad":
            body = self._dialpad(v)
        elif tab == "contacts":
            body = self._contacts_tab(v)
        else:
            body = self._recents(v)
        return Page(
            "电话",
            body,
            bottom=Tabs(
                (("recents", "通话记录"), ("dialpad", "拨号"), ("contacts", "联系人")),
                tab,
                v.on_select("tab"),
                style="bottom",
            ),
        )

    def _recents(self, v: View) -> list[Widget]:
        only_missed = v.ui("filter") == "missed"
        calls = sorted(v.data["calls"], key=lambda c: (c["time"], c["id"]), reverse=True)
        if only_missed:
            calls = [c for c in calls if c["kind"] == "missed"]
        rows: list[Widget] = [
            Column(
                [
                    Wrap(
                        [
                            Chip(
                                "全部通话",
                                v.set_ui("filter", None),
                                not only_missed,
                                id="filter_all",
                            ),
                            Chip(
                                "未接来电",
                                v.set_ui("filter", "missed"),
                                only_missed,
                                id="filter_missed",
                            ),
                        ]
                    )
                ],
                padding=24,
            )
        ]
        for call in calls:
            rows += [self._call_row(v, call), Divider()]
        if not calls:
            rows.append(
                Text("没有通话记录", color=theme.TEXT_SECONDARY, padding=40, align="center")
            )
        return rows

    def _call_row(self, v: View, call: dict[str, Any]) -> Widget:
        name = self._name(v, call["number"])
        summary = KIND_LABELS[call["kind"]]
        if call["duration"]:
            summary += f" {format_duration(call['duration'])}"
        if name != format_phone(call["number"]):
            summary += f" · {format_phone(call['number'])}"
        missed = call["kind"] == "missed"
        return Column(
            [
                Row(
                    [
                        Column(
                            [
                                Text(
                                    name,
                                    size=46,
                                    color=theme.DANGER if missed else theme.TEXT,
                                    max_lines=1,
                                    id=f"name_{call['id']}",
                                ),
                                Text(
                                    summary,
                                    size=34,
                                    color=theme.TEXT_SECONDARY,
                                    max_lines=1,
                                    id=f"summary_{call['id']}",
                                ),
                            ],
                            spacing=4,
                            on_tap=v.do(self.call_back, call["id"]),
                            id=f"call_{call['id']}",
                        ),
                        Text(
                            format_time(call["time"], v.os["clock"]),
                            size=34,
                            color=theme.TEXT_SECONDARY,
                            align="right",
                            id=f"time_{call['id']}",
                        ),
                        IconButton(
                            "more",
                            "详情",
                            v.go("detail", number=call["number"]),
                            id=f"info_{call['id']}",
                            size=100,
                            color=theme.TEXT_SECONDARY,
                        ),
                    ],
                    weights=(3, 1.5, 0),
                    spacing=12,
                )
            ],
            padding=30,
            fill=theme.SURFACE,
        )

    def _dialpad(self, v: View) -> list[Widget]:
        typed = v.field("number")
        wanted = digits(typed)
        matches = [c for c in self._contacts(v) if wanted and matches_query(c, wanted)][:3]
        keys = [
            Row(
                [
                    Button(
                        key,
                        v.do(self.press_key, key),
                        id=f"dial_{KEY_IDS.get(key, key)}",
                        style="secondary",
                        height=150,
                        size=60,
                    )
                    for key in row
                ],
                spacing=40,
            )
            for row in KEYPAD
        ]
        pad = [
            TextField(
                "number",
                format_phone(typed) if typed == wanted else typed,
                "输入号码",
                on_focus=v.focus("number"),
                size=60,
            ),
            *[
                ListItem(
                    c["name"],
                    subtitle=format_phone(c["phone"]),
                    leading=c["name"],
                    leading_color=avatar_colour(c["name"]),
                    on_tap=v.do(self.place_call, c["phone"]),
                    id=f"suggest_{c['id']}",
                )
                for c in matches
            ],
            Spacer(10),
            *keys,
            Row(
                [
                    Spacer(0),
                    Button("呼叫", v.do(self.call_typed), id="dial_call", height=150, size=50),
                    Button(
                        "删除", v.do(self.backspace), id="dial_delete", style="text", height=150
                    ),
                ],
                spacing=40,
            ),
        ]
        return [Column(pad, spacing=24, padding=40)]

    def _contacts_tab(self, v: View) -> list[Widget]:
        if not self._may_read_contacts(v):
            return [
                Text(
                    "未获得通讯录权限，无法显示联系人。可以在「联系人」应用中查看号码。",
                    color=theme.TEXT_SECONDARY,
                    padding=40,
                    id="no_permission",
                )
            ]
        contacts = sorted(self._contacts(v), key=lambda c: sort_key(c["name"]))
        return [
            ListItem(
                c["name"],
                subtitle=format_phone(c["phone"]),
                leading=c["name"],
                leading_color=avatar_colour(c["name"]),
                on_tap=v.do(self.place_call, c["phone"]),
                id=f"contact_{c['id']}",
            )
            for c in contacts
        ]

    @screen("detail")
    def detail(self, v: View) -> Page:
        number = v.params["number"]
        contact = find_by_number(self._contacts(v), number)
        name = self._name(v, number)
        history = sorted(
            (c for c in v.data["calls"] if c["number"] == number),
            key=lambda c: (c["time"], c["id"]),
            reverse=True,
        )
        if contact is None:
            manage = Button(
                "新建联系人",
                v.do(self.add_to_contacts, number),
                id="detail_add_contact",
                style="secondary",
            )
        else:
            manage = Button(
                "查看联系人",
                v.do(self.view_contact, contact["id"]),
                id="detail_view_contact",
                style="secondary",
            )
        card = Card(
            [
                Text(name, size=64, bold=True, align="center", id="detail_name"),
                Text(
                    format_phone(number),
                    size=42,
                    color=theme.TEXT_SECONDARY,
                    align="center",
                    id="detail_number",
                ),
                Row(
                    [
                        Button("呼叫", v.do(self.place_call, number), id="detail_call"),
                        Button(
                            "发信息",
                            v.do(self.message, number),
                            id="detail_message",
                            style="secondary",
                        ),
                    ]
                ),
                manage,
            ],
            spacing=24,
            padding=48,
        )
        calls = [
            ListItem(
                KIND_LABELS[c["kind"]],
                subtitle=format_duration(c["duration"]) if c["duration"] else "",
                trailing=format_time(c["time"], v.os["clock"]),
                id=f"history_{c['id']}",
            )
            for c in history
        ]
        return Page(
            "通话详情",
            [card, Text("通话记录", size=40, bold=True, padding=10), *calls],
            on_back=v.back(),
            body_padding=30,
            spacing=20,
        )

    @screen("calling")
    def calling(self, v: View) -> Page:
        call = next((c for c in v.data["calls"] if c["id"] == v.params["call_id"]), None)
        if call is None:
            return Page("电话", [Text("通话已结束", padding=40)], on_back=v.back())
        elapsed = v.os["clock"] - call["time"]
        if not call["active"]:
            status = f"通话结束 {format_duration(call['duration'])}"
        elif elapsed < RINGING_SECONDS:
            status = "正在呼叫…"
        else:
            status = f"通话中 {elapsed // 60:02d}:{elapsed % 60:02d}"
        white = theme.WHITE
        callee = self._name(v, call["number"])
        toggles = [
            Chip(
                label, v.set_ui(key, not v.ui(key, False)), selected=bool(v.ui(key, False)), id=key
            )
            for key, label in (("mute", "静音"), ("speaker", "免提"), ("hold", "保持"))
        ]
        return Page(
            None,
            [
                Spacer(220),
                Text(
                    callee,
                    size=84,
                    bold=True,
                    color=white,
                    align="center",
                    id="callee",
                ),
                Text(
                    format_phone(call["number"]),
                    size=44,
                    color=CALL_SCREEN_TEXT,
                    align="center",
                    id="callee_number",
                )
                if callee != format_phone(call["number"])
                else None,
                Text(status, size=42, color=CALL_SCREEN_TEXT, align="center", id="call_status"),
                Spacer(560),
                Row([Spacer(0), Wrap(toggles, spacing=60), Spacer(0)], weights=(1, 4, 1)),
                Spacer(120),
                Row(
                    [
                        Spacer(0),
                        Button(
                            "挂断",
                            v.do(self.hang_up, call["id"]),
                            id="hang_up",
                            style="danger",
                            height=170,
                            size=50,
                        ),
                        Spacer(0),
                    ],
                    weights=(1, 2, 1),
                ),
            ],
            background=CALL_SCREEN,
        )

    # -- direct tools ---------------------------------------------------------------------------
    @tool("call", "Call a phone number (the in-call screen opens).", {"number": str})
    def call_tool(self, it: Interaction, number: str) -> str:
        return f"calling {format_phone(digits(number))} ({self.place_call(it, number)})"
