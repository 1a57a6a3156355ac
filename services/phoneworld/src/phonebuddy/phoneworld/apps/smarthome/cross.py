"""Cross-app templates of 智能家居: family members' requests by SMS and WeChat, a trip on the
calendar, sharing the home with a contact, the door lock's log texted on, the week's energy in
a note, and a Contacts → 智能家居 → Messages chain."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator

from phonebuddy.phoneworld.apps.calendar.tasks import date_en, date_zh, open_event
from phonebuddy.phoneworld.apps.messages.tasks import (
    add_incoming,
    address_book,
    check_one_sms,
    open_thread,
    sent_messages,
)
from phonebuddy.phoneworld.apps.messenger.directory import private_chat_id
from phonebuddy.phoneworld.apps.messenger.steps import MESSENGER, open_private_chat
from phonebuddy.phoneworld.apps.smarthome.base import SMARTHOME
from phonebuddy.phoneworld.apps.smarthome.common import (
    ac_changes,
    add_automation,
    device_changes,
    device_params,
    devices,
    home_tab,
    new_automation,
    new_member,
    open_device,
    set_temperature,
)
from phonebuddy.phoneworld.apps.smarthome.content import ROLES
from phonebuddy.phoneworld.apps.smarthome.questions import week_kwh
from phonebuddy.phoneworld.apps.smarthome.screens import BEIJING
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import ClockTime, Number, check_written
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.cross_app.steps import any_friend, sent_to_friend
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.expect import one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Category, Instruction

MESSAGES = "com.pw.messages"
NOTES = "com.pw.notes"
CONTACTS = "com.pw.contacts"
CALENDAR = "com.pw.calendar"
ENERGY_NOTE = "用电统计"


def person(world: World, rng: random.Random) -> Params:
    someone = pick(rng, address_book(world))
    return {"person": someone["name"], "phone": someone["phone"]}


def reply_sms(ui: OracleUI, name: str, text: str) -> Iterator[Action]:
    """Back to 信息, which reopens in the thread left open (else open `name`'s), and reply."""
    yield ui.open("信息")
    if not ui.visible("reply"):
        yield from open_thread(ui, name)
    yield from ui.type_into("reply", text)
    yield ui.tap("send")


def send_sms(ui: OracleUI, to: str, text: str) -> Iterator[Action]:
    yield ui.open("信息")
    yield ui.tap("compose")
    yield from ui.type_into("to", to)
    yield from ui.type_into("body", text)
    yield ui.tap("send")


def write_note(ui: OracleUI, title: str, body: str) -> Iterator[Action]:
    yield ui.open("备忘录")
    yield ui.tap("new_note")
    yield from ui.type_into("title", title)
    yield from ui.type_into("body", body)
    yield ui.tap("save")


class AcFromSms(TaskTemplate):
    """Messages → 智能家居: a family member asks by SMS for a room's AC at a temperature; set it
    and reply."""

    id = "smarthome.ac_from_sms"
    category = Category.CROSS_APP
    apps = (MESSAGES, SMARTHOME)
    difficulty = 15

    def sample(self, world: World, rng: random.Random) -> Params:
        ac = pick(rng, [d for d in devices(world) if d["kind"] == "ac" and d["online"]])
        temp = rng.choice([t for t in range(18, 29) if t != ac["temp"]])
        return {**device_params(ac), "temp": temp, **person(world, rng)}

    def setup(self, it: Interaction, params: Params) -> None:
        text = f"我快到家了，帮我把{params['room']}空调调到{params['temp']}度吧，谢谢！"
        add_incoming(it, (params["phone"], params["person"]), text, ago=600, key="smarthome-ac")

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params["person"]
        return phrased(
            zh=[f"{p}发短信让我调空调，照做后回条短信告诉他好了",
                f"看看{p}的短信要把哪个房间空调调到几度，帮他调好并回复",
                f"按{p}短信里说的设置家里空调温度，然后短信回复一下"],
            en=[f"{p} texted me about the air conditioner: do what they ask, then reply by SMS",
                f"Read {p}'s SMS for which room's AC to set and to what, set it, and reply",
                f"Set the AC at home the way {p}'s text asks, then send them an SMS reply"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        before = diff.value_before(f"apps/{SMARTHOME}/devices[{params['device_id']}]")
        problems = device_changes(diff, params["device_id"], ac_changes(before, params["temp"]))
        return problems + check_one_sms(diff, params["phone"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_thread(ui, params["person"])
        yield from open_device(ui, params["device_id"])
        on = ui.text_of("device_status") != "已关闭"
        yield from set_temperature(ui, on, params["temp"])
        yield from reply_sms(ui, params["person"], f"已经调到{params['temp']}度了")


class OffFromWechat(TaskTemplate):
    """微信 → 智能家居: a family member forgot to switch a device off; switch it off and reply."""

    id = "smarthome.off_from_wechat"
    category = Category.CROSS_APP
    apps = (MESSENGER, SMARTHOME)
    difficulty = 21

    def sample(self, world: World, rng: random.Random) -> Params:
        device = pick(rng, [d for d in devices(world) if d["online"] and d["on"]
                            and d["kind"] in ("light", "plug", "ac", "camera")])  # fmt: skip
        return {**device_params(device), **any_friend(world, rng)}

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(MESSENGER)["messages"].append(
            {"id": "task-smarthome-off", "chat": private_chat_id(params["friend_id"]),
             "from": params["friend_id"], "kind": "text", "time": it.clock - 300,
             "text": f"出门忘了关{params['device']}，你帮我在手机上关一下吧"}
        )  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        f = params["friend"]
        return phrased(
            zh=[f"{f}在微信上让我关掉家里一个设备，帮我关掉并回复他",
                f"看下{f}的微信，把他说忘关的设备关了，再回个消息",
                f"照{f}微信里说的关掉那个设备，然后在微信里告诉他已经关了"],
            en=[f"{f} asked me on WeChat to turn off a device at home: turn it off and reply",
                f"Check {f}'s WeChat message, switch off the device they forgot, and answer them",
                f"Turn off the device {f} mentions on WeChat, then tell them there it's done"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        _, problems = sent_to_friend(diff, params)
        return problems + device_changes(diff, params["device_id"], {"on": False})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from open_device(ui, params["device_id"])
        yield ui.tap("power")
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from ui.type_into("input", f"{params['device']}已经关了")
        yield ui.tap("send")


class TripAutomation(TaskTemplate):
    """日历 → 智能家居: an automation at a trip's start time, on its weekday only."""

    id = "smarthome.trip_automation"
    category = Category.CROSS_APP
    apps = (CALENDAR, SMARTHOME)
    difficulty = 17
    event = "出差"

    def sample(self, world: World, rng: random.Random) -> Params:
        day = dt.date(2026, 3, 16) + dt.timedelta(days=rng.randrange(3, 12))
        device = pick(rng, [d for d in devices(world) if d["kind"] in ("ac", "light", "plug")])
        start = f"{rng.randrange(6, 10):02d}:{rng.choice((0, 20, 40)):02d}"
        city = rng.choice(("上海", "深圳", "成都", "西安"))
        return {**device_params(device), "date": day.isoformat(), "start": start,
                "weekday": day.weekday(), "city": city}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        it.app_data(CALENDAR)["events"].append(
            {"id": "evt-task-smarthome", "title": self.event, "date": params["date"],
             "start": params["start"], "end": "18:00", "location": params["city"],
             "reminder": 30, "notes": "出发去机场"}
        )  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        dz, de, dev = date_zh(params["date"]), date_en(params["date"]), params["device"]
        return phrased(
            zh=[f"看看日历里{dz}“{self.event}”几点出发，在智能家居建个自动化：那天是周几就每周几的这个时间关闭{dev}",
                f"按{dz}“{self.event}”日程的开始时间，新建自动化在每周同一天的这个时间关掉{dev}",
                f"{dz}要“{self.event}”：用这个日程开始的时间和星期几，设置自动关闭{dev}的自动化"],
            en=[f"Check when my '{self.event}' event on {de} starts and add an automation in "
                f"Smart Home turning off '{dev}' at that time, repeating on that weekday",
                f"Using the start time of the '{self.event}' event on {de}, create an automation "
                f"that turns off '{dev}' at that time on the same weekday each week",
                f"I'm on '{self.event}' on {de}: set an automation to switch off '{dev}' at the "
                "event's start time, on that weekday"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return new_automation(diff, time=params["start"], days=[params["weekday"]],
                              device=params["device_id"], op="off")  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_event(ui, params["date"], self.event)
        start = ui.text_of("event_time").split()[-3]
        weekday = dt.date.fromisoformat(params["date"]).weekday()
        yield from home_tab(ui, "autos")
        yield from add_automation(ui, start, [weekday], params["device_id"], "off")


class ShareWithContact(TaskTemplate):
    """联系人 → 智能家居: the home shared with a contact's number, with a role."""

    id = "smarthome.share_with_contact"
    category = Category.CROSS_APP
    apps = (CONTACTS, SMARTHOME)
    difficulty = 12

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**person(world, rng), "role": rng.choice(ROLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, role = params["person"], params["role"]
        return phrased(
            zh=[f"用通讯录里{p}的手机号，把家庭共享给他，角色选{role}",
                f"在联系人里查到{p}的号码，邀请他以{role}身份加入智能家居的家庭",
                f"把我的家共享给{p}（号码在联系人里），设为{role}"],
            en=[f"Share my home with {p} using their number from Contacts, as {role}",
                f"Look up {p}'s number in Contacts and invite them to the home as {role}",
                f"Invite {p} (number in Contacts) to my Smart Home home with the role {role}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return new_member(diff, params["phone"], params["role"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from invite_contact(ui, params["person"], params["role"])


def invite_contact(ui: OracleUI, name: str, role: str) -> Iterator[Action]:
    yield ui.open("联系人")
    yield from ui.scroll_to(text=name)
    yield ui.tap(text=name)
    phone = "".join(c for c in ui.text_of("phone_number") if c.isdigit())
    yield from home_tab(ui, "me")
    yield from ui.scroll_to("share_home")
    yield ui.tap("share_home")
    yield from ui.type_into("phone", phone)
    if role != ROLES[0]:
        yield ui.tap(f"role_{ROLES.index(role)}")
    yield ui.tap("invite")


class InviteAndText(TaskTemplate):
    """联系人 → 智能家居 → 信息: invite a contact, then text them to accept."""

    id = "smarthome.invite_and_text"
    category = Category.CROSS_APP
    apps = (CONTACTS, SMARTHOME, MESSAGES)
    difficulty = 18

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**person(world, rng), "role": rng.choice(ROLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p, role = params["person"], params["role"]
        return phrased(
            zh=[f"查到{p}的手机号，在智能家居里邀请他做{role}，再发短信提醒他接受邀请",
                f"把家庭共享给联系人{p}（{role}），然后短信告诉他去接受",
                f"邀请{p}以{role}身份加入我的家，并给他发条短信说一声"],
            en=[f"Find {p}'s number, invite them to my home in Smart Home as {role}, then text "
                "them to accept",
                f"Share the home with my contact {p} ({role}), then SMS them to go and accept it",
                f"Invite {p} to join my home as {role}, and send them an SMS about it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return new_member(diff, params["phone"], params["role"]) + check_one_sms(
            diff, params["phone"]
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from invite_contact(ui, params["person"], params["role"])
        yield from send_sms(ui, params["person"], "我在智能家居里邀请你加入我们的家，记得接受")


class LockTimeSms(TaskTemplate):
    """智能家居 → 信息: when a family member last opened the door, texted to someone."""

    id = "smarthome.lock_time_sms"
    category = Category.CROSS_APP
    apps = (SMARTHOME, MESSAGES)
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        log = world.content(SMARTHOME)["lock_log"]
        who = rng.choice(sorted({e["who"] for e in log}))
        entry = next(e for e in log if e["who"] == who)
        moment = dt.datetime.fromtimestamp(entry["time"], BEIJING)
        lock = next(d for d in devices(world) if d["kind"] == "lock")
        return {"who": who, "hour": moment.hour, "minute": moment.minute,
                "lock_id": lock["id"], **person(world, rng)}  # fmt: skip

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        who, p = params["who"], params["person"]
        return phrased(
            zh=[f"查一下门锁记录里{who}最近一次开锁是几点，短信告诉{p}",
                f"{p}想知道{who}上次几点开的门，看门锁开锁记录后发短信给他",
                f"把{who}最近一次开门的时间（看智能门锁记录）用短信发给{p}"],
            en=[f"Check the door lock log for when {who} last unlocked the door and text {p} the "
                "time",
                f"{p} wants to know what time {who} last opened the door: check the lock log "
                "and SMS them",
                f"Send {p} an SMS with the time {who} last unlocked the smart lock (see its log)"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        problems = check_one_sms(diff, params["phone"])
        if problems:
            return problems
        [(_, text)] = sent_messages(diff)
        return check_written(text, ClockTime(params["hour"], params["minute"]),
                             what="the SMS", context=self.question_texts(params))  # fmt: skip

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_device(ui, params["lock_id"])
        for i in range(16):
            yield from ui.scroll_to(f"log_{i}")
            shown = ui.texts_in(f"log_{i}")
            if any(t.startswith(params["who"] + "｜") for t in shown):
                time = shown[0].split()[-1]
                break
        yield from send_sms(ui, params["person"], f"{params['who']}最近一次开门是{time}")


class EnergyNote(TaskTemplate):
    """智能家居 → 备忘录: a device's week of kWh summed into a note."""

    id = "smarthome.energy_note"
    category = Category.CROSS_APP
    apps = (SMARTHOME, NOTES)
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        energy = world.content(SMARTHOME)["readings"]["energy"]
        device = pick(rng, [d for d in devices(world) if d["id"] in energy])
        return {**device_params(device), "total": week_kwh(world, device["id"])}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        dev, t = params["device"], ENERGY_NOTE
        return phrased(
            zh=[f"算出“{dev}”近7天的总用电量，记到新备忘录“{t}”里",
                f"把“{dev}”近7天每天的用电加起来，新建备忘录“{t}”写上结果",
                f"新建备忘录“{t}”，内容是“{dev}”过去7天一共用了多少度电"],
            en=[f"Work out the total kWh '{dev}' used over the last 7 days and put it in a new "
                f"note '{t}'",
                f"Add up the daily energy use of '{dev}' for the past 7 days and write the total "
                f"in a new note '{t}'",
                f"Create a note '{t}' saying how many kWh '{dev}' used in the last 7 days"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, ENERGY_NOTE)
        if note is not None:
            expected = Number(params["total"], unit="度")
            problems += check_written(note["body"], expected, what="the note",
                                      context=self.question_texts(params))  # fmt: skip
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_device(ui, params["device_id"])
        total = 0.0
        for day in range(7):
            yield from ui.scroll_to(f"energy_{day}")
            total += float(next(t for t in ui.texts_in(f"energy_{day}") if t.endswith("度"))[:-1])
        yield from write_note(ui, ENERGY_NOTE, f"{params['device']}近7天共用电{total:.1f}度")


CROSS_TEMPLATES: tuple[TaskTemplate, ...] = (
    AcFromSms(),
    OffFromWechat(),
    TripAutomation(),
    ShareWithContact(),
    InviteAndText(),
    LockTimeSms(),
    EnergyNote(),
)
