"""健康挂号: a hospital-registration mini-program. Departments and their doctors (title, fee,
weekly schedule) are seeded content; the next 7 days of the device clock show which sessions
have numbers left. Book a session for a patient (本人 or a family member; add one with a
checked 18-digit ID number), pay the fee in the wallet, see and cancel appointments."""

from __future__ import annotations

import random
import re
from typing import Any

from phonebuddy.phoneworld.apps.messenger.miniprograms.frame import (
    MiniPage,
    MiniProgram,
    MiniView,
    find,
    page,
)
from phonebuddy.phoneworld.apps.messenger.timeline import DAY, episode_start
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.ui import theme
from phonebuddy.phoneworld.ui.format import local_time, yuan
from phonebuddy.phoneworld.ui.widgets import (
    Button,
    Card,
    Chip,
    Column,
    ListItem,
    Row,
    Text,
    TextField,
    Wrap,
)

BRAND = (0, 122, 204)
WEEK = ("周一", "周二", "周三", "周四", "周五", "周六", "周日")
FRIDAY = 4
DEPARTMENTS = (
    "内科",
    "外科",
    "儿科",
    "妇产科",
    "眼科",
    "口腔科",
    "皮肤科",
    "骨科",
    "耳鼻喉科",
    "中医科",
)
TITLES = (("主任医师", 5000), ("副主任医师", 3000), ("主治医师", 1500))
SESSIONS = {"am": ("上午", "08:00-11:30"), "pm": ("下午", "13:30-17:00")}
SURNAMES = "王李张刘陈杨黄赵周吴徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾萧田董潘"
GIVEN = (
    "建国",
    "秀英",
    "志强",
    "丽华",
    "海涛",
    "春燕",
    "文斌",
    "晓红",
    "国平",
    "雪梅",
    "立新",
    "玉兰",
    "振华",
    "慧敏",
    "明辉",
    "桂芳",
    "德胜",
    "红梅",
    "永刚",
    "淑珍",
    "卫东",
    "小燕",
)
FAMILY = (("父亲", "国强"), ("母亲", "美玲"), ("配偶", "思雨"), ("子女", "子涵"))
RELATIONS = ("父亲", "母亲", "配偶", "子女", "其他")
PHONE = re.compile(r"^1[3-9]\d{9}$")
_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def id_check_digit(first17: str) -> str:
    return "10X98765432"[sum(int(c) * w for c, w in zip(first17, _WEIGHTS, strict=True)) % 11]


def valid_id_number(number: str) -> bool:
    """An 18-digit resident ID number whose last character is its checksum."""
    if not re.fullmatch(r"\d{17}[\dX]", number):
        return False
    return id_check_digit(number[:17]) == number[17]


def make_id_number(rng: random.Random, year: int) -> str:
    body = (
        f"330106{year}{rng.randrange(1, 13):02d}{rng.randrange(1, 29):02d}{rng.randrange(1000):03d}"
    )
    return body + id_check_digit(body)


def upcoming_days(clock: int) -> list[dict[str, Any]]:
    """The next 7 days after today: iso date, weekday (0 = Monday) and a label '3月20日 周五'."""
    days = []
    for i in range(1, 8):
        day = local_time(episode_start(clock) + i * DAY)
        days.append(
            {
                "iso": day.date().isoformat(),
                "weekday": day.weekday(),
                "label": f"{day.month}月{day.day}日 {WEEK[day.weekday()]}",
            }
        )
    return days


def day_of_week(clock: int, weekday: int) -> dict[str, Any]:
    return next(d for d in upcoming_days(clock) if d["weekday"] == weekday)


def slot_name(slot_id: str) -> str:
    """'4am' -> '周五上午'."""
    return WEEK[int(slot_id[0])] + SESSIONS[slot_id[1:]][0]


class Hospital(MiniProgram):
    name = "hospital"
    title = "健康挂号"
    description = "预约挂号，在线缴费"
    keywords = ("挂号", "医院", "预约挂号", "hospital")
    glyph = "医"
    color = BRAND

    def build_content(self, rng: random.Random) -> dict[str, Any]:
        names = rng.sample([s + g for s in SURNAMES for g in GIVEN], len(DEPARTMENTS) * 3)
        chief_full = set(rng.sample(range(len(DEPARTMENTS)), len(DEPARTMENTS) // 2))
        departments, doctors = [], []
        for d, dept in enumerate(DEPARTMENTS):
            departments.append({"id": f"dp{d + 1}", "name": dept})
            for t, (title, fee) in enumerate(TITLES):
                doc_id = f"dr{d + 1}{t + 1}"
                days = rng.sample([w for w in range(7) if w != FRIDAY], 2)
                slots = [
                    {"id": f"{w}{rng.choice('ap')}m", "left": rng.choice((0, *range(1, 13)))}
                    for w in days
                ]
                if t != 1:  # the chief and the attending always see patients on Friday
                    left = 0 if t == 0 and d in chief_full else rng.randrange(2, 12)
                    slots.append({"id": f"{FRIDAY}{rng.choice('ap')}m", "left": left})
                slots.sort(key=lambda s: s["id"])
                doctors.append(
                    {
                        "id": doc_id,
                        "dept": f"dp{d + 1}",
                        "name": names[d * 3 + t],
                        "title": title,
                        "fee_cents": fee,
                        "slots": slots,
                        "skill": f"擅长{dept}常见病、多发病的诊治",
                    }
                )
        owner = rng.choice(SURNAMES) + rng.choice(GIVEN)
        content = {"departments": departments, "doctors": doctors, "owner": owner}
        return {**content, "seed": self._seed(content, rng)}

    def initial_data(self, content: Any, rng: random.Random) -> dict[str, Any]:
        return {
            "patients": [dict(p) for p in content["seed"]["patients"]],
            "appointments": [dict(a) for a in content["seed"]["appointments"]],
        }

    def _seed(self, content: Any, rng: random.Random) -> dict[str, Any]:
        """The patients and appointments a fresh phone has."""
        surname = content["owner"][0]
        patients = [
            {
                "id": "pt-me",
                "name": content["owner"],
                "relation": "本人",
                "id_number": make_id_number(rng, rng.randrange(1975, 2000)),
                "phone": f"13{rng.randrange(10**9):09d}",
            }
        ]
        for i, (relation, given) in enumerate(rng.sample(FAMILY, 2)):
            patients.append(
                {
                    "id": f"pt-{i + 1}",
                    "name": surname + given,
                    "relation": relation,
                    "id_number": make_id_number(rng, rng.randrange(1950, 2015)),
                    "phone": f"13{rng.randrange(10**9):09d}",
                }
            )
        open_slots = [(d, s) for d in content["doctors"] for s in d["slots"] if s["left"] > 1]
        chosen = rng.sample(open_slots, 2)
        while chosen[0][0]["id"] == chosen[1][0]["id"]:
            chosen = rng.sample(open_slots, 2)
        appointments = []
        for i, (doctor, slot) in enumerate(chosen):
            appointments.append(
                {
                    "id": f"ap-{i + 1}",
                    "doctor": doctor["id"],
                    "slot": slot["id"],
                    "date": None,
                    "patient": patients[i]["id"],
                    "status": "booked",
                    "fee_cents": doctor["fee_cents"],
                    "number": 3 + i,
                }
            )
        return {"patients": patients, "appointments": appointments}

    # -- reading -------------------------------------------------------------------------------
    @staticmethod
    def left(content: Any, data: Any, doctor: Any, slot: Any) -> int:
        taken = sum(
            1
            for a in data["appointments"]
            if a["status"] != "cancelled"
            and a["doctor"] == doctor["id"]
            and a["slot"] == slot["id"]
            and a["date"] is not None
        )
        return max(0, int(slot["left"]) - taken)

    @staticmethod
    def date_of(appointment: Any, clock: int) -> str:
        return appointment["date"] or day_of_week(clock, int(appointment["slot"][0]))["iso"]

    def when(self, appointment: Any, clock: int) -> str:
        day = next(
            (d for d in upcoming_days(clock) if d["iso"] == self.date_of(appointment, clock)), None
        )
        label = day["label"] if day else self.date_of(appointment, clock)
        name, hours = SESSIONS[appointment["slot"][1:]]
        return f"{label} {name} {hours}"

    # -- handlers ------------------------------------------------------------------------------
    def open_slot(self, it: Interaction, doctor_id: str, slot_id: str) -> None:
        doctor = find(self.content(it)["doctors"], doctor_id)
        slot = find(doctor["slots"], slot_id)
        if self.left(self.content(it), self.data(it), doctor, slot) == 0:
            it.toast("该时段号源已约满，请选择其他时间")
            it.no_op("the session is full")
        self.push(it, "book", doctor=doctor_id, slot=slot_id)

    def submit_booking(self, it: Interaction, doctor_id: str, slot_id: str) -> None:
        content, data = self.content(it), self.data(it)
        doctor = find(content["doctors"], doctor_id)
        slot = find(doctor["slots"], slot_id)
        patient = it.ui("patient", "pt-me")
        if self.left(content, data, doctor, slot) == 0:
            it.toast("该时段号源已约满")
            it.no_op("the session is full")
        date = day_of_week(it.clock, int(slot_id[0]))["iso"]
        same = [
            a
            for a in data["appointments"]
            if a["status"] != "cancelled"
            and (a["doctor"], a["slot"], a["patient"]) == (doctor_id, slot_id, patient)
        ]
        if any(a["status"] == "booked" for a in same):
            it.toast("该就诊人已预约此时段")
            it.no_op("already booked")
        if same:  # an unpaid booking of this session: pay it now
            appointment = same[0]
        else:
            appointment = {
                "id": it.new_id("ap"),
                "doctor": doctor_id,
                "slot": slot_id,
                "date": date,
                "patient": patient,
                "status": "unpaid",
                "fee_cents": doctor["fee_cents"],
                "number": int(slot["left"]) - self.left(content, data, doctor, slot) + 1,
            }
            data["appointments"].insert(0, appointment)
        self.replace(it, "appointment", appointment=appointment["id"])
        self.pay_appointment(it, appointment["id"])

    def pay_appointment(self, it: Interaction, appointment_id: str) -> None:
        appointment = find(self.data(it)["appointments"], appointment_id)
        if appointment is None or appointment["status"] != "unpaid":
            it.no_op("nothing to pay")
        doctor = find(self.content(it)["doctors"], appointment["doctor"])
        self.pay(
            it,
            amount_cents=appointment["fee_cents"],
            reference=appointment_id,
            description=f"挂号费 {doctor['name']} {slot_name(appointment['slot'])}",
        )

    def on_payment_result(self, it: Interaction, reference: str, paid: bool) -> None:
        appointment = find(self.data(it)["appointments"], reference)
        if appointment is None:
            return
        if paid:
            appointment["status"] = "booked"
            it.toast("预约成功")
        else:
            it.toast("支付未完成，预约待支付")

    def cancel_appointment(self, it: Interaction, appointment_id: str) -> None:
        appointment = find(self.data(it)["appointments"], appointment_id)
        it.set_ui("dialog", None)
        if appointment is None or appointment["status"] == "cancelled":
            it.no_op("nothing to cancel")
        appointment["status"] = "cancelled"
        it.toast("已取消预约，挂号费将原路退回")

    def add_patient(self, it: Interaction) -> None:
        name = it.field("p_name").strip()
        number = it.field("p_id").strip().upper()
        phone = it.field("p_phone").strip()
        data = self.data(it)
        error = None
        if not name:
            error = "请填写就诊人姓名"
        elif not valid_id_number(number):
            error = "身份证号码不正确，请核对18位证件号"
        elif not PHONE.match(phone):
            error = "请填写11位手机号码"
        elif any(p["id_number"] == number for p in data["patients"]):
            error = "该就诊人已添加"
        if error:
            it.set_ui("error", error)
            it.toast(error)
            it.no_op(error)
        data["patients"].append(
            {
                "id": it.new_id("pt"),
                "name": name,
                "relation": it.ui("relation", "其他"),
                "id_number": number,
                "phone": phone,
            }
        )
        it.pop()
        it.toast("添加成功")

    # -- pages ---------------------------------------------------------------------------------
    def _doctor_row(self, v: MiniView, doctor: Any) -> ListItem:
        dept = find(v.content["departments"], doctor["dept"])
        free = any(self.left(v.content, v.data, doctor, s) for s in doctor["slots"])
        return ListItem(
            doctor["name"],
            subtitle=f"{dept['name']} · {doctor['title']} · 挂号费 {yuan(doctor['fee_cents'])}",
            trailing="有号" if free else "约满",
            leading=doctor["name"][0],
            leading_color=BRAND,
            on_tap=v.go("doctor", doctor=doctor["id"]),
            id=f"doctor_{doctor['id']}",
        )

    @page("home")
    def home(self, v: MiniView) -> MiniPage:
        query = v.field("query").strip()
        body: list[Any] = [
            Card(
                [
                    Text("浙一医院 · 预约挂号", size=46, bold=True, color=theme.WHITE),
                    Text("可预约未来7天号源，就诊当日请携带身份证", size=34, color=(210, 230, 250)),
                ],
                fill=BRAND,
            ),
            TextField("query", v.field("query"), "搜索科室或医生", on_focus=v.focus("query")),
            Row(
                [
                    Button(
                        "我的预约",
                        v.go("appointments"),
                        id="my_appointments",
                        style="secondary",
                        height=100,
                        size=36,
                    ),
                    Button(
                        "就诊人管理",
                        v.go("patients"),
                        id="patients",
                        style="secondary",
                        height=100,
                        size=36,
                    ),
                ]
            ),
        ]
        if query:
            doctors = [
                d
                for d in v.content["doctors"]
                if query in d["name"] or query in find(v.content["departments"], d["dept"])["name"]
            ]
            body += [self._doctor_row(v, d) for d in doctors] or [
                Text(
                    "没有找到相关科室或医生", color=theme.TEXT_SECONDARY, padding=30, id="no_result"
                )
            ]
        else:
            body.append(Text("选择科室", size=42, bold=True, padding=16))
            body += [
                ListItem(
                    d["name"],
                    trailing="›",
                    leading=d["name"][0],
                    leading_color=BRAND,
                    on_tap=v.go("department", department=d["id"]),
                    id=f"dept_{d['id']}",
                )
                for d in v.content["departments"]
            ]
        return MiniPage(body, padding=24, spacing=16)

    @page("department")
    def department(self, v: MiniView) -> MiniPage:
        dept = find(v.content["departments"], v.params["department"])
        rows = [self._doctor_row(v, d) for d in v.content["doctors"] if d["dept"] == dept["id"]]
        return MiniPage(
            [Text(f"{dept['name']} · 出诊医生", size=42, bold=True, padding=24), *rows],
            title=dept["name"],
        )

    @page("doctor")
    def doctor(self, v: MiniView) -> MiniPage:
        doctor = find(v.content["doctors"], v.params["doctor"])
        dept = find(v.content["departments"], doctor["dept"])
        rows: list[Any] = []
        for day in upcoming_days(v.clock):
            for slot in doctor["slots"]:
                if int(slot["id"][0]) != day["weekday"]:
                    continue
                left = self.left(v.content, v.data, doctor, slot)
                name, hours = SESSIONS[slot["id"][1:]]
                rows.append(
                    ListItem(
                        f"{day['label']} {name}",
                        subtitle=hours,
                        trailing=f"余{left}个号" if left else "已约满",
                        on_tap=v.do(self.open_slot, doctor["id"], slot["id"]),
                        id=f"slot_{slot['id']}",
                    )
                )
        body = [
            Card(
                [
                    Text(doctor["name"], size=56, bold=True, id="doctor_name"),
                    Text(f"{dept['name']} · {doctor['title']}", id="doctor_title"),
                    Text(f"挂号费 {yuan(doctor['fee_cents'])}", bold=True, id="doctor_fee"),
                    Text(doctor["skill"], color=theme.TEXT_SECONDARY),
                ]
            ),
            Text("未来7天出诊安排", size=42, bold=True, padding=16),
            *(rows or [Text("未来7天暂无出诊", color=theme.TEXT_SECONDARY, padding=30)]),
        ]
        return MiniPage(body, title="医生主页", padding=24, spacing=16)

    @page("book")
    def book(self, v: MiniView) -> MiniPage:
        doctor = find(v.content["doctors"], v.params["doctor"])
        slot_id = v.params["slot"]
        day = day_of_week(v.clock, int(slot_id[0]))
        chosen = v.ui("patient", "pt-me")
        chips = [
            Chip(
                f"{p['name']}（{p['relation']}）",
                v.set_ui("patient", p["id"]),
                selected=p["id"] == chosen,
                id=f"patient_{p['id']}",
            )
            for p in v.data["patients"]
        ]
        name, hours = SESSIONS[slot_id[1:]]
        body = [
            Card(
                [
                    Text(f"{doctor['name']} {doctor['title']}", size=46, bold=True),
                    Text(f"就诊时间  {day['label']} {name} {hours}", id="book_time"),
                    Text(f"挂号费  {yuan(doctor['fee_cents'])}", id="book_fee"),
                ]
            ),
            Text("选择就诊人", size=42, bold=True),
            Wrap(chips),
            Button("+ 添加就诊人", v.go("add_patient"), id="book_add_patient", style="text"),
        ]
        bottom = Column(
            [
                Button(
                    f"确认挂号并支付 {yuan(doctor['fee_cents'])}",
                    v.do(self.submit_booking, doctor["id"], slot_id),
                    id="submit_booking",
                )
            ],
            padding=20,
            fill=theme.SURFACE,
        )
        return MiniPage(body, bottom=bottom, title="确认挂号", padding=36, spacing=24)

    @page("appointment")
    def appointment(self, v: MiniView) -> MiniPage:
        appointment = find(v.data["appointments"], v.params["appointment"])
        doctor = find(v.content["doctors"], appointment["doctor"])
        dept = find(v.content["departments"], doctor["dept"])
        patient = find(v.data["patients"], appointment["patient"])
        status = {"unpaid": "待支付", "booked": "预约成功", "cancelled": "已取消"}
        body: list[Any] = [
            Text(
                status[appointment["status"]],
                size=60,
                bold=True,
                align="center",
                id="appointment_status",
            ),
            Card(
                [
                    Text(
                        f"{dept['name']} · {doctor['name']} {doctor['title']}",
                        size=44,
                        bold=True,
                        id="appointment_doctor",
                    ),
                    Text(f"就诊时间  {self.when(appointment, v.clock)}", id="appointment_time"),
                    Text(f"就诊人  {patient['name']}", id="appointment_patient"),
                    Text(f"就诊序号  {appointment['number']}号", id="appointment_number"),
                    Text(f"挂号费  {yuan(appointment['fee_cents'])}"),
                ]
            ),
        ]
        if appointment["status"] == "unpaid":
            body.append(
                Button(
                    "去支付", v.do(self.pay_appointment, appointment["id"]), id="pay_appointment"
                )
            )
        if appointment["status"] == "booked":
            body.append(
                Button(
                    "取消预约",
                    v.set_ui("dialog", "cancel"),
                    id="cancel_appointment",
                    style="danger",
                )
            )
        overlay = None
        if v.ui("dialog") == "cancel":
            overlay = v.confirm(
                "确定取消预约？",
                v.do(self.cancel_appointment, appointment["id"]),
                message="取消后号源将释放，挂号费原路退回",
                label="确定取消",
                confirm_id="confirm_cancel",
                danger=True,
                cancel_label="再想想",
            )
        return MiniPage(body, overlay=overlay, title="预约详情", padding=36, spacing=24)

    @page("appointments")
    def appointments(self, v: MiniView) -> MiniPage:
        status = {"unpaid": "待支付", "booked": "待就诊", "cancelled": "已取消"}
        rows = []
        for a in v.data["appointments"]:
            doctor = find(v.content["doctors"], a["doctor"])
            patient = find(v.data["patients"], a["patient"])
            rows.append(
                ListItem(
                    f"{doctor['name']} {doctor['title']}",
                    subtitle=f"{self.when(a, v.clock)} · {patient['name']}",
                    trailing=status[a["status"]],
                    on_tap=v.go("appointment", appointment=a["id"]),
                    id=f"appt_{a['id']}",
                )
            )
        return MiniPage(
            rows or [Text("暂无预约", color=theme.TEXT_SECONDARY, padding=40)], title="我的预约"
        )

    @page("patients")
    def patients(self, v: MiniView) -> MiniPage:
        rows = [
            ListItem(
                p["name"],
                subtitle=f"{p['relation']} · 身份证 {p['id_number'][:6]}****{p['id_number'][-4:]}",
                trailing=p["phone"],
                id=f"pat_{p['id']}",
            )
            for p in v.data["patients"]
        ]
        rows.append(
            Button("+ 添加就诊人", v.go("add_patient"), id="add_patient", style="secondary")
        )
        return MiniPage(rows, title="就诊人管理", padding=24, spacing=12)

    @page("add_patient")
    def add_patient_page(self, v: MiniView) -> MiniPage:
        relation = v.ui("relation", "其他")
        body = [
            Text("就诊人姓名", bold=True),
            TextField("p_name", v.field("p_name"), "请输入真实姓名", on_focus=v.focus("p_name")),
            Text("身份证号", bold=True),
            TextField("p_id", v.field("p_id"), "18位居民身份证号", on_focus=v.focus("p_id")),
            Text("手机号", bold=True),
            TextField("p_phone", v.field("p_phone"), "11位手机号", on_focus=v.focus("p_phone")),
            Text("与本人关系", bold=True),
            Wrap(
                [
                    Chip(r, v.set_ui("relation", r), selected=r == relation, id=f"relation_{i}")
                    for i, r in enumerate(RELATIONS)
                ]
            ),
            Text(v.ui("error") or "", color=theme.DANGER, id="patient_error"),
            Button("保存", v.do(self.add_patient), id="save_patient"),
        ]
        return MiniPage(body, title="添加就诊人", padding=36, spacing=20)
