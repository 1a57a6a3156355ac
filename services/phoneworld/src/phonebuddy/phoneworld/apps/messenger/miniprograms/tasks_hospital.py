"""Task templates of 健康挂号 (category mini_program): book and pay a session, a conditional
booking, add a patient, cancel, count the numbers left, and the appointment's date carried
into Notes or a WeChat chat."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import find
from phonebuddy.phoneworld.apps.messenger.miniprograms.hospital import (
    FAMILY,
    FRIDAY,
    GIVEN,
    RELATIONS,
    day_of_week,
    make_id_number,
    slot_name,
)
from phonebuddy.phoneworld.apps.messenger.steps import (
    MESSAGES,
    MESSENGER,
    NOTES,
    PAY_CONFIRM,
    MessengerTemplate,
    content,
    mini,
    open_mini,
    open_private_chat,
)
from phonebuddy.phoneworld.tasks.answers import Date, Expectation, Number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased
from phonebuddy.phoneworld.tasks.cross_app.steps import (
    friend_with_chat,
    mobile_number,
    sent_to_friend,
)
from phonebuddy.phoneworld.tasks.diff import StateDiff, expect_changes, one_added
from phonebuddy.phoneworld.tasks.expect import NOTES_LIST, WritesValue, one_new_note
from phonebuddy.phoneworld.tasks.oracle import OracleUI
from phonebuddy.phoneworld.tasks.payments import wallet_payment_problems
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction

WALLET = "com.pw.wallet"
PAYING = (MESSENGER, WALLET)
APPOINTMENTS = mini("hospital", "appointments")
NOTE_TITLES = ("看病", "挂号提醒", "就诊时间")


def _hospital(world: World) -> Any:
    return content(world)["mini"]["hospital"]


def _doctor_params(world: World, doctor: Any, slot_id: str) -> Params:
    dept = find(_hospital(world)["departments"], doctor["dept"])
    return {
        "doctor": str(doctor["id"]),
        "doctor_name": str(doctor["name"]),
        "title": str(doctor["title"]),
        "dept": str(doctor["dept"]),
        "dept_name": str(dept["name"]),
        "slot": slot_id,
        "when": slot_name(slot_id),
        "when_en": f"{('Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun')[int(slot_id[0])]} "
        f"{'morning' if slot_id.endswith('am') else 'afternoon'}",
        "fee_cents": int(doctor["fee_cents"]),
    }


def _open_slots(world: World) -> list[tuple[Any, str]]:
    return [(d, s["id"]) for d in _hospital(world)["doctors"] for s in d["slots"] if s["left"] > 1]


def check_booking(diff: StateDiff, params: Params, patient: str | None = None) -> list[str]:
    """One new appointment with the doctor for the session on its date in the coming week,
    for `patient` where given, paid exactly in the wallet."""
    appointment, problems = one_added(diff, APPOINTMENTS, "appointment")
    if appointment is None:
        return problems
    if (appointment["doctor"], appointment["slot"]) != (params["doctor"], params["slot"]):
        problems.append(
            f"booked {appointment['doctor']} {appointment['slot']}, expected "
            f"{params['doctor']} {params['slot']}"
        )
    date = day_of_week(diff.before["os"]["clock"], int(params["slot"][0]))["iso"]
    if appointment["date"] != date:
        problems.append(f"booked for {appointment['date']}, expected {date}")
    if patient is not None and appointment["patient"] != patient:
        problems.append(f"booked for patient {appointment['patient']}, expected {patient}")
    if appointment["status"] != "booked":
        return [*problems, f"the appointment is {appointment['status']}, not paid"]
    if appointment["fee_cents"] != params["fee_cents"]:
        problems.append(f"the fee is {appointment['fee_cents']} cents, not {params['fee_cents']}")
    return problems + wallet_payment_problems(
        diff, amount_cents=params["fee_cents"], reference=f"hospital:{appointment['id']}"
    )


def open_doctor(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from open_mini(ui, "hospital")
    yield from ui.scroll_to(f"dept_{params['dept']}")
    yield ui.tap(f"dept_{params['dept']}")
    yield ui.tap(f"doctor_{params['doctor']}")


def book_slot(ui: OracleUI, params: Params, patient_text: str | None) -> Iterator[Action]:
    """On the doctor's page: the session, the patient (by the chip's text), submit and pay."""
    yield from ui.scroll_to(f"slot_{params['slot']}")
    yield ui.tap(f"slot_{params['slot']}")
    if patient_text is not None:
        yield from ui.scroll_to(text=patient_text)
        yield ui.tap(text=patient_text)
    yield ui.tap("submit_booking")
    yield ui.tap(PAY_CONFIRM)


class HospitalBook(MessengerTemplate):
    id = "messenger.mini_hospital.book"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        doctor, slot = rng.choice(_open_slots(world))
        patient = rng.choice(list(_hospital(world)["seed"]["patients"]))
        return {
            **_doctor_params(world, doctor, slot),
            "patient": str(patient["id"]),
            "patient_name": str(patient["name"]),
            "relation": str(patient["relation"]),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        dept, name, title, when, who = (p["dept_name"], p["doctor_name"], p["title"], p["when"],
                                         p["patient_name"])  # fmt: skip
        en_when = p["when_en"]
        return phrased(
            zh=[f"用微信「健康挂号」小程序挂{dept}{name}{title}{when}的号，就诊人选{who}，并支付挂号费",
                f"帮{who}在微信「健康挂号」小程序预约{dept}{name}医生（{title}）{when}的号，付好挂号费",
                f"在微信「健康挂号」里给{who}挂一个{when}{dept}{name}的号，记得把挂号费付了"],
            en=[f"In the 健康挂号 mini-program in WeChat, book {dept} doctor {name} ({title}) for "
                f"{en_when} ({when}) with patient {who}, and pay the fee",
                f"Book {who} an appointment with {name} ({title}, {dept}) on {en_when} ({when}) "
                "in WeChat's 健康挂号 mini-program and pay the registration fee",
                f"Use WeChat's 健康挂号 to register {who} with {dept} doctor {name} for {en_when} "
                f"({when}); pay the fee too"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_booking(diff, params, params["patient"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_doctor(ui, params)
        yield from book_slot(ui, params, f"{params['patient_name']}（{params['relation']}）")


class HospitalFridayOrAttending(MessengerTemplate):
    """Conditional: the chief physician on Friday if he has numbers left, else the attending."""

    id = "messenger.mini_hospital.friday_conditional"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 14

    def sample(self, world: World, rng: random.Random) -> Params:
        dept = rng.choice(list(_hospital(world)["departments"]))
        doctors = [d for d in _hospital(world)["doctors"] if d["dept"] == dept["id"]]
        chief, attending = doctors[0], doctors[2]
        chief_slot = next(s for s in chief["slots"] if s["id"][0] == str(FRIDAY))
        attending_slot = next(s for s in attending["slots"] if s["id"][0] == str(FRIDAY))
        chosen = (chief, chief_slot) if chief_slot["left"] else (attending, attending_slot)
        return {
            **_doctor_params(world, chosen[0], chosen[1]["id"]),
            "chief_name": str(chief["name"]),
            "attending_name": str(attending["name"]),
            "chief_free": bool(chief_slot["left"]),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        dept, chief, other = params["dept_name"], params["chief_name"], params["attending_name"]
        return phrased(
            zh=[f"在微信「健康挂号」小程序看看{dept}主任医师{chief}这周五还有没有号：有的话挂他的号；"
                f"没有的话就挂主治医师{other}周五的号。就诊人选本人，并支付挂号费",
                f"用微信「健康挂号」给我挂{dept}的号：如果{chief}主任周五有号就挂他，否则挂{other}医生"
                "周五的号，挂号费付掉",
                f"想周五看{dept}：{chief}主任医师有号就约他，约满了就约主治医师{other}。用微信「健康挂号」"
                "小程序挂本人的号并付款"],
            en=[f"In the 健康挂号 mini-program in WeChat, check whether {dept} chief physician "
                f"{chief} has numbers left this Friday: if so book him, otherwise book attending "
                f"doctor {other} on Friday. The patient is me; pay the fee",
                f"Book me a {dept} appointment in WeChat's 健康挂号: {chief} on Friday if he has "
                f"a slot left, else {other} on Friday; pay the registration fee",
                f"I want to see {dept} on Friday: book chief physician {chief} if he still has "
                f"numbers, or attending doctor {other} if he is full. Use the 健康挂号 "
                "mini-program in WeChat, patient me, and pay"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_booking(diff, params, "pt-me")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "hospital")
        yield from ui.scroll_to(f"dept_{params['dept']}")
        yield ui.tap(f"dept_{params['dept']}")
        chief = f"dr{params['dept'][2:]}1"
        yield ui.tap(f"doctor_{chief}")
        rows = [n for n in ui.find_all() if n.resource_id.rpartition(":id/")[2].startswith("slot_")]
        friday = next(r for r in rows if r.resource_id.rpartition("slot_")[2][0] == str(FRIDAY))
        if "已约满" in [c.text for c in friday.children]:
            yield ui.back()
            yield ui.tap(f"doctor_{params['doctor']}")
        yield from book_slot(ui, params, None)


class HospitalAddPatient(MessengerTemplate):
    id = "messenger.mini_hospital.add_patient"
    category = Category.MINI_PROGRAM
    difficulty = 17

    def sample(self, world: World, rng: random.Random) -> Params:
        owner = _hospital(world)["owner"]
        taken = {p["name"] for p in _hospital(world)["seed"]["patients"]}
        relation, given = rng.choice(FAMILY)
        name = owner[0] + given
        if name in taken:
            name = owner[0] + rng.choice([g for g in GIVEN if owner[0] + g not in taken])
        return {
            "name": name,
            "relation": relation,
            "id_number": make_id_number(rng, rng.randrange(1950, 2015)),
            "phone": mobile_number(rng),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, rel, number, phone = (params["name"], params["relation"], params["id_number"],
                                    params["phone"])  # fmt: skip
        return phrased(
            zh=[f"在微信「健康挂号」小程序添加就诊人：{name}，关系{rel}，身份证号{number}，手机号{phone}",
                f"把{rel}{name}加为微信「健康挂号」的就诊人，身份证{number}，电话{phone}",
                f"帮我在微信「健康挂号」的就诊人管理里新增{name}（{rel}），证件号{number}，手机{phone}"],
            en=[f"Add a patient in the 健康挂号 mini-program in WeChat: {name}, relation {rel}, ID "
                f"number {number}, phone {phone}",
                f"Add my {rel} {name} as a patient in WeChat's 健康挂号, ID {number}, phone "
                f"{phone}",
                f"In 健康挂号 (WeChat mini-program) patient management, add {name} ({rel}) with ID "
                f"number {number} and mobile {phone}"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        patient, problems = one_added(diff, mini("hospital", "patients"), "patient")
        if patient is None:
            return problems
        for key in ("name", "relation", "id_number", "phone"):
            if patient[key] != params[key]:
                problems.append(f"the patient's {key} is {patient[key]!r}, not {params[key]!r}")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "hospital")
        yield ui.tap("patients")
        yield from ui.scroll_to("add_patient")
        yield ui.tap("add_patient")
        yield from fill_patient(ui, params)


def fill_patient(ui: OracleUI, params: Params) -> Iterator[Action]:
    yield from ui.type_into("p_name", params["name"])
    yield from ui.type_into("p_id", params["id_number"])
    yield from ui.type_into("p_phone", params["phone"])
    relation = f"relation_{RELATIONS.index(params['relation'])}"
    yield from ui.scroll_to(relation)
    yield ui.tap(relation)
    yield from ui.scroll_to("save_patient")
    yield ui.tap("save_patient")


def _seeded_appointment(world: World, rng: random.Random) -> Params:
    appointment = rng.choice(list(_hospital(world)["seed"]["appointments"]))
    doctor = find(_hospital(world)["doctors"], appointment["doctor"])
    return {
        "appointment": str(appointment["id"]),
        "doctor_name": str(doctor["name"]),
        "weekday": int(appointment["slot"][0]),
    }


class HospitalCancel(MessengerTemplate):
    id = "messenger.mini_hospital.cancel"
    category = Category.MINI_PROGRAM
    difficulty = 11

    def sample(self, world: World, rng: random.Random) -> Params:
        return _seeded_appointment(world, rng)

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["doctor_name"]
        return phrased(
            zh=[f"在微信「健康挂号」小程序取消我预约的{name}医生的号",
                f"{name}医生的号去不了了，帮我在微信「健康挂号」里取消预约",
                f"用微信「健康挂号」小程序把{name}那个预约取消掉"],
            en=[f"Cancel my appointment with doctor {name} in the 健康挂号 mini-program in WeChat",
                f"I can't make it to doctor {name}: cancel that booking in WeChat's 健康挂号",
                f"Use the 健康挂号 mini-program in WeChat to cancel the appointment with {name}"],
        )  # fmt: skip

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        path = f"{APPOINTMENTS}[{params['appointment']}]/status"
        return expect_changes(diff, APPOINTMENTS, {path: "cancelled"})

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_appointment(ui, params["appointment"])
        yield ui.tap("cancel_appointment")
        yield ui.tap("confirm_cancel")


def write_new_note(ui: OracleUI, title: str, body: str) -> Iterator[Action]:
    """Open 备忘录 and save a new note with this title and body (typed, as read on screen)."""
    yield ui.open("备忘录")
    yield ui.tap("new_note")
    yield from ui.type_into("title", title)
    yield from ui.type_into("body", body)
    yield ui.tap("save")


def open_appointment(ui: OracleUI, appointment: str) -> Iterator[Action]:
    yield from open_mini(ui, "hospital")
    yield ui.tap("my_appointments")
    yield ui.tap(f"appt_{appointment}")


class HospitalNumbersLeft(MessengerTemplate):
    """QA with aggregation: the numbers left over all of a doctor's sessions this week."""

    id = "messenger.mini_hospital.numbers_left"
    category = Category.MINI_PROGRAM
    difficulty = 10
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        doctors = [
            d for d in _hospital(world)["doctors"] if sum(s["left"] > 0 for s in d["slots"]) > 1
        ]
        doctor = rng.choice(doctors)
        return {
            **_doctor_params(world, doctor, doctor["slots"][0]["id"]),
            "total": sum(int(s["left"]) for s in doctor["slots"]),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        dept, name = params["dept_name"], params["doctor_name"]
        return phrased(
            zh=[f"微信「健康挂号」小程序里，{dept}{name}医生未来7天一共还剩多少个号？",
                f"用微信「健康挂号」查一下{dept}的{name}接下来7天所有出诊加起来还有几个号",
                f"{dept}{name}医生未来7天总共还能挂多少个号？在微信「健康挂号」里看看"],
            en=[f"In the 健康挂号 mini-program in WeChat, how many numbers does {dept} doctor "
                f"{name} have left in total over the next 7 days?",
                f"Check WeChat's 健康挂号: adding up all of {name}'s ({dept}) sessions in the next "
                "7 days, how many numbers are left?",
                f"How many appointments can still be booked with {dept} doctor {name} over the "
                "next 7 days in total? Look in 健康挂号 in WeChat"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return Number(params["total"])

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return self.answer_problems(diff, params, answer)

    def wrong_answer(self, params: Params) -> str:
        return f"{params['total'] + 1}个"

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_doctor(ui, params)
        total = 0
        for node in ui.find_all():
            if node.resource_id.rpartition(":id/")[2].startswith("slot_"):
                yield from ui.scroll_to(node.resource_id.rpartition(":id/")[2])
                for child in node.children:
                    if child.text.startswith("余"):
                        total += int(child.text[1:].removesuffix("个号"))
        yield Answer(text=f"一共还剩{total}个号")


class HospitalDateToNote(MessengerTemplate, WritesValue):
    """Messenger → Notes: the date of an appointment copied into a new note."""

    id = "messenger.mini_hospital.date_to_note"
    category = Category.MINI_PROGRAM
    apps = (MESSENGER, NOTES)
    difficulty = 16
    written = f"{NOTES_LIST}[*]/body"

    def sample(self, world: World, rng: random.Random) -> Params:
        return {**_seeded_appointment(world, rng), "title": rng.choice(NOTE_TITLES)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name, title = params["doctor_name"], params["title"]
        return phrased(
            zh=[f"查一下微信「健康挂号」里我预约的{name}医生的就诊时间，记到一条标题为“{title}”的新备忘录里",
                f"新建备忘录“{title}”，内容写上微信「健康挂号」中{name}医生那个预约的就诊日期",
                f"把我在微信「健康挂号」挂的{name}的号是哪天，存进备忘录，标题叫“{title}”"],
            en=[f"Look up when my appointment with doctor {name} is in WeChat's 健康挂号 and put "
                f"it in a new note titled '{title}'",
                f"Create a note '{title}' holding the date of my appointment with {name} from the "
                "健康挂号 mini-program in WeChat",
                f"Save the day of my {name} appointment (健康挂号 in WeChat) in Notes, in a note "
                f"named '{title}'"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        iso = day_of_week(diff.before["os"]["clock"], params["weekday"])["iso"]
        return Date(int(iso[5:7]), int(iso[8:]))

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        note, problems = one_new_note(diff, params["title"])
        if note is None:
            return problems
        return problems + self.writing_problems(diff, params, note["body"], what="the note")

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_appointment(ui, params["appointment"])
        when = ui.text_of("appointment_time").removeprefix("就诊时间").strip()
        yield from write_new_note(ui, params["title"], when)


class HospitalFamilyBooking(MessengerTemplate, WritesValue):
    """Long horizon: add a family member as a patient, book and pay a session for them, then
    send the appointment's date to a WeChat friend."""

    id = "messenger.mini_hospital.family_booking"
    category = Category.MINI_PROGRAM
    apps = PAYING
    difficulty = 38
    written = f"{MESSAGES}[*]/text"

    def sample(self, world: World, rng: random.Random) -> Params:
        doctor, slot = rng.choice(_open_slots(world))
        return {
            **HospitalAddPatient().sample(world, rng),
            **_doctor_params(world, doctor, slot),
            **friend_with_chat(world, rng),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        p = params
        name, rel, number, phone = p["name"], p["relation"], p["id_number"], p["phone"]
        dept, doctor, when, friend = p["dept_name"], p["doctor_name"], p["when"], p["friend"]
        en_when = p["when_en"]
        return phrased(
            zh=[f"在微信「健康挂号」小程序先添加就诊人{name}（{rel}，身份证号{number}，手机{phone}），"
                f"再给{name}挂{dept}{doctor}医生{when}的号并支付挂号费，最后把就诊日期用微信发给{friend}",
                f"帮{rel}{name}挂号：在微信「健康挂号」添加就诊人（身份证{number}，电话{phone}），预约"
                f"{dept}{doctor}{when}并付款，然后微信告诉{friend}是哪天看病",
                f"用微信「健康挂号」新增就诊人{name}，关系{rel}，证件号{number}，手机号{phone}；给他/她约"
                f"{when}{dept}{doctor}医生的号，付好挂号费，再把就诊日期发微信给{friend}"],
            en=[f"In WeChat's 健康挂号 mini-program, first add the patient {name} ({rel}, ID "
                f"number {number}, phone {phone}), then book {dept} doctor {doctor} on {en_when} "
                f"({when}) for {name} and pay; finally send {friend} the appointment date on "
                "WeChat",
                f"Register my {rel} {name}: add them as a patient in 健康挂号 in WeChat (ID "
                f"{number}, phone {phone}), book {doctor} ({dept}) for {en_when} ({when}), pay, "
                f"then tell {friend} on WeChat which day it is",
                f"Use WeChat's 健康挂号 to add patient {name}, relation {rel}, ID {number}, mobile "
                f"{phone}; book them with {dept} doctor {doctor} on {en_when} ({when}) and pay the "
                f"fee, then WeChat {friend} the date of the appointment"],
        )  # fmt: skip

    def expected_writing(self, diff: StateDiff, params: Params) -> Expectation:
        iso = day_of_week(diff.before["os"]["clock"], int(params["slot"][0]))["iso"]
        return Date(int(iso[5:7]), int(iso[8:]))

    def check(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        added = diff.added(mini("hospital", "patients"))
        problems = HospitalAddPatient().check(diff, params, None)
        patient = added[0]["id"] if len(added) == 1 else None
        problems += check_booking(diff, params, patient)
        texts, sent = sent_to_friend(diff, params)
        problems += sent
        if texts:
            problems += self.writing_problems(diff, params, "\n".join(texts), what="the message")
        return problems

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_mini(ui, "hospital")
        yield ui.tap("patients")
        yield from ui.scroll_to("add_patient")
        yield ui.tap("add_patient")
        yield from fill_patient(ui, params)
        yield ui.back()
        yield from ui.scroll_to(f"dept_{params['dept']}")
        yield ui.tap(f"dept_{params['dept']}")
        yield ui.tap(f"doctor_{params['doctor']}")
        yield from book_slot(ui, params, f"{params['name']}（{params['relation']}）")
        when = ui.text_of("appointment_time").removeprefix("就诊时间").strip()
        yield from open_private_chat(ui, params["friend"], params["friend_id"])
        yield from ui.type_into("input", f"{params['name']}的就诊时间：{when}")
        yield ui.tap("send")


TEMPLATES: tuple[TaskTemplate, ...] = (
    HospitalBook(),
    HospitalFridayOrAttending(),
    HospitalAddPatient(),
    HospitalCancel(),
    HospitalNumbersLeft(),
    HospitalDateToNote(),
    HospitalFamilyBooking(),
)
