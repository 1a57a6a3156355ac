"""Task templates of the Contacts app."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

from phonebuddy.phoneworld.apps.contacts.app import (
    COMPANIES,
    CONTACTS,
    GIVEN,
    GROUPS,
    SURNAMES,
    format_phone,
    pinyin,
)
from phonebuddy.phoneworld.apps.phone.app import unknown_mobile
from phonebuddy.phoneworld.interaction import Interaction
from phonebuddy.phoneworld.tasks.answers import Expectation, Number, Text, phone_number
from phonebuddy.phoneworld.tasks.base import Params, TaskTemplate, phrased, pick
from phonebuddy.phoneworld.tasks.diff import StateDiff
from phonebuddy.phoneworld.tasks.oracle import OracleError, OracleUI
from phonebuddy.phoneworld.world import World
from phonebuddy.protocol import Action, Answer, Category, Instruction, Type

CONTACTS_LIST = f"apps/{CONTACTS}/contacts"
# Companies a task may give a contact: the address book's and more.
TASK_COMPANIES = (
    *COMPANIES,
    "拼多多", "快手", "比亚迪", "蔚来汽车", "宁德时代", "中国银行", "工商银行", "平安保险",
    "国家电网", "中石化", "海尔集团", "格力电器", "联想集团", "携程旅行", "滴滴出行", "大疆创新",
    "中国联通", "中国电信", "好未来", "北京大学", "复旦大学", "瑞金医院", "安踏体育", "蒙牛乳业",
    "伊利集团", "农夫山泉", "海康威视", "三一重工", "中国建筑", "南方航空", "东方航空", "中国平安",
    "交通银行", "建设银行", "农业银行", "浙江大学", "同济大学", "华西医院", "唯品会", "贝壳找房",
)  # fmt: skip
NEW_COMPANIES = ("顺丰速运", "万科物业", "链家地产", "海底捞", "招商银行", "美团")


def _roster(world: World) -> list[dict[str, Any]]:
    return [dict(c) for c in world.content(CONTACTS)["roster"]]


def _new_name(world: World, rng: random.Random) -> str:
    """A name nobody in the roster has."""
    taken = {c["name"] for c in _roster(world)}
    while True:
        name = rng.choice(SURNAMES)[0] + "".join(c for c, _ in rng.sample(GIVEN, k=2))
        if name not in taken:
            return name


def _person(world: World, rng: random.Random, **wanted: Any) -> dict[str, Any]:
    """A roster contact whose fields have the `wanted` values (or pass the predicates)."""
    pool = [
        c
        for c in _roster(world)
        if all(v(c[k]) if callable(v) else c[k] == v for k, v in wanted.items())
    ]
    return dict(pick(rng, pool))


def check_new_contact(diff: StateDiff, **expected: str) -> list[str]:
    """Exactly one contact was added, with the expected fields and nothing else filled in."""
    added = diff.added(CONTACTS_LIST)
    if len(added) != 1:
        return [f"expected one new contact, found {len(added)}"]
    contact = added[0]
    wanted = {
        "email": "",
        "company": "",
        "birthday": "",
        "group": "",
        "favorite": False,
        **expected,
    }
    return [
        f"the new contact's {key} is {contact.get(key)!r}, expected {value!r}"
        for key, value in wanted.items()
        if contact.get(key) != value
    ]


def check_contact_change(diff: StateDiff, contact_id: str, field: str, value: Any) -> list[str]:
    """The only change to the address book: `field` of one contact became `value`."""
    changes = diff.touched(CONTACTS_LIST)
    target = f"{CONTACTS_LIST}[{contact_id}]/{field}"
    if [c.path for c in changes] != [target]:
        return [f"expected only {target} to change, found {[c.describe() for c in changes]}"]
    if changes[0].after != value:
        return [f"{field} became {changes[0].after!r}, expected {value!r}"]
    return []


def open_contact(ui: OracleUI, name: str) -> Iterator[Action]:
    yield ui.open("联系人")
    yield from ui.scroll_to(text=name)
    yield ui.tap(text=name)


def search_contact(ui: OracleUI, contact_id: str, query: str) -> Iterator[Action]:
    yield ui.open("联系人")
    yield from ui.type_into("search", query)
    yield ui.tap(f"contact_{contact_id}")


class ContactsTemplate(TaskTemplate):
    """A template of the Contacts app alone."""

    category = Category.SINGLE_APP
    apps = (CONTACTS,)


class AddContact(ContactsTemplate):
    id = "contacts.add"
    difficulty = 6

    def sample(self, world: World, rng: random.Random) -> Params:
        return {"name": _new_name(world, rng), "phone": unknown_mobile(rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shown, name = format_phone(params["phone"]), params["name"]
        return phrased(
            zh=[f"新建联系人“{name}”，手机号码 {shown}",
                f"帮我把“{name}”存进通讯录，号码是 {shown}",
                f"{shown} 是“{name}”的手机号，存成新联系人"],
            en=[f"Add a contact '{name}' with the number {shown}",
                f"Please save '{name}' to my contacts, number {shown}",
                f"The number {shown} belongs to '{name}'; save it as a new contact"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_contact(diff, name=params["name"], phone=params["phone"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("联系人")
        yield ui.tap("new_contact")
        yield from ui.type_into("name", params["name"])
        yield from ui.type_into("phone", params["phone"])
        yield ui.tap("save")


class AddContactWithDetails(ContactsTemplate):
    id = "contacts.add_with_details"
    difficulty = 10

    def sample(self, world: World, rng: random.Random) -> Params:
        return {
            "name": _new_name(world, rng),
            "phone": unknown_mobile(rng),
            "company": rng.choice(NEW_COMPANIES),
            "group": rng.choice(GROUPS),
        }

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shown = format_phone(params["phone"])
        name, company, group = params["name"], params["company"], params["group"]
        return phrased(
            zh=[f"新建联系人“{name}”：手机 {shown}，公司“{company}”，放到“{group}”群组",
                f"帮我存个联系人“{name}”，号码 {shown}，在“{company}”上班，分到“{group}”组里",
                f"通讯录里加一位“{group}”群组的联系人：“{name}”，“{company}”的，手机 {shown}"],
            en=[f"Add a contact '{name}': number {shown}, company '{company}', in the group "
                f"'{group}'",
                f"Please save a new contact '{name}' who works at '{company}', number {shown}, "
                f"and put them in the '{group}' group",
                f"I need a new contact in the group '{group}': '{name}' from '{company}', "
                f"phone {shown}"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_new_contact(
            diff,
            name=params["name"],
            phone=params["phone"],
            company=params["company"],
            group=params["group"],
        )

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("联系人")
        yield ui.tap("new_contact")
        yield from ui.type_into("name", params["name"])
        yield from ui.type_into("phone", format_phone(params["phone"]))
        yield from ui.type_into("company", params["company"])
        yield ui.back()  # hide the keyboard
        yield ui.tap(text=params["group"])
        yield ui.tap("save")


class EditPhone(ContactsTemplate):
    id = "contacts.edit_phone"
    difficulty = 8

    def sample(self, world: World, rng: random.Random) -> Params:
        person = _person(world, rng)
        return {"id": person["id"], "name": person["name"], "phone": unknown_mobile(rng)}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        shown, name = format_phone(params["phone"]), params["name"]
        return phrased(
            zh=[f"{name}换了新号码，把{name}的手机号改成 {shown}",
                f"通讯录里{name}的号码更新一下，新号是 {shown}",
                f"帮我把{name}的电话改为 {shown}，这是新号"],
            en=[f"{name} has a new number: change it to {shown}",
                f"Update {name}'s phone number in Contacts to {shown}",
                f"Please change {name}'s number to {shown}, their new one"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_contact_change(diff, params["id"], "phone", params["phone"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from search_contact(ui, params["id"], params["name"])
        yield ui.tap("edit")
        yield ui.tap("clear_phone")
        yield Type(text=params["phone"])
        yield ui.tap("save_top")


class DeleteContact(ContactsTemplate):
    id = "contacts.delete"
    difficulty = 9

    def sample(self, world: World, rng: random.Random) -> Params:
        person = _person(world, rng)
        return {"id": person["id"], "name": person["name"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"从通讯录里删除联系人“{name}”", f"帮我把“{name}”这个联系人删掉",
                f"联系人“{name}”不用留了，删除吧"],
            en=[f"Delete the contact '{name}'", f"Please remove '{name}' from my contacts",
                f"I don't need the contact '{name}' anymore; delete it"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        removed = [c["name"] for c in diff.removed(CONTACTS_LIST)]
        if removed != [params["name"]]:
            return [f"deleted {removed}, expected only {params['name']!r}"]
        return []

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_contact(ui, params["name"])
        yield ui.tap("delete")
        yield ui.tap("confirm_delete")


class Favourite(ContactsTemplate):
    id = "contacts.favorite"
    difficulty = 7

    def sample(self, world: World, rng: random.Random) -> Params:
        person = _person(world, rng, favorite=False)
        return {"id": person["id"], "name": person["name"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"把{name}加入收藏联系人", f"帮我收藏联系人{name}", f"在通讯录里把{name}设为收藏"],
            en=[f"Add {name} to the favourite contacts", f"Please make {name} a favourite contact",
                f"In Contacts, mark {name} as a favourite"],
        )  # fmt: skip

    def verify(self, diff: StateDiff, params: Params, answer: str | None) -> list[str]:
        return check_contact_change(diff, params["id"], "favorite", True)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_contact(ui, params["name"])
        yield ui.tap("favorite")


class PhoneOf(ContactsTemplate):
    id = "contacts.phone_of"
    difficulty = 4
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        person, other = (dict(p) for p in pick(rng, _roster(world), 2))
        return {"name": person["name"], "phone": person["phone"], "other_phone": other["phone"]}

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"{name}的手机号码是多少？", f"帮我查一下{name}的电话号码",
                f"我要联系{name}，号码是多少？"],
            en=[f"What is {name}'s phone number?", f"Look up {name}'s number for me",
                f"I need to reach {name}: what's their phone number?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        return phone_number(params["phone"])

    def wrong_answer(self, params: Params) -> str:
        return format_phone(params["other_phone"])

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield from open_contact(ui, params["name"])
        node = ui.find("phone_number")
        yield Answer(text=node.text if node else "")


class CompanyOf(ContactsTemplate):
    """The company of one contact (this task's own: a seeded one of many companies)."""

    id = "contacts.company_of"
    difficulty = 4
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        # not a colleague: their company goes with their work mail
        person = _person(world, rng, group=lambda g: g != "同事")
        company, other = rng.sample(TASK_COMPANIES, 2)
        return {"id": person["id"], "name": person["name"], "company": company,
                "other_company": other}  # fmt: skip

    def setup(self, it: Interaction, params: Params) -> None:
        for contact in it.data["contacts"]:
            if contact["id"] == params["id"]:
                contact["company"] = params["company"]

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        name = params["name"]
        return phrased(
            zh=[f"{name}在哪家公司工作？", f"查一下通讯录里{name}的公司", f"{name}是哪个单位的？"],
            en=[f"Which company does {name} work for?", f"Check {name}'s company in Contacts",
                f"Where does {name} work?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        contacts = diff.before["apps"][CONTACTS]["contacts"]
        company = next(c["company"] for c in contacts if c["id"] == params["id"])
        others = {c["company"] for c in contacts} | set(TASK_COMPANIES)
        return Text([company], others=filter(None, others - {company}), what="company")

    def wrong_answer(self, params: Params) -> str:
        return params["other_company"]

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        # Search by pinyin, as people type on a Latin keyboard.
        yield from search_contact(ui, params["id"], pinyin(params["name"]).replace(" ", ""))
        node = ui.find("company")
        yield Answer(text=node.text if node else "")


class CountGroup(ContactsTemplate):
    """The size of one group (this task's own: a seeded part of the group stays in it, or
    some ungrouped contacts join it)."""

    id = "contacts.count_group"
    difficulty = 3
    answers = True

    def sample(self, world: World, rng: random.Random) -> Params:
        group = rng.choice(GROUPS)
        roster = _roster(world)
        members = [c["id"] for c in roster if c["group"] == group]
        ungrouped = [c["id"] for c in roster if not c["group"]]
        count = rng.randint(1, len(members) + len(ungrouped))
        if count <= len(members):
            chosen = rng.sample(members, count)
        else:
            chosen = members + rng.sample(ungrouped, count - len(members))
        return {"group": group, "count": count, "members": sorted(chosen)}

    def setup(self, it: Interaction, params: Params) -> None:
        for contact in it.data["contacts"]:
            if contact["id"] in params["members"]:
                contact["group"] = params["group"]
            elif contact["group"] == params["group"]:
                contact["group"] = ""

    def phrasings(self, params: Params) -> tuple[Instruction, ...]:
        group = params["group"]
        return phrased(
            zh=[f"通讯录的“{group}”群组里有几位联系人？", f"数一下“{group}”这个群组有多少人",
                f"我的“{group}”分组里一共存了几个联系人？"],
            en=[f"How many contacts are in the group '{group}'?",
                f"Count the contacts in the '{group}' group",
                f"How many people do I have in my '{group}' group?"],
        )  # fmt: skip

    def expected_answer(self, diff: StateDiff, params: Params) -> Expectation:
        contacts = diff.before["apps"][CONTACTS]["contacts"]
        return Number(sum(c["group"] == params["group"] for c in contacts), unit="位")

    def wrong_answer(self, params: Params) -> str:
        return str(params["count"] + 1)

    def solve(self, ui: OracleUI, params: Params) -> Iterator[Action]:
        yield ui.open("联系人")
        yield ui.tap("tab_groups")
        yield ui.tap(text=params["group"])
        title = ui.find("toolbar_title")
        count = re.search(r"（(\d+)）", title.text if title else "")
        if count is None:
            raise OracleError("the group page shows no member count")
        yield Answer(text=count.group(1))


TEMPLATES: tuple[TaskTemplate, ...] = (
    AddContact(),
    AddContactWithDetails(),
    EditPhone(),
    DeleteContact(),
    Favourite(),
    PhoneOf(),
    CompanyOf(),
    CountGroup(),
)
