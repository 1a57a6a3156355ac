"""Task templates of the Phone app, including cross-app ones: save a missed caller as a
contact, call a number written in a note, text the person you missed."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.contacts.app import (
    CONTACTS,
    PHONE,
    day_start,
    digits,
    format_phone,
    pinyin,
)
from phonebuddy.phoneworld.apps.contacts.tasks import check_new_contact
from phonebuddy.phoneworld.apps.messages.tasks import (
    GREETINGS,
    address_book,
    check_one_sms,
    write_in_conversation,
)
from phonebuddy.phoneworld.apps.phone.app import unknown_mobile
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import ClockTime, Expectation, Number, Text, Together
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

NOTES = "com.pw.notes"
CALLS = f"apps/{PHONE}/calls"
NOTE_NUMBERS = (
    ("物业电话", "物业前台", "the building management"),
    ("空调维修", "维修师傅", "the air-conditioner repairman"),
    ("搬家公司", "搬家师傅", "the movers"),
    ("驾校教练", "王教练", "the driving instructor"),
    ("房东电话", "房东", "the landlord"),
)
NEW_CONTACT_NAMES = ("快递小哥", "维修师傅", "中介小王", "张师傅", "物业李姐", "宠物医院")


# -- helpers ------------------------------------------------------------------------------------


def add_call(
    it: Interaction, key: str, number: str, kind: str, *, ago: int, duration: int = 0
) -> None:
    """Setup: a finished call `ago` seconds before now."""
    it.app_data(PHONE)["calls"].append(
        {
            "id": f"call-task-{key}",
            "number": number,
            "kind": kind,
            "time": it.clock - ago,
            "duration": duration,
            "active": False,
        }
    )


def spoken(name: str) -> tuple[str, ...]:
    """How an answer may name a contact: '张伟', 'Zhang Wei', 'Wei Zhang'."""
    spelled = pinyin(name).split()
    if not all(part.isascii() for part in spelled):
        return (name,)
    return (name, " ".join(spelled), " ".join([*spelled[1:], spelled[0]]))


def check_one_call(diff: StateDiff, number: str) -> list[str]:
    """Exactly one call was placed, to `number`, and hung up."""
    added = diff.added(CALLS)
    if len(added) != 1:
        return [f"expected one call to {number}, found {len(added)}"]
    call = added[0]
    problems = []
    if call["kind"] != "outgoing" or call["number"] != number:
        problems.append(f"called {call['number']}, expected {number}")
    if call["active"]:
        problems.append("the call was not hung up")
    return problems


def open_phone(ui: OracleUI) -> Iterator[Action]:
    yield from ui.open_app("电话")


def call_rows(ui: OracleUI) -> list[tuple[str, str, str, str]]:
    """The call-log rows on screen, top first: (call id, name, summary, time)."""
    texts = {n.resource_id.rpartition(":id/")[2]: n.text for n in ui.device.ui_tree().walk()}
    ids = [key.removeprefix("call_") for key in texts if key.startswith("call_")]
    # A row cut off at the bottom of the list may show its name but not its summary yet.
    return [
        (i, texts.get(f"name_{i}", ""), texts.get(f"summary_{i}", ""), texts.get(f"time_{i}", ""))
        for i in ids
    ]


def open_latest_missed_details(ui: OracleUI) -> Iterator[Action]:
    yield from open_phone(ui)
    yield ui.tap("filter_missed")
    rows = call_rows(ui)
    if not rows:
        raise OracleError("no missed calls")
    yield ui.tap(f"info_{rows[0][0]}")


def _person(world: World, rng: random.Random) -> dict[str, Any]:
    return dict(pick(rng, address_book(world)))


# -- templates ----------------------------------------------------------------------------------


class PhoneTemplate(TaskTemplate):
    """A template of the Phone app alone."""

    category = Category.SINGLE_APP
    apps = (PHONE,)


class DialNumber(PhoneTemplate):
    id = "phone.dial_number"
    difficulty = 16

    def sample(self, world: World, rng: random.Random) -> Params:
        number = unknown_mobile(rng) if rng.random() < 0.5 else _person(world, rng)["phone"]
        return {"number": number}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shown = format_phone(params["number"])
        return phrased(
            zh=[f"用拨号盘拨打 {shown}，然后挂断", f"在拨号键盘上输入 {shown} 打过去，再挂掉",
                f"帮我拨一下 {shown} 这个号码（用拨号盘），拨通后挂断"],
            en=[f"Dial {shown} on the keypad, then hang up",
                f"Use the dial pad to call {shown} and then end the call",
                f"Please key in {shown} on the keypad, place the call, then hang up"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_one_call(diff, params["number"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_phone(ui)
        yield ui.tap("tab_dialpad")
        for digit in params["number"]:
            yield ui.tap(f"dial_{digit}")
        yield ui.tap("dial_call")
        yield ui.tap("hang_up")


class CallContact(PhoneTemplate):
    id = "phone.call_contact"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        person = _person(world, rng)
        return {"name": person["name"], "phone": person["phone"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"给{name}打电话，然后挂断", f"帮我打给{name}，拨出去后挂掉",
                f"拨一下{name}的电话，再挂断"],
            en=[f"Call {name}, then hang up", f"Please phone {name} and then end the call",
                f"Ring {name}, then hang up"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_one_call(diff, params["phone"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_phone(ui)
        yield ui.tap("tab_contacts")
        yield from ui.scroll_to(text=params["name"])
        yield ui.tap(text=params["name"])
        yield ui.tap("hang_up")


class CallBackMissed(PhoneTemplate):
    id = "phone.call_back_missed"
    difficulty = 5

    def sample(self, world: World, rng: random.Random) -> Params:
        caller, answered = (dict(p) for p in pick(rng, address_book(world), 2))
        return {
            "caller": caller["name"],
            "phone": caller["phone"],
            "answered_phone": answered["phone"],
            "older_missed": unknown_mobile(rng),
        }

    def setup(self, it: Interaction, params: Params) -> None:
        add_call(it, "older", params["older_missed"], "missed", ago=3 * 3600)
        add_call(it, "missed", params["phone"], "missed", ago=25 * 60)
        add_call(it, "answered", params["answered_phone"], "incoming", ago=10 * 60, duration=75)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["回拨最近的一个未接来电，然后挂断", "帮我回拨最新的那个未接来电，拨出去后挂掉",
                "找到最新的未接来电，打回去，然后挂断"],
            en=["Call back the most recent missed call, then hang up",
                "Please return my latest missed call and hang up afterwards",
                "Find the latest missed call, call that number back and hang up"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_one_call(diff, params["phone"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_phone(ui)
        yield ui.tap("filter_missed")
        rows = call_rows(ui)
        if not rows:
            raise OracleError("no missed calls")
        yield ui.tap(f"call_{rows[0][0]}")
        yield ui.tap("hang_up")


class LastCaller(PhoneTemplate):
    id = "phone.last_caller"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        caller, called, earlier = (dict(p) for p in pick(rng, address_book(world), 3))
        return {
            "caller": caller["name"],
            "caller_phone": caller["phone"],
            "called": called["name"],
            "called_phone": called["phone"],
            "earlier": earlier["name"],
            "earlier_phone": earlier["phone"],
        }

    def setup(self, it: Interaction, params: Params) -> None:
        add_call(it, "earlier", params["earlier_phone"], "missed", ago=2 * 3600)
        add_call(it, "caller", params["caller_phone"], "incoming", ago=20 * 60, duration=95)
        add_call(it, "called", params["called_phone"], "outgoing", ago=5 * 60, duration=40)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["最近一次是谁给我打的电话？", "看看通话记录，最后打进来的是谁？",
                "刚才给我来电的人是谁？"],
            en=["Who called me most recently?", "Check the call log: who was the last to call me?",
                "Who was it that called me last?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        names = [c["name"] for c in diff.before["apps"][CONTACTS]["contacts"]]
        others = [form for name in names if name != params["caller"] for form in spoken(name)]
        return Text(spoken(params["caller"]), others=others)

    def wrong_answer(self, params: Params) -> str:
        return params["called"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_phone(ui)
        incoming = [row for row in call_rows(ui) if not row[2].startswith("呼出")]
        yield Answer(text=incoming[0][1] if incoming else "")


class MissedToday(PhoneTemplate):
    id = "phone.missed_today"
    difficulty = 4
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        count = rng.randrange(1, 5)
        people = pick(rng, address_book(world), count + 1)
        return {
            "count": count,
            "callers": [p["phone"] for p in people[:count]],
            # Minutes after midnight; every episode starts at 09:00.
            "minutes": sorted(rng.sample(range(30, 520), count)),
            "answered": people[count]["phone"],
        }

    def setup(self, it: Interaction, params: Params) -> None:
        since_midnight = it.clock - day_start(it.clock)
        for i, (number, minute) in enumerate(
            zip(params["callers"], params["minutes"], strict=True)
        ):
            add_call(it, f"today-{i}", number, "missed", ago=since_midnight - minute * 60)
        add_call(it, "yesterday", params["callers"][0], "missed", ago=since_midnight + 3 * 3600)
        add_call(it, "answered", params["answered"], "incoming", ago=15 * 60, duration=130)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        return phrased(
            zh=["我今天有几个未接来电？最近的一个是几点打来的？",
                "数一下今天漏接了多少个电话，再看看最后一个是几点的",
                "今天的未接来电一共有几个？最晚的那个是什么时间？"],
            en=["How many missed calls did I get today, and at what time was the latest one?",
                "Count today's missed calls, and tell me the time of the most recent one",
                "How many calls did I miss today? When (what time) was the last of them?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        clock = diff.before["os"]["clock"]
        today = [
            call["time"]
            for call in diff.before["apps"][PHONE]["calls"]
            if call["kind"] == "missed" and call["time"] >= day_start(clock)
        ]
        latest = (max(today) - day_start(clock)) // 60
        return Together(ClockTime(*divmod(latest, 60)), Number(len(today), unit="个"))

    def wrong_answer(self, params: Params) -> str:
        hour, minute = divmod(params["minutes"][-1], 60)
        return f"{params['count'] + 1}个，最近一个{hour:02d}:{minute:02d}"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_phone(ui)
        yield ui.tap("filter_missed")
        today = [row for row in call_rows(ui) if re.fullmatch(r"\d{2}:\d{2}", row[3])]
        latest = today[0][3] if today else ""
        yield Answer(text=f"{len(today)}个，最近一个{latest}")


class SaveMissedCaller(TaskTemplate):
    id = "phone.save_missed_caller"
    category = Category.CROSS_APP
    apps = (PHONE, CONTACTS)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        return {
            "number": unknown_mobile(rng),
            "name": rng.choice(NEW_CONTACT_NAMES),
            "older": _person(world, rng)["phone"],
        }

    def setup(self, it: Interaction, params: Params) -> None:
        add_call(it, "older", params["older"], "missed", ago=2 * 3600)
        add_call(it, "stranger", params["number"], "missed", ago=15 * 60)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"把最近一个未接来电的号码存为新联系人，姓名填“{name}”",
                f"帮我把最近那个未接来电的号码存到通讯录，名字写“{name}”",
                f"新建联系人“{name}”，号码用最新那个未接来电的"],
            en=[f"Save the number of the most recent missed call as a new contact named "
                f"'{name}'",
                f"Please add the number of my latest missed call to Contacts, named '{name}'",
                f"Create a contact '{name}' with the number of the latest missed call"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_contact(diff, name=params["name"], phone=params["number"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_latest_missed_details(ui)
        yield ui.tap("detail_add_contact")
        yield from ui.type_into("name", params["name"])
        yield ui.tap("save")


class CallNumberInNote(TaskTemplate):
    id = "phone.call_number_in_note"
    category = Category.CROSS_APP
    apps = (NOTES, PHONE)
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        title, who, who_en = rng.choice(NOTE_NUMBERS)
        return {"title": title, "who": who, "who_en": who_en, "number": unknown_mobile(rng)}

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(NOTES)["notes"].append(
            {
                "id": "note-task",
                "title": params["title"],
                "pinned": False,
                "body": f"{params['who']}：{format_phone(params['number'])}，工作日9点到18点",
            }
        )

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        title, who, who_en = params["title"], params["who"], params["who_en"]
        return phrased(
            zh=[f"备忘录“{title}”里记着{who}的电话，打过去，然后挂断",
                f"帮我给{who}打个电话再挂掉，号码在备忘录“{title}”里",
                f"打开备忘录“{title}”，找到{who}的号码拨过去，然后挂断"],
            en=[f"The note '{title}' has the number of {who_en}. Call it, then hang up",
                f"Please call {who_en} and then hang up; the number is in the note '{title}'",
                f"Open the note '{title}', dial the number of {who_en} in it, then hang up"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_one_call(diff, params["number"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("备忘录")
        yield from ui.scroll_to(text=params["title"])
        yield ui.tap(text=params["title"])
        body = ui.find("note_body")
        found = re.search(r"1\d{2} ?\d{4} ?\d{4}", body.text if body else "")
        if found is None:
            raise OracleError(f"no phone number in the note {params['title']!r}")
        yield from open_phone(ui)
        yield ui.tap("tab_dialpad")
        yield from ui.type_into("number", digits(found.group()))
        yield ui.back()  # hide the keyboard
        yield ui.tap("dial_call")
        yield ui.tap("hang_up")


class TextMissedCaller(TaskTemplate):
    id = "phone.text_missed_caller"
    category = Category.CROSS_APP
    apps = (PHONE, "com.pw.messages")
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        person = _person(world, rng)
        return {
            "name": person["name"],
            "phone": person["phone"],
            "text": rng.choice(("刚才在开会，稍后回电", "在开车，晚点联系你", *GREETINGS[:2])),
        }

    def setup(self, it: Interaction, params: Params) -> None:
        add_call(it, "missed", params["phone"], "missed", ago=30 * 60)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        text = params["text"]
        return phrased(
            zh=[f"给最近一个未接来电的人发短信：“{text}”",
                f"最近那个没接的电话，给对方回条短信，内容是“{text}”",
                f"发短信“{text}”给最新那个未接来电的号码"],
            en=[f"Text the person behind the most recent missed call: '{text}'",
                f"Reply by SMS to my most recent missed call, saying '{text}'",
                f"Send the text '{text}' to whoever made the latest missed call"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_one_sms(diff, params["phone"], params["text"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_latest_missed_details(ui)
        yield ui.tap("detail_message")
        yield from write_in_conversation(ui, params["text"])


TEMPLATES: tuple[TaskTemplate, ...] = (
    DialNumber(),
    CallContact(),
    CallBackMissed(),
    LastCaller(),
    MissedToday(),
    SaveMissedCaller(),
    CallNumberInNote(),
    TextMissedCaller(),
)
